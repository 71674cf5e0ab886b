#!/usr/bin/env bash
# Probe (branch wip/exp2-poly): a share of attention's exp2 on the FMA pipe
# (TILE_EXP2_POLY=k: every k-th register of an exp2 tile of 16 or more
# elements a thread by a degree-4 polynomial). Variants alternate, two rounds.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tp-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1 TILE_LIBRARY=/tmp/tile-bin/libtile.so
D=bench/results/v49-session28
CONFIGS="128,64,4,2;64,64,4,3;128,128,8,2"
for round in 1 2; do
  for e in 0 4 2 8; do
    TILE_EXP2_POLY=$e TILE_CACHE_DIR=/tmp/tp-$e timeout 150 python3 bench/results/v48-session27/attn_ab.py poly$e "$CONFIGS" >> $OUT/poly.jsonl 2>> $OUT/poly.err
    echo "round $round e=$e rc=$?"
  done
done
python3 - <<'PY'
import json, os, collections
rows = [json.loads(l) for l in open(os.environ["OUT"] + "/poly.jsonl") if l.strip()]
agg = collections.defaultdict(list); err = {}
for r in rows:
    key = (r["D"], r["causal"], str(r.get("config", "sdpa")))
    if "tflops" in r:
        agg[(key, r["variant"])].append(r["tflops"])
        if "maxerr" in r: err[(key, r["variant"])] = max(err.get((key, r["variant"]), 0), r["maxerr"])
    else:
        print("ERROR", r)
for key in sorted(set(k[0] for k in agg)):
    print("%-28s" % (key,), "  ".join("%s %s (%.1e)" % (v, "/".join("%.1f" % x for x in agg[(key, v)]), err.get((key, v), 0)) for v in ("poly0", "poly4", "poly2", "poly8") if (key, v) in agg))
PY
