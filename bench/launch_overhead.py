"""Host-side launch overhead from Python: a loop of launches of a tiny
vector add (16 elements, one block) whose GPU time is below the launch
cost, so the loop measures the host. tile (through the Python package),
torch.add and, with --triton, a Triton kernel, in interleaved rounds so that
clock drift hits all alike. Prints a JSON line per implementation with the
median, min and max over rounds (us per launch).

Run it in fresh processes: `python3 bench/launch_overhead.py` measures a
process that imports only torch and tile; `--triton` imports Triton first,
as a user comparing with it would.
"""
import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "python"))
EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                        "examples")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--triton", action="store_true",
                        help="import Triton and time its launch too")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--count", type=int, default=20000,
                        help="launches per round")
    args = parser.parse_args()
    if args.triton:
        import triton
        import triton.language as tl

        @triton.jit
        def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            mask = offs < n
            x = tl.load(x_ptr + offs, mask=mask)
            y = tl.load(y_ptr + offs, mask=mask)
            tl.store(out_ptr + offs, x + y, mask=mask)
    import torch
    import tile

    b = torch.randn(16, device="cuda")
    vector_add = tile.compile(os.path.join(EXAMPLES, "vector_add.tile"))
    launch = vector_add.vector_add[(1,)]
    impls = [("tile-py", lambda: launch(b, b, b, 16)),
             ("torch", lambda: torch.add(b, b, out=b))]
    if args.triton:
        impls.append(("triton",
                      lambda: add_kernel[(1,)](b, b, b, 16, BLOCK=1024)))
    for _, fn in impls:  # compile and warm up
        for _ in range(200):
            fn()
    torch.cuda.synchronize()
    times = {name: [] for name, _ in impls}
    for _ in range(args.rounds):
        for name, fn in impls:
            t0 = time.perf_counter()
            for _ in range(args.count):
                fn()
            times[name].append((time.perf_counter() - t0) / args.count * 1e6)
            torch.cuda.synchronize()
    imports = "torch+tile+triton" if args.triton else "torch+tile"
    for name, us in times.items():
        print(json.dumps({"impl": name, "kernel": "launch_us",
                          "shape": "host loop", "imports": imports,
                          "us": statistics.median(us), "min": min(us),
                          "max": max(us)}), flush=True)


if __name__ == "__main__":
    main()
