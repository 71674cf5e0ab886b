# Launches one attention kernel (ours at one configuration, or SDPA's
# default) a few times on fresh random inputs, for ncu to profile one launch.
# Usage: attn_one.py tile D BM BN WARPS STAGES | attn_one.py sdpa D
import math, os, sys
sys.path.insert(0, os.path.join(os.getcwd(), "python"))
import torch
import torch.nn.functional as F
b, h, n = 4, 32, 4096
d = int(sys.argv[2])
torch.manual_seed(0)
q, k, v = (torch.randn(b, h, n, d, device="cuda", dtype=torch.float16) for _ in range(3))
if sys.argv[1] == "sdpa":
    for _ in range(3):
        F.scaled_dot_product_attention(q, k, v)
else:
    import tile
    bm, bn, w, s = map(int, sys.argv[3:7])
    mod = tile.compile("examples/attention.tile", D=d, CAUSAL=0)
    tuned = tile.autotune([tile.Config({"BM": bm, "BN": bn}, num_warps=w, num_stages=s)], key=["N"])(mod.attention)
    out = torch.full_like(q, float("nan"))
    for _ in range(3):
        tuned[(tile.cdiv(n, bm), b * h)](q, k, v, out, n, 1.0 / math.sqrt(d))
    want = F.scaled_dot_product_attention(q, k, v)
    print("maxerr", (out.float() - want.float()).abs().max().item())
torch.cuda.synchronize()
