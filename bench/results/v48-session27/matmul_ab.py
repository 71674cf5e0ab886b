# A/B: examples/matmul_relu.tile (f16, 4096^3, TMA stages on sm_90a) at the
# two configurations of the default list whose PTX tile-defer-dot-waits
# changes (two stages: the copies run beside the MMAs) and one it leaves as
# it was (control), each timed alone with the libtile.so that TILE_LIBRARY
# names; PyTorch's relu(a @ b) for reference.
import json, os, sys
sys.path.insert(0, os.path.join(os.getcwd(), "bench"))
sys.path.insert(0, os.path.join(os.getcwd(), "python"))
import torch
import tile
from peers import timing
variant = sys.argv[1]
M = N = K = 4096
torch.manual_seed(0)
a = torch.randn(M, K, device="cuda", dtype=torch.float16)
b = torch.randn(K, N, device="cuda", dtype=torch.float16)
want = torch.relu(a @ b)
flops = 2.0 * M * N * K
t = timing(lambda: torch.relu(a @ b))
print(json.dumps({"variant": variant, "config": "torch", "tflops": flops / t["ms"] / 1e9}), flush=True)
mod = tile.compile("examples/matmul_relu.tile")
for bm, bn, bk, w, s in ((256, 64, 32, 4, 2), (64, 256, 32, 4, 2), (128, 256, 64, 8, 4)):
    tuned = tile.autotune([tile.Config(dict(BM=bm, BN=bn, BK=bk), num_warps=w, num_stages=s)], key=["M"])(mod.matmul_relu)
    c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16)
    call = lambda: tuned[(tile.cdiv(M, bm), tile.cdiv(N, bn))](a, b, c, M, N, K, K, N, N)
    call()
    torch.cuda.synchronize()
    err = (c.float() - want.float()).abs().max().item()
    t = timing(call)
    print(json.dumps({"variant": variant, "config": [bm, bn, bk, w, s], "tflops": flops / t["ms"] / 1e9, "maxerr": err}), flush=True)
