"""Checks the output of test/Interpreter/Inputs/combine.tile (dumped by
tilec --run --dump) against an independent model of the kernel, exactly,
without NumPy.

  combine_model.py DIR R C M

prints the first mismatches and "N mismatches", or "OK".
"""
import ast
import struct
import sys


def load(path):
    data = open(path, "rb").read()
    (length,) = struct.unpack("<H", data[8:10])
    header = ast.literal_eval(data[10:10 + length].decode())
    code = {"<i4": "i", "<f4": "f"}[header["descr"]]
    count = (len(data) - 10 - length) // 4
    return list(struct.unpack("<%d%s" % (count, code), data[10 + length:]))


def scramble(raw):
    # (raw * 37) % 101 - 50 with C's truncating remainder, in i32.
    q = raw * 37
    r = abs(q) % 101
    return (r if q >= 0 else -r) - 50


def wider(a, b):
    return a if abs(a) > abs(b) or (abs(a) == abs(b) and a > b) else b


def main():
    folder = sys.argv[1]
    rows_per, cols, m = map(int, sys.argv[2:5])
    x, f = load(folder + "/x.npy"), load(folder + "/f.npy")
    o, of = load(folder + "/o.npy"), load(folder + "/of.npy")
    n = m * cols
    grid = (m + rows_per - 1) // rows_per
    want_o, want_of = list(o), list(of)  # untouched elements stay as they are
    for p in range(grid):
        block = range(p * rows_per, (p + 1) * rows_per)
        v = [[scramble(x[r * cols + c]) if r < m else scramble(-7)
              for c in range(cols)] for r in block]
        g = [[f[r * cols + c] if r < m else -7.0 for c in range(cols)]
             for r in block]
        every = 0
        for i, r in enumerate(block):
            for e in v[i]:
                every |= e
            if r >= m:
                continue
            want_o[r] = max(abs(e) for e in v[i])
            ored = 0
            for e in v[i]:
                ored |= e
            want_o[m + r] = ored
            running, widest = None, None
            for c in range(cols):
                at = r * cols + c
                want_o[2 * m + at] = v[i][c]
                want_o[2 * m + n + at] = v[0][c]
                running = v[i][c] if running is None else max(running, v[i][c])
                want_o[2 * m + 2 * n + at] = running
                widest = g[i][c] if widest is None else wider(widest, g[i][c])
                want_of[m + at] = widest
            want_of[r] = widest
        want_o[2 * m + 3 * n + p] = every
    bad = 0
    for name, got, want in (("o", o, want_o), ("of", of, want_of)):
        for i, (a, b) in enumerate(zip(got, want)):
            if a != b:
                if bad < 5:
                    print("%s[%d] = %r, want %r" % (name, i, a, b))
                bad += 1
    print("%d mismatches" % bad if bad else "OK")


main()
