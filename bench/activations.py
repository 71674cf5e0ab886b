"""Elementwise activations built on the math builtins: GELU (erf), GELU
(tanh approximation) and SiLU (sigmoid), f32 and f16, from tile (Python
package), PyTorch (torch.nn.functional, its fastest call) and Triton
(autotuned over block sizes and warps), timed as bench/peers.py does
(do_bench medians, L2 cleared per run) on the same standard-normal inputs.
Each result is first checked against an fp64 reference. JSON lines on
stdout (GB/s: bytes read and written); run on the GPU machine:

    python3 bench/activations.py > activations.jsonl
"""
import json
import math
import os
import sys

import torch
import torch.nn.functional as F
import triton
import triton.language as tl

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
import tile  # noqa: E402
from peers import timing, emit  # noqa: E402

TILE_SOURCE = """
kernel gelu(x: ptr<ELEM>, out: ptr<ELEM>, n: i32, const BLOCK: i32 = 1024) {
  let offs = program_id(0) * BLOCK + range(0, BLOCK);
  let m = offs < n;
  let v = cast(load(x + offs, m), f32);
  store(out + offs, cast(0.5 * v * (1.0 + erf(v * 0.7071067811865476)), ELEM), m);
}
kernel gelu_tanh(x: ptr<ELEM>, out: ptr<ELEM>, n: i32, const BLOCK: i32 = 1024) {
  let offs = program_id(0) * BLOCK + range(0, BLOCK);
  let m = offs < n;
  let v = cast(load(x + offs, m), f32);
  let inner = 0.7978845608028654 * (v + 0.044715 * v * v * v);
  store(out + offs, cast(0.5 * v * (1.0 + tanh(inner)), ELEM), m);
}
kernel silu(x: ptr<ELEM>, out: ptr<ELEM>, n: i32, const BLOCK: i32 = 1024) {
  let offs = program_id(0) * BLOCK + range(0, BLOCK);
  let m = offs < n;
  let v = cast(load(x + offs, m), f32);
  store(out + offs, cast(v * sigmoid(v), ELEM), m);
}
"""

BLOCKS = [1024, 2048, 4096]
WARPS = [4, 8]


def triton_configs():
    return [triton.Config({"BLOCK": b}, num_warps=w) for b in BLOCKS
            for w in WARPS]


@triton.autotune(configs=triton_configs(), key=["n", "KIND"])
@triton.jit
def triton_gelu(x_ptr, out_ptr, n, KIND: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x_ptr + offs, mask=m).to(tl.float32)
    if KIND == 0:
        y = 0.5 * v * (1.0 + tl.math.erf(v * 0.7071067811865476))
    elif KIND == 1:
        inner = 0.7978845608028654 * (v + 0.044715 * v * v * v)
        # tanh(z) = 2 sigmoid(2z) - 1
        y = 0.5 * v * (2.0 * tl.sigmoid(2.0 * inner))
    else:
        y = v * tl.sigmoid(v)
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=m)


def reference(kind, x):
    v = x.double()
    if kind == "gelu":
        return 0.5 * v * (1 + torch.erf(v / math.sqrt(2)))
    if kind == "gelu_tanh":
        return 0.5 * v * (1 + torch.tanh(math.sqrt(2 / math.pi) *
                                         (v + 0.044715 * v**3)))
    return v * torch.sigmoid(v)


def main():
    print(json.dumps({"impl": "activations", "machine": {
        "device": torch.cuda.get_device_name(), "tile": tile.version(),
        "torch": torch.__version__, "triton": triton.__version__}}),
        flush=True)
    torch_calls = {"gelu": F.gelu,
                   "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),
                   "silu": F.silu}
    kinds = ["gelu", "gelu_tanh", "silu"]
    for dtype, name in [(torch.float32, "f32"), (torch.float16, "f16")]:
        mod = tile.compile(TILE_SOURCE.replace("ELEM", name))
        tuned = {k: tile.autotune(
            [tile.Config({"BLOCK": b}, num_warps=w) for b in BLOCKS
             for w in WARPS], key=["n"])(getattr(mod, k)) for k in kinds}
        for n in [2**24 + 7, 2**27]:
            x = torch.randn(n, device="cuda", dtype=dtype)
            nbytes = 2 * n * x.element_size()
            for i, kind in enumerate(kinds):
                want = reference(kind, x).to(dtype)
                tol = {"rtol": 1e-5, "atol": 1e-6} if name == "f32" else {}
                out = torch.full_like(x, float("nan"))
                grid = lambda meta: (tile.cdiv(n, meta["BLOCK"]),)
                tile_call = lambda: tuned[kind][grid](x, out, n)
                tile_call()
                torch.testing.assert_close(out, want, **tol)
                tout = torch.full_like(x, float("nan"))
                tri_call = lambda: triton_gelu[
                    lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](
                        x, tout, n, KIND=i)
                tri_call()
                torch.testing.assert_close(tout, want, **tol)
                torch.testing.assert_close(torch_calls[kind](x), want, **tol)
                shape = "%s %d" % (name, n)
                emit("tile-py", kind, shape, timing(tile_call), nbytes)
                emit("torch", kind, shape,
                     timing(lambda: torch_calls[kind](x)), nbytes)
                emit("triton", kind, shape, timing(tri_call), nbytes)
            del x


if __name__ == "__main__":
    main()
