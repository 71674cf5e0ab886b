# Sustained attention calls (about SECONDS s back to back, no L2 flush) for
# reading clocks and power beside them: "grid" (examples/attention.tile
# 64x128/4/2), "persistent" (examples/attention_persistent.tile 128x128/8/2
# on one program per SM) or "sdpa"; B4 H32 N4096, D and causal from argv.
# Prints the mean time per call over the last half.
import json, math, os, sys, time
sys.path.insert(0, os.path.join(os.getcwd(), "python"))
import torch
import torch.nn.functional as F
import tile
impl, d, causal, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
b, h, n = 4, 32, 4096
torch.manual_seed(0)
q, k, v = (torch.randn(b, h, n, d, device="cuda", dtype=torch.float16) for _ in range(3))
o = torch.empty_like(q)
scale = 1.0 / math.sqrt(d)
if impl == "sdpa":
    call = lambda: F.scaled_dot_product_attention(q, k, v, is_causal=bool(causal))
elif impl == "grid":
    mod = tile.compile("examples/attention.tile", D=d, CAUSAL=causal)
    t = tile.autotune([tile.Config({"BM": 64, "BN": 128}, num_warps=4, num_stages=2)], key=["N"])(mod.attention)
    call = lambda: t[(tile.cdiv(n, 64), b * h)](q, k, v, o, n, scale)
else:
    mod = tile.compile("examples/attention_persistent.tile", D=d, CAUSAL=causal)
    t = tile.autotune([tile.Config({"BM": 128, "BN": 128}, num_warps=8, num_stages=2)], key=["N"])(mod.attention)
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    call = lambda: t[(sms,)](q, k, v, o, n, scale, b * h)
call(); torch.cuda.synchronize()
start = time.time(); times = []
while time.time() - start < seconds:
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    e0.record()
    for _ in range(20):
        call()
    e1.record(); torch.cuda.synchronize()
    times.append(e0.elapsed_time(e1) / 20)
half = times[len(times) // 2:]
flops = 4.0 * b * h * n * n * d * (0.5 if causal else 1.0)
ms = sorted(half)[len(half) // 2]
print(json.dumps({"impl": impl, "D": d, "causal": causal, "ms": ms, "tflops": flops / ms / 1e9, "batches": len(times)}), flush=True)
