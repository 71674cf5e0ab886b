#!/usr/bin/env bash
# Session 33, last GPU call: the GPU tests the first two calls did not run,
# on main's tools (7b8ef46), as far as the session's device time allows:
# the C interface's GPU test, every GPUTest, then MatmulTest's Unpipelined,
# OperandOrders, FmaOperandOrders, F16, BF16, F32IEEE, TF32, Autotuned.
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
timeout 20 TileCApiTest > $OUT/capi.log 2>&1; echo "capi rc=$?"; tail -2 $OUT/capi.log
TILE_GPU_TEST_SMALL=1 timeout 150 TileGPUTests --gtest_filter='GPUTest.*:MatmulTest.Unpipelined:MatmulTest.OperandOrders:MatmulTest.FmaOperandOrders:MatmulTest.F16:MatmulTest.BF16:MatmulTest.F32IEEE:MatmulTest.TF32:MatmulTest.Autotuned' > $OUT/gtest.log 2>&1
echo "tests rc=$?"
grep -cE "^\[       OK" $OUT/gtest.log
grep -E "^\[  (PASSED|FAILED|SKIPPED)|FAILED|Failure|^\[       OK \] MatmulTest" $OUT/gtest.log | head -30
tail -2 $OUT/gtest.log
