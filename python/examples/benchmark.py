"""The three examples launched from Python on torch tensors, timed like
bench/peers.py (triton.testing.do_bench: medians, L2 cleared before each
run) on the same shapes, plus the launch overhead of a host loop. Prints
JSON lines with impl "tile-py"; run bench/peers.py in the same job for the
peers, and bench/report.py to join them (--plot DIR writes PNGs).

    python3 python/examples/benchmark.py > py.jsonl
"""
import argparse
import json
import os
import sys
import time

import torch
import triton

from _common import EXAMPLES, HERE
import tile
from softmax import softmax
from vector_add import mod as vector_add_module
from matmul_relu import tuned as matmul_tuned

sys.path.insert(0, os.path.join(HERE, "..", "..", "bench"))
from peers import timing, emit, emit_flops  # noqa: E402  the same measure


def vector_adds():
    for n in [2**20, 2**24, 2**26 + 3, 2**28]:
        x = torch.randn(n, device="cuda")
        y = torch.randn(n, device="cuda")
        out = torch.empty_like(x)
        launch = vector_add_module.vector_add[(tile.cdiv(n, 1024),)]
        launch(x, y, out, n)
        torch.testing.assert_close(out, x + y, rtol=0, atol=0)
        emit("tile-py", "vector_add", str(n),
             timing(lambda: launch(x, y, out, n)), 12.0 * n)
        del x, y, out


def softmaxes():
    for rows, cols in [(8192, 1024), (8192, 4096), (4096, 16384), (16384, 781)]:
        x = torch.randn(rows, cols, device="cuda")
        torch.testing.assert_close(softmax(x), torch.softmax(x, dim=1))
        emit("tile-py", "softmax", f"{rows}x{cols}",
             timing(lambda: softmax(x)), 8.0 * rows * cols)


def matmuls():
    for size in [1024, 4096, 8192]:
        a = torch.randn(size, size, device="cuda", dtype=torch.float16)
        b = torch.randn(size, size, device="cuda", dtype=torch.float16)
        c = torch.empty(size, size, device="cuda", dtype=torch.float16)
        grid = lambda meta: (tile.cdiv(size, meta["BM"]),
                             tile.cdiv(size, meta["BN"]))
        call = lambda: matmul_tuned[grid](a, b, c, size, size, size, size,
                                          size, size)
        call()  # tunes
        torch.testing.assert_close(c, torch.relu(a @ b), rtol=2e-2, atol=0.5)
        t = timing(call)
        print(json.dumps({"impl": "tile-py", "kernel": "matmul_f16",
                          "shape": f"{size}x{size}x{size}", **t,
                          "tflops": 2.0 * size**3 / t["ms"] / 1e9,
                          "config": matmul_tuned.last_config.text()}),
              flush=True)


def launches():
    b = torch.zeros(16, device="cuda")
    launch = vector_add_module.vector_add[(1,)]
    for _ in range(100):
        launch(b, b, b, 16)
    torch.cuda.synchronize()
    count = 20000
    t0 = time.perf_counter()
    for _ in range(count):
        launch(b, b, b, 16)
    us = (time.perf_counter() - t0) / count * 1e6
    torch.cuda.synchronize()
    print(json.dumps({"impl": "tile-py", "kernel": "launch_us",
                      "shape": "host loop", "us": us}), flush=True)
    # Where the time goes: the argument checks alone, and PyTorch's
    # accessors they call (to stderr).
    kernel, args = vector_add_module.vector_add, (b, b, b, 16)
    for what, fn in [("checks (_fill)", lambda: kernel._fill(args)),
                     ("data_ptr+get_device+is_contiguous x3",
                      lambda: [(t.data_ptr(), t.get_device(),
                                t.is_contiguous()) for t in args[:3]]),
                     ("current stream", lambda: tile._current_stream(0))]:
        t0 = time.perf_counter()
        for _ in range(count):
            fn()
        print("launch breakdown: %s %.2f us" % (
            what, (time.perf_counter() - t0) / count * 1e6), file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="vector_add,softmax,matmul,launch")
    only = parser.parse_args().only.split(",")
    print(json.dumps({"impl": "tile-py", "machine": {
        "device": torch.cuda.get_device_name(), "tile": tile.version(),
        "torch": torch.__version__}}), flush=True)
    for name, fn in [("vector_add", vector_adds), ("softmax", softmaxes),
                     ("matmul", matmuls), ("launch", launches)]:
        if name in only:
            fn()


if __name__ == "__main__":
    main()
