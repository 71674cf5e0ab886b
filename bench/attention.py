"""Fused attention forward (fp16): examples/attention.tile,
examples/attention_fa3.tile and examples/attention_persistent.tile from
tile's Python package (each autotuned over its block configurations;
"tile-py" is the fastest, all are listed), PyTorch's
scaled_dot_product_attention with its default backend and with the flash
backend, and a FlashAttention-2-style Triton kernel (Triton's fused-attention
tutorial: two-stage causal loop, autotuned), timed as bench/peers.py does
(do_bench medians, L2 cleared per run) on the same random inputs. Each
output is first checked against PyTorch's. TFLOP/s count 4·B·H·N²·D, halved
when causal. JSON lines on stdout; run on the GPU machine:

    python3 bench/attention.py > attention.jsonl
    python3 bench/attention.py 4x32x4096x64      # shapes as BxHxNxD

ATTENTION_SOURCE=FILE times another .tile source of the same kernel (a
variant of the example) in place of both, over TILE_CONFIGS. Every
implementation is timed on ATTENTION_PLACEMENTS (default 3) copies of the
inputs at different addresses (placed()); each reports the median, and the
time at each placement as ms_placements.
"""
import json
import math
import os
import sys

import torch
import torch.nn.functional as F
import triton
import triton.language as tl
from torch.nn.attention import SDPBackend, sdpa_kernel

HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, "..", "python"))
import tile  # noqa: E402
from peers import timing, emit_flops  # noqa: E402

# (BM, BN, warps, stages): BM a multiple of 16 x warps, so that each warp
# holds whole rows of P (its A fragments in registers).
# 64 x 128 on 4 warps (three CTAs per SM at D = 64) and 64 x 64 with two
# stages: the fastest causal D = 64 tiles in bench/NOTES.md v49.
TILE_CONFIGS = [(128, 64, 4, 2), (128, 64, 4, 3), (128, 64, 8, 2),
                (128, 64, 8, 3), (128, 128, 8, 2), (128, 128, 8, 3),
                (64, 64, 4, 3), (64, 32, 4, 3), (128, 32, 8, 3),
                (64, 128, 4, 2), (64, 64, 4, 2)]
# attention_fa3.tile's order pays on two warpgroups, with a producer
# warpgroup and turns (bench/NOTES.md v49, v50).
FA3_CONFIGS = [(128, 128, 8, 3), (128, 128, 8, 2), (128, 64, 8, 3),
               (128, 64, 8, 2)]
# attention_persistent.tile: one program per SM looping over tiles
# (bench/NOTES.md v51).
PERSISTENT_CONFIGS = [(128, 128, 8, 2), (128, 128, 8, 3), (128, 64, 8, 2)]


@triton.jit
def _attn_inner(acc, l_i, m_i, q, k_base, v_base, offs_m, offs_n, offs_d,
                lo, hi, n_ctx, qk_scale, DIAGONAL: tl.constexpr,
                EVEN: tl.constexpr, BLOCK_N: tl.constexpr):
    for start_n in range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        cols = start_n + offs_n
        if EVEN:
            k = tl.load(k_base + cols[None, :] * q.shape[1] + offs_d[:, None])
        else:
            k = tl.load(k_base + cols[None, :] * q.shape[1] + offs_d[:, None],
                        mask=cols[None, :] < n_ctx, other=0.0)
        qk = tl.dot(q, k)
        if DIAGONAL:
            qk = tl.where(offs_m[:, None] >= cols[None, :], qk, float("-inf"))
        if not EVEN:
            qk = tl.where(cols[None, :] < n_ctx, qk, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
        p = tl.math.exp2(qk * qk_scale - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        if EVEN:
            v = tl.load(v_base + cols[:, None] * q.shape[1] + offs_d[None, :])
        else:
            v = tl.load(v_base + cols[:, None] * q.shape[1] + offs_d[None, :],
                        mask=cols[:, None] < n_ctx, other=0.0)
        acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None])
        m_i = m_ij
    return acc, l_i, m_i


