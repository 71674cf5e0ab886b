"""An independent model of unsigned_ops in unsigned.tile, with Python's
integers: `unsigned_model.py BIG` prints the buffers as `tilec --run
--print-all` does for 37 elements in blocks of 16 (x and y given by iota)."""
import struct
import sys

n, BLOCK, big = 37, 16, int(sys.argv[1])
M32, M64 = (1 << 32) - 1, (1 << 64) - 1
def f32(v): return struct.unpack('<f', struct.pack('<f', v))[0]
def f2u(v): return 0 if v <= 0 else min(int(v), M32)
prog = (n + BLOCK - 1) // BLOCK
o = [0] * (8 * n + 1); w = [0] * (n + 1); f = [0.0] * (n + 1)
red = [0] * (4 * prog + 1); top = [0] * 5
for p in range(prog):
    rs = [p * BLOCK + e for e in range(BLOCK)]
    A = []
    for r in rs:
        m = r < n
        a = (r * 2654435761) & M32 if m else 0   # x = iota
        b = (r & 255) if m else 0                # y = iota (u8)
        A.append((a, m))
        if not m: continue
        b32 = b + 1
        o[8*r] = a // b32; o[8*r+1] = a % b32; o[8*r+2] = a >> (b32 & 31)
        o[8*r+3] = (a > big) + (a >= b32) * 2 + (b > 200) * 4
        o[8*r+4] = (max(a, big) - min(a, (b32 * 1000000) & M32)) & M32
        o[8*r+5] = (min(max(a, b32), big) + ((a * big) >> 32)) & M32
        o[8*r+6] = ((-(-a // b32)) * 3 - a) & M32
        o[8*r+7] = f2u(f32(f32(float(a)) * 0.75)) ^ ((b - 100) & M32)
        w[r] = (a * a + (b << 40) - (a >> 7)) & M64
        f[r] = f32(f32(float(a)) + f32(b * 0.5))
        top[r % 4] = max(top[r % 4], a)
    vals = [a if m else 0 for a, m in A]
    red[4*p] = max(vals)
    red[4*p+1] = min(a if m else big for a, m in A)
    red[4*p+2] = vals.index(max(vals))
    s = 0
    i = big % 7 + 3
    while i > 1:
        s = (s * 3 + i) & M32; i -= 1
    for j in range(big - 3, big):
        s = (s + j) & M32
    red[4*p+3] = (s + sum(vals)) & M32
for name, kind, values in (("o", "u32", o), ("w", "u64", w), ("f", "f32", f),
                           ("red", "u32", red), ("top", "u32", top)):
    text = ["%g" % v if kind == "f32" else str(v) for v in values]
    print("%s: %s[%d] = %s" % (name, kind, len(values), " ".join(text)))
