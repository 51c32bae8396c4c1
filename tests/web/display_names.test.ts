import { describe, expect, it } from 'vitest';
import { displayApiName } from '../../web/src/lib/display_names';

describe('displayApiName', () => {
  it('drops the CUPTI version tag of an nsys API name', () => {
    // Names as nsys-ai/h100_2gpu_1s.sqlite's StringIds hold them.
    expect(displayApiName('cudaMemcpyAsync_v3020')).toBe('cudaMemcpyAsync');
    expect(displayApiName('cudaLaunchKernel_v7000')).toBe('cudaLaunchKernel');
    expect(displayApiName('cudaGraphInstantiate_v10000')).toBe('cudaGraphInstantiate');
  });
  it('leaves any other name alone', () => {
    expect(displayApiName('cuMemcpyHtoD_v2')).toBe('cuMemcpyHtoD_v2'); // the driver's own name
    expect(displayApiName('void kernel_v1234<float>(int)')).toBe('void kernel_v1234<float>(int)');
    expect(displayApiName('hggcLaunchKernel')).toBe('hggcLaunchKernel');
    expect(displayApiName('_v3020')).toBe('_v3020');
  });
});
