"""Layer norm forward and backward: examples/layernorm.tile from tile's
Python package, PyTorch's F.layer_norm (forward, and its backward through
its native backward kernel), and Triton's layer-norm tutorial kernels (forward; backward with
its lock-based partial sums and the final reduction), timed as
bench/peers.py does (do_bench medians, L2 cleared per run) on the same
random inputs. Each output is first checked against PyTorch's. GB/s count
the bytes a kernel must move: forward x read and y written (plus w, b,
mean, rstd), backward x and dy read and dx written (plus w, dw, db, mean,
rstd). JSON lines on stdout; run on the GPU machine:

    python3 bench/layernorm.py > layernorm.jsonl
    python3 bench/layernorm.py 8192x4096        # shapes as MxN
"""
import json
import os
import sys

import torch
import torch.nn.functional as F
import triton
import triton.language as tl

HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, "..", "python"))
import tile  # noqa: E402
from peers import timing  # noqa: E402

EPS = 1e-5


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


def triton_forward(x, w, b):
    m, n = x.shape
    y = torch.empty_like(x)
    mean = torch.empty(m, device=x.device, dtype=torch.float32)
    rstd = torch.empty(m, device=x.device, dtype=torch.float32)
    block = min(65536 // x.element_size(), triton.next_power_of_2(n))
    warps = min(max(block // 256, 1), 8)
    return (lambda: _tri_fwd[(m,)](x, y, w, b, mean, rstd, x.stride(0), n, EPS,
                                   BLOCK_SIZE=block, num_warps=warps),
            y, mean, rstd)


def triton_backward(dy, x, w, mean, rstd):
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


def tile_forward(mod, x, w, b):
    m, n = x.shape
    y = torch.full_like(x, float("nan"))
    mean = torch.empty(m, device=x.device, dtype=torch.float32)
    rstd = torch.empty(m, device=x.device, dtype=torch.float32)
    kernel = mod.layernorm_fwd_f16 if x.dtype == torch.float16 \
        else mod.layernorm_fwd
    return (lambda: kernel[(m,)](x, y, w, b, mean, rstd, n, EPS), y, mean,
            rstd)


def tile_backward(mod, dsum, dy, x, w, mean, rstd, rows_per_program):
    m, n = x.shape
    programs = triton.cdiv(m, rows_per_program)
    dx = torch.full_like(dy, float("nan"))
    dw_part = torch.empty((programs, n), device=x.device, dtype=torch.float32)
    db_part = torch.empty_like(dw_part)
    dw = torch.empty_like(w)
    db = torch.empty_like(w)
    half = x.dtype == torch.float16
    bwd = mod.layernorm_bwd_f16 if half else mod.layernorm_bwd
    final = dsum.layernorm_dwdb_f16 if half else dsum.layernorm_dwdb

    def call():
        bwd[(programs,)](dy, x, w, mean, rstd, dx, dw_part, db_part, m, n,
                         rows_per_program)
        final[(triton.cdiv(n, 64),)](dw_part, db_part, dw, db, programs, n)
    return call, dx, dw, db


def emit(impl, kernel, shape, t, nbytes, extra=None):
    print(json.dumps({"impl": impl, "kernel": kernel, "shape": shape, **t,
                      "gbps": nbytes / t["ms"] / 1e6, **(extra or {})}),
          flush=True)


def main():
    print(json.dumps({"impl": "layernorm", "machine": {
        "device": torch.cuda.get_device_name(), "tile": tile.version(),
        "torch": torch.__version__, "triton": triton.__version__}}),
        flush=True)
    example = os.path.join(HERE, "..", "examples", "layernorm.tile")
    shapes = [(8192, 1024), (8192, 4096), (8192, 8192), (4096, 3000)]
    if len(sys.argv) > 1:
        shapes = [tuple(int(x) for x in s.split("x")) for s in sys.argv[1:]]
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    dsum = tile.compile(example)
    for m, n in shapes:
        block = triton.next_power_of_2(n)
        warps = min(max(block // 256, 1), 8)
        mod = tile.compile(example, num_warps=warps, BLOCK=block)
        for dtype in (torch.float32, torch.float16):
            torch.manual_seed(0)
            x = torch.randn(m, n, device="cuda", dtype=dtype) * 2 + 1
            w = torch.rand(n, device="cuda", dtype=dtype) + 0.5
            b = torch.randn(n, device="cuda", dtype=dtype)
            dy = torch.randn(m, n, device="cuda", dtype=dtype)
            size = x.element_size()
            shape = "%dx%d %s" % (m, n, "f16" if size == 2 else "f32")
            tol = dict(atol=1e-2, rtol=1e-2) if size == 2 else \
                dict(atol=1e-4, rtol=1e-4)

            # Forward.
            want = F.layer_norm(x, (n,), w, b, EPS)
            call, y, mean, rstd = tile_forward(mod, x, w, b)
            call()
            torch.testing.assert_close(y, want, **tol)
            tcall, ty, _, _ = triton_forward(x, w, b)
            tcall()
            torch.testing.assert_close(ty, want, **tol)
            nbytes = 2 * m * n * size + 2 * n * size + 8 * m
            emit("tile-py", "layernorm_fwd", shape, timing(call), nbytes)
            emit("torch", "layernorm_fwd", shape,
                 timing(lambda: F.layer_norm(x, (n,), w, b, EPS)), nbytes)
            emit("triton", "layernorm_fwd", shape, timing(tcall), nbytes)

            # Backward: PyTorch's own kernel (aten.native_layer_norm_backward,
            # what autograd runs, without autograd's overhead) on its saved
            # statistics; both others are checked against it.
            _, tmean, trstd = torch.ops.aten.native_layer_norm(x, (n,), w, b,
                                                               EPS)
            torch_bwd = lambda: torch.ops.aten.native_layer_norm_backward(
                dy, x, (n,), tmean, trstd, w, b, [True, True, True])
            gx, gw, gb = torch_bwd()
            best = None
            for rows in sorted({max(1, m // (k * sms)) for k in (1, 2, 4, 8)}):
                bcall, dx, dw, db = tile_backward(mod, dsum, dy, x, w, mean,
                                                  rstd, rows)
                bcall()
                torch.testing.assert_close(dx, gx, **tol)
                torch.testing.assert_close(dw.float(), gw.float(), atol=0.5,
                                           rtol=2e-2 if size == 2 else 1e-4)
                torch.testing.assert_close(db.float(), gb.float(), atol=0.5,
                                           rtol=2e-2 if size == 2 else 1e-4)
                t = timing(bcall)
                if best is None or t["ms"] < best[0]["ms"]:
                    best = (t, rows)
            nbytes = 3 * m * n * size + 3 * n * size + 8 * m
            emit("tile-py", "layernorm_bwd", shape, best[0], nbytes,
                 {"rows_per_program": best[1]})
            emit("torch", "layernorm_bwd", shape, timing(torch_bwd), nbytes)
            tbcall, tdx, tdw, tdb = triton_backward(dy, x, w, mean, rstd)
            tbcall()
            torch.testing.assert_close(tdx, gx, **tol)
            emit("triton", "layernorm_bwd", shape, timing(tbcall), nbytes)
            del x, w, b, dy


if __name__ == "__main__":
    main()
