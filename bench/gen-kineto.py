#!/usr/bin/env python3
"""Writes a synthetic Kineto-style Chrome trace (PyTorch profiler JSON) of
about SIZE_MB megabytes, laid out as libkineto writes it (pretty-printed, one
key group per line), for timing `asys import`. Deterministic: the same size
gives the same bytes.

Each step is a ProfilerStep user annotation over a repeated block of:
python_function frames, an aten op (cpu_op) launching a kernel through
cudaLaunchKernel with its ac2g flow pair, a memcpy and a memset now and
then, [memory] alloc/free instant events, and every 50th op an NCCL
AllReduce with record_param_comms metadata. Timestamps are microseconds with
nanosecond fractions, relative to baseTimeNanoseconds (given at the end, as
older libkineto versions do).

Usage: bench/gen-kineto.py OUT.json [SIZE_MB]
"""
import sys

KERNELS = [
    "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
    "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)",
    "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
    "at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, "
    "unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
    "at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, "
    "unsigned int, float, 4>)",
    "void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<64, 128, 128, 4, false, false, "
    "cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<64, 128, 128, 4, cutlass::bfloat16_t> >, false, true, "
    "false, false, true, true, false, false>(pytorch_flash::Flash_fwd_params)",
]
OPS = ["aten::fill_", "aten::mm", "aten::sum", "aten::_scaled_dot_product_flash_attention"]
NCCL = "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)"
PID, TID, DEVICE, STREAM, COMM_STREAM = 25286, 25286, 0, 7, 20
BASE = 1751410836000000000


