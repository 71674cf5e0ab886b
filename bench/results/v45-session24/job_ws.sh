#!/usr/bin/env bash
# tf32 TN with a producer warpgroup (tile.producer: TMA for A, B loaded and
# stored K-major by 4 extra warps, full/empty mbarriers per stage). GPU
# tests of every tf32 order first (a hang is caught by timeout), then
# tile-bench's tf32 table with the producer and without (--warp-specialize=
# false: one role, last session's pipeline), then the tf32 peers, all in
# the same machine session.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tilec --version | head -1
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 150 TileGPUTests --gtest_filter=MatmulTest.WgmmaPipelineSmall:MatmulTest.WarpgroupMmaTf32:MatmulTest.TF32:MatmulTest.OperandOrders 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|error|Expected|Which|worst" > $OUT/gtest_ws.txt; echo "gtest exit=${PIPESTATUS[0]}"; grep -E "OK|FAIL|PASS" $OUT/gtest_ws.txt | head -20
for ws in true false; do
  export TILE_CACHE_DIR=/tmp/tile-cache-ws-$ws
  timeout 200 tile-bench --only=matmul --matmul-filter=matmul_tf32 --warp-specialize=$ws --tune-verbose > $OUT/matmul_tf32_ws_$ws.jsonl 2> $OUT/matmul_tf32_tuning_ws_$ws.txt
  echo "bench ws=$ws exit=$?"; grep -o '"kernel": "[^"]*", "shape": "[^"]*".*"tflops": [0-9.]*, "config": "[^"]*"' $OUT/matmul_tf32_ws_$ws.jsonl | sed 's/"ms".*"tflops"/"tflops"/'
done
timeout 150 python3 bench/peers.py --only matmul --matmul-filter matmul_tf32 > $OUT/peers_tf32.jsonl 2> $OUT/peers_tf32.err
echo "peers exit=$?"; grep -o '"impl": "[a-z]*", "kernel": "[^"]*".*"tflops": [0-9.]*' $OUT/peers_tf32.jsonl | sed 's/"shape.*"ms_p80": [0-9.]*,//'
