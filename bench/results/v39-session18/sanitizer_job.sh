#!/usr/bin/env bash
# Issue 15: the epilogue through shared memory under compute-sanitizer.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
export TILE_GPU_TEST_SMALL=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
F=MatmulTest.WgmmaPipelineSmall:MatmulTest.LinearEpilogue:MatmulTest.AttentionExample
for tool in racecheck synccheck memcheck; do
  echo "== $tool"
  rm -rf /tmp/tile-cache
  timeout 170 compute-sanitizer --tool $tool --error-exitcode 9 TileGPUTests --gtest_filter=$F 2>&1 | tail -25
  echo "exit=${PIPESTATUS[0]}"
done