def us(ns):
    return "%d.%03d" % (ns // 1000, ns % 1000)


def main():
    out = sys.argv[1]
    size = int(float(sys.argv[2]) * 1e6) if len(sys.argv) > 2 else 1_000_000_000
    t = 1_428_625_731_456_483  # ns since BASE
    ext = corr = ev = 0
    written = 0
    with open(out, "w") as f:
        def emit(text):
            nonlocal written
            f.write(text)
            written += len(text)

        emit('\n{\n  "schemaVersion": 1,\n  "deviceProperties": [\n    {\n'
             '      "id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85018279936,\n'
             '      "computeMajor": 9, "computeMinor": 0,\n      "maxThreadsPerBlock": 1024, '
             '"maxThreadsPerMultiprocessor": 2048,\n      "regsPerBlock": 65536, "warpSize": 32,\n'
             '      "sharedMemPerBlock": 49152, "numSms": 132\n    }\n  ],\n'
             '  "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 8},\n'
             '  "traceEvents": [')
        step = 0
        while written < size:
            parts = []
            step_start = t
            ext += 1
            step_ext = ext
            for op in range(400):
                k = op % len(KERNELS)
                cpu_start = t
                ext += 1
                ev += 1
                parts.append(
                    '\n  {\n    "ph": "X", "cat": "python_function", "name": "model.py(%d): forward", '
                    '"pid": %d, "tid": %d,\n    "ts": %s, "dur": %s,\n    "args": {\n'
                    '      "Python parent id": %d, "Python id": %d, "Ev Idx": %d\n    }\n  },'
                    % (100 + k, PID, TID, us(t), us(9000), ev - 1, ev, ev))
                t += 150
                parts.append(
                    '\n  {\n    "ph": "X", "cat": "cpu_op", "name": "%s", "pid": %d, "tid": %d,\n'
                    '    "ts": %s, "dur": %s,\n    "args": {\n      "External id": %d,'
                    '"Record function id": 0, "Concrete Inputs": ["", ""], "Input type": ["c10::BFloat16", '
                    '"c10::BFloat16"], "Input Strides": [[1024, 1], [1024, 1]], "Input Dims": [[16, 1024], '
                    '[1024, 1024]], "Ev Idx": %d\n    }\n  },'
                    % (OPS[k], PID, TID, us(t), us(6000), ext, ev))
                nccl = op % 50 == 49
                if nccl:
                    parts.append(
                        '\n  {\n    "ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": %d, '
                        '"tid": %d,\n    "ts": %s, "dur": %s,\n    "args": {\n      "External id": %d,'
                        '"Collective name": "allreduce", "In msg nelems": 1048576, "Out msg nelems": 1048576, '
                        '"Group size": 8, "dtype": "BFloat16", "Process Group Name": "0", '
                        '"Process Group Description": "default_pg", "Process Group Ranks": "[0, 1, 2, 3, 4, 5, 6, 7]", '
                        '"Rank": 0, "Ev Idx": %d\n    }\n  },' % (PID, TID, us(t + 200), us(4000), ext, ev))
                corr += 1
                launch = t + 1000
                parts.append(
                    '\n  {\n    "ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": %d, '
                    '"tid": %d,\n    "ts": %s, "dur": %s,\n    "args": {\n      "External id": %d,\n'
                    '      "cbid": 211, "correlation": %d\n    }\n  },\n  {\n    "ph": "s", "id": %d, "pid": %d, '
                    '"tid": %d, "ts": %s,\n    "cat": "ac2g", "name": "ac2g"\n  },'
                    % (PID, TID, us(launch), us(4321), ext, corr, corr, PID, TID, us(launch)))
                kstart = launch + 8000
                kdur = 3000 + 997 * k
                parts.append(
                    '\n  {\n    "ph": "X", "cat": "kernel", "name": "%s", "pid": %d, "tid": %d,\n'
                    '    "ts": %s, "dur": %s,\n    "args": {\n      "External id": %d,\n'
                    '      "queued": 0, "device": %d, "context": 1,\n      "stream": %d, "correlation": %d,\n'
                    '      "registers per thread": 128,\n      "shared memory": 49152,\n'
                    '      "blocks per SM": 1.939394,\n      "warps per SM": 15.515152,\n'
                    '      "grid": [256, 1, 1],\n      "block": [256, 1, 1],\n'
                    '      "est. achieved occupancy %%": 24\n    }\n  },\n  {\n    "ph": "f", "id": %d, '
                    '"pid": %d, "tid": %d, "ts": %s,\n    "cat": "ac2g", "name": "ac2g", "bp": "e"\n  },'
                    % (NCCL if nccl else KERNELS[k], DEVICE, COMM_STREAM if nccl else STREAM, us(kstart),
                       us(kdur), ext, DEVICE, COMM_STREAM if nccl else STREAM, corr, corr, DEVICE,
                       COMM_STREAM if nccl else STREAM, us(kstart)))
                if op % 20 == 0:
                    corr += 1
                    parts.append(
                        '\n  {\n    "ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", '
                        '"pid": %d, "tid": %d,\n    "ts": %s, "dur": %s,\n    "args": {\n      "External id": %d,\n'
                        '      "device": %d, "context": 1,\n      "stream": %d, "correlation": %d,\n'
                        '      "bytes": 92928, "memory bandwidth (GB/s)": 7.744\n    }\n  },'
                        % (DEVICE, STREAM, us(kstart + kdur + 500), us(12000), ext, DEVICE, STREAM, corr))
                    corr += 1
                    parts.append(
                        '\n  {\n    "ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": %d, '
                        '"tid": %d,\n    "ts": %s, "dur": %s,\n    "args": {\n      "External id": %d,\n'
                        '      "device": %d, "context": 1,\n      "stream": %d, "correlation": %d,\n'
                        '      "bytes": 20736, "memory bandwidth (GB/s)": 4.7299270072992705\n    }\n  },'
                        % (DEVICE, STREAM, us(kstart + kdur + 13000), us(1500), ext, DEVICE, STREAM, corr))
                if op % 4 == 0:
                    addr = 139926520725504 + (op % 64) * 4194304
                    for sign in (1, -1):
                        parts.append(
                            '\n  {\n    "ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]",\n'
                            '    "pid": %d, "tid": %d,\n    "ts": %s,\n    "args": {\n'
                            '      "Total Reserved": 2629828608, "Total Allocated": 1003059712, "Bytes": %d, '
                            '"Addr": %d, "Device Id": %d, "Device Type": 1, "Ev Idx": %d\n    }\n  },'
                            % (PID, TID, us(cpu_start + (300 if sign > 0 else 5500)), sign * 4194304, addr,
                               DEVICE, ev))
                t = cpu_start + 9500
            parts.append(
                '\n  {\n    "ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d", "pid": %d, '
                '"tid": %d,\n    "ts": %s, "dur": %s,\n    "args": {\n      "External id": %d,'
                '"Record function id": 0, "Ev Idx": %d\n    }\n  },'
                % (step, PID, TID, us(step_start), us(t - step_start), step_ext, ev))
            step += 1
            emit("".join(parts))
        emit('\n  {\n    "name": "process_name", "ph": "M", "ts": %s, "pid": %d, "tid": 0,\n'
             '    "args": {\n      "name": "python3"\n    }\n  },\n  {\n'
             '    "name": "Record Window End", "ph": "i", "s": "g",\n    "pid": "", "tid": "", "ts": %s\n  }\n'
             '],\n  "traceName": "%s",\n  "displayTimeUnit": "ms",\n  "baseTimeNanoseconds": %d\n}'
             % (us(1_428_625_731_456_483), PID, us(t), out, BASE))


if __name__ == "__main__":
    main()
