#!/usr/bin/env bash
# Predicated TMA copies (no divergent path beside the warpgroup MMAs): GPU
# tests of the TMA loops, then attention (base / copies at the top / after
# the first dot) and matmul_relu (base / new) A/B, each configuration alone.
source scripts/gpu/unpack.sh
mkdir -p /tmp/tile-base && xz -dc pack/base/libtile.so.xz > /tmp/tile-base/libtile.so
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx PYTHONUNBUFFERED=1
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
( timeout 100 TileGPUTests --gtest_filter=MatmulTest.AttentionExample:MatmulTest.BatchedDot
  TILE_GPU_TEST_SMALL=1 timeout 150 TileGPUTests --gtest_filter=MatmulTest.WgmmaPipelineSmall:MatmulTest.OperandOrders:MatmulTest.LinearEpilogue:MatmulTest.WarpgroupMma ) 2>&1 |
  grep -E "^\[ +(OK|FAILED)|PASSED|FAILED|Failure|Expected|Which" > $OUT/gtest.txt; cat $OUT/gtest.txt
for variant in base new; do
  lib=/tmp/tile-bin/libtile.so; [[ $variant == base ]] && lib=/tmp/tile-base/libtile.so
  TILE_LIBRARY=$lib TILE_CACHE_DIR=/tmp/tm-$variant timeout 100 python3 bench/results/v44-session23/matmul_ab.py $variant >> $OUT/matmul_ab.jsonl 2>> $OUT/ab.err
  echo "matmul $variant rc=$?"
done
for variant in base top firstdot; do
  lib=/tmp/tile-bin/libtile.so; [[ $variant == base ]] && lib=/tmp/tile-base/libtile.so
  env TILE_LIBRARY=$lib TILE_CACHE_DIR=/tmp/ta-$variant $( [[ $variant == firstdot ]] && echo TILE_PROBE_TMA=firstdot ) \
    timeout 120 python3 bench/results/v44-session23/attn_ab.py $variant >> $OUT/attn_ab2.jsonl 2>> $OUT/ab.err
  echo "attention $variant rc=$?"
done
tail -3 $OUT/ab.err
python3 - <<'PY'
import json, os, collections
for f, vs in (("matmul_ab.jsonl", ["base", "new"]), ("attn_ab2.jsonl", ["base", "top", "firstdot"])):
    rows = [json.loads(l) for l in open(os.environ["OUT"] + "/" + f) if l.strip()]
    agg = collections.defaultdict(list)
    for r in rows:
        if "error" in r: print("ERR", r); continue
        agg[(r.get("D", 0), r.get("causal", 0), str(r.get("config", r.get("impl"))), r["variant"])].append(r["tflops"])
    print(f, vs)
    for key in sorted(set(k[:3] for k in agg)):
        print("D%d c%d %-22s" % key, " ".join("%6.1f" % (sum(agg[key + (v,)]) / max(1, len(agg[key + (v,)]))) for v in vs))
PY
