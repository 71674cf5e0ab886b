# A/B: attention configurations timed alone (B4 H32 N4096, D 64/128, causal
# or not, the same random inputs) for one variant: the libtile.so that
# TILE_LIBRARY names and the source ATTENTION_SOURCE names (default the
# example). SDPA's default backend in the same process for reference.
import json, math, os, sys
sys.path.insert(0, os.path.join(os.getcwd(), "bench"))
sys.path.insert(0, os.path.join(os.getcwd(), "python"))
import torch
import torch.nn.functional as F
import tile
from peers import timing
variant = sys.argv[1]
configs = [tuple(int(x) for x in c.split(",")) for c in sys.argv[2].split(";")]
source = os.environ.get("ATTENTION_SOURCE", "examples/attention.tile")
shapes = [(64, 0), (128, 0), (64, 1), (128, 1)]
if len(sys.argv) > 3:
    shapes = [tuple(int(x) for x in s.split(",")) for s in sys.argv[3].split(";")]
for d, causal in shapes:
    b, h, n = 4, 32, 4096
    torch.manual_seed(0)
    q, k, v = (torch.randn(b, h, n, d, device="cuda", dtype=torch.float16) for _ in range(3))
    want = F.scaled_dot_product_attention(q, k, v, is_causal=bool(causal))
    flops = 4.0 * b * h * n * n * d * (0.5 if causal else 1.0)
    t = timing(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=bool(causal)))
    print(json.dumps({"variant": variant, "impl": "sdpa", "D": d, "causal": causal, "tflops": flops / t["ms"] / 1e9}), flush=True)
    mod = tile.compile(source, D=d, CAUSAL=causal)
    for bm, bn, w, s in configs:
        try:
            tuned = tile.autotune([tile.Config({"BM": bm, "BN": bn}, num_warps=w, num_stages=s)], key=["N"])(mod.attention)
            out = torch.full_like(q, float("nan"))
            call = lambda: tuned[(tile.cdiv(n, bm), b * h)](q, k, v, out, n, 1.0 / math.sqrt(d))
            call()
            torch.cuda.synchronize()
            err = (out.float() - want.float()).abs().max().item()
            t = timing(call)
            print(json.dumps({"variant": variant, "impl": "tile", "D": d, "causal": causal, "config": [bm, bn, w, s],
                              "ms": t["ms"], "tflops": flops / t["ms"] / 1e9, "maxerr": err}), flush=True)
        except Exception as e:
            print(json.dumps({"variant": variant, "impl": "tile", "D": d, "causal": causal, "config": [bm, bn, w, s],
                              "error": str(e)[:300]}), flush=True)
