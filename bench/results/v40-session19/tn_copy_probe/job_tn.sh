#!/usr/bin/env bash
# tf32 TN through a transposed copy of B (wip/tf32-tn-copy): the tf32 GPU
# tests, racecheck over the tf32 sweep's small cases, then tile-bench's tf32
# TN (new) against cbe8c15's (old, mma.sync) with caches of their own.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 200 TileGPUTests --gtest_filter=MatmulTest.WarpgroupMmaTf32:MatmulTest.TF32:MatmulTest.WgmmaPipelineSmall 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|Expected|Which|actual|mismatch|tile" | head -40 > $OUT/gtest_tn.txt; tail -5 $OUT/gtest_tn.txt
for tool in new old; do
  bin=tile-bench; [[ $tool == old ]] && bin=tile-bench-old
  export TILE_CACHE_DIR=/tmp/tile-cache-$tool
  timeout 120 $bin --only=matmul --matmul-filter=matmul_tf32_TN,matmul_tf32_TT --tune-verbose > $OUT/tile_tn_$tool.jsonl 2> $OUT/tile_tn_${tool}_tuning.txt
  echo "$tool exit=$?"; grep -h '"kernel": "matmul' $OUT/tile_tn_$tool.jsonl | cut -c1-200
done
