#!/usr/bin/env bash
# Stores visited along memory's rows (8951550): GPU tests over the dots
# whose epilogues changed (tf32 NN, f32 TT; the rest for safety), then
# tile-bench's tf32 and f32 TT tables (every configuration's time) with the
# new tools and with the tools before (pack/old, 9f1b73f's PTX) alternating.
source scripts/gpu/unpack.sh
mkdir -p /tmp/tile-old && xz -dc pack/old/tile-bench.xz > /tmp/tile-old/tile-bench && chmod +x /tmp/tile-old/tile-bench
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 150 TileGPUTests --gtest_filter=MatmulTest.OperandOrders:MatmulTest.F32IEEE:MatmulTest.TF32:MatmulTest.WarpgroupMmaTf32:MatmulTest.FmaOperandOrders:MatmulTest.Autotuned:MatmulTest.WgmmaPipelineSmall:MatmulTest.LinearEpilogue 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|error|Expected|Which" > $OUT/gtest_order.txt; grep -E "OK|FAIL|PASS" $OUT/gtest_order.txt
summary() { grep -o '"kernel": "[^"]*", "shape": "[^"]*".*"tflops": [0-9.]*, "config": "[^"]*"' $1 | sed 's/"ms".*"tflops"/"tflops"/'; }
for round in ${ROUNDS:-1}; do
  for tools in new old; do
    bin=/tmp/tile-bin/tile-bench; [[ $tools == old ]] && bin=/tmp/tile-old/tile-bench
    export TILE_CACHE_DIR=/tmp/tile-cache-$tools
    timeout 195 $bin --only=matmul --matmul-filter=matmul_tf32,matmul_f32_TT --tune-verbose > $OUT/matmul_${tools}_$round.jsonl 2> $OUT/matmul_${tools}_${round}_tuning.txt
    echo "$tools round $round exit=$?"; summary $OUT/matmul_${tools}_$round.jsonl
  done
done
