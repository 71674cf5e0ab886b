# Kernels no example covers (survey/*.tile), each checked against an fp64
# (or exact) reference on fresh random inputs at sizes that are not multiples
# of the blocks, outputs poisoned first, then timed (autotuned over a few
# configurations) against PyTorch's call for the same result, L2 flushed
# (do_bench). One JSON line per kernel.
import json, math, os, sys
sys.path.insert(0, os.path.join(os.getcwd(), "bench"))
sys.path.insert(0, os.path.join(os.getcwd(), "python"))
import torch
import torch.nn.functional as F
import tile
from peers import timing
HERE = os.path.dirname(os.path.abspath(__file__))
torch.manual_seed(1)
dev = "cuda"

def mod(name, **c):
    return tile.compile(os.path.join(HERE, name + ".tile"), **c)

def report(name, ok, err, ours, theirs, nbytes, cfg):
    print(json.dumps({"kernel": name, "ok": bool(ok), "err": float(err),
                      "tile_ms": ours["ms"], "torch_ms": theirs["ms"],
                      "tile_GBs": nbytes / ours["ms"] / 1e6, "torch_GBs": nbytes / theirs["ms"] / 1e6,
                      "ratio": theirs["ms"] / ours["ms"], "config": cfg}), flush=True)

def tuned(kernel, configs):
    return tile.autotune([tile.Config(c, num_warps=w) for c, w in configs], key=[])(kernel)

def run(name, fn):
    try:
        fn()
    except Exception as e:
        print(json.dumps({"kernel": name, "error": repr(e)[:400]}), flush=True)

def transpose():
    M, N = 8191, 8191
    x = torch.randn(M, N, device=dev)
    y = torch.full((N, M), float("nan"), device=dev)
    k = tuned(mod("transpose").transpose, [({"BM": bm, "BN": bn}, w) for bm, bn, w in
              [(32, 32, 4), (64, 64, 4), (64, 64, 8), (128, 32, 4), (32, 128, 4), (128, 128, 8)]])
    g = lambda m: (tile.cdiv(M, m["BM"]), tile.cdiv(N, m["BN"]))
    call = lambda: k[g](x, y, M, N)
    call(); torch.cuda.synchronize()
    ok = torch.equal(y, x.t())
    report("transpose f32 8191^2", ok, 0, timing(call), timing(lambda: x.t().contiguous()), 2 * x.numel() * 4, k.last_config.text())

def xent():
    R, V = 4096, 50257
    z = torch.randn(R, V, device=dev, dtype=torch.float16) * 3
    t = torch.randint(0, V, (R,), device=dev, dtype=torch.int32)
    loss = torch.full((R,), float("nan"), device=dev)
    k = tuned(mod("xent").xent, [({"BLOCK": b}, w) for b, w in [(1024, 4), (2048, 4), (2048, 8), (4096, 8), (4096, 16)]])
    call = lambda: k[R](z, t, loss, V)
    call(); torch.cuda.synchronize()
    ref = F.cross_entropy(z.double(), t.long(), reduction="none")
    err = (loss.double() - ref).abs().max().item()
    tl = t.long()
    report("cross-entropy f16 4096x50257", err < 1e-3, err, timing(call),
           timing(lambda: F.cross_entropy(z, tl, reduction="none")), z.numel() * 2, k.last_config.text())

def embed():
    n, V, D = 8191, 50257, 4096
    table = torch.randn(V, D, device=dev, dtype=torch.bfloat16)
    ids = torch.randint(0, V, (n,), device=dev, dtype=torch.int64)
    out = torch.full((n, D), float("nan"), device=dev, dtype=torch.bfloat16)
    k = tuned(mod("embed").embed, [({"BI": bi, "BD": bd}, w) for bi, bd, w in [(16, 256, 4), (8, 512, 4), (4, 1024, 4), (32, 256, 8), (1, 4096, 8)]])
    g = lambda m: (tile.cdiv(n, m["BI"]), tile.cdiv(D, m["BD"]))
    call = lambda: k[g](ids, table, out, n, D)
    call(); torch.cuda.synchronize()
    ok = torch.equal(out, F.embedding(ids, table))
    report("embedding bf16 8191x4096 of 50257", ok, 0, timing(call), timing(lambda: F.embedding(ids, table)), 2 * out.numel() * 2, k.last_config.text())

