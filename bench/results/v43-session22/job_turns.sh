#!/usr/bin/env bash
# Warpgroup turns over stages released per thread (attention's 8-warp
# loops with three or more stages): the attention GPU test on the new
# tools first (a hang would show there, under its timeout), then
# attn_turns.py with the tools before (pack/base) and after, alternating.
source scripts/gpu/unpack.sh
mkdir -p /tmp/tile-base && xz -dc pack/base/libtile.so.xz > /tmp/tile-base/libtile.so
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 120 TileGPUTests --gtest_filter=MatmulTest.AttentionExample:MatmulTest.BatchedDot:MatmulTest.WgmmaPipelineSmall 2>&1 | grep -E "^\[ +(OK|FAILED)|PASSED|FAILED|Failure|Expected|Which" > $OUT/gtest_turns.txt; echo "gtest rc=${PIPESTATUS[0]}"; cat $OUT/gtest_turns.txt | head -20
for round in 1 2; do
  for variant in base turns; do
    lib=/tmp/tile-bin/libtile.so; [[ $variant == base ]] && lib=/tmp/tile-base/libtile.so
    TILE_LIBRARY=$lib TILE_CACHE_DIR=/tmp/tile-cache-$variant timeout 150 python3 bench/results/v43-session22/attn_turns.py $variant >> $OUT/attn_turns.jsonl 2>> $OUT/attn_turns.err
    echo "$variant round $round rc=$?"
  done
done
python3 - <<'PY'
import json, os, collections
rows = [json.loads(l) for l in open(os.environ["OUT"] + "/attn_turns.jsonl") if l.strip()]
agg = collections.defaultdict(list)
for r in rows:
    if "error" in r: print("ERR", r["variant"], r["D"], r["causal"], r["config"], r["error"][:150]); continue
    agg[(r["D"], r["causal"], str(r.get("config", r["impl"])), r["variant"])].append(r["tflops"])
for key in sorted(set(k[:3] for k in agg)):
    b = agg.get(key + ("base",), []); t = agg.get(key + ("turns",), [])
    f = lambda v: "%.1f" % (sum(v) / len(v)) if v else "-"
    print("D%d c%d %-18s base %s turns %s" % (key[0], key[1], key[2], f(b), f(t)))
PY
