"""Many small matrix products, C[g] = A[g] @ B[g] (f16 in, f32 sums, f16
out), G of them at once: tile's batched (3-D) dot with BB matrices per
program (test/Interpreter/Inputs/batched_dot.tile's form, BB in 1..8), tile's
2-D dot with one matrix per program, PyTorch's torch.bmm and a Triton
kernel (one matrix per program, autotuned over warps and stages), timed as
bench/peers.py does (do_bench medians, L2 cleared per run) on the same
random inputs; every output is first checked against an fp32 torch.bmm.
TFLOP/s count 2 G M N K. JSON lines on stdout; run on the GPU machine:

    python3 bench/batched_dot.py > batched_dot.jsonl
"""
import os
import sys

import torch
import triton
import triton.language as tl

HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, "..", "python"))
import tile  # noqa: E402
from peers import emit_flops, timing  # noqa: E402

SOURCE = """
kernel batched(a: ptr<f16>, b: ptr<f16>, c: ptr<f16>, const BB: i32 = 2,
               const M: i32 = 64, const K: i32 = 64, const N: i32 = 64) {
  let g = program_id(0) * BB + range(0, BB)[:, None, None];
  let m = range(0, M)[None, :, None];
  let k = range(0, K)[None, None, :];
  let kr = range(0, K)[None, :, None];
  let n = range(0, N)[None, None, :];
  let x = load(a + g * (M * K) + m * K + k);
  let y = load(b + g * (K * N) + kr * N + n);
  store(c + g * (M * N) + m * N + n, cast(dot(x, y), f16));
}

kernel single(a: ptr<f16>, b: ptr<f16>, c: ptr<f16>, const M: i32 = 64,
              const K: i32 = 64, const N: i32 = 64) {
  let g = program_id(0);
  let m = range(0, M)[:, None];
  let k = range(0, K)[None, :];
  let kr = range(0, K)[:, None];
  let n = range(0, N)[None, :];
  let x = load(a + g * (M * K) + m * K + k);
  let y = load(b + g * (K * N) + kr * N + n);
  store(c + g * (M * N) + m * N + n, cast(dot(x, y), f16));
}
"""


@triton.autotune(configs=[triton.Config({}, num_warps=w, num_stages=s)
                          for w in (1, 2, 4, 8) for s in (1, 2, 3)],
                 key=["M", "N", "K"])
@triton.jit
def triton_bmm(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr,
               K: tl.constexpr):
    g = tl.program_id(0)
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    k = tl.arange(0, K)
    x = tl.load(a_ptr + g * M * K + m[:, None] * K + k[None, :])
    y = tl.load(b_ptr + g * K * N + k[:, None] * N + n[None, :])
    tl.store(c_ptr + g * M * N + m[:, None] * N + n[None, :],
             tl.dot(x, y).to(tl.float16))


def main():
    torch.manual_seed(0)
    for groups, m, n, k in ((16384, 64, 64, 64), (65536, 32, 32, 32),
                            (8192, 128, 128, 64)):
        a = torch.randn(groups, m, k, device="cuda", dtype=torch.float16)
        b = torch.randn(groups, k, n, device="cuda", dtype=torch.float16)
        want = torch.bmm(a.float(), b.float())
        flops = 2.0 * groups * m * n * k
        shape = "%dx%dx%dx%d" % (groups, m, n, k)

        def check(impl, c):
            err = (c.float() - want).abs().max().item()
            assert err <= 2e-2 * want.abs().max().item(), (impl, shape, err)

        c = torch.empty(groups, m, n, device="cuda", dtype=torch.float16)

        def fastest(impl, candidates):
            """The timing and label of the fastest of (label, launch)
            pairs; those that do not compile (too many elements per
            thread) are skipped."""
            best = None
            for label, run in candidates:
                try:
                    run()
                except tile.TileError:
                    continue
                check(impl, c)
                t = timing(run)
                if best is None or t["ms"] < best[0]["ms"]:
                    best = (t, label)
            return best

        mod = tile.compile(SOURCE, M=m, N=n, K=k)
        t, label = fastest("tile 2-D", [
            ("warps %d" % w, (lambda w: lambda: mod.single[(groups,)](
                a, b, c, num_warps=w))(w)) for w in (1, 2, 4, 8)])
        emit_flops("tile", "bmm 2-D dot (%s)" % label, shape, t, flops)
        batched = {bb: tile.compile(SOURCE, BB=bb, M=m, N=n, K=k)
                   for bb in (1, 2, 4, 8)}
        t, label = fastest("tile 3-D", [
            ("BB %d warps %d" % (bb, w),
             (lambda bb, w: lambda: batched[bb].batched[(groups // bb,)](
                 a, b, c, num_warps=w))(bb, w))
            for bb in (1, 2, 4, 8) for w in (1, 2, 4, 8)])
        emit_flops("tile", "bmm 3-D dot (%s)" % label, shape, t, flops)
        torch.bmm(a, b, out=c)
        check("torch", c)
        emit_flops("torch", "bmm", shape,
                   timing(lambda: torch.bmm(a, b, out=c)), flops)
        triton_bmm[(groups,)](a, b, c, m, n, k)
        check("triton", c)
        emit_flops("triton", "bmm", shape,
                   timing(lambda: triton_bmm[(groups,)](a, b, c, m, n, k)),
                   flops)


if __name__ == "__main__":
    main()
