"""Checks the output of examples/attention.tile or attention_fa3.tile
(dumped by tilec --run --dump) against softmax(Q Kᵀ scale) V in double
precision, without NumPy.

  attention_reference.py DIR HEADS N D SCALE CAUSAL

prints the worst error relative to the weighted mean of |V| and OK when it
is within 1e-2 (P is rounded to f16 before the second dot).
"""
import ast
import math
import struct
import sys


def load(path):
    data = open(path, "rb").read()
    (length,) = struct.unpack("<H", data[8:10])
    header = ast.literal_eval(data[10:10 + length].decode())
    assert header["descr"] == "<f2", header
    count = (len(data) - 10 - length) // 2
    return struct.unpack("<%de" % count, data[10 + length:])


def main():
    folder, heads, n, d = sys.argv[1], *map(int, sys.argv[2:5])
    scale, causal = float(sys.argv[5]), sys.argv[6] == "1"
    q, k, v, o = (load("%s/%s.npy" % (folder, name)) for name in "qkvo")
    worst = 0.0
    for h in range(heads):
        base = h * n * d
        for i in range(n):
            keys = i + 1 if causal else n
            s = [scale * sum(q[base + i * d + t] * k[base + j * d + t]
                             for t in range(d)) for j in range(keys)]
            top = max(s)
            p = [math.exp(x - top) for x in s]
            total = sum(p)
            for t in range(d):
                want = sum(p[j] * v[base + j * d + t] for j in range(keys))
                size = sum(p[j] * abs(v[base + j * d + t])
                           for j in range(keys))
                got = o[base + i * d + t]
                err = abs(got - want / total) / (size / total)
                worst = max(worst, err if err == err else math.inf)
    print("worst relative error %.2e %s" % (worst,
                                            "OK" if worst <= 1e-2 else "BAD"))


main()
