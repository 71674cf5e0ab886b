# One attention call for a profiler: "tile BM,BN,WARPS,STAGES" or "sdpa",
# B4 H32 N4096, D and causal from argv; the same random inputs as attn_ab.py.
import math, os, sys
sys.path.insert(0, os.path.join(os.getcwd(), "python"))
import torch
import torch.nn.functional as F
import tile
impl, d, causal = sys.argv[1], int(sys.argv[3]), int(sys.argv[4])
b, h, n = 4, 32, 4096
torch.manual_seed(0)
q, k, v = (torch.randn(b, h, n, d, device="cuda", dtype=torch.float16) for _ in range(3))
if impl == "sdpa":
    for _ in range(int(sys.argv[2])):
        F.scaled_dot_product_attention(q, k, v, is_causal=bool(causal))
else:
    bm, bn, w, s = (int(x) for x in sys.argv[5].split(","))
    mod = tile.compile(os.environ.get("ATTENTION_SOURCE", "examples/attention.tile"), D=d, CAUSAL=causal)
    tuned = tile.autotune([tile.Config({"BM": bm, "BN": bn}, num_warps=w, num_stages=s)], key=["N"])(mod.attention)
    out = torch.empty_like(q)
    for _ in range(int(sys.argv[2])):
        tuned[(tile.cdiv(n, bm), b * h)](q, k, v, out, n, 1.0 / math.sqrt(d))
torch.cuda.synchronize()
