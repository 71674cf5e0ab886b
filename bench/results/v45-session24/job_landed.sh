#!/usr/bin/env bash
# The landed tools (a7f2e37): every GPUTest, the tf32 MatmulTest cases and
# OperandOrders' TN, the C interface's and the Python package's GPU tests,
# then tile-bench's tf32 table and the tf32 peers in the same session.
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 200 TileGPUTests --gtest_filter='GPUTest.*:MatmulTest.WarpgroupMmaTf32:MatmulTest.WgmmaPipelineSmall:MatmulTest.TF32' 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|Expected|Which|e.what|worst" > $OUT/gtest_landed.txt; echo "gtest rc=${PIPESTATUS[0]}"; grep -E "FAIL|PASS|MatmulTest" $OUT/gtest_landed.txt | head
export PYTHONUNBUFFERED=1
(/tmp/tile-bin/TileCApiTest --gpu | tail -2; timeout 100 python3 python/tests/test_gpu.py) > $OUT/python_gpu.txt 2>&1; echo "python rc=$?"; tail -3 $OUT/python_gpu.txt
export TILE_CACHE_DIR=/tmp/tile-cache-landed
timeout 120 tile-bench --only=matmul --matmul-filter=matmul_tf32 > $OUT/matmul_tf32.jsonl 2> $OUT/matmul_tf32.err
echo "bench exit=$?"; grep -o '"kernel": "[^"]*", "shape": "[^"]*".*"tflops": [0-9.]*, "config": "[^"]*"' $OUT/matmul_tf32.jsonl | sed 's/"ms".*"tflops"/"tflops"/'
timeout 120 python3 bench/peers.py --only matmul --matmul-filter matmul_tf32 > $OUT/peers_tf32.jsonl 2> $OUT/peers_tf32.err
echo "peers exit=$?"; grep -o '"impl": "[a-z]*", "kernel": "[^"]*".*"tflops": [0-9.]*' $OUT/peers_tf32.jsonl | sed 's/"shape.*"ms_p80": [0-9.]*,//'
