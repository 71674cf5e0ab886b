# One attention call for a profiler at a chosen placement: "tile" (the grid
# example, 64x128/4/2) or "sdpa", B4 H32 N4096 D64 non-causal, Q, K, V and O
# each starting OFFSET bytes after a 2 MiB boundary (fresh buffers); the
# same random inputs for every placement. argv: impl calls offset [causal].
import math, os, sys
sys.path.insert(0, os.path.join(os.getcwd(), "python"))
import torch
import torch.nn.functional as F
import tile
impl, calls, offset = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
causal = int(sys.argv[4]) if len(sys.argv) > 4 else 0
b, h, n, d = 4, 32, 4096, 64
torch.manual_seed(0)
base = [torch.randn(b, h, n, d, device="cuda", dtype=torch.float16) for _ in range(3)]
def at(t, off):
    buf = torch.empty(t.numel() + off // 2 + (1 << 20), device="cuda", dtype=t.dtype)
    return buf[off // 2:off // 2 + t.numel()].view(t.shape).copy_(t)
q, k, v, o = [at(t, offset) for t in base + [torch.zeros_like(base[0])]]
print("ptrs mod 2 MiB", [x.data_ptr() % (2 << 20) for x in (q, k, v, o)], file=sys.stderr)
if impl == "sdpa":
    for _ in range(calls):
        F.scaled_dot_product_attention(q, k, v, is_causal=bool(causal))
else:
    mod = tile.compile("examples/attention.tile", D=d, CAUSAL=causal)
    tuned = tile.autotune([tile.Config({"BM": 64, "BN": 128}, num_warps=4, num_stages=2)], key=["N"])(mod.attention)
    for _ in range(calls):
        tuned[(tile.cdiv(n, 64), b * h)](q, k, v, o, n, 1.0 / math.sqrt(d))
torch.cuda.synchronize()
