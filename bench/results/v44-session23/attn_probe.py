# Probe (placement of the TMA copies in attention's loops): a few
# configurations timed alone (B4 H32 N4096, non-causal, D 64/128, the same
# random inputs) with the libtile.so that TILE_LIBRARY names and the probe
# switches in the environment (TILE_PROBE_TMA, TILE_PROBE_PREFETCH).
import json, math, os, sys
sys.path.insert(0, os.path.join(os.getcwd(), "bench"))
sys.path.insert(0, os.path.join(os.getcwd(), "python"))
import torch
import torch.nn.functional as F
import tile
from peers import timing
CONFIGS = [(128, 64, 4, 2), (128, 64, 4, 3), (128, 64, 8, 3), (128, 128, 8, 2), (64, 128, 4, 2)]
variant = sys.argv[1]
for d in (64, 128):
    b, h, n = 4, 32, 4096
    torch.manual_seed(0)
    q, k, v = (torch.randn(b, h, n, d, device="cuda", dtype=torch.float16) for _ in range(3))
    want = F.scaled_dot_product_attention(q, k, v)
    flops = 4.0 * b * h * n * n * d
    mod = tile.compile("examples/attention.tile", D=d, CAUSAL=0)
    for bm, bn, w, s in CONFIGS:
        tuned = tile.autotune([tile.Config({"BM": bm, "BN": bn}, num_warps=w, num_stages=s)], key=["N"])(mod.attention)
        out = torch.full_like(q, float("nan"))
        call = lambda: tuned[(tile.cdiv(n, bm), b * h)](q, k, v, out, n, 1.0 / math.sqrt(d))
        call()
        torch.cuda.synchronize()
        err = (out.float() - want.float()).abs().max().item()
        t = timing(call)
        print(json.dumps({"variant": variant, "D": d, "config": [bm, bn, w, s], "tflops": flops / t["ms"] / 1e9, "maxerr": err}), flush=True)
