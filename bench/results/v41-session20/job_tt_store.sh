#!/usr/bin/env bash
# f32 TT's epilogue: the accumulator computed as Cᵀ = Bᵀ Aᵀ stored element
# by element (old: 1491755) or converted through shared memory into the
# store's 16-byte layout (new), each with its own cache, two rounds; the
# correctness tests of the FMA orders on the new tools.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
for round in 1 2; do
  for tool in new old; do
    bin=tile-bench; [[ $tool == old ]] && bin=tile-bench-old
    export TILE_CACHE_DIR=/tmp/tile-cache-$tool-$round
    timeout 60 $bin --only=matmul --matmul-filter=matmul_f32_TT,matmul_f32 --tune-verbose > $OUT/store_${tool}_r$round.jsonl 2> $OUT/store_${tool}_r${round}_tuning.txt
    echo "$tool r$round exit=$?"; grep -o '"kernel": "[^"]*".*"tflops": [0-9.]*, "config": "[^"]*"' $OUT/store_${tool}_r$round.jsonl | sed 's/"shape.*"ms_p80": [0-9.]*,//'
  done
done
TILE_GPU_TEST_SMALL=1 timeout 120 TileGPUTests --gtest_filter=MatmulTest.FmaOperandOrders:MatmulTest.F32IEEE 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|error" > $OUT/gtest_store.txt; grep -E "OK|FAIL|PASS" $OUT/gtest_store.txt
