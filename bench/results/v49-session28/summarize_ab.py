# Averages attn_ab.py rounds: one line per (D, causal, config), each
# variant's TFLOP/s per round and its largest error against SDPA.
import collections, json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
variants = sys.argv[2:]
agg = collections.defaultdict(list)
err = {}
for r in rows:
    key = (r["D"], r["causal"], str(r.get("config", "sdpa")))
    if "tflops" not in r:
        print("ERROR", r)
        continue
    agg[(key, r["variant"])].append(r["tflops"])
    if "maxerr" in r:
        err[(key, r["variant"])] = max(err.get((key, r["variant"]), 0), r["maxerr"])
for key in sorted(set(k[0] for k in agg)):
    cells = []
    for v in variants:
        xs = agg.get((key, v), [])
        if xs:
            cells.append("%s %s mean %.1f (err %.1e)" % (v, "/".join("%.1f" % x for x in xs), sum(xs) / len(xs), err.get((key, v), 0)))
    print("%-26s" % (key,), "  ".join(cells))
