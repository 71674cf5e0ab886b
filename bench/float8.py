"""Per-tensor fp8 (e4m3) quantization and dequantization: examples/
quantize_fp8.tile from tile's Python package (best of its block sizes and
warps), PyTorch's fastest call (eager and torch.compile of the same
expression) and a Triton kernel with the same loads (autotuned), timed as
bench/peers.py does (do_bench medians, L2 cleared per run) on the same
random inputs; every output is first checked bit for bit against PyTorch's.
GB/s count the bytes moved: 2 + 1 per element. JSON lines on stdout; run
on the GPU machine:

    python3 bench/float8.py > float8.jsonl
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
from peers import emit, timing  # noqa: E402

CONFIGS = [triton.Config({"BLOCK": b}, num_warps=w)
           for b in (1024, 2048, 4096, 8192) for w in (4, 8)]


@triton.autotune(configs=CONFIGS, key=["n"])
@triton.jit
def triton_quantize(x, q, scale, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m).to(tl.float32) * scale
    tl.store(q + offs, v.to(tl.float8e4nv), mask=m)


@triton.autotune(configs=CONFIGS, key=["n"])
@triton.jit
def triton_dequantize(q, y, inv_scale, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(q + offs, mask=m).to(tl.float32) * inv_scale
    tl.store(y + offs, v.to(tl.float16), mask=m)


def torch_quantize(x, scale):
    return (x.float() * scale).to(torch.float8_e4m3fn)


def torch_dequantize(q, inv_scale):
    return (q.float() * inv_scale).half()


def best_of(calls):
    """The fastest of (timing, label) over `calls` (label -> callable)."""
    best = None
    for label, call in calls.items():
        t = timing(call)
        if best is None or t["ms"] < best[0]["ms"]:
            best = (t, label)
    return best


def main():
    print(json.dumps({"impl": "float8", "machine": {
        "device": torch.cuda.get_device_name(), "tile": tile.version(),
        "torch": torch.__version__, "triton": triton.__version__}}),
        flush=True)
    example = os.path.join(HERE, "..", "examples", "quantize_fp8.tile")
    mods = {(b, w): tile.compile(example, num_warps=w, BLOCK=b)
            for b in (1024, 2048, 4096, 8192) for w in (4, 8)}
    compiled_q = torch.compile(torch_quantize)
    compiled_dq = torch.compile(torch_dequantize)
    for n in (1 << 24, 1 << 26, 10_000_003):
        torch.manual_seed(0)
        x = torch.randn(n, device="cuda", dtype=torch.float16)
        scale = 448.0 / x.abs().max().float().item()
        inv = 1.0 / scale
        shape = "%d" % n
        nbytes = 3 * n
        want = torch_quantize(x, scale)
        bits = want.view(torch.uint8)

        def check(q):
            assert torch.equal(q.view(torch.uint8), bits), "quantize differs"

        # Quantize.
        calls = {}
        for (b, w), mod in mods.items():
            q = torch.empty(n, device="cuda", dtype=torch.float8_e4m3fn)
            call = (lambda mod=mod, q=q, b=b:
                    mod.quantize[(triton.cdiv(n, b),)](x, q, scale, n))
            call()
            check(q)
            calls["BLOCK=%d warps=%d" % (b, w)] = call
        t, label = best_of(calls)
        emit("tile-py", "quantize", shape, t, nbytes, {"config": label})
        check(compiled_q(x, scale))
        t, label = best_of({"eager": lambda: torch_quantize(x, scale),
                            "compile": lambda: compiled_q(x, scale)})
        emit("torch", "quantize", shape, t, nbytes, {"config": label})
        tq = torch.empty(n, device="cuda", dtype=torch.float8_e4m3fn)
        tcall = lambda: triton_quantize[lambda m: (triton.cdiv(
            n, m["BLOCK"]),)](x, tq, scale, n)
        tcall()
        check(tq)
        emit("triton", "quantize", shape, timing(tcall), nbytes)

        # Dequantize.
        ywant = torch_dequantize(want, inv)
        calls = {}
        for (b, w), mod in mods.items():
            y = torch.empty(n, device="cuda", dtype=torch.float16)
            call = (lambda mod=mod, y=y, b=b:
                    mod.dequantize[(triton.cdiv(n, b),)](want, y, inv, n))
            call()
            assert torch.equal(y, ywant), "dequantize differs"
            calls["BLOCK=%d warps=%d" % (b, w)] = call
        t, label = best_of(calls)
        emit("tile-py", "dequantize", shape, t, nbytes, {"config": label})
        assert torch.equal(compiled_dq(want, inv), ywant)
        t, label = best_of({"eager": lambda: torch_dequantize(want, inv),
                            "compile": lambda: compiled_dq(want, inv)})
        emit("torch", "dequantize", shape, t, nbytes, {"config": label})
        ty = torch.empty(n, device="cuda", dtype=torch.float16)
        dcall = lambda: triton_dequantize[lambda m: (triton.cdiv(
            n, m["BLOCK"]),)](want, ty, inv, n)
        dcall()
        assert torch.equal(ty, ywant), "triton dequantize differs"
        emit("triton", "dequantize", shape, timing(dcall), nbytes)
        del x, want


if __name__ == "__main__":
    main()
