#!/usr/bin/env bash
# Probe (TILE_PROBE_RAW_RING=1, not committed): beside 8 MMA warps the
# producer (one warpgroup, 72 registers) takes B through the TMA into a raw
# ring of two MN-major slots of its own, released by the producer itself
# once every producer thread has read its slot (an mbarrier), refilled two
# iterations ahead; it reads each slot into registers, waits for the K-major
# stage's release, issues A's TMA copy and stores B K-major. Tests with the
# probe on (now also B tiles of 8192 elements, 64 a producer thread, so
# that TN 128x256 runs m64n256 MMAs as NN does), then the tf32 table
# on/off alternating, two rounds.
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx /tmp/r
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
tile-bench --dump-kernels=/tmp/k > /dev/null
F="--arch=sm_90a --divisible=a,b,c,M,N,K,lda,ldb,ldc -D BM=256 -D BN=128 -D BK=32 --num-warps=8 --num-stages=4"
for v in on off; do
  if [ $v = on ]; then export TILE_PROBE_RAW_RING=1; else unset TILE_PROBE_RAW_RING; fi
  tilec /tmp/k/matmul_tf32_TN.tile $F -o /tmp/r/tn_$v.ptx && ptxas -arch=sm_90a /tmp/r/tn_$v.ptx -o /tmp/r/tn_$v.cubin && cuobjdump -sass /tmp/r/tn_$v.cubin > /tmp/r/tn_$v.sass
  echo "$v: $(grep -c MEMBAR /tmp/r/tn_$v.sass) MEMBAR, $(grep -c FENCE.VIEW /tmp/r/tn_$v.sass) FENCE"; grep -n "MEMBAR\|FENCE\|SYNCS.ARRIVE" /tmp/r/tn_$v.sass | head -8
done
TILE_PROBE_RAW_RING=1 TILE_CACHE_DIR=/tmp/tile-cache-t TILE_GPU_TEST_SMALL=1 timeout 200 TileGPUTests --gtest_filter='MatmulTest.WarpgroupMmaTf32:MatmulTest.TF32:MatmulTest.WgmmaPipelineSmall' 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|Expected|Which|e.what" > /tmp/r/gtest_on.txt; echo "gtest rc=${PIPESTATUS[0]}"; tail -3 /tmp/r/gtest_on.txt
for r in 1 2; do for v in on off; do
  if [ $v = on ]; then export TILE_PROBE_RAW_RING=1; else unset TILE_PROBE_RAW_RING; fi
  TILE_CACHE_DIR=/tmp/tile-cache-$v timeout 200 tile-bench --only=matmul --matmul-filter=matmul_tf32 --tune-verbose > /tmp/r/${v}_$r.jsonl 2> /tmp/r/${v}_$r.txt
  echo "$v round $r rc=$?"; grep -o '"kernel": "[^"]*".*"tflops": [0-9.]*, "config": "[^"]*"' /tmp/r/${v}_$r.jsonl | sed 's/"shape.*"tflops"/"tflops"/'
  awk "/autotune/{n++} n==3 && /\\*/" /tmp/r/${v}_$r.txt
done; done
tar -C /tmp -cJf $OUT/rawring2.tar.xz r
