#!/usr/bin/env bash
# Second round (carried loads): tf32 TN with a producer warpgroup (tile.producer: TMA for A, B loaded and
# stored K-major by 4 extra warps, full/empty mbarriers per stage). GPU
# tests of every tf32 order first (a hang is caught by timeout), then
# tile-bench's tf32 table with the producer and without (--warp-specialize=
# the same machine session.
rm -rf /tmp/tile-bin /tmp/tile-cache*; source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tilec --version | head -1
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 200 TileGPUTests --gtest_filter=MatmulTest.WgmmaPipelineSmall:MatmulTest.WarpgroupMmaTf32:MatmulTest.TF32 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|error|Expected|Which|worst" > $OUT/gtest_ws2.txt; echo "gtest exit=${PIPESTATUS[0]}"; grep -E "OK|FAIL|PASS" $OUT/gtest_ws2.txt | head -20
for ws in true false; do
  export TILE_CACHE_DIR=/tmp/tile-cache-ws-$ws
  timeout 200 tile-bench --only=matmul --matmul-filter=matmul_tf32 --warp-specialize=$ws --tune-verbose > $OUT/matmul_tf32_ws2_$ws.jsonl 2> $OUT/matmul_tf32_tuning_ws2_$ws.txt
  echo "bench ws=$ws exit=$?"; grep -o '"kernel": "[^"]*", "shape": "[^"]*".*"tflops": [0-9.]*, "config": "[^"]*"' $OUT/matmul_tf32_ws2_$ws.jsonl | sed 's/"ms".*"tflops"/"tflops"/'
done
