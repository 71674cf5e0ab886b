"""Host-side launch overhead from Python: loops of launches of a tiny
vector add (16 elements, one block). Each round starts on an idle GPU
(synchronized) and times fewer launches than the driver's queue holds, so
that no launch waits for the GPU and the loop measures the host alone.
tile (through the Python package), torch.add and, with --triton, a Triton
kernel, in interleaved rounds so that clock drift hits all alike. Prints a
JSON line per implementation with the median, min and max over rounds (us
per launch).

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


def breakdown(tile, launch, b, count):
    """Times each step of a tile launch alone (us per call, to stderr)."""
    kernel = launch.kernel
    call_args = (b, b, b, 16)
    kernel._fill(call_args)
    handle = kernel._default_handles[0]
    grid = launch.grid
    stream = tile._current_stream(0)
    steps = [
        ("whole launch", lambda: launch(b, b, b, 16)),
        ("argument checks (_fill)", lambda: kernel._fill(call_args)),
        ("tensor accessors x3", lambda: [(t.data_ptr(), t.get_device(),
                                          t.is_contiguous(), t.is_cuda)
                                         for t in call_args[:3]]),
        ("current stream", lambda: tile._current_stream(0)),
        ("ctypes + tile_kernel_launch",
         lambda: tile._launch(handle, grid, stream, kernel._args_address,
                              kernel._num_args)),
        ("a no-op ctypes call", lambda: tile._lib.tile_api_version()),
    ]
    import torch
    for name, fn in steps:
        rounds = []
        for _ in range(20):
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            for _ in range(count):
                fn()
            rounds.append((time.perf_counter() - t0) / count * 1e6)
        print("breakdown: %-28s %.2f us (median of 20 rounds)"
              % (name, statistics.median(rounds)), file=sys.stderr)
    torch.cuda.synchronize()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--triton", action="store_true",
                        help="import Triton and time its launch too")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--count", type=int, default=500,
                        help="launches per round (below the queue depth)")
    parser.add_argument("--breakdown", action="store_true",
                        help="also time the steps of a tile launch (stderr)")
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
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            for _ in range(args.count):
                fn()
            times[name].append((time.perf_counter() - t0) / args.count * 1e6)
    imports = "torch+tile+triton" if args.triton else "torch+tile"
    if args.breakdown:
        breakdown(tile, launch, b, args.count)
    for name, us in times.items():
        print(json.dumps({"impl": name, "kernel": "launch_us",
                          "shape": "host loop", "imports": imports,
                          "us": statistics.median(us), "min": min(us),
                          "max": max(us)}), flush=True)


if __name__ == "__main__":
    main()
