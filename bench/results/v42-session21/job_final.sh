#!/usr/bin/env bash
# Final tools of the session (c215965): GPU tests over the suites the
# transposing copy, shared_store and the panel anchors touch, then
# tile-bench's tf32 table (every configuration's time) and the tf32 peers in
# the same machine session.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tilec --version | head -1
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 330 TileGPUTests --gtest_filter=GPUTest.*:MatmulTest.WarpgroupMmaTf32:MatmulTest.WgmmaPipelineSmall:MatmulTest.TF32:MatmulTest.OperandOrders:MatmulTest.WgmmaLoneDot:MatmulTest.AttentionExample:MatmulTest.BatchedDot:MatmulTest.Autotuned:MatmulTest.F32IEEE:MatmulTest.FmaOperandOrders 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|error|Expected|Which|worst" > $OUT/gtest_final.txt; grep -cE "^\[ +OK" $OUT/gtest_final.txt; grep -E "FAIL|PASS|SKIP" $OUT/gtest_final.txt
export TILE_CACHE_DIR=/tmp/tile-cache-final
timeout 200 tile-bench --only=matmul --matmul-filter=matmul_tf32 --tune-verbose > $OUT/matmul_tf32.jsonl 2> $OUT/matmul_tf32_tuning.txt
echo "bench exit=$?"; grep -o '"kernel": "[^"]*", "shape": "[^"]*".*"tflops": [0-9.]*, "config": "[^"]*"' $OUT/matmul_tf32.jsonl | sed 's/"ms".*"tflops"/"tflops"/'
timeout 150 python3 bench/peers.py --only matmul --matmul-filter matmul_tf32 > $OUT/peers_tf32.jsonl 2> $OUT/peers_tf32.err
echo "peers exit=$?"; grep -o '"impl": "[a-z]*", "kernel": "[^"]*".*"tflops": [0-9.]*' $OUT/peers_tf32.jsonl | sed 's/"shape.*"ms_p80": [0-9.]*,//'
