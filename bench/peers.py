"""Peers of tile-bench, measured the same way in the same run: PyTorch and
our own tutorial-style Triton kernels for vector add and softmax. Medians of
CUDA-event-timed runs after warm-up; one JSON object per line."""
import json
import time

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


@triton.jit
def softmax_kernel(out_ptr, in_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * stride + cols, mask=mask, other=-float("inf"))
    num = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * stride + cols, num / tl.sum(num, axis=0), mask=mask)


def median_ms(fn, warmup=10, reps=50):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(reps):
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    times.sort()
    return times[len(times) // 2]


def emit(impl, kernel, shape, ms, nbytes):
    print(json.dumps({"impl": impl, "kernel": kernel, "shape": shape,
                      "ms": ms, "gbps": nbytes / ms / 1e6}), flush=True)


def main():
    for n in [2**20, 2**24, 2**26 + 3, 2**28]:
        x = torch.zeros(n, device="cuda")
        y = torch.zeros(n, device="cuda")
        out = torch.empty_like(x)
        emit("torch", "vector_add", str(n),
             median_ms(lambda: torch.add(x, y, out=out)), 12.0 * n)
        grid = (triton.cdiv(n, 1024),)
        emit("triton", "vector_add", str(n),
             median_ms(lambda: add_kernel[grid](x, y, out, n, BLOCK=1024)), 12.0 * n)
        del x, y, out
    for rows, cols in [(8192, 1024), (8192, 4096), (4096, 16384), (16384, 781)]:
        x = torch.zeros(rows, cols, device="cuda")
        out = torch.empty_like(x)
        block = triton.next_power_of_2(cols)
        warps = 16 if block >= 8192 else 8 if block >= 2048 else 4
        shape = f"{rows}x{cols}"
        emit("torch", "softmax", shape,
             median_ms(lambda: torch.softmax(x, dim=1, out=out)), 8.0 * rows * cols)
        emit("triton", "softmax", shape,
             median_ms(lambda: softmax_kernel[(rows,)](out, x, cols, cols,
                                                       BLOCK=block, num_warps=warps)),
             8.0 * rows * cols)
    # Launch overhead in a host loop.
    b = torch.zeros(16, device="cuda")
    for impl, fn in [("torch", lambda: torch.add(b, b, out=b)),
                     ("triton", lambda: add_kernel[(1,)](b, b, b, 16, BLOCK=1024))]:
        for _ in range(100):
            fn()
        torch.cuda.synchronize()
        count = 20000
        t0 = time.perf_counter()
        for _ in range(count):
            fn()
        us = (time.perf_counter() - t0) / count * 1e6
        torch.cuda.synchronize()
        print(json.dumps({"impl": impl, "kernel": "launch_us",
                          "shape": "host loop", "us": us}), flush=True)


if __name__ == "__main__":
    main()
