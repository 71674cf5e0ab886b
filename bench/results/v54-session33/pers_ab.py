# A/B of attention kernels on the same random inputs (fp16, B4 H32 N4096 by
# default), SDPA's default backend in the same process for reference.
#   pers_ab.py VARIANT SOURCE KIND "bm,bn,w,s;..." ["d,causal;..."] [BxHxN]
# KIND "grid": one program per query block and head (the examples' grid:
# cdiv(N, BM) x B·H); "persistent": a kernel with a `heads` argument looping
# over tiles, launched on one program per SM (or "persistent:P" programs).
import json, math, os, sys
sys.path.insert(0, os.path.join(os.getcwd(), "bench"))
sys.path.insert(0, os.path.join(os.getcwd(), "python"))
import torch
import torch.nn.functional as F
import tile
from peers import timing
variant, source, kind = sys.argv[1:4]
configs = [tuple(int(x) for x in c.split(",")) for c in sys.argv[4].split(";")]
shapes = [(64, 0), (128, 0), (64, 1), (128, 1)]
if len(sys.argv) > 5:
    shapes = [tuple(int(x) for x in s.split(",")) for s in sys.argv[5].split(";")]
b, h, n = 4, 32, 4096
if len(sys.argv) > 6:
    b, h, n = (int(x) for x in sys.argv[6].split("x"))
sms = torch.cuda.get_device_properties(0).multi_processor_count
for d, causal in shapes:
    torch.manual_seed(0)
    q, k, v = (torch.randn(b, h, n, d, device="cuda", dtype=torch.float16) for _ in range(3))
    want = F.scaled_dot_product_attention(q, k, v, is_causal=bool(causal))
    flops = 4.0 * b * h * n * n * d * (0.5 if causal else 1.0)
    t = timing(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=bool(causal)))
    print(json.dumps({"variant": variant, "impl": "sdpa", "D": d, "causal": causal, "shape": [b, h, n],
                      "tflops": flops / t["ms"] / 1e9}), flush=True)
    mod = tile.compile(source, D=d, CAUSAL=causal)
    for bm, bn, w, s in configs:
        try:
            tuned = tile.autotune([tile.Config({"BM": bm, "BN": bn}, num_warps=w, num_stages=s)], key=["N"])(mod.attention)
            out = torch.full_like(q, float("nan"))
            tiles = tile.cdiv(n, bm) * b * h
            scale = 1.0 / math.sqrt(d)
            if kind == "grid":
                call = lambda: tuned[(tile.cdiv(n, bm), b * h)](q, k, v, out, n, scale)
            else:
                programs = int(kind.split(":")[1]) if ":" in kind else sms
                call = lambda: tuned[(min(programs, tiles),)](q, k, v, out, n, scale, b * h)
            call()
            torch.cuda.synchronize()
            err = (out.float() - want.float()).abs().max().item()
            nans = torch.isnan(out).sum().item()
            t = timing(call)
            print(json.dumps({"variant": variant, "impl": "tile", "D": d, "causal": causal, "config": [bm, bn, w, s],
                              "shape": [b, h, n], "ms": t["ms"], "tflops": flops / t["ms"] / 1e9, "maxerr": err,
                              "nans": nans}), flush=True)
        except Exception as e:
            print(json.dumps({"variant": variant, "impl": "tile", "D": d, "causal": causal, "config": [bm, bn, w, s],
                              "error": str(e)[:300]}), flush=True)
