#!/usr/bin/env bash
# Probe (TILE_PRODUCER_RAW=1, not a user option): beside 8 MMA warps B goes
# through the TMA too, MN-major into raw stages (3 stages: A, raw B and
# K-major B per stage), and the producer transposes it shared to shared
# (no global loads in flight at its fence). Correctness of every tf32
# order with the probe on, then the tf32 table with it and without.
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_PRODUCER_RAW=1 TILE_CACHE_DIR=/tmp/tile-cache-t TILE_GPU_TEST_SMALL=1 timeout 200 TileGPUTests --gtest_filter='MatmulTest.WarpgroupMmaTf32:MatmulTest.TF32' 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|Expected|Which|e.what|worst" > $OUT/gtest_raw.txt; echo "gtest rc=${PIPESTATUS[0]}"; grep -E "FAIL|PASS|MatmulTest" $OUT/gtest_raw.txt | head; grep -c worst $OUT/gtest_raw.txt
for v in raw carried; do
  if [ $v = raw ]; then export TILE_PRODUCER_RAW=1; else unset TILE_PRODUCER_RAW; fi
  export TILE_CACHE_DIR=/tmp/tile-cache-$v
  timeout 150 tile-bench --only=matmul --matmul-filter=matmul_tf32 --tune-verbose > $OUT/matmul_tf32_$v.jsonl 2> $OUT/matmul_tf32_tuning_$v.txt
  echo "bench $v exit=$?"; grep -o '"kernel": "matmul_tf32_TN", "shape": "[^"]*".*"tflops": [0-9.]*, "config": "[^"]*"' $OUT/matmul_tf32_$v.jsonl | sed 's/"ms".*"tflops"/"tflops"/'
done
paste <(sed -n 32,47p $OUT/matmul_tf32_tuning_raw.txt) <(sed -n 32,47p $OUT/matmul_tf32_tuning_carried.txt | awk '{print $2, $3}')
