#!/usr/bin/env bash
# Main's final tools: the GPU suites not yet run on this session's lowering
# (the global store visits memory's rows, 8951550): every GPUTest,
# LayerNorm, Int8Dot, the MatmulTest cases not run earlier this session,
# then the C interface's and the Python package's GPU tests and examples
# (scripts/gpu/python.sh's first half).
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 330 TileGPUTests --gtest_filter=GPUTest.*:LayerNormTest.*:Int8DotTest.*:MatmulTest.Unpipelined:MatmulTest.WarpgroupMma:MatmulTest.WgmmaLoneDot:MatmulTest.WgmmaComputedA:MatmulTest.F16:MatmulTest.BF16:MatmulTest.AutotuneErrors 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|Expected|Which" > $OUT/gtest_suite.txt; echo "gtest rc=${PIPESTATUS[0]}"; grep -cE "^\[ +OK" $OUT/gtest_suite.txt; grep -E "FAIL|PASS|SKIP" $OUT/gtest_suite.txt
(/tmp/tile-bin/TileCApiTest --gpu | tail -2; timeout 200 python3 python/tests/test_gpu.py; for e in vector_add softmax matmul_relu; do python3 python/examples/$e.py; done) > $OUT/python_gpu.txt 2>&1; echo "python rc=$?"; tail -8 $OUT/python_gpu.txt
