# A/B probe: each attention configuration timed alone, the variants of
# ATTENTION_VARIANTS (name=path,...) alternating per configuration, on the
# same random inputs (B4 H32 N4096, non-causal and causal, D 64 and 128).
import json, math, os, sys
sys.path.insert(0, os.path.join(os.getcwd(), "bench"))
sys.path.insert(0, os.path.join(os.getcwd(), "python"))
import torch
import tile
from peers import timing
CONFIGS = [(128, 64, 4, 2), (128, 64, 4, 3), (128, 64, 8, 2), (128, 64, 8, 3),
           (128, 128, 8, 2), (128, 128, 8, 3), (64, 64, 4, 3), (64, 32, 4, 3),
           (128, 32, 8, 3)]
variants = [v.split("=") for v in os.environ["ATTENTION_VARIANTS"].split(",")]
shapes = [(64, 0), (128, 0), (64, 1), (128, 1)]
if len(sys.argv) > 1:
    shapes = [tuple(int(x) for x in s.split(":")) for s in sys.argv[1:]]
for d, causal in shapes:
    b, h, n = 4, 32, 4096
    torch.manual_seed(0)
    q, k, v = (torch.randn(b, h, n, d, device="cuda", dtype=torch.float16) for _ in range(3))
    mods = {name: tile.compile(path, D=d, CAUSAL=causal) for name, path in variants}
    want = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=bool(causal))
    flops = 4.0 * b * h * n * n * d * (0.5 if causal else 1.0)
    for bm, bn, w, s in CONFIGS:
        for name, _ in variants:
            try:
                tuned = tile.autotune([tile.Config({"BM": bm, "BN": bn}, num_warps=w, num_stages=s)], key=["N"])(mods[name].attention)
                out = torch.full_like(q, float("nan"))
                call = lambda: tuned[(tile.cdiv(n, bm), b * h)](q, k, v, out, n, 1.0 / math.sqrt(d))
                call()
                err = (out - want).abs().max().item()
                t = timing(call)
                print(json.dumps({"variant": name, "D": d, "causal": causal, "config": [bm, bn, w, s],
                                  "ms": t["ms"], "tflops": flops / t["ms"] / 1e9, "maxerr": err}), flush=True)
            except Exception as e:
                print(json.dumps({"variant": name, "D": d, "causal": causal, "config": [bm, bn, w, s],
                                  "error": str(e)[:300]}), flush=True)
