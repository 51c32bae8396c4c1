import { describe, expect, it } from 'vitest';
import { displayApiName, displayThreadLabel } from '../../web/src/lib/display_names';

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

describe('displayThreadLabel', () => {
  it('says a Kineto thread name once', () => {
    expect(displayThreadLabel('Thread 25738 (thread 25738 (python))')).toBe('Thread 25738 (python)');
    expect(displayThreadLabel('Thread 25738 (thread 25738 (python)) HGGC API')).toBe('Thread 25738 (python) HGGC API');
    expect(displayThreadLabel('Thread 7 (thread 7)')).toBe('Thread 7');
  });
  it('keeps a label whose name is not the thread again', () => {
    expect(displayThreadLabel('Thread 1050790 (python3)')).toBe('Thread 1050790 (python3)');
    expect(displayThreadLabel('Thread 5 (thread 6 (x))')).toBe('Thread 5 (thread 6 (x))');
  });
});
