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


@triton.jit
def matmul_relu_kernel(a_ptr, b_ptr, c_ptr, M, N, K, lda, ldb, ldc,
                       BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                       TF32: tl.constexpr):
    # The tutorial's matmul without grouped ordering, as matmul_relu.tile.
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        ka = k + rk
        a = tl.load(a_ptr + rm[:, None] * lda + ka[None, :],
                    mask=(rm[:, None] < M) & (ka[None, :] < K), other=0.0)
        b = tl.load(b_ptr + ka[:, None] * ldb + rn[None, :],
                    mask=(ka[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision="tf32" if TF32 else "ieee")
    c = tl.maximum(acc, 0.0).to(c_ptr.dtype.element_ty)
    tl.store(c_ptr + rm[:, None] * ldc + rn[None, :], c,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


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


def emit_flops(impl, kernel, shape, ms, flops):
    print(json.dumps({"impl": impl, "kernel": kernel, "shape": shape,
                      "ms": ms, "tflops": flops / ms / 1e9}), flush=True)


def matmuls():
    """matmul+ReLU: torch.relu(a @ b) and the Triton kernel with the same
    tiles as tile-bench (128x128x32, 4 warps, 3 stages)."""
    dtypes = {"f16": torch.float16, "bf16": torch.bfloat16,
              "f32": torch.float32, "tf32": torch.float32}
    for variant, m, n, k in [("f16", 1024, 1024, 1024), ("f16", 4096, 4096, 4096),
                             ("f16", 8192, 8192, 8192), ("bf16", 4096, 4096, 4096),
                             ("f32", 4096, 4096, 4096), ("tf32", 4096, 4096, 4096)]:
        dt = dtypes[variant]
        a = torch.randn(m, k, device="cuda").to(dt)
        b = torch.randn(k, n, device="cuda").to(dt)
        c = torch.empty(m, n, device="cuda", dtype=dt)
        torch.backends.cuda.matmul.allow_tf32 = variant == "tf32"
        shape = f"{m}x{n}x{k}"
        flops = 2.0 * m * n * k
        emit_flops("torch", "matmul_" + variant, shape,
                   median_ms(lambda: torch.relu(a @ b)), flops)
        grid = (triton.cdiv(m, 128), triton.cdiv(n, 128))
        emit_flops("triton", "matmul_" + variant, shape,
                   median_ms(lambda: matmul_relu_kernel[grid](
                       a, b, c, m, n, k, k, n, n, BM=128, BN=128, BK=32,
                       TF32=variant == "tf32", num_warps=4, num_stages=3)), flops)
        del a, b, c
    torch.backends.cuda.matmul.allow_tf32 = False


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
    matmuls()
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
