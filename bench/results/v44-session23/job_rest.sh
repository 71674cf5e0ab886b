#!/usr/bin/env bash
# The MatmulTest cases job_suite.sh's time limit left, Int8Dot; the C interface's and the Python package's GPU tests and examples.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 230 TileGPUTests --gtest_filter='MatmulTest.*:Int8DotTest.*:-MatmulTest.Unpipelined:MatmulTest.OperandOrders:MatmulTest.FmaOperandOrders:MatmulTest.WarpgroupMma:MatmulTest.WgmmaLoneDot' 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|Expected|Which|e.what" > $OUT/gtest_matmul2.txt; echo "matmul2 rc=${PIPESTATUS[0]}"; cat $OUT/gtest_matmul2.txt
export PYTHONUNBUFFERED=1
(/tmp/tile-bin/TileCApiTest --gpu | tail -2; timeout 150 python3 python/tests/test_gpu.py; for e in vector_add softmax matmul_relu; do python3 python/examples/$e.py; done) > $OUT/python_gpu.txt 2>&1; echo "python rc=$?"; tail -6 $OUT/python_gpu.txt
