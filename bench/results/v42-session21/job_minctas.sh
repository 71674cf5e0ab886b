#!/usr/bin/env bash
# .minnctapersm 1 for kernels off warpgroup MMAs that fill an SM's shared
# memory (5349dc6): the FMA orders' GPU test (128x64x64 tiles among its
# tilings), then tile-bench's f32 table (every configuration's time).
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 120 TileGPUTests --gtest_filter=MatmulTest.FmaOperandOrders:MatmulTest.F32IEEE 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|error|Expected|Which" > $OUT/gtest_minctas.txt; grep -E "OK|FAIL|PASS" $OUT/gtest_minctas.txt
export TILE_CACHE_DIR=/tmp/tile-cache-minctas
timeout 200 tile-bench --only=matmul --matmul-filter=matmul_f32 --tune-verbose > $OUT/matmul_f32.jsonl 2> $OUT/matmul_f32_tuning.txt
echo "bench exit=$?"; grep -o '"kernel": "[^"]*", "shape": "[^"]*".*"tflops": [0-9.]*, "config": "[^"]*"' $OUT/matmul_f32.jsonl | sed 's/"ms".*"tflops"/"tflops"/'
