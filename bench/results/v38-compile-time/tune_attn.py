# Probe: the autotuner's per-configuration times for attention D128 (TILE_VERBOSE=1
# prints them); REVERSE=1 tunes the list in reverse order.
import math, os, sys
sys.path.insert(0, os.path.join(os.getcwd(), "python"))
import torch, tile
C = [(128, 64, 4, 2), (128, 64, 4, 3), (128, 64, 8, 2), (128, 64, 8, 3),
     (128, 128, 8, 2), (128, 128, 8, 3), (64, 64, 4, 3), (64, 32, 4, 3), (128, 32, 8, 3)]
if os.environ.get("REVERSE"): C = C[::-1]
d, b, h, n = 128, 4, 32, 4096
torch.manual_seed(0)
q, k, v = (torch.randn(b, h, n, d, device="cuda", dtype=torch.float16) for _ in range(3))
mod = tile.compile("examples/attention.tile", D=d, CAUSAL=0)
tuned = tile.autotune([tile.Config({"BM": bm, "BN": bn}, num_warps=w, num_stages=s) for bm, bn, w, s in C], key=["N"])(mod.attention)
out = torch.empty_like(q)
tuned[lambda m: (tile.cdiv(n, m["BM"]), b * h)](q, k, v, out, n, 1.0 / math.sqrt(d))
torch.cuda.synchronize()
print("picked", tuned.last_config.text(), flush=True)
