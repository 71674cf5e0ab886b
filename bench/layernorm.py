"""Layer norm forward and backward: examples/layernorm.tile from tile's
Python package, PyTorch's F.layer_norm (forward, and its backward through
its native backward kernel), and Triton's layer-norm tutorial kernels (forward; backward with
its lock-based partial sums and the final reduction), timed as
bench/peers.py does (do_bench medians, L2 cleared per run) on the same
random inputs. Each output is first checked against PyTorch's. GB/s count
the bytes a kernel must move: forward x read and y written (plus w, b,
mean, rstd), backward x and dy read and dx written (plus w, dw, db, mean,
rstd). JSON lines on stdout; run on the GPU machine:

    python3 bench/layernorm.py > layernorm.jsonl
    python3 bench/layernorm.py 8192x4096        # shapes as MxN
"""
import json
import os
import sys

import torch
import torch.nn.functional as F
import triton
import triton.language as tl

HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, "..", "python"))
import tile  # noqa: E402
from peers import (timing, emit, layernorm_triton_forward,  # noqa: E402
                   layernorm_triton_backward, LAYERNORM_EPS as EPS)



def tile_forward(mod, x, w, b):
    m, n = x.shape
    y = torch.full_like(x, float("nan"))
    mean = torch.empty(m, device=x.device, dtype=torch.float32)
    rstd = torch.empty(m, device=x.device, dtype=torch.float32)
    kernel = mod.layernorm_fwd_f16 if x.dtype == torch.float16 \
        else mod.layernorm_fwd
    return (lambda: kernel[(m,)](x, y, w, b, mean, rstd, n, EPS), y, mean,
            rstd)


def tile_backward(mod, dsum, dy, x, w, mean, rstd, rows_per_program):
    m, n = x.shape
    programs = triton.cdiv(m, rows_per_program)
    dx = torch.full_like(dy, float("nan"))
    dw_part = torch.empty((programs, n), device=x.device, dtype=torch.float32)
    db_part = torch.empty_like(dw_part)
    dw = torch.empty_like(w)
    db = torch.empty_like(w)
    half = x.dtype == torch.float16
    bwd = mod.layernorm_bwd_f16 if half else mod.layernorm_bwd
    final = dsum.layernorm_dwdb_f16 if half else dsum.layernorm_dwdb

    def call():
        bwd[(programs,)](dy, x, w, mean, rstd, dx, dw_part, db_part, m, n,
                         rows_per_program)
        final[(triton.cdiv(n, 64),)](dw_part, db_part, dw, db, programs, n)
    return call, dx, dw, db


def main():
    print(json.dumps({"impl": "layernorm", "machine": {
        "device": torch.cuda.get_device_name(), "tile": tile.version(),
        "torch": torch.__version__, "triton": triton.__version__}}),
        flush=True)
    example = os.path.join(HERE, "..", "examples", "layernorm.tile")
    shapes = [(8192, 1024), (8192, 4096), (8192, 8192), (4096, 3000)]
    if len(sys.argv) > 1:
        shapes = [tuple(int(x) for x in s.split("x")) for s in sys.argv[1:]]
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    dsum = tile.compile(example)
    for m, n in shapes:
        block = triton.next_power_of_2(n)
        warps = min(max(block // 256, 1), 8)
        mod = tile.compile(example, num_warps=warps, BLOCK=block)
        for dtype in (torch.float32, torch.float16):
            torch.manual_seed(0)
            x = torch.randn(m, n, device="cuda", dtype=dtype) * 2 + 1
            w = torch.rand(n, device="cuda", dtype=dtype) + 0.5
            b = torch.randn(n, device="cuda", dtype=dtype)
            dy = torch.randn(m, n, device="cuda", dtype=dtype)
            size = x.element_size()
            shape = "%dx%d %s" % (m, n, "f16" if size == 2 else "f32")
            tol = dict(atol=1e-2, rtol=1e-2) if size == 2 else \
                dict(atol=1e-4, rtol=1e-4)

            # Forward.
            want = F.layer_norm(x, (n,), w, b, EPS)
            call, y, mean, rstd = tile_forward(mod, x, w, b)
            call()
            torch.testing.assert_close(y, want, **tol)
            tcall, ty, _, _ = layernorm_triton_forward(x, w, b)
            tcall()
            torch.testing.assert_close(ty, want, **tol)
            nbytes = 2 * m * n * size + 2 * n * size + 8 * m
            emit("tile-py", "layernorm_fwd", shape, timing(call), nbytes)
            emit("torch", "layernorm_fwd", shape,
                 timing(lambda: F.layer_norm(x, (n,), w, b, EPS)), nbytes)
            emit("triton", "layernorm_fwd", shape, timing(tcall), nbytes)

            # Backward: PyTorch's own kernel (aten.native_layer_norm_backward,
            # what autograd runs, without autograd's overhead) on its saved
            # statistics; both others are checked against it.
            _, tmean, trstd = torch.ops.aten.native_layer_norm(x, (n,), w, b,
                                                               EPS)
            torch_bwd = lambda: torch.ops.aten.native_layer_norm_backward(
                dy, x, (n,), tmean, trstd, w, b, [True, True, True])
            gx, gw, gb = torch_bwd()
            best = None
            for rows in sorted({max(1, m // (k * sms)) for k in (1, 2, 4, 8)}):
                bcall, dx, dw, db = tile_backward(mod, dsum, dy, x, w, mean,
                                                  rstd, rows)
                bcall()
                torch.testing.assert_close(dx, gx, **tol)
                torch.testing.assert_close(dw.float(), gw.float(), atol=0.5,
                                           rtol=2e-2 if size == 2 else 1e-4)
                torch.testing.assert_close(db.float(), gb.float(), atol=0.5,
                                           rtol=2e-2 if size == 2 else 1e-4)
                t = timing(bcall)
                if best is None or t["ms"] < best[0]["ms"]:
                    best = (t, rows)
            nbytes = 3 * m * n * size + 3 * n * size + 8 * m
            emit("tile-py", "layernorm_bwd", shape, best[0], nbytes,
                 {"rows_per_program": best[1]})
            emit("torch", "layernorm_bwd", shape, timing(torch_bwd), nbytes)
            tbcall, tdx, tdw, tdb = layernorm_triton_backward(dy, x, w, mean, rstd)
            tbcall()
            torch.testing.assert_close(tdx, gx, **tol)
            emit("triton", "layernorm_bwd", shape, timing(tbcall), nbytes)
            del x, w, b, dy


if __name__ == "__main__":
    main()
