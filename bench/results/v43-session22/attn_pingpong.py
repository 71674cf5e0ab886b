# A/B probe: attention's 8-warp configurations timed alone, with and without
# the experimental warpgroup ping-pong (TILE_EXPERIMENT_PINGPONG, read when
# a kernel is lowered; the "pp" variant's source carries a trailing comment
# so that no cache mixes the two), alternating per configuration, on the
# same random inputs; SDPA's default in the same run for reference.
import json, math, os, sys
sys.path.insert(0, os.path.join(os.getcwd(), "bench"))
sys.path.insert(0, os.path.join(os.getcwd(), "python"))
import torch
import tile
from peers import timing
CONFIGS = [(128, 64, 8, 2), (128, 64, 8, 3), (128, 128, 8, 2), (128, 128, 8, 3),
           (128, 32, 8, 3)]
src = open("examples/attention.tile").read()
open("/tmp/attention_pp.tile", "w").write(src + "\n// ping-pong variant\n")
variants = [("base", "examples/attention.tile", False), ("pp", "/tmp/attention_pp.tile", True)]
shapes = [(64, 0), (128, 0), (64, 1), (128, 1)]
for d, causal in shapes:
    b, h, n = 4, 32, 4096
    torch.manual_seed(0)
    q, k, v = (torch.randn(b, h, n, d, device="cuda", dtype=torch.float16) for _ in range(3))
    want = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=bool(causal))
    flops = 4.0 * b * h * n * n * d * (0.5 if causal else 1.0)
    t = timing(lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=bool(causal)))
    print(json.dumps({"variant": "sdpa", "D": d, "causal": causal, "ms": t["ms"], "tflops": flops / t["ms"] / 1e9}), flush=True)
    mods = {name: tile.compile(path, D=d, CAUSAL=causal) for name, path, _ in variants}
    for rnd in (1, 2):
        for bm, bn, w, s in CONFIGS:
            for name, _, pp in (variants if rnd == 1 else variants[::-1]):
                if pp:
                    os.environ["TILE_EXPERIMENT_PINGPONG"] = "1"
                else:
                    os.environ.pop("TILE_EXPERIMENT_PINGPONG", None)
                try:
                    tuned = tile.autotune([tile.Config({"BM": bm, "BN": bn}, num_warps=w, num_stages=s)], key=["N"])(mods[name].attention)
                    out = torch.full_like(q, float("nan"))
                    call = lambda: tuned[(tile.cdiv(n, bm), b * h)](q, k, v, out, n, 1.0 / math.sqrt(d))
                    call()
                    err = (out.float() - want.float()).abs().max().item()
                    t = timing(call)
                    print(json.dumps({"variant": name, "round": rnd, "D": d, "causal": causal, "config": [bm, bn, w, s],
                                      "ms": t["ms"], "tflops": flops / t["ms"] / 1e9, "maxerr": err}), flush=True)
                except Exception as e:
                    print(json.dumps({"variant": name, "D": d, "causal": causal, "config": [bm, bn, w, s],
                                      "error": str(e)[:300]}), flush=True)
