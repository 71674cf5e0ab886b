#!/usr/bin/env bash
# Probe (TILE_PROBE_CONSUMER_FENCE=1, not committed): the producer's
# threads arrive on "full" without the proxy fence (ptxas puts a
# MEMBAR.ALL.CTA before it, draining the group's loads); the MMA warps fence
# for the async proxy after their wait instead. Tests with the probe on,
# SASS of both, then the tf32 table on/off alternating, two rounds.
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx /tmp/r
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
tile-bench --dump-kernels=/tmp/k > /dev/null
F="--arch=sm_90a --divisible=a,b,c,M,N,K,lda,ldb,ldc -D BM=256 -D BN=128 -D BK=32 --num-warps=8 --num-stages=4"
for v in on off; do
  if [ $v = on ]; then export TILE_PROBE_CONSUMER_FENCE=1; else unset TILE_PROBE_CONSUMER_FENCE; fi
  tilec /tmp/k/matmul_tf32_TN.tile $F -o /tmp/r/tn_$v.ptx && ptxas -arch=sm_90a /tmp/r/tn_$v.ptx -o /tmp/r/tn_$v.cubin && cuobjdump -sass /tmp/r/tn_$v.cubin > /tmp/r/tn_$v.sass
  echo "$v: $(grep -c MEMBAR /tmp/r/tn_$v.sass) MEMBAR, $(grep -c FENCE.VIEW /tmp/r/tn_$v.sass) FENCE"; grep -n "MEMBAR\|FENCE\|SYNCS.ARRIVE" /tmp/r/tn_$v.sass | head -8
done
TILE_PROBE_CONSUMER_FENCE=1 TILE_CACHE_DIR=/tmp/tile-cache-t TILE_GPU_TEST_SMALL=1 timeout 200 TileGPUTests --gtest_filter='MatmulTest.WarpgroupMmaTf32:MatmulTest.TF32:MatmulTest.WgmmaPipelineSmall' 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|Expected|Which|e.what" > /tmp/r/gtest_on.txt; echo "gtest rc=${PIPESTATUS[0]}"; tail -3 /tmp/r/gtest_on.txt
for r in 1 2; do for v in on off; do
  if [ $v = on ]; then export TILE_PROBE_CONSUMER_FENCE=1; else unset TILE_PROBE_CONSUMER_FENCE; fi
  TILE_CACHE_DIR=/tmp/tile-cache-$v timeout 200 tile-bench --only=matmul --matmul-filter=matmul_tf32 --tune-verbose > /tmp/r/${v}_$r.jsonl 2> /tmp/r/${v}_$r.txt
  echo "$v round $r rc=$?"; grep -o '"kernel": "[^"]*".*"tflops": [0-9.]*, "config": "[^"]*"' /tmp/r/${v}_$r.jsonl | sed 's/"shape.*"tflops"/"tflops"/'
  awk "/autotune/{n++} n==3 && /\\*/" /tmp/r/${v}_$r.txt
done; done
tar -C /tmp -cJf $OUT/cfence.tar.xz r
