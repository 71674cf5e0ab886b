#!/usr/bin/env bash
# Attention's K and V through 3-D TMA maps: the GPU tests on the new tools,
# then attn_ab.py with the tools before (pack/base) and after, alternating.
source scripts/gpu/unpack.sh
mkdir -p /tmp/tile-base && xz -dc pack/base/libtile.so.xz > /tmp/tile-base/libtile.so
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
timeout 200 TileGPUTests --gtest_filter=MatmulTest.AttentionExample:MatmulTest.BatchedDot:MatmulTest.WgmmaPipelineSmall:MatmulTest.WgmmaLoneDot 2>&1 | grep -E "^\[ +(OK|FAILED)|PASSED|FAILED|Failure|Expected|Which|error" > $OUT/gtest_tma.txt; echo "gtest rc=${PIPESTATUS[0]}"; head -30 $OUT/gtest_tma.txt
for round in 1 2; do
  for variant in base tma; do
    lib=/tmp/tile-bin/libtile.so; [[ $variant == base ]] && lib=/tmp/tile-base/libtile.so
    TILE_LIBRARY=$lib TILE_CACHE_DIR=/tmp/tile-cache-$variant timeout 170 python3 bench/results/v44-session23/attn_ab.py $variant >> $OUT/attn_ab.jsonl 2>> $OUT/attn_ab.err
    echo "$variant round $round rc=$?"
  done
done
tail -3 $OUT/attn_ab.err
python3 - <<'PY'
import json, os, collections
rows = [json.loads(l) for l in open(os.environ["OUT"] + "/attn_ab.jsonl") if l.strip()]
agg = collections.defaultdict(list)
for r in rows:
    if "error" in r: print("ERR", r["variant"], r["D"], r["causal"], r["config"], r["error"][:150]); continue
    agg[(r["D"], r["causal"], str(r.get("config", r["impl"])), r["variant"])].append(r["tflops"])
for key in sorted(set(k[:3] for k in agg)):
    b = agg.get(key + ("base",), []); t = agg.get(key + ("tma",), [])
    f = lambda v: "%.1f" % (sum(v) / len(v)) if v else "-"
    print("D%d c%d %-18s base %s tma %s" % (key[0], key[1], key[2], f(b), f(t)))
PY
