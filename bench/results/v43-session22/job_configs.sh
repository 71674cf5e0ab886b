#!/usr/bin/env bash
# Attention configurations outside the example's tuning list (main's tools).
source scripts/gpu/unpack.sh
timeout 400 python3 bench/results/v43-session22/attn_configs.py > $OUT/attn_configs.jsonl 2> $OUT/attn_configs.err
echo "rc=$?"
python3 - <<'PY'
import json, os, collections
rows = [json.loads(l) for l in open(os.environ["OUT"] + "/attn_configs.jsonl") if l.strip()]
agg = collections.defaultdict(list)
for r in rows:
    if "error" in r: print("ERR", r["D"], r["causal"], r["config"], r["error"][:150]); continue
    agg[(r["D"], r["causal"], str(r.get("config", r["impl"])))].append((r["tflops"], r.get("maxerr", 0)))
for key in sorted(agg):
    v = agg[key]
    print("D%d c%d %-18s %.1f (err %.2g)" % (key[0], key[1], key[2], sum(x[0] for x in v) / len(v), max(x[1] for x in v)))
PY
