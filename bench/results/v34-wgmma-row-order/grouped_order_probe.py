import sys, torch, triton
sys.path.insert(0, "python")
import tile
src = open("examples/matmul_relu.tile").read()
old = """  let rm = program_id(0) * BM + range(0, BM);
  let rn = program_id(1) * BN + range(0, BN);"""
new = """  let pid = program_id(1) * num_programs(0) + program_id(0);
  let group = GROUP_M * num_programs(1);
  let first_m = pid / group * GROUP_M;
  let size_m = minimum(num_programs(0) - first_m, GROUP_M);
  let rm = (first_m + pid % group % size_m) * BM + range(0, BM);
  let rn = pid % group / size_m * BN + range(0, BN);"""
assert old in src
grouped = src.replace(old, new).replace("const BK: i32 = 32)", "const BK: i32 = 32, const GROUP_M: i32 = 8)")
def bench(fn):
    return triton.testing.do_bench(fn, warmup=25, rep=200, return_mode="median")
for m in (4096, 8192, 3000):
    a = torch.randn(m, m, device="cuda", dtype=torch.float16)
    b = torch.randn(m, m, device="cuda", dtype=torch.float16)
    ref = torch.relu(a.float() @ b.float())
    for name, s, extra in (("plain", src, {}), ("grouped8", grouped, {"GROUP_M": 8}), ("grouped4", grouped, {"GROUP_M": 4}), ("grouped16", grouped, {"GROUP_M": 16})):
        c = torch.full((m, m), float("nan"), device="cuda", dtype=torch.float16)
        k = tile.compile(s, BM=128, BN=256, BK=64, num_warps=8, num_stages=4, arch="sm_90a", **extra).matmul_relu
        g = (triton.cdiv(m, 128), triton.cdiv(m, 256))
        f = lambda: k[g](a, b, c, m, m, m, m, m, m)
        f(); torch.cuda.synchronize()
        err = ((c.float() - ref).abs().max() / ref.abs().max()).item()
        ms = bench(f)
        print(f"{name} m={m} {2*m**3/ms/1e9:.1f} TFLOP/s relerr {err:.2e}", flush=True)
    t = bench(lambda: torch.relu(a @ b))
    print(f"torch m={m} {2*m**3/t/1e9:.1f}", flush=True)