def rope():
    rows, D = 65535, 128
    x = torch.randn(rows, D, device=dev, dtype=torch.bfloat16)
    y = torch.full_like(x, float("nan"))
    k = tuned(mod("rope", D=D).rope, [({"BR": br}, w) for br, w in [(16, 4), (32, 4), (64, 8), (8, 4)]])
    call = lambda: k[lambda m: (tile.cdiv(rows, m["BR"]),)](x, y, rows)
    call(); torch.cuda.synchronize()
    xd = x.double(); a, b = xd[:, 0::2], xd[:, 1::2]
    f = 10000.0 ** (-2 * torch.arange(D // 2, device=dev, dtype=torch.float64) / D)
    ang = torch.arange(rows, device=dev, dtype=torch.float64)[:, None] * f[None, :]
    ref = torch.empty_like(xd); ref[:, 0::2] = a * ang.cos() - b * ang.sin(); ref[:, 1::2] = a * ang.sin() + b * ang.cos()
    # Angles up to 65535 rad: f32 angle rounding (~4e-3 rad) bounds the error.
    err = (y.double() - ref).abs().max().item()
    pos = torch.arange(rows, device=dev, dtype=torch.float32)[:, None]
    ff = f.float()
    def torch_rope():
        xf = x.float(); ang32 = pos * ff[None, :]; c, s = ang32.cos(), ang32.sin()
        a32, b32 = xf[:, 0::2], xf[:, 1::2]
        return torch.stack((a32 * c - b32 * s, a32 * s + b32 * c), -1).flatten(1).bfloat16()
    err_torch = (torch_rope().double() - ref).abs().max().item()
    report("rope bf16 65535x128 (torch: eager ops)", err <= 2 * err_torch + 0.02, err, timing(call), timing(torch_rope), 2 * x.numel() * 2, k.last_config.text())

def quant():
    R, N = 8191, 4000
    x = torch.randn(R, N, device=dev)
    q = torch.full((R, N), 99, device=dev, dtype=torch.int8)
    s = torch.full((R,), float("nan"), device=dev)
    k = tuned(mod("quant").quant, [({"BLOCK": 4096}, w) for w in (4, 8, 16)])
    call = lambda: k[R](x, q, s, N)
    call(); torch.cuda.synchronize()
    sr = x.double().abs().amax(1).clamp_min(1e-12) / 127
    # The kernel rounds x / s + 0.5 in f32 (IEEE division): the same in f32
    # here, given its scale (an f64 quotient flips values at .5 boundaries).
    qr = torch.clamp(torch.floor(x / s[:, None] + 0.5), -127, 127)
    ok = torch.equal(q.float(), qr) and ((s.double() - sr).abs() / sr).max().item() < 1e-6
    def torch_quant():
        sc = x.abs().amax(1, keepdim=True).clamp_min(1e-12) / 127
        return torch.clamp(torch.floor(x / sc + 0.5), -127, 127).to(torch.int8), sc
    report("int8 row quantize f32 8191x4000 (torch: eager ops)", ok, 0, timing(call), timing(torch_quant), x.numel() * 5, k.last_config.text())

def hist():
    n, B = (1 << 24) - 3, 64
    x = torch.randint(-1000, 1000, (n,), device=dev, dtype=torch.int32)
    h = torch.zeros(B, device=dev, dtype=torch.int32)
    k = tuned(mod("hist", BINS=B).hist, [({"BLOCK": b}, w) for b, w in [(1024, 4), (4096, 4), (4096, 8)]])
    call = lambda: (h.zero_(), k[lambda m: (tile.cdiv(n, m["BLOCK"]),)](x, h, n))
    call(); call(); torch.cuda.synchronize()  # the first tunes on h
    ref = torch.bincount((x.long() % B), minlength=B)
    ok = torch.equal(h.long(), ref)
    xl = x.long()
    report("histogram i32 2^24-3 into 64 bins (torch: bincount of x % 64)", ok, 0, timing(call),
           timing(lambda: torch.bincount(torch.remainder(x, B), minlength=B)), n * 4, k.last_config.text())

def hist_private():
    n, B = (1 << 24) - 3, 64
    x = torch.randint(-1000, 1000, (n,), device=dev, dtype=torch.int32)
    h = torch.zeros(B, device=dev, dtype=torch.int32)
    programs = 4 * torch.cuda.get_device_properties(0).multi_processor_count
    per = tile.cdiv(n, programs)
    k = tuned(mod("hist_private", BINS=B).hist_private, [({"CHUNK": c}, w) for c, w in [(128, 4), (256, 4), (256, 8), (512, 8)]])
    call = lambda: (h.zero_(), k[programs](x, h, n, per))
    call(); call(); torch.cuda.synchronize()  # the first tunes on h
    ref = torch.bincount((x.long() % B), minlength=B)
    ok = torch.equal(h.long(), ref)
    report("histogram, per-program counts (hist_private.tile)", ok, 0, timing(call),
           timing(lambda: torch.bincount(torch.remainder(x, B), minlength=B)), n * 4, k.last_config.text())

def top2():
    T, E = 65533, 8
    z = torch.randn(T, E, device=dev)
    idx = torch.full((T, 2), -1, device=dev, dtype=torch.int32)
    w = torch.full((T, 2), float("nan"), device=dev)
    k = tuned(mod("moe", E=E).top2, [({"BT": bt}, nw) for bt, nw in [(32, 1), (64, 2), (128, 4), (256, 4)]])
    call = lambda: k[lambda m: (tile.cdiv(T, m["BT"]),)](z, idx, w, T)
    call(); torch.cuda.synchronize()
    p = torch.softmax(z.double(), 1)
    tv, ti = p.topk(2, 1)
    ok = torch.equal(idx.long(), ti) and ((w.double() - tv / tv.sum(1, keepdim=True)).abs().max().item() < 1e-6)
    def torch_top2():
        tv, ti = torch.softmax(z, 1).topk(2, 1)
        return tv / tv.sum(1, keepdim=True), ti
    report("top-2 routing 65533x8 (torch: softmax, topk, divide)", ok, 0, timing(call), timing(torch_top2), z.numel() * 4 + T * 16, k.last_config.text())

def colcumsum():
    M, N = 4093, 4099
    x = torch.randn(M, N, device=dev, dtype=torch.float16)
    y = torch.full((M, N), float("nan"), device=dev)
    k = tuned(mod("colcumsum").colcumsum, [({"BM": bm, "BN": bn}, w) for bm, bn, w in [(32, 64, 4), (64, 32, 4), (16, 128, 4), (128, 16, 4), (32, 32, 2)]])
    call = lambda: k[lambda m: (tile.cdiv(N, m["BN"]),)](x, y, M, N)
    call(); torch.cuda.synchronize()
    ref = torch.cumsum(x.double(), 0)
    err = ((y.double() - ref).abs() / (1 + ref.abs())).max().item()
    report("column cumsum f16 4093x4099 -> f32", err < 1e-4, err, timing(call), timing(lambda: torch.cumsum(x, 0, dtype=torch.float32)), x.numel() * 6, k.last_config.text())

def softmax_f16():
    R, n = 8191, 3000
    x = torch.randn(R, n, device=dev, dtype=torch.float16) * 4
    y = torch.full_like(x, float("nan"))
    k = tuned(mod("softmax_f16").softmax_f16, [({"BLOCK": 4096}, w) for w in (4, 8, 16)])
    call = lambda: k[R](y, x, n)
    call(); torch.cuda.synchronize()
    err = (y.double() - torch.softmax(x.double(), 1)).abs().max().item()
    report("softmax f16 8191x3000", err < 1e-3, err, timing(call), timing(lambda: torch.softmax(x, 1)), 2 * x.numel() * 2, k.last_config.text())

import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BN": bn, "BK": bk}, num_warps=w, num_stages=st)
                          for bn, bk, w in [(16, 256, 4), (8, 512, 4), (32, 128, 4), (16, 512, 8), (4, 1024, 4)]
                          for st in (1, 3)], key=["N", "K"])
