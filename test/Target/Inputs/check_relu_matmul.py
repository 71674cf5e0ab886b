"""Checks C = relu(A B) dumped by tilec --run --dump (A: M x K f16, B: K x N
f16, C: M x N f32) against a double-precision reference, without NumPy.

  check_relu_matmul.py DIR M N K

prints the worst error relative to 1 + |reference| and OK when it is within
1e-4 (every element: one left at the fill value -1 fails).
"""
import ast
import struct
import sys


def load(path, code, size):
    data = open(path, "rb").read()
    (length,) = struct.unpack("<H", data[8:10])
    header = ast.literal_eval(data[10:10 + length].decode())
    count = (len(data) - 10 - length) // size
    return header["descr"], struct.unpack("<%d%s" % (count, code),
                                          data[10 + length:])


def main():
    folder = sys.argv[1]
    m, n, k = map(int, sys.argv[2:5])
    _, a = load(folder + "/a.npy", "e", 2)
    _, b = load(folder + "/b.npy", "e", 2)
    descr, c = load(folder + "/c.npy", "f", 4)
    assert descr == "<f4", descr
    worst = 0.0
    for i in range(m):
        for j in range(n):
            want = max(sum(a[i * k + t] * b[t * n + j] for t in range(k)), 0.0)
            err = abs(c[i * n + j] - want) / (1 + abs(want))
            worst = max(worst, err if err == err else float("inf"))
    print("worst relative error %.2e %s" % (worst,
                                            "OK" if worst <= 1e-4 else "BAD"))


main()
