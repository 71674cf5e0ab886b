"""Inputs for and an independent model of matmul_strided_i8.tile (C = A @ B
+ C0 with i8 inputs and i32 sums that wrap), without NumPy.

  int8_dot_model.py gen DIR SEED M N K ORDER   writes a, b, c0 (.npy)
  int8_dot_model.py check DIR M N K ORDER      compares DIR/out/c.npy

ORDER is NN or TN (A given K x M); C and C0 are M x N. C0 holds values
near both ends of i32, so some sums wrap. check prints the first mismatches
and "N mismatches", or "OK".
"""
import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(__file__))
import npy  # noqa: E402


def read(path):
    data = open(path, "rb").read()
    (length,) = struct.unpack("<H", data[8:10])
    count = (len(data) - 10 - length) // 4
    return list(struct.unpack("<%di" % count, data[10 + length:]))


def read_i8(path):
    data = open(path, "rb").read()
    (length,) = struct.unpack("<H", data[8:10])
    return list(struct.unpack("<%db" % (len(data) - 10 - length),
                              data[10 + length:]))


def wrap(v):
    return (v + 2**31) % 2**32 - 2**31


def main():
    mode, folder = sys.argv[1], sys.argv[2]
    if mode == "gen":
        seed = int(sys.argv[3])
        m, n, k = map(int, sys.argv[4:7])
        rng = random.Random(seed)
        os.makedirs(folder, exist_ok=True)
        npy.write(folder + "/a.npy", "|i1",
                  [rng.randint(-128, 127) for _ in range(m * k)])
        npy.write(folder + "/b.npy", "|i1",
                  [rng.randint(-128, 127) for _ in range(k * n)])
        ends = [2**31 - 1 - rng.randint(0, 2**20) if i % 3 == 0 else
                -2**31 + rng.randint(0, 2**20) if i % 3 == 1 else
                rng.randint(-2**31, 2**31 - 1) for i in range(m * n)]
        npy.write(folder + "/c0.npy", "<i4", ends)
        return
    m, n, k = map(int, sys.argv[3:6])
    order = sys.argv[6]
    a, b = read_i8(folder + "/a.npy"), read_i8(folder + "/b.npy")
    c0, c = read(folder + "/c0.npy"), read(folder + "/out/c.npy")

    def at(i, kk):
        return a[kk * m + i] if order == "TN" else a[i * k + kk]

    bad, wrapped = 0, 0
    for i in range(m):
        for j in range(n):
            exact = c0[i * n + j] + sum(at(i, kk) * b[kk * n + j]
                                        for kk in range(k))
            want = wrap(exact)
            wrapped += want != exact
            if c[i * n + j] != want:
                bad += 1
                if bad <= 5:
                    print("c[%d, %d] = %d, want %d" % (i, j, c[i * n + j],
                                                       want))
    if wrapped == 0:
        print("no sum wrapped")
    print("%d mismatches" % bad if bad else "OK")


if __name__ == "__main__":
    main()
