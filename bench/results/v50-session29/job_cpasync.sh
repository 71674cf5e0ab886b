#!/usr/bin/env bash
# Session 29, fifth GPU call: AttentionExample with attention_fa3 on
# cp.async stages (--tma=false: no producer, turns beside the pipeline's
# block barriers) besides the cases that ran before.
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
timeout 300 TileGPUTests --gtest_filter='MatmulTest.AttentionExample' > $OUT/gtest.log 2>&1
echo "rc=$?"
grep -E "cp.async|PASSED|FAILED|Failure|Expected" $OUT/gtest.log | head -20
