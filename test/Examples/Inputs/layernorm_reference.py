"""Checks examples/layernorm.tile's outputs (dumped by tilec --run --dump)
against layer normalization in double precision, without NumPy.

  layernorm_reference.py FWD_DIR M N [BWD_DIR DWDB_DIR]

FWD_DIR holds x, w, b and the forward's y, mean, rstd; BWD_DIR the
backward's dy and dx, DWDB_DIR its dw and db. Prints the worst error of
each output relative to its largest reference value and OK when all are
within the tolerance of the element type (f32: 1e-5, f16: 2e-3).
"""
import ast
import math
import struct
import sys

EPS = 1e-5


def load(path):
    data = open(path, "rb").read()
    (length,) = struct.unpack("<H", data[8:10])
    header = ast.literal_eval(data[10:10 + length].decode())
    size = {"<f2": 2, "<f4": 4}[header["descr"]]
    code = {"<f2": "e", "<f4": "f"}[header["descr"]]
    count = (len(data) - 10 - length) // size
    return struct.unpack("<%d%s" % (count, code), data[10 + length:]), size


def main():
    folder, m, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    (x, size), (w, _), (b, _) = (load("%s/%s.npy" % (folder, k))
                                 for k in ("x", "w", "b"))
    tolerance = 1e-5 if size == 4 else 2e-3
    got = {k: load("%s/%s.npy" % (folder, k))[0] for k in ("y", "mean", "rstd")}
    want = {"y": [], "mean": [], "rstd": []}
    xhat = []
    for i in range(m):
        row = x[i * n:(i + 1) * n]
        mu = sum(row) / n
        var = sum((v - mu) ** 2 for v in row) / n
        r = 1 / math.sqrt(var + EPS)
        want["mean"].append(mu)
        want["rstd"].append(r)
        xhat.append([(v - mu) * r for v in row])
        want["y"] += [h * w[j] + b[j] for j, h in enumerate(xhat[-1])]
    if len(sys.argv) > 4:
        dy, _ = load("%s/dy.npy" % sys.argv[4])
        got["dx"], _ = load("%s/dx.npy" % sys.argv[4])
        got["dw"], _ = load("%s/dw.npy" % sys.argv[5])
        got["db"], _ = load("%s/db.npy" % sys.argv[5])
        want["dx"], want["dw"], want["db"] = [], [0.0] * n, [0.0] * n
        for i in range(m):
            g = dy[i * n:(i + 1) * n]
            wdy = [w[j] * g[j] for j in range(n)]
            c1 = sum(h * d for h, d in zip(xhat[i], wdy)) / n
            c2 = sum(wdy) / n
            r = want["rstd"][i]
            want["dx"] += [(wdy[j] - (xhat[i][j] * c1 + c2)) * r
                           for j in range(n)]
            for j in range(n):
                want["dw"][j] += g[j] * xhat[i][j]
                want["db"][j] += g[j]
    ok = True
    for name in sorted(want):
        scale = max(abs(v) for v in want[name]) or 1.0
        worst = max(abs(a - e) for a, e in zip(got[name], want[name])) / scale
        if len(got[name]) != len(want[name]) or worst > tolerance:
            ok = False
        print("%s worst relative error %.3g" % (name, worst))
    print("OK" if ok else "FAIL")


main()
