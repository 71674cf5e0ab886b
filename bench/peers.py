"""Peers of tile-bench, measured the same way in the same run: PyTorch's
calls and Triton kernels (the tutorials' vector add and softmax; for the
matmul, the tutorial's grouped-ordering kernel autotuned over its strongest
configurations). Inputs are torch.randn, as tile-bench draws them; times are
triton.testing.do_bench medians (and 20%/80% quantiles), which clear the L2
cache before each run. One JSON object per line."""
import argparse
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


def matmul_configs():
    """The tutorial's configurations for Hopper and Ampere plus the largest
    tiles (128x256x64 and 256x128x64, 8 warps, 3 stages)."""
    shapes = [(128, 256, 64, 8, 3), (256, 128, 64, 8, 3), (64, 256, 32, 4, 4),
              (128, 128, 32, 4, 4), (128, 64, 32, 4, 4), (64, 128, 32, 4, 4),
              (128, 128, 64, 4, 3), (128, 32, 32, 4, 4), (64, 32, 32, 2, 5),
              (32, 64, 32, 2, 5), (128, 128, 32, 8, 3), (64, 64, 32, 4, 4)]
    return [triton.Config({"BM": m, "BN": n, "BK": k, "GROUP_M": 8},
                          num_warps=w, num_stages=s) for m, n, k, w, s in shapes]