def _triton_configs():
    return [triton.Config({"BLOCK_M": bm, "BLOCK_N": bn}, num_warps=w,
                          num_stages=s)
            for bm in [64, 128] for bn in [32, 64, 128] for w in [4, 8]
            for s in [2, 3, 4] if bn <= bm]


@triton.autotune(configs=_triton_configs(), key=["n_ctx", "HEAD_DIM", "CAUSAL"])
@triton.heuristics({"EVEN": lambda a: a["n_ctx"] % a["BLOCK_M"] == 0
                    and a["n_ctx"] % a["BLOCK_N"] == 0})
@triton.jit
def triton_attention(Q, K, V, O, n_ctx, qk_scale, HEAD_DIM: tl.constexpr,
                     CAUSAL: tl.constexpr, BLOCK_M: tl.constexpr,
                     BLOCK_N: tl.constexpr, EVEN: tl.constexpr):
    start_m = tl.program_id(0)
    base = tl.program_id(1).to(tl.int64) * n_ctx * HEAD_DIM
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :],
                mask=offs_m[:, None] < n_ctx, other=0.0)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    if CAUSAL:
        acc, l_i, m_i = _attn_inner(acc, l_i, m_i, q, K + base, V + base,
                                    offs_m, offs_n, offs_d, 0,
                                    start_m * BLOCK_M, n_ctx, qk_scale,
                                    False, EVEN, BLOCK_N)
        acc, l_i, m_i = _attn_inner(acc, l_i, m_i, q, K + base, V + base,
                                    offs_m, offs_n, offs_d, start_m * BLOCK_M,
                                    tl.minimum((start_m + 1) * BLOCK_M, n_ctx),
                                    n_ctx, qk_scale, True, EVEN, BLOCK_N)
    else:
        acc, l_i, m_i = _attn_inner(acc, l_i, m_i, q, K + base, V + base,
                                    offs_m, offs_n, offs_d, 0, n_ctx, n_ctx,
                                    qk_scale, False, EVEN, BLOCK_N)
    out = acc / l_i[:, None]
    tl.store(O + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :],
             out.to(O.dtype.element_ty), mask=offs_m[:, None] < n_ctx)


