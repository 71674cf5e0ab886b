# Probe: each attention configuration timed alone (non-causal, B4 H32 N4096).
import json, math, os, sys
sys.path.insert(0, os.path.join(os.getcwd(), "bench"))
sys.path.insert(0, os.path.join(os.getcwd(), "python"))
import torch
import tile
from peers import timing
CONFIGS = [(128, 64, 4, 2), (128, 64, 4, 3), (128, 64, 8, 2), (128, 64, 8, 3),
           (128, 128, 8, 2), (128, 128, 8, 3), (64, 64, 4, 2), (64, 64, 4, 3),
           (64, 128, 4, 2), (64, 32, 4, 3), (128, 32, 8, 3), (128, 128, 4, 2)]
src = os.environ.get("ATTENTION_SOURCE", "examples/attention.tile")
for d in (64, 128):
    b, h, n = 4, 32, 4096
    torch.manual_seed(0)
    q, k, v = (torch.randn(b, h, n, d, device="cuda", dtype=torch.float16) for _ in range(3))
    mod = tile.compile(src, D=d, CAUSAL=0)
    want = torch.nn.functional.scaled_dot_product_attention(q, k, v)
    for bm, bn, w, s in CONFIGS:
        try:
            tuned = tile.autotune([tile.Config({"BM": bm, "BN": bn}, num_warps=w, num_stages=s)], key=["N"])(mod.attention)
            out = torch.full_like(q, float("nan"))
            call = lambda: tuned[(tile.cdiv(n, bm), b * h)](q, k, v, out, n, 1.0 / math.sqrt(d))
            call()
            err = (out - want).abs().max().item()
            t = timing(call)
            print(json.dumps({"D": d, "config": [bm, bn, w, s], "ms": t["ms"],
                              "tflops": 4.0 * b * h * n * n * d / t["ms"] / 1e9, "maxerr": err}), flush=True)
        except Exception as e:
            print(json.dumps({"D": d, "config": [bm, bn, w, s], "error": str(e)[:200]}), flush=True)
