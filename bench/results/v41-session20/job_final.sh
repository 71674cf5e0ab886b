#!/usr/bin/env bash
# 1491755: f32 TT as Cᵀ = Bᵀ Aᵀ with the accumulator carried transposed,
# and 64x256x32/2 stages in the default list. GPU tests of the FMA orders
# and the tuner, tile-bench's whole matmul table (every configuration's
# time), then the f32 peers in the same machine session.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tilec --version | head -1
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 150 TileGPUTests --gtest_filter=MatmulTest.FmaOperandOrders:MatmulTest.F32IEEE:MatmulTest.Autotuned:MatmulTest.OperandOrders 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|error" > $OUT/gtest_final.txt; grep -E "OK|FAIL|PASS" $OUT/gtest_final.txt
export TILE_CACHE_DIR=/tmp/tile-cache-final
timeout 300 tile-bench --only=matmul --tune-verbose > $OUT/matmul.jsonl 2> $OUT/matmul_tuning.txt
echo "bench exit=$?"; grep -o '"kernel": "[^"]*", "shape": "[^"]*".*"tflops": [0-9.]*, "config": "[^"]*"' $OUT/matmul.jsonl | sed 's/"ms".*"tflops"/"tflops"/'
timeout 130 python3 bench/peers.py --only matmul --matmul-filter matmul_f32 > $OUT/peers_f32.jsonl 2> $OUT/peers_f32.err
echo "peers exit=$?"; grep -o '"impl": "[a-z]*", "kernel": "[^"]*".*"tflops": [0-9.]*' $OUT/peers_f32.jsonl | sed 's/"shape.*"ms_p80": [0-9.]*,//'
