"""An independent model of batched_dot.tile: `batched_dot_model.py DIR B M K
N` reads the buffers tilec --run --dump wrote to DIR and prints the output
as --print-all does (sums rounded to f32 after each addition, in k order,
as the interpreter keeps them)."""
import os
import struct
import subprocess
import sys

here = os.path.dirname(__file__)
d, B, M, K, N = sys.argv[1], *map(int, sys.argv[2:6])


def read(name):
    out = subprocess.run([sys.executable, os.path.join(here, "npy.py"), "read",
                          os.path.join(d, name + ".npy")],
                         capture_output=True, text=True, check=True).stdout
    return [float(v) for v in out.split(":", 1)[1].split()]


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


a, b, c = read("a"), read("b"), read("c")
o = []
for i in range(B):
    for m in range(M):
        for n in range(N):
            s = c[(i * M + m) * N + n]
            for k in range(K):
                s = f32(s + a[(i * M + m) * K + k] * b[(i * N + n) * K + k])
            o.append(s)
print("o: f32[%d] = %s" % (len(o), " ".join("%g" % v for v in o)))
