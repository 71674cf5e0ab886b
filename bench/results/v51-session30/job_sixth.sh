#!/usr/bin/env bash
# Session 30, sixth GPU call: GPU tests on the landing tools (attention
# examples with the persistent one, lone dots, batched dots, producers),
# then bench/attention.py's table (every example autotuned, peers in the
# same process).
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tn-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx PYTHONUNBUFFERED=1
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
( timeout 220 TileGPUTests --gtest_filter='MatmulTest.AttentionExample:MatmulTest.AttentionHeadSlices:MatmulTest.HeadSlicesInLoops:MatmulTest.WgmmaLoneDot:MatmulTest.BatchedDot:MatmulTest.WgmmaComputedA:SharedStageTest.*:GPUTest.GridStrideLoops:LayerNormTest.*'
  TILE_GPU_TEST_SMALL=1 timeout 100 TileGPUTests --gtest_filter='MatmulTest.WarpgroupMmaTf32:MatmulTest.WgmmaPipelineSmall' ) > $OUT/gtest.log 2>&1
echo "tests rc=$?"
grep -E "^\[ +(OK|FAILED)|PASSED|FAILED|Failure|Expected|Which|timeout" $OUT/gtest.log | grep -v "^\[       OK" | head -40
grep -c "worst error" $OUT/gtest.log
grep "attention_persistent" $OUT/gtest.log | head -20
TILE_CACHE_DIR=/tmp/tile-cache-table timeout 330 python3 bench/attention.py > $OUT/attention.jsonl 2> $OUT/attention.err
echo "table rc=$?"
tail -3 $OUT/attention.err
python3 - $OUT/attention.jsonl <<'PY'
import json, sys, collections
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
t = collections.defaultdict(dict)
for r in rows:
    if r.get("impl") in ("tile-py", "torch", "torch-flash", "triton") and "tflops" in r:
        key = r["impl"] if "kernel" not in r else r["kernel"]
        t[r["shape"]][key] = r["tflops"]
for shape, d in t.items():
    best = max(d.get(k, 0) for k in ("torch", "torch-flash", "triton"))
    tile_best = max(v for k, v in d.items() if k.endswith(".tile"))
    print(shape, " ".join("%s %.1f" % kv for kv in sorted(d.items())), "ratio %.3f" % (tile_best / best))
PY