def placed(tensors, p):
    """Copies of `tensors` at placement p: tensor i starts p * (i + 1) * 65
    128-byte lines into a buffer of its own (p = 0: at the buffer's start).
    The same data at other addresses: the same kernel on the same inputs
    ran 1.10 ms in one process and 1.29 in another (bench/NOTES.md v53),
    SDPA's default backend 430 to 485 TFLOP/s, with nothing but the
    allocations differing; each implementation is timed at every placement
    so that no one layout of memory decides a ratio."""
    copies = []
    for i, t in enumerate(tensors):
        offset = p * (i + 1) * 65 * 128 // t.element_size()
        buf = torch.empty(t.numel() + offset, device=t.device, dtype=t.dtype)
        copies.append(buf[offset:].view(t.shape).copy_(t))
    return copies


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if len(xs) % 2 else 0.5 * (xs[len(xs) // 2 - 1] +
                                                      xs[len(xs) // 2])


def main():
    print(json.dumps({"impl": "attention", "machine": {
        "device": torch.cuda.get_device_name(), "tile": tile.version(),
        "torch": torch.__version__, "triton": triton.__version__}}),
        flush=True)
    examples = os.path.join(HERE, "..", "examples")
    sources = {"attention": (os.path.join(examples, "attention.tile"),
                             TILE_CONFIGS),
               "attention_fa3": (os.path.join(examples, "attention_fa3.tile"),
                                 FA3_CONFIGS),
               "attention_persistent": (
                   os.path.join(examples, "attention_persistent.tile"),
                   PERSISTENT_CONFIGS)}
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    if "ATTENTION_SOURCE" in os.environ:
        sources = {"attention": (os.environ["ATTENTION_SOURCE"], TILE_CONFIGS)}
    placements = int(os.environ.get("ATTENTION_PLACEMENTS", "3"))
    # D = 256 too, which none of the examples was tuned for (v54).
    shapes = [(4, 32, 4096, 64), (4, 32, 4096, 128), (2, 16, 4000, 128),
              (2, 16, 4096, 256)]
    if len(sys.argv) > 1:
        shapes = [tuple(int(x) for x in s.split("x")) for s in sys.argv[1:]]
    for batch, heads, n, d in shapes:
        for causal in (False, True):
            torch.manual_seed(0)
            inputs = [torch.randn(batch, heads, n, d, device="cuda",
                                  dtype=torch.float16) for _ in range(3)]
            scale = 1.0 / math.sqrt(d)
            want = F.scaled_dot_product_attention(*inputs, is_causal=causal)
            grid = lambda meta: (tile.cdiv(n, meta["BM"]), batch * heads)
            flops = 4.0 * batch * heads * n * n * d * (0.5 if causal else 1.0)
            shape = "B%d H%d N%d D%d%s" % (batch, heads, n, d,
                                            " causal" if causal else "")
            tuned = {}
            for name, (source, configs) in sources.items():
                mod = tile.compile(source, D=d, CAUSAL=int(causal))
                tuned[name] = tile.autotune(
                    [tile.Config({"BM": bm, "BN": bn}, num_warps=w,
                                 num_stages=s) for bm, bn, w, s in configs],
                    key=["N"])(mod.attention)
            # Each implementation's time at each placement of the same
            # inputs (the examples tuned at the first); medians reported.
            times = {}
            for p in range(placements):
                q, k, v, out = placed(inputs + [torch.empty_like(inputs[0])], p)
                for name, kernel in tuned.items():
                    if name == "attention_persistent":
                        # One program per SM (or per tile, where fewer).
                        pgrid = lambda meta: (min(sms, tile.cdiv(
                            n, meta["BM"]) * batch * heads),)
                        call = lambda kernel=kernel: kernel[pgrid](
                            q, k, v, out, n, scale, batch * heads)
                    else:
                        call = lambda kernel=kernel: kernel[grid](
                            q, k, v, out, n, scale)
                    out.fill_(float("nan"))
                    call()
                    torch.testing.assert_close(out, want, atol=1e-2, rtol=1e-2)
                    times.setdefault(name, []).append(timing(call))
                out.fill_(float("nan"))
                tri_call = lambda: triton_attention[
                    lambda meta: (triton.cdiv(n, meta["BLOCK_M"]),
                                  batch * heads)](
                    q, k, v, out, n, scale * 1.44269504, HEAD_DIM=d,
                    CAUSAL=causal)
                tri_call()
                torch.testing.assert_close(out, want, atol=1e-2, rtol=1e-2)
                times.setdefault("triton", []).append(timing(tri_call))
                times.setdefault("torch", []).append(timing(
                    lambda: F.scaled_dot_product_attention(
                        q, k, v, is_causal=causal)))
                with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
                    times.setdefault("torch-flash", []).append(timing(
                        lambda: F.scaled_dot_product_attention(
                            q, k, v, is_causal=causal)))
                del q, k, v, out

            def summary(ts):
                return {"ms": median([t["ms"] for t in ts]),
                        "ms_placements": [t["ms"] for t in ts]}
            best = None
            for name, (source, _) in sources.items():
                t = summary(times[name])
                print(json.dumps({"impl": "tile-py",
                                  "kernel": os.path.basename(source),
                                  "shape": shape,
                                  "config": tuned[name].last_config.text(),
                                  **t, "tflops": flops / t["ms"] / 1e9}),
                      flush=True)
                if best is None or t["ms"] < best[1]["ms"]:
                    best = (name, t, tuned[name].last_config.text())
            emit_flops("tile-py", "attention", shape, best[1], flops)
            print(json.dumps({"impl": "tile-py", "kernel": "attention-config",
                              "shape": shape, "source": best[0],
                              "config": best[2]}),
                  flush=True)
            for impl in ("torch", "torch-flash", "triton"):
                emit_flops(impl, "attention", shape, summary(times[impl]),
                           flops)
            del inputs, want


if __name__ == "__main__":
    main()
