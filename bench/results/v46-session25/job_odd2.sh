#!/usr/bin/env bash
# Element copies with every load before the stores (9b5e8b7) against the
# tools before (414e8a0, pack-old): GPU tests that copy element by element
# (leading dimensions 65, 77, 129, 139 ...: F16, BF16, OperandOrders,
# WarpgroupMma, WgmmaPipelineSmall, Int8Dot), then f16 x @ W.T at 4095³
# and 4096³ with both tools, and PyTorch.
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
xz -dc pack-old/tile-bench-before.xz > /tmp/tile-bin/tile-bench-old; chmod +x /tmp/tile-bin/tile-bench-old
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 300 TileGPUTests --gtest_filter='MatmulTest.F16:MatmulTest.BF16:MatmulTest.OperandOrders:MatmulTest.WarpgroupMma:MatmulTest.WgmmaPipelineSmall:MatmulTest.Unpipelined:Int8DotTest.*:GPUTest.MatmulReluSmall' 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|Expected|Which|e.what" > $OUT/gtest_odd.txt; echo "gtest rc=${PIPESTATUS[0]}"; grep -E "FAIL|PASSED" $OUT/gtest_odd.txt | head
for v in new old; do
  b=tile-bench; [ $v = old ] && b=tile-bench-old
  for n in 4095 4096; do
    for c in "128 128 32 4 3" "128 256 64 8 4" "64 64 32 4 4" "128 128 64 4 4"; do
      set -- $c
      gm=$(( (n + $1 - 1) / $1 )); gn=$(( (n + $2 - 1) / $2 ))
      TILE_CACHE_DIR=/tmp/tile-cache-$v timeout 120 $b --kernel=bench/results/v46-session25/matmul_f16_NT.tile --grid=$gm,$gn \
        -D BM=$1 -D BN=$2 -D BK=$3 --num-warps=$4 --num-stages=$5 \
        --arg a=$((n * n)) --arg b=$((n * n)) --arg c=$((n * n)) --arg M=$n --arg N=$n --arg K=$n \
        --arg lda=$n --arg ldb=$n --arg ldc=$n --flops=$((2 * n * n * n)) --reps=20 2>&1 | tail -1 | grep -o '"ms": [0-9.]*.*' | sed "s/^/$v n=$n $c: /"
    done
  done
done | tee $OUT/odd2.txt
python3 bench/results/v46-session25/odd_peer.py | tee -a $OUT/odd2.txt
