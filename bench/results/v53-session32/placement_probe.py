# Which tensor's address moves examples/attention.tile (64x128/4/2, D64,
# B4 H32 N4096) from 1.17 to 1.31 ms (bench/attention.py's placements): the
# same inputs copied into buffers at byte offsets, one tensor at a time.
import json, math, os, sys
sys.path.insert(0, os.path.join(os.getcwd(), "bench"))
sys.path.insert(0, os.path.join(os.getcwd(), "python"))
import torch
import torch.nn.functional as F
import tile
from peers import timing
b, h, n, d = 4, 32, 4096, 64
torch.manual_seed(0)
base = [torch.randn(b, h, n, d, device="cuda", dtype=torch.float16) for _ in range(3)]
want = F.scaled_dot_product_attention(*base)
flops = 4.0 * b * h * n * n * d
mod = tile.compile("examples/attention.tile", D=d, CAUSAL=0)
tuned = tile.autotune([tile.Config({"BM": 64, "BN": 128}, num_warps=4, num_stages=2)], key=["N"])(mod.attention)
def at(t, offset):
    buf = torch.empty(t.numel() + offset // 2, device="cuda", dtype=t.dtype)
    return buf[offset // 2:].view(t.shape).copy_(t)
cases = [("all0", [0, 0, 0, 0]), ("q", [8320, 0, 0, 0]), ("k", [0, 8320, 0, 0]),
         ("v", [0, 0, 8320, 0]), ("o", [0, 0, 0, 8320]), ("all8320", [8320] * 4),
         ("all4096", [4096] * 4), ("all65536", [65536] * 4), ("all256", [256] * 4)]
for name, offs in cases:
    q, k, v, o = [at(t, off) for t, off in zip(base + [torch.empty_like(base[0])], offs)]
    call = lambda: tuned[(tile.cdiv(n, 64), b * h)](q, k, v, o, n, 1.0 / math.sqrt(d))
    call()
    torch.cuda.synchronize()
    err = (o.float() - want.float()).abs().max().item()
    t = timing(call)
    s = timing(lambda: F.scaled_dot_product_attention(q, k, v))
    print(json.dumps({"case": name, "ms": round(t["ms"], 4), "sdpa_ms": round(s["ms"], 4), "maxerr": err,
                      "ptrs_mod_2M": [x.data_ptr() % (2 << 20) for x in (q, k, v, o)]}), flush=True)
    del q, k, v, o
