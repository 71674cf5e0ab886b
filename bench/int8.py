"""int8 linear with per-row and per-column scales (W8A8 inference):
Y = (X @ W^T) * xs[:, None] * ws[None, :] in f16, X M x K and W N x K
(nn.Linear's weight) in i8, i32 sums. examples/linear_int8.tile from
tile's Python package (best of its block configurations), PyTorch's fastest
call (torch._int_mm, cuBLAS's int8 GEMM, then the scales; eager and
torch.compile of the same expression) and a Triton kernel with the same
loads and epilogue (autotuned, grouped ordering), timed as bench/peers.py
does (do_bench medians, L2 cleared per run) on the same random inputs.
Every output is first checked against the exact i32 product scaled in
fp64. TOPS count 2 M N K. JSON lines on stdout; run on the GPU machine:

    python3 bench/int8.py > int8.jsonl
"""
import json
import os
import sys

import torch
import triton
import triton.language as tl

HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, "..", "python"))
import tile  # noqa: E402
from peers import emit_flops, grouped_tile, timing  # noqa: E402

# (BM, BN, BK, warps, stages): the largest tiles at BK 64 and 128, with 3
# and 4 stages (on sm_90a tile keeps warpgroup MMAs in flight across
# iterations only with 4), and smaller ones for small problems.
SHAPES = [(128, 256, 128, 8, 3), (256, 128, 128, 8, 3), (128, 256, 64, 8, 3),
          (256, 128, 64, 8, 3), (128, 256, 128, 8, 4), (128, 256, 64, 8, 4),
          (128, 128, 128, 8, 4), (128, 128, 128, 8, 3), (128, 128, 128, 4, 4),
          (128, 128, 64, 4, 4), (64, 128, 128, 4, 4), (128, 64, 128, 4, 4)]


@triton.autotune(configs=[
    triton.Config({"BM": m, "BN": n, "BK": k, "GROUP_M": 8}, num_warps=w,
                  num_stages=s) for m, n, k, w, s in SHAPES],
    key=["M", "N", "K"])
@triton.jit
def triton_linear_int8(x_ptr, w_ptr, xs_ptr, ws_ptr, y_ptr, M, N, K,
                       ldx, ldw, ldy, BM: tl.constexpr, BN: tl.constexpr,
                       BK: tl.constexpr, GROUP_M: tl.constexpr):
    pid_m, pid_n = grouped_tile(M, N, BM, BN, GROUP_M)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.int32)
    for k in range(0, K, BK):
        ka = k + rk
        x = tl.load(x_ptr + rm[:, None] * ldx + ka[None, :],
                    mask=(rm[:, None] < M) & (ka[None, :] < K), other=0)
        w = tl.load(w_ptr + rn[:, None] * ldw + ka[None, :],
                    mask=(rn[:, None] < N) & (ka[None, :] < K), other=0)
        acc = tl.dot(x, tl.trans(w), acc, out_dtype=tl.int32)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    sx = tl.load(xs_ptr + rm, mask=rm < M, other=0.0)
    sw = tl.load(ws_ptr + rn, mask=rn < N, other=0.0)
    y = acc.to(tl.float32) * sx[:, None] * sw[None, :]
    tl.store(y_ptr + rm[:, None] * ldy + rn[None, :], y.to(tl.float16),
             mask=mask)


def torch_linear_int8(x, w, xs, ws):
    return (torch._int_mm(x, w.T).float() * xs[:, None] * ws[None, :]).half()


def best_of(calls):
    """The fastest of (timing, label) over `calls` (label -> callable)."""
    best = None
    for label, call in calls.items():
        t = timing(call)
        if best is None or t["ms"] < best[0]["ms"]:
            best = (t, label)
    return best


def main():
    print(json.dumps({"impl": "int8", "machine": {
        "device": torch.cuda.get_device_name(), "tile": tile.version(),
        "torch": torch.__version__, "triton": triton.__version__}}),
        flush=True)
    example = os.path.join(HERE, "..", "examples", "linear_int8.tile")
    mods = {(m, n, k, w, s): tile.compile(example, num_warps=w, num_stages=s,
                                          BM=m, BN=n, BK=k)
            for m, n, k, w, s in SHAPES}
    compiled = torch.compile(torch_linear_int8)
    for m, n, k in [(4096, 4096, 4096), (8192, 8192, 8192), (2000, 3000, 1000)]:
        torch.manual_seed(0)
        x = torch.randint(-128, 128, (m, k), device="cuda", dtype=torch.int8)
        w = torch.randint(-128, 128, (n, k), device="cuda", dtype=torch.int8)
        xs = torch.rand(m, device="cuda") * 3e-3 + 1e-3
        ws = torch.rand(n, device="cuda") * 3e-3 + 1e-3
        exact = (x.double() @ w.double().T) * xs.double()[:, None] \
            * ws.double()[None, :]
        shape = "%dx%dx%d" % (m, n, k)
        flops = 2.0 * m * n * k

        def check(y, who):
            err = ((y.double() - exact).abs()
                   - exact.abs() * 2.0 ** -10).max().item()
            assert err <= 2.0 ** -24, "%s differs from the exact result " \
                "by %g beyond f16 rounding" % (who, err)

        calls = {}
        for (bm, bn, bk, nw, ns), mod in mods.items():
            y = torch.empty(m, n, device="cuda", dtype=torch.float16)
            grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn),)
            call = (lambda mod=mod, y=y, grid=grid: mod.linear_int8[grid](
                x, w, xs, ws, y, m, n, k, k, k, n))
            call()
            check(y, "tile %dx%dx%d" % (bm, bn, bk))
            calls["%dx%dx%d warps=%d stages=%d" % (bm, bn, bk, nw, ns)] = call
        t, label = best_of(calls)
        emit_flops("tile-py", "linear_int8", shape, t, flops)
        print(json.dumps({"impl": "tile-py", "kernel": "linear_int8",
                          "shape": shape, "config": label}), flush=True)

        check(torch_linear_int8(x, w, xs, ws), "torch")
        check(compiled(x, w, xs, ws), "torch.compile")
        t, label = best_of({
            "eager": lambda: torch_linear_int8(x, w, xs, ws),
            "compile": lambda: compiled(x, w, xs, ws),
            "_int_mm alone": lambda: torch._int_mm(x, w.T)})
        emit_flops("torch", "linear_int8", shape, t, flops)
        print(json.dumps({"impl": "torch", "kernel": "linear_int8",
                          "shape": shape, "config": label}), flush=True)

        ty = torch.empty(m, n, device="cuda", dtype=torch.float16)

        def tgrid(meta):
            return (triton.cdiv(m, meta["BM"]) * triton.cdiv(n, meta["BN"]),)
        tcall = lambda: triton_linear_int8[tgrid](x, w, xs, ws, ty, m, n, k,
                                                  k, k, n)
        tcall()
        check(ty, "triton")
        emit_flops("triton", "linear_int8", shape, timing(tcall), flops)
        del x, w, exact


if __name__ == "__main__":
    main()