@triton.jit
def triton_gemv(w, x, y, N, K, BN: tl.constexpr, BK: tl.constexpr):
    rn = tl.program_id(0) * BN + tl.arange(0, BN)
    rk0 = tl.arange(0, BK)
    acc = tl.zeros([BN, BK], dtype=tl.float32)
    for start in range(0, K, BK):
        rk = start + rk0
        mask = (rn[:, None] < N) & (rk[None, :] < K)
        wv = tl.load(w + rn[:, None] * K + rk[None, :], mask=mask, other=0.0).to(tl.float32)
        xv = tl.load(x + rk, mask=rk < K, other=0.0).to(tl.float32)
        acc += wv * xv[None, :]
    tl.store(y + rn, tl.sum(acc, axis=1), mask=rn < N)


def gemv_prefetch():
    gemv("gemv_prefetch")


def gemv_ptr():
    gemv("gemv_ptr")


def gemv(name="gemv"):
    N, K = 16383, 8191
    w = torch.randn(N, K, device=dev, dtype=torch.float16)
    x = torch.randn(K, device=dev, dtype=torch.float16)
    y = torch.full((N,), float("nan"), device=dev)
    k = tuned(getattr(mod(name), name), [({"BN": bn, "BK": bk}, nw) for bn, bk, nw in [(16, 256, 4), (8, 512, 4), (32, 128, 4), (16, 512, 8), (4, 1024, 4)]])
    call = lambda: k[lambda m: (tile.cdiv(N, m["BN"]),)](w, x, y, N, K)
    call(); torch.cuda.synchronize()
    ref = w.double() @ x.double()
    err = ((y.double() - ref).abs() / (1 + ref.abs())).max().item()
    ours = timing(call)
    report(name + " f16 16383x8191 (torch: W @ x)", err < 1e-3, err, ours, timing(lambda: w @ x), w.numel() * 2, k.last_config.text())
    yt = torch.full_like(y, float("nan"))
    tcall = lambda: triton_gemv[lambda m: (triton.cdiv(N, m["BN"]),)](w, x, yt, N, K)
    tcall(); torch.cuda.synchronize()
    terr = ((yt.double() - ref).abs() / (1 + ref.abs())).max().item()
    report(name + " against Triton's gemv (same loop)", terr < 1e-3, terr, ours, timing(tcall), w.numel() * 2, str(triton_gemv.best_config))

for name in sys.argv[1:] or ["transpose", "xent", "embed", "rope", "quant", "hist", "hist_private", "top2", "colcumsum", "softmax_f16", "gemv", "gemv_prefetch", "gemv_ptr"]:
    run(name, globals()[name])