@triton.jit
def grouped_tile(M, N, BM: tl.constexpr, BN: tl.constexpr,
                 GROUP_M: tl.constexpr):
    """This program's output tile (pid_m, pid_n) in the tutorial's grouped
    ordering: GROUP_M rows of tiles at a time, for L2 reuse."""
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BM)
    num_n = tl.cdiv(N, BN)
    group = GROUP_M * num_n
    first_m = (pid // group) * GROUP_M
    size_m = min(num_m - first_m, GROUP_M)
    pid_m = first_m + (pid % group) % size_m
    pid_n = (pid % group) // size_m
    return pid_m, pid_n


@triton.autotune(configs=matmul_configs(),
                 key=["M", "N", "K", "TF32", "sam", "sak", "sbk", "sbn"])
@triton.jit
def matmul_relu_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, ldc,
                       BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                       GROUP_M: tl.constexpr, TF32: tl.constexpr):
    # The tutorial's matmul (grouped ordering for L2 reuse) with ReLU.
    pid_m, pid_n = grouped_tile(M, N, BM, BN, GROUP_M)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        ka = k + rk
        a = tl.load(a_ptr + rm[:, None] * sam + ka[None, :] * sak,
                    mask=(rm[:, None] < M) & (ka[None, :] < K), other=0.0)
        b = tl.load(b_ptr + ka[:, None] * sbk + rn[None, :] * sbn,
                    mask=(ka[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision="tf32" if TF32 else "ieee")
    c = tl.maximum(acc, 0.0).to(c_ptr.dtype.element_ty)
    tl.store(c_ptr + rm[:, None] * ldc + rn[None, :], c,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.autotune(configs=matmul_configs(), key=["M", "N", "K"])
@triton.jit
def linear_kernel(x_ptr, w_ptr, bias_ptr, r_ptr, y_ptr, M, N, K,
                  ldx, ldw, ldr, ldy, BM: tl.constexpr, BN: tl.constexpr,
                  BK: tl.constexpr, GROUP_M: tl.constexpr):
    # examples/linear.tile in Triton: relu(x @ w.T + bias) + r, grouped.
    pid_m, pid_n = grouped_tile(M, N, BM, BN, GROUP_M)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        ka = k + rk
        x = tl.load(x_ptr + rm[:, None] * ldx + ka[None, :],
                    mask=(rm[:, None] < M) & (ka[None, :] < K), other=0.0)
        w = tl.load(w_ptr + rn[:, None] * ldw + ka[None, :],
                    mask=(rn[:, None] < N) & (ka[None, :] < K), other=0.0)
        acc = tl.dot(x, tl.trans(w), acc)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    b = tl.load(bias_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)
    r = tl.load(r_ptr + rm[:, None] * ldr + rn[None, :], mask=mask,
                other=0.0).to(tl.float32)
    y = tl.maximum(acc + b[None, :], 0.0) + r
    tl.store(y_ptr + rm[:, None] * ldy + rn[None, :], y.to(tl.float16),
             mask=mask)


LAYERNORM_EPS = 1e-5


# Triton's layer-norm tutorial (python/tutorials/05-layer-norm.py), as written.
@triton.jit
def _tri_fwd(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y, mask=mask)


@triton.jit
def _tri_bwd_dx(DX, DY, DW, DB, X, W, Mean, Rstd, Lock, stride, N,
                GROUP_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    mask = cols < N
    X += row * stride
    DY += row * stride
    DX += row * stride
    lock_id = row % GROUP_SIZE_M
    Lock += lock_id
    Count = Lock + GROUP_SIZE_M
    DW = DW + lock_id * N + cols
    DB = DB + lock_id * N + cols
    x = tl.load(X + cols, mask=mask, other=0).to(tl.float32)
    dy = tl.load(DY + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    xhat = (x - mean) * rstd
    wdy = w * dy
    xhat = tl.where(mask, xhat, 0.)
    wdy = tl.where(mask, wdy, 0.)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + cols, dx, mask=mask)
    partial_dw = (dy * xhat).to(w.dtype)
    partial_db = (dy).to(w.dtype)
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    count = tl.load(Count)
    if count == 0:
        tl.atomic_xchg(Count, 1)
    else:
        partial_dw += tl.load(DW, mask=mask)
        partial_db += tl.load(DB, mask=mask)
    tl.store(DW, partial_dw, mask=mask)
    tl.store(DB, partial_db, mask=mask)
    tl.atomic_xchg(Lock, 0)


@triton.jit
def _tri_bwd_dwdb(DW, DB, FINAL_DW, FINAL_DB, M, N,
                  BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    dw = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for i in range(0, M, BLOCK_SIZE_M):
        rows = i + tl.arange(0, BLOCK_SIZE_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        offs = rows[:, None] * N + cols[None, :]
        dw += tl.load(DW + offs, mask=mask, other=0.)
        db += tl.load(DB + offs, mask=mask, other=0.)
    sum_dw = tl.sum(dw, axis=0)
    sum_db = tl.sum(db, axis=0)
    tl.store(FINAL_DW + cols, sum_dw, mask=cols < N)
    tl.store(FINAL_DB + cols, sum_db, mask=cols < N)


def layernorm_triton_forward(x, w, b):
    m, n = x.shape
    y = torch.empty_like(x)
    mean = torch.empty(m, device=x.device, dtype=torch.float32)
    rstd = torch.empty(m, device=x.device, dtype=torch.float32)
    block = min(65536 // x.element_size(), triton.next_power_of_2(n))
    warps = min(max(block // 256, 1), 8)
    return (lambda: _tri_fwd[(m,)](x, y, w, b, mean, rstd, x.stride(0), n, LAYERNORM_EPS,
                                   BLOCK_SIZE=block, num_warps=warps),
            y, mean, rstd)


def layernorm_triton_backward(dy, x, w, mean, rstd):
    m, n = x.shape
    group = 64 if n <= 8192 else 32
    if n <= 4096:
        group = 96
    if n <= 1024:
        group = 128
    block = min(65536 // x.element_size(), triton.next_power_of_2(n))
    warps = min(max(block // 256, 1), 8)
    locks = torch.zeros(2 * group, dtype=torch.int32, device=x.device)
    dw_part = torch.zeros((group, n), dtype=x.dtype, device=x.device)
    db_part = torch.zeros((group, n), dtype=x.dtype, device=x.device)
    dw = torch.empty((n,), dtype=w.dtype, device=w.device)
    db = torch.empty((n,), dtype=w.dtype, device=w.device)
    dx = torch.empty_like(dy)

    def call():
        # The tutorial's buffers start from zero on every call.
        locks.zero_()
        _tri_bwd_dx[(m,)](dx, dy, dw_part, db_part, x, w, mean, rstd, locks,
                          x.stride(0), n, GROUP_SIZE_M=group,
                          BLOCK_SIZE_N=block, num_warps=warps)
        _tri_bwd_dwdb[(triton.cdiv(n, 128),)](dw_part, db_part, dw, db,
                                              min(group, m), n,
                                              BLOCK_SIZE_M=32,
                                              BLOCK_SIZE_N=128)
    return call, dx, dw, db


def layernorm_shapes():
    """tile-bench's layer-norm shapes: (rows, cols, dtype)."""
    return [(8192, n, dt) for n in (1024, 4096, 8192)
            for dt in (torch.float32, torch.float16)]


def layernorms():
    """PyTorch's layer_norm forward and native backward, and Triton's
    tutorial kernels, on tile-bench's shapes (bytes counted as there)."""
    for m, n, dtype in layernorm_shapes():
        x = torch.randn(m, n, device="cuda", dtype=dtype)
        w = torch.rand(n, device="cuda", dtype=dtype) + 0.5
        b = torch.randn(n, device="cuda", dtype=dtype)
        dy = torch.randn(m, n, device="cuda", dtype=dtype)
        size = x.element_size()
        shape = "%dx%d %s" % (m, n, "f16" if size == 2 else "f32")
        _, mean, rstd = torch.ops.aten.native_layer_norm(x, (n,), w, b,
                                                         LAYERNORM_EPS)
        emit("torch", "layernorm_fwd", shape, timing(
            lambda: torch.nn.functional.layer_norm(x, (n,), w, b, LAYERNORM_EPS)),
            2 * m * n * size)
        emit("torch", "layernorm_bwd", shape, timing(
            lambda: torch.ops.aten.native_layer_norm_backward(
                dy, x, (n,), mean, rstd, w, b, [True, True, True])),
            3 * m * n * size)
        fwd = layernorm_triton_forward(x, w, b)[0]
        emit("triton", "layernorm_fwd", shape, timing(fwd), 2 * m * n * size)
        bwd = layernorm_triton_backward(dy, x, w, mean, rstd)[0]
        emit("triton", "layernorm_bwd", shape, timing(bwd), 3 * m * n * size)


def timing(fn):
    """do_bench's median and 20%/80% quantiles (ms), L2 cleared per run."""
    p20, median, p80 = triton.testing.do_bench(fn, quantiles=[0.2, 0.5, 0.8])
    return {"ms": median, "ms_p20": p20, "ms_p80": p80}


def emit_flops(impl, kernel, shape, t, flops):
    print(json.dumps({"impl": impl, "kernel": kernel, "shape": shape, **t,
                      "tflops": flops / t["ms"] / 1e9}), flush=True)


def matmul_cases():
    """tile-bench's matmul cases: (variant, m, n, k, order); order "NN" is
    the example, "NT" B given N x K (x @ W.T), "TN" A given K x M; the
    last, x @ W.T at 4095^3, has rows aligned only to the element."""
    cases = [("f16", 1024, 1024, 1024, "NN"), ("f16", 4096, 4096, 4096, "NN"),
             ("f16", 8192, 8192, 8192, "NN"), ("bf16", 4096, 4096, 4096, "NN"),
             ("bf16", 8192, 8192, 8192, "NN"), ("f32", 4096, 4096, 4096, "NN"), ("tf32", 4096, 4096, 4096, "NN"),
             ("f16", 3000, 3000, 3000, "NN")]
    for variant in ("f16", "bf16", "tf32", "f32"):
        for order in ("NT", "TN", "TT"):
            cases.append((variant, 4096, 4096, 4096, order))
    # Rows aligned only to the element: no 16-byte copies for anyone.
    cases.append(("f16", 4095, 4095, 4095, "NT"))
    return cases


def matmuls(filters=()):
    """matmul+ReLU: PyTorch's faster of relu(a @ b) and mm + in-place relu
    (on transposed views where an operand is stored transposed), and the
    autotuned grouped Triton kernel reading through the same strides."""
    dtypes = {"f16": torch.float16, "bf16": torch.bfloat16,
              "f32": torch.float32, "tf32": torch.float32}
    for variant, m, n, k, order in matmul_cases():
        name = "matmul_" + variant + ("" if order == "NN" else "_" + order)
        if filters and not any(f in name for f in filters):
            continue
        dt = dtypes[variant]
        # Stored as the order says; a and b are the logical M x K, K x N.
        a = (torch.randn(k, m, device="cuda").to(dt).T if order[0] == "T"
             else torch.randn(m, k, device="cuda").to(dt))
        b = (torch.randn(n, k, device="cuda").to(dt).T if order[1] == "T"
             else torch.randn(k, n, device="cuda").to(dt))
        c = torch.empty(m, n, device="cuda", dtype=dt)
        torch.backends.cuda.matmul.allow_tf32 = variant == "tf32"
        shape = f"{m}x{n}x{k}"
        flops = 2.0 * m * n * k
        torch_calls = [lambda: torch.relu(a @ b),
                       lambda: torch.mm(a, b, out=c).relu_()]
        emit_flops("torch", name, shape,
                   min((timing(f) for f in torch_calls), key=lambda t: t["ms"]),
                   flops)

        def grid(meta):
            return (triton.cdiv(m, meta["BM"]) * triton.cdiv(n, meta["BN"]),)
        def triton_call():
            matmul_relu_kernel[grid](a, b, c, m, n, k, a.stride(0),
                                     a.stride(1), b.stride(0), b.stride(1), n,
                                     TF32=variant == "tf32")
        triton_call()  # the autotuner times its configurations here
        emit_flops("triton", name, shape, timing(triton_call),
                   flops)
        del a, b, c
    torch.backends.cuda.matmul.allow_tf32 = False


def linears():
    """examples/linear.tile's relu(x @ w.T + bias) + r: PyTorch's faster of
    relu(F.linear) + r and addmm + in-place relu and add, and the Triton
    kernel with the same loads."""
    for m, n, k in [(4096, 4096, 4096), (8192, 1000, 3000)]:
        x = torch.randn(m, k, device="cuda").half()
        w = torch.randn(n, k, device="cuda").half()
        bias = torch.randn(n, device="cuda").half()
        r = torch.randn(m, n, device="cuda").half()
        y = torch.empty(m, n, device="cuda", dtype=torch.float16)
        shape = f"{m}x{n}x{k}"
        flops = 2.0 * m * n * k
        torch_calls = [
            lambda: torch.relu(torch.nn.functional.linear(x, w, bias)) + r,
            lambda: torch.addmm(bias, x, w.T, out=y).relu_().add_(r)]
        emit_flops("torch", "linear", shape,
                   min((timing(f) for f in torch_calls), key=lambda t: t["ms"]),
                   flops)

        def grid(meta):
            return (triton.cdiv(m, meta["BM"]) * triton.cdiv(n, meta["BN"]),)
        def triton_call():
            linear_kernel[grid](x, w, bias, r, y, m, n, k, k, k, n, n)
        triton_call()
        emit_flops("triton", "linear", shape, timing(triton_call), flops)


def emit(impl, kernel, shape, t, nbytes, extra=None):
    """One JSON line: the timing `t`, GB/s for `nbytes` moved, and `extra`."""
    print(json.dumps({"impl": impl, "kernel": kernel, "shape": shape, **t,
                      "gbps": nbytes / t["ms"] / 1e6, **(extra or {})}),
          flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only",
                        default="vector_add,softmax,dropout,layernorm,matmul,linear,launch",
                        help="comma-separated benchmarks to run")
    parser.add_argument("--matmul-filter", default="",
                        help="time only the matmul cases whose name contains "
                             "one of these comma-separated strings")
    args = parser.parse_args()
    only = args.only.split(",")
    filters = [f for f in args.matmul_filter.split(",") if f]
    props = torch.cuda.get_device_properties(0)
    print(json.dumps({"impl": "peers", "machine": {
        "device": props.name, "sms": props.multi_processor_count,
        "torch": torch.__version__, "triton": triton.__version__,
        "cuda": torch.version.cuda}}), flush=True)
    if "vector_add" in only:
        vector_adds()
    if "softmax" in only:
        softmaxes()
    if "dropout" in only:
        dropouts()
    if "layernorm" in only:
        layernorms()
    if "matmul" in only:
        matmuls(filters)
    if "linear" in only:
        linears()
    if "launch" in only:
        launches()


def vector_adds():
    for n in [2**20, 2**24, 2**26 + 3, 2**28]:
        x = torch.randn(n, device="cuda")
        y = torch.randn(n, device="cuda")
        out = torch.empty_like(x)
        emit("torch", "vector_add", str(n),
             timing(lambda: torch.add(x, y, out=out)), 12.0 * n)
        grid = (triton.cdiv(n, 1024),)
        emit("triton", "vector_add", str(n),
             timing(lambda: add_kernel[grid](x, y, out, n, BLOCK=1024)), 12.0 * n)
        del x, y, out


@triton.autotune(configs=[triton.Config({"BLOCK": b}, num_warps=w)
                          for b in (1024, 2048, 4096) for w in (4, 8)],
                 key=["n"])
@triton.jit
def seeded_dropout_kernel(x_ptr, out_ptr, n, p, seed, BLOCK: tl.constexpr):
    # Triton's low-memory dropout tutorial.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    keep = tl.rand(seed, offs) > p
    tl.store(out_ptr + offs, tl.where(keep, x / (1 - p), 0.0), mask=mask)


def dropouts():
    # Bytes of the task (x read, out written) for every implementation;
    # PyTorch's dropout also writes its mask (one byte per element).
    for n in [2**24, 2**26 + 3]:
        x = torch.randn(n, device="cuda")
        out = torch.empty_like(x)
        emit("torch", "dropout", str(n),
             timing(lambda: torch.nn.functional.dropout(x, 0.5, True)),
             8.0 * n)
        grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)
        emit("triton", "dropout", str(n),
             timing(lambda: seeded_dropout_kernel[grid](x, out, n, 0.5, 123)),
             8.0 * n)
        del x, out


def softmaxes():
    for rows, cols in [(8192, 1024), (8192, 4096), (4096, 16384), (16384, 781)]:
        x = torch.randn(rows, cols, device="cuda")
        out = torch.empty_like(x)
        block = triton.next_power_of_2(cols)
        warps = 16 if block >= 8192 else 8 if block >= 2048 else 4
        shape = f"{rows}x{cols}"
        emit("torch", "softmax", shape,
             timing(lambda: torch.softmax(x, dim=1, out=out)), 8.0 * rows * cols)
        emit("triton", "softmax", shape,
             timing(lambda: softmax_kernel[(rows,)](out, x, cols, cols,
                                                       BLOCK=block, num_warps=warps)),
             8.0 * rows * cols)


def launches():
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
