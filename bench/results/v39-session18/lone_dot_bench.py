# A dot outside loops (one block of K) on sm_90a: num_stages 3 (operands
# staged once for warpgroup MMAs) against 1 (nothing staged: mma.sync),
# each configuration timed alone, and PyTorch's relu(a @ b) on the same
# random inputs; do_bench medians with L2 cleared.
import json, os, sys
sys.path.insert(0, os.path.join(os.getcwd(), "bench"))
sys.path.insert(0, os.path.join(os.getcwd(), "python"))
import torch
import tile
from peers import timing
src = os.path.join(os.path.dirname(__file__), "lone_dot.tile")
mod = tile.compile(src)
for m, n, k in [(8192, 8192, 64), (16384, 4096, 64), (8192, 8192, 32)]:
    torch.manual_seed(0)
    a = torch.randn(m, k, device="cuda", dtype=torch.float16)
    b = torch.randn(k, n, device="cuda", dtype=torch.float16)
    want = torch.relu(a @ b)
    flops = 2.0 * m * n * k
    t = timing(lambda: torch.relu(a @ b))
    print(json.dumps({"impl": "torch", "shape": [m, n, k], "ms": t["ms"], "tflops": flops / t["ms"] / 1e9}), flush=True)
    for bm, bn, w in [(128, 128, 4), (128, 256, 8), (64, 128, 4)]:
        for stages in (1, 3):
            tuned = tile.autotune([tile.Config({"BM": bm, "BN": bn, "BK": 64}, num_warps=w, num_stages=stages)], key=["M"])(mod.lone_dot)
            c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16)
            call = lambda: tuned[(tile.cdiv(m, bm), tile.cdiv(n, bn))](a, b, c, m, n, k, k, n, n)
            call()
            err = (c.float() - want.float()).abs().max().item()
            t = timing(call)
            print(json.dumps({"impl": "tile", "shape": [m, n, k], "config": [bm, bn, w, stages], "ms": t["ms"],
                              "tflops": flops / t["ms"] / 1e9, "maxerr": err}), flush=True)
