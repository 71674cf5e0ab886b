#!/usr/bin/env bash
# tf32 A fragments read from K x M stages with half the lanes reading the k
# halves in the other order (one wavefront per load instead of two): the
# tf32 MatmulTest cases, then tile-bench's tf32 table with the new tools and
# the previous ones (pack-old/tile-bench) alternating, two rounds, the
# peers, and ncu of TN's and NN's tuned tiles.
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
xz -dc pack-old/tile-bench.xz > /tmp/tile-bin/tile-bench-old; chmod +x /tmp/tile-bin/tile-bench-old
mkdir -p /tmp/tile-ptx /tmp/r
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 240 TileGPUTests --gtest_filter='MatmulTest.WarpgroupMmaTf32:MatmulTest.WgmmaPipelineSmall:MatmulTest.TF32:MatmulTest.OperandOrders:MatmulTest.Unpipelined:MatmulTest.Autotuned' 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|Expected|Which|e.what|worst" > /tmp/r/gtest_small.txt; echo "gtest small rc=${PIPESTATUS[0]}"; grep -E "FAIL|PASS|OK" /tmp/r/gtest_small.txt | head -12
timeout 200 TileGPUTests --gtest_filter='MatmulTest.WarpgroupMmaTf32:MatmulTest.TF32' 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|Expected|Which|e.what|worst" > /tmp/r/gtest_full.txt; echo "gtest full rc=${PIPESTATUS[0]}"; grep -E "FAIL|PASS|OK" /tmp/r/gtest_full.txt | head
run() { # name binary
  TILE_CACHE_DIR=/tmp/tile-cache-$1 timeout 200 $2 --only=matmul --matmul-filter=matmul_tf32 --tune-verbose > /tmp/r/$1_$3.jsonl 2> /tmp/r/$1_$3.txt
  echo "$1 round $3 rc=$?"; grep -o '"kernel": "[^"]*".*"tflops": [0-9.]*, "config": "[^"]*"' /tmp/r/$1_$3.jsonl | sed 's/"shape.*"tflops"/"tflops"/'
}
run new tile-bench 1; run old tile-bench-old 1; run new tile-bench 2; run old tile-bench-old 2
timeout 150 python3 bench/peers.py --only matmul --matmul-filter matmul_tf32 > /tmp/r/peers_tf32.jsonl 2> /tmp/r/peers_tf32.err
echo "peers exit=$?"; grep -o '"impl": "[a-z]*", "kernel": "[^"]*".*"tflops": [0-9.]*' /tmp/r/peers_tf32.jsonl | sed 's/"shape.*"ms_p80": [0-9.]*,//'
tile-bench --dump-kernels=/tmp/k > /dev/null
n=$((4096 * 4096))
for o in TN NN; do
  f=/tmp/k/matmul_tf32_$o.tile; [ $o = NN ] && f=/tmp/k/matmul_tf32.tile
  for v in new old; do
    b=tile-bench; [ $v = old ] && b=tile-bench-old
    timeout 100 ncu -k regex:matmul -c 1 --section SpeedOfLight --section WarpStateStats --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,smsp__inst_executed.sum \
      $b --kernel=$f --grid=16,32 -D BM=256 -D BN=128 -D BK=32 --num-warps=8 --num-stages=4 \
      --arg a=$n --arg b=$n --arg c=$n --arg M=4096 --arg N=4096 --arg K=4096 --arg lda=4096 --arg ldb=4096 --arg ldc=4096 \
      --reps=1 --warmup=0 > /tmp/r/ncu_${o}_$v.txt 2>&1; echo "ncu $o $v rc=$?"
    grep -E "Duration|L1/TEX Cache|wavefronts|bank_conflicts|inst_executed" /tmp/r/ncu_${o}_$v.txt
  done
done
tar -C /tmp -cJf $OUT/flip.tar.xz r
