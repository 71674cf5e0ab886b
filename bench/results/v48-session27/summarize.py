# Mean TFLOP/s per (shape, configuration) and variant of A/B jsonl files.
import json, sys, collections
rows = [json.loads(l) for f in sys.argv[1:] for l in open(f) if l.strip().startswith("{")]
variants = list(dict.fromkeys(r["variant"] for r in rows))
agg = collections.defaultdict(list)
for r in rows:
    if "error" in r:
        print("ERR", r["variant"], r["D"], r["causal"], r["config"], r["error"][:200]); continue
    if r.get("maxerr", 0) > 2e-2:
        print("BAD", r)
    agg[(r["D"], r["causal"], str(r.get("config", r["impl"])), r["variant"])].append(r["tflops"])
print("%-26s" % "shape config", " ".join("%9s" % v for v in variants))
for key in sorted(set(k[:3] for k in agg)):
    print("D%d c%d %-18s" % key, " ".join("%9s" % ("%.1f" % (sum(agg[key + (v,)]) / len(agg[key + (v,)])) if agg[key + (v,)] else "-") for v in variants))
