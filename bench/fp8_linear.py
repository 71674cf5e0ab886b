"""fp8 linear with per-row and per-column scales (FP8 inference):
Y = (X @ W^T) * xs[:, None] * ws[None, :] in f16, X M x K and W N x K
(nn.Linear's weight) in f8e4m3, f32 sums. examples/linear_fp8.tile from
tile's Python package (best of its block configurations), PyTorch's fastest
call (torch._scaled_mm, cuBLASLt's fp8 GEMM, with and without fast
accumulation: row-wise scales with its bf16 output, or unit scales then the
scales applied; eager and torch.compile of the same expression) and a Triton kernel with the same loads and epilogue
(autotuned, grouped ordering), timed as bench/peers.py does (do_bench
medians, L2 cleared per run) on the same random inputs. Every output is
first checked against the fp64 product of the same fp8 values. TFLOP/s
count 2 M N K. JSON lines on stdout; run on the GPU machine:

    python3 bench/fp8_linear.py > fp8_linear.jsonl
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
from int8 import SHAPES, best_of  # noqa: E402


@triton.autotune(configs=[
    triton.Config({"BM": m, "BN": n, "BK": k, "GROUP_M": 8}, num_warps=w,
                  num_stages=s) for m, n, k, w, s in SHAPES],
    key=["M", "N", "K"])
@triton.jit
def triton_linear_fp8(x_ptr, w_ptr, xs_ptr, ws_ptr, y_ptr, M, N, K,
                      ldx, ldw, ldy, BM: tl.constexpr, BN: tl.constexpr,
                      BK: tl.constexpr, GROUP_M: tl.constexpr):
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
    sx = tl.load(xs_ptr + rm, mask=rm < M, other=0.0)
    sw = tl.load(ws_ptr + rn, mask=rn < N, other=0.0)
    y = acc * sx[:, None] * sw[None, :]
    tl.store(y_ptr + rm[:, None] * ldy + rn[None, :], y.to(tl.float16),
             mask=mask)


def torch_rowwise(x, w, xs, ws):
    return torch._scaled_mm(x, w.T, scale_a=xs[:, None], scale_b=ws[None, :],
                            out_dtype=torch.bfloat16)


def torch_rowwise_fast(x, w, xs, ws):
    return torch._scaled_mm(x, w.T, scale_a=xs[:, None], scale_b=ws[None, :],
                            out_dtype=torch.bfloat16, use_fast_accum=True)


def torch_unit_then_scale(x, w, xs, ws, one, fast=False):
    y = torch._scaled_mm(x, w.T, scale_a=one, scale_b=one,
                         out_dtype=torch.float32, use_fast_accum=fast)
    return (y * xs[:, None] * ws[None, :]).half()


def main():
    print(json.dumps({"impl": "fp8_linear", "machine": {
        "device": torch.cuda.get_device_name(), "tile": tile.version(),
        "torch": torch.__version__, "triton": triton.__version__}}),
        flush=True)
    example = os.path.join(HERE, "..", "examples", "linear_fp8.tile")
    mods = {(m, n, k, w, s): tile.compile(example, num_warps=w, num_stages=s,
                                          BM=m, BN=n, BK=k)
            for m, n, k, w, s in SHAPES}
    compiled = torch.compile(torch_unit_then_scale)
    one = torch.ones((), device="cuda")
    for m, n, k in [(4096, 4096, 4096), (8192, 8192, 8192), (2000, 3000, 1000),
                    (2000, 3008, 1008)]:
        torch.manual_seed(0)
        x = (torch.randn(m, k, device="cuda") * 8).to(torch.float8_e4m3fn)
        w = (torch.randn(n, k, device="cuda") * 8).to(torch.float8_e4m3fn)
        xs = torch.rand(m, device="cuda") * 3e-3 + 1e-3
        ws = torch.rand(n, device="cuda") * 3e-3 + 1e-3
        scale = xs.double()[:, None] * ws.double()[None, :]
        xd, wd = x.double(), w.double()
        exact = (xd @ wd.T) * scale
        magnitude = (xd.abs() @ wd.abs().T) * scale
        del xd, wd
        shape = "%dx%dx%d" % (m, n, k)
        flops = 2.0 * m * n * k

        # rel: the output's rounding (f16, or bf16 for _scaled_mm's row-wise
        # call); magnitude * 2^-8 bounds the summation error of Hopper's
        # fp8 tensor cores, which keep fewer mantissa bits than f32 in their
        # sums (tile and Triton by default, cuBLAS with use_fast_accum;
        # without it cuBLAS promotes them to f32 sums).
        def check(y, who, rel=2.0 ** -10):
            err = ((y.double() - exact).abs() - exact.abs() * rel
                   - magnitude * 2.0 ** -8).max().item()
            assert err <= 2.0 ** -24, "%s differs from the fp64 result " \
                "by %g beyond rounding" % (who, err)
            worst = ((y.double() - exact).abs() / magnitude).max().item()
            print(json.dumps({"impl": who, "kernel": "linear_fp8",
                              "shape": shape,
                              "max_error_over_sum_abs": worst}), flush=True)

        calls = {}
        for (bm, bn, bk, nw, ns), mod in mods.items():
            y = torch.empty(m, n, device="cuda", dtype=torch.float16)
            grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn),)
            call = (lambda mod=mod, y=y, grid=grid: mod.linear_fp8[grid](
                x, w, xs, ws, y, m, n, k, k, k, n))
            call()
            check(y, "tile %dx%dx%d" % (bm, bn, bk))
            calls["%dx%dx%d warps=%d stages=%d" % (bm, bn, bk, nw, ns)] = call
        t, label = best_of(calls)
        emit_flops("tile-py", "linear_fp8", shape, t, flops)
        print(json.dumps({"impl": "tile-py", "kernel": "linear_fp8",
                          "shape": shape, "config": label}), flush=True)

        # cuBLASLt's fp8 GEMM takes only K and N that are multiples of 16;
        # PyTorch has no fp8 matmul for other shapes (a user pads or
        # dequantizes), so there is no torch number there.
        if k % 16 or n % 16:
            print(json.dumps({"impl": "torch", "kernel": "linear_fp8",
                              "shape": shape, "unsupported":
                              "torch._scaled_mm needs K and N divisible "
                              "by 16"}), flush=True)
        else:
            check(torch_rowwise(x, w, xs, ws), "torch row-wise", rel=2.0 ** -7)
            check(torch_rowwise_fast(x, w, xs, ws), "torch row-wise fast",
                  rel=2.0 ** -7)
            check(torch_unit_then_scale(x, w, xs, ws, one), "torch eager")
            check(torch_unit_then_scale(x, w, xs, ws, one, True), "torch fast")
            check(compiled(x, w, xs, ws, one), "torch.compile")
            t, label = best_of({
                "_scaled_mm row-wise (bf16 out)":
                    lambda: torch_rowwise(x, w, xs, ws),
                "_scaled_mm row-wise fast accumulation (bf16 out)":
                    lambda: torch_rowwise_fast(x, w, xs, ws),
                "eager": lambda: torch_unit_then_scale(x, w, xs, ws, one),
                "eager fast accumulation":
                    lambda: torch_unit_then_scale(x, w, xs, ws, one, True),
                "compile": lambda: compiled(x, w, xs, ws, one)})
            emit_flops("torch", "linear_fp8", shape, t, flops)
            print(json.dumps({"impl": "torch", "kernel": "linear_fp8",
                              "shape": shape, "config": label}), flush=True)

        ty = torch.empty(m, n, device="cuda", dtype=torch.float16)

        def tgrid(meta):
            return (triton.cdiv(m, meta["BM"]) * triton.cdiv(n, meta["BN"]),)
        tcall = lambda: triton_linear_fp8[tgrid](x, w, xs, ws, ty, m, n, k,
                                                 k, k, n)
        tcall()
        check(ty, "triton")
        emit_flops("triton", "linear_fp8", shape, timing(tcall), flops)
        del x, w, exact, magnitude


if __name__ == "__main__":
    main()
