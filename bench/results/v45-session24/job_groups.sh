#!/usr/bin/env bash
# Third round: two producer groups taking alternate iterations beside 4
# warps of MMAs (each group loads, stores and fences one iteration: the
# fence waits for the loads in flight), one group with carried loads beside
# 8. GPU tests of every tf32 order (256x128x32 on 8 warps included), then
# tile-bench's tf32 table with the producer and without, then the tf32
# peers, all in the same machine session.
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 250 TileGPUTests --gtest_filter='MatmulTest.WarpgroupMmaTf32:MatmulTest.WgmmaPipelineSmall:MatmulTest.TF32:GPUTest.*' 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|Expected|Which|e.what|worst" > $OUT/gtest_groups.txt; echo "gtest rc=${PIPESTATUS[0]}"; grep -E "FAIL|PASS|MatmulTest" $OUT/gtest_groups.txt | head; grep -c worst $OUT/gtest_groups.txt
for ws in true false; do
  export TILE_CACHE_DIR=/tmp/tile-cache-ws-$ws
  timeout 200 tile-bench --only=matmul --matmul-filter=matmul_tf32 --warp-specialize=$ws --tune-verbose > $OUT/matmul_tf32_ws_$ws.jsonl 2> $OUT/matmul_tf32_tuning_ws_$ws.txt
  echo "bench ws=$ws exit=$?"; grep -o '"kernel": "[^"]*", "shape": "[^"]*".*"tflops": [0-9.]*, "config": "[^"]*"' $OUT/matmul_tf32_ws_$ws.jsonl | sed 's/"ms".*"tflops"/"tflops"/'
done
paste <(sed -n 32,47p $OUT/matmul_tf32_tuning_ws_true.txt) <(sed -n 32,47p $OUT/matmul_tf32_tuning_ws_false.txt | awk '{print $2, $3}')
timeout 150 python3 bench/peers.py --only matmul --matmul-filter matmul_tf32 > $OUT/peers_tf32.jsonl 2> $OUT/peers_tf32.err
echo "peers exit=$?"; grep -o '"impl": "[a-z]*", "kernel": "[^"]*".*"tflops": [0-9.]*' $OUT/peers_tf32.jsonl | sed 's/"shape.*"ms_p80": [0-9.]*,//'
