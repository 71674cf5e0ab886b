# Fits ms per wave = a + b * key blocks for each variant and head dim over
# job_third.sh's shapes (tiles a multiple of 132): a is what a program spends
# per tile beside its key blocks, b the time of one key block.
import collections, json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
pts = collections.defaultdict(list)
for r in rows:
    if "tflops" not in r:
        print("ERROR", r)
        continue
    b, h, n = r["shape"]
    d = r["D"]
    flops = 4.0 * b * h * n * n * d
    ms = flops / r["tflops"] / 1e9
    waves = (n // 128) * b * h / 132
    name = r["variant"] if r["impl"] == "tile" else "sdpa"
    pts[(name, d)].append((n // 128, ms / waves, r["tflops"]))
for key in sorted(pts):
    xs = pts[key]
    n = len(xs)
    mx = sum(x for x, _, _ in xs) / n
    my = sum(y for _, y, _ in xs) / n
    b = sum((x - mx) * (y - my) for x, y, _ in xs) / sum((x - mx) ** 2 for x, _, _ in xs)
    a = my - b * mx
    print("%-8s D%-4d a %.4f ms (%.2f blocks)  b %.5f ms/block   " % (key[0], key[1], a, a / b, b),
          " ".join("n%d:%.1f" % (x, t) for x, _, t in sorted(xs)))
