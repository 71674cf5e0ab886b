#!/usr/bin/env bash
# Probe (TILE_PRODUCER_HALVES=1): beside 8 MMA warps the producer's
# warpgroup as two groups of 2 warps taking alternate iterations (64
# registers of B each), so that one group's fence waits only for its own
# loads, against one group of 4 with carried loads. Every tf32 order with
# the probe on, then the tf32 table with it and without.
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_PRODUCER_HALVES=1 TILE_CACHE_DIR=/tmp/tile-cache-t TILE_GPU_TEST_SMALL=1 timeout 200 TileGPUTests --gtest_filter='MatmulTest.WarpgroupMmaTf32:MatmulTest.TF32' 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|Expected|Which|e.what|worst" > $OUT/gtest_halves.txt; echo "gtest rc=${PIPESTATUS[0]}"; grep -E "FAIL|PASS|MatmulTest" $OUT/gtest_halves.txt | head; grep -c worst $OUT/gtest_halves.txt
for v in halves carried; do
  if [ $v = halves ]; then export TILE_PRODUCER_HALVES=1; else unset TILE_PRODUCER_HALVES; fi
  export TILE_CACHE_DIR=/tmp/tile-cache-$v
  timeout 150 tile-bench --only=matmul --matmul-filter=matmul_tf32 --tune-verbose > $OUT/matmul_tf32_$v.jsonl 2> $OUT/matmul_tf32_tuning_$v.txt
  echo "bench $v exit=$?"; grep -o '"kernel": "[^"]*", "shape": "[^"]*".*"tflops": [0-9.]*, "config": "[^"]*"' $OUT/matmul_tf32_$v.jsonl | sed 's/"ms".*"tflops"/"tflops"/'
done
paste <(sed -n 32,47p $OUT/matmul_tf32_tuning_halves.txt) <(sed -n 32,47p $OUT/matmul_tf32_tuning_carried.txt | awk '{print $2, $3}')
