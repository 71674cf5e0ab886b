#!/usr/bin/env bash
# Slices without a bound of their own: the sliced-load GPU tests, and
# attention from PyTorch with expandable segments (memory the driver
# reports piece by piece), whose heads past the first piece read zeros
# when the runtime bounded the slices by cuMemGetAddressRange.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx PYTHONUNBUFFERED=1
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 120 TileGPUTests --gtest_filter='MatmulTest.HeadSlicesInLoops:MatmulTest.AttentionHeadSlices:MatmulTest.AttentionExample:MatmulTest.WgmmaPipelineSmall' 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|Expected|Which|head " > $OUT/gtest_unbounded.txt; echo "rc=${PIPESTATUS[0]}"; cat $OUT/gtest_unbounded.txt
for cfg in "64 128 64 4 2" "128 128 128 8 2"; do
  echo "expandable segments, D/BM/BN/warps/stages $cfg:"
  PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True python3 bench/results/v44-session23/attn_one.py tile $cfg 2>&1 | tail -1
done | tee $OUT/expandable.txt
