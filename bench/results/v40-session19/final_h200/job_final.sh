#!/usr/bin/env bash
# Main's 0203443: the GPU tests its coalescing change touches (and the
# Int8 tests the first run did not reach), then f32/tf32 tile-bench tuning,
# 0203443 ("new") against cbe8c15 ("old"), caches of their own, two rounds.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 260 TileGPUTests --gtest_filter=MatmulTest.FmaOperandOrders:MatmulTest.F32IEEE:MatmulTest.AttentionExample:MatmulTest.Unpipelined:MatmulTest.TF32:MatmulTest.Autotuned:MatmulTest.LinearEpilogue:Int8DotTest.*:GPUTest.MatmulReluSmall 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure" > $OUT/gtest_final.txt; tail -4 $OUT/gtest_final.txt
for round in 1 2; do
  for tool in new old; do
    bin=tile-bench; [[ $tool == old ]] && bin=tile-bench-old
    export TILE_CACHE_DIR=/tmp/tile-cache-$tool-$round
    timeout 100 $bin --only=matmul --matmul-filter=matmul_f32,matmul_tf32_TN --tune-verbose > $OUT/final_${tool}_r$round.jsonl 2> $OUT/final_${tool}_r${round}_tuning.txt
    echo "$tool r$round exit=$?"
  done
done
