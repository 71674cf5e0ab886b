#!/usr/bin/env bash
# Final tools: bench/attention.py (tile autotuned against SDPA's default and
# flash backends and the autotuned Triton kernel, same run), and
# matmul_relu f16 at every default configuration, main before this session
# (pack/base: TMA instructions branched around) against this session's
# (predicated), two alternating rounds.
source scripts/gpu/unpack.sh
mkdir -p /tmp/tile-base && xz -dc pack/base/libtile.so.xz > /tmp/tile-base/libtile.so
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples PYTHONUNBUFFERED=1
timeout 240 python3 bench/attention.py > $OUT/attention.jsonl 2> $OUT/attention.err; echo "attention rc=$?"
grep -o '"impl": "[a-z-]*", "kernel": "attention[a-z-]*", "shape": "[^"]*".*' $OUT/attention.jsonl | sed -e 's/"ms_p20.*"tflops"/"tflops"/' -e 's/, "ms": [0-9.]*//' | cut -c1-160
for round in 1 2; do
  for variant in base new; do
    lib=/tmp/tile-bin/libtile.so; [[ $variant == base ]] && lib=/tmp/tile-base/libtile.so
    TILE_LIBRARY=$lib TILE_CACHE_DIR=/tmp/tm-$variant timeout 90 python3 bench/results/v44-session23/matmul_ab.py $variant >> $OUT/matmul_ab.jsonl 2>> $OUT/ab.err
    echo "matmul $variant $round rc=$?"
  done
done
python3 - <<'PY'
import json, os, collections
rows = [json.loads(l) for l in open(os.environ["OUT"] + "/matmul_ab.jsonl") if l.strip()]
agg = collections.defaultdict(list)
for r in rows: agg[(str(r["config"]), r["variant"])].append(r["tflops"])
for key in sorted(set(k[0] for k in agg)):
    print("%-24s" % key, " ".join("%s %s" % (v, "/".join("%.1f" % x for x in agg[(key, v)])) for v in ("base", "new")))
PY
