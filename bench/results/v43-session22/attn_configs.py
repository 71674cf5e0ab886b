# Probe: configurations outside bench/attention.py's list (each alone, B4
# H32 N4096, D 64/128, causal or not, the same random inputs), beside the
# list's usual winners, two rounds; SDPA's default in the same process.
import json, math, os, sys
sys.path.insert(0, os.path.join(os.getcwd(), "bench"))
sys.path.insert(0, os.path.join(os.getcwd(), "python"))
import torch
import torch.nn.functional as F
import tile
from peers import timing
LISTED = [(128, 64, 4, 2), (128, 64, 8, 2), (128, 128, 8, 2), (128, 128, 8, 3)]
NEW = [(64, 128, 4, 2), (64, 128, 4, 3), (64, 64, 4, 2), (256, 32, 8, 2),
       (256, 64, 8, 2), (128, 32, 4, 2), (128, 32, 4, 3)]
for d, causal in [(64, 0), (128, 0), (64, 1), (128, 1)]:
    b, h, n = 4, 32, 4096
    torch.manual_seed(0)
    q, k, v = (torch.randn(b, h, n, d, device="cuda", dtype=torch.float16) for _ in range(3))
    want = F.scaled_dot_product_attention(q, k, v, is_causal=bool(causal))
    flops = 4.0 * b * h * n * n * d * (0.5 if causal else 1.0)
    t = timing(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=bool(causal)))
    print(json.dumps({"impl": "sdpa", "D": d, "causal": causal, "tflops": flops / t["ms"] / 1e9}), flush=True)
    mod = tile.compile("examples/attention.tile", D=d, CAUSAL=causal)
    for rnd in (1, 2):
        for bm, bn, w, s in LISTED + NEW:
            try:
                tuned = tile.autotune([tile.Config({"BM": bm, "BN": bn}, num_warps=w, num_stages=s)], key=["N"])(mod.attention)
                out = torch.full_like(q, float("nan"))
                call = lambda: tuned[(tile.cdiv(n, bm), b * h)](q, k, v, out, n, 1.0 / math.sqrt(d))
                call()
                torch.cuda.synchronize()
                err = (out.float() - want.float()).abs().max().item()
                t = timing(call)
                print(json.dumps({"impl": "tile", "round": rnd, "listed": (bm, bn, w, s) in LISTED, "D": d, "causal": causal,
                                  "config": [bm, bn, w, s], "tflops": flops / t["ms"] / 1e9, "maxerr": err}), flush=True)
            except Exception as e:
                print(json.dumps({"impl": "tile", "D": d, "causal": causal, "config": [bm, bn, w, s], "error": str(e)[:300]}), flush=True)
