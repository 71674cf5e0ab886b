#!/usr/bin/env bash
# Runs for 4-byte element copies too (f32 rows aligned only to the element):
# tf32 and f32 relu(a @ b) at 4095³, four orders, a few tiles each, with
# the tools before (33bb1c5, pack-old) and after, alternating, PyTorch in
# the same run; then the GPU tests of the tf32 and f32 paths.
D=bench/results/v47-session26
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
xz -dc pack-old/tile-bench-before.xz > /tmp/tile-bin/tile-bench-old; chmod +x /tmp/tile-bin/tile-bench-old
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
n=4095
for k in matmul_tf32 matmul_tf32_NT matmul_tf32_TN matmul_tf32_TT matmul_f32 matmul_f32_NT matmul_f32_TN matmul_f32_TT; do
  case $k in matmul_tf32*) cs="256,128,32,8,4 128,256,32,8,4 128,128,32,4,3 128,128,16,4,4";; *) cs="256,64,32,4,2 128,128,32,4,3 64,256,32,4,2";; esac
  for c in $cs; do
    IFS=, read bm bn bk nw ns <<< "$c"
    for v in old new; do
      b=tile-bench; [ $v = old ] && b=tile-bench-old
      gm=$(( (n + bm - 1) / bm )); gn=$(( (n + bn - 1) / bn ))
      TILE_CACHE_DIR=/tmp/tile-cache-$v timeout 60 $b --kernel=$D/$k.tile --grid=$gm,$gn \
        -D BM=$bm -D BN=$bn -D BK=$bk --num-warps=$nw --num-stages=$ns \
        --arg a=$((n * n)) --arg b=$((n * n)) --arg c=$((n * n)) --arg M=$n --arg N=$n --arg K=$n \
        --arg lda=$n --arg ldb=$n --arg ldc=$n --flops=$((2 * n * n * n)) --reps=10 2>&1 | tail -1 | grep -o '"ms": [0-9.]*.*' | sed "s/^/$v $k $c: /"
    done
  done
done | tee $OUT/odd32.txt
python3 $D/odd32_peer.py | tee -a $OUT/odd32.txt
for f in 'MatmulTest.TF32:MatmulTest.WarpgroupMmaTf32' 'MatmulTest.OperandOrders:MatmulTest.FmaOperandOrders:MatmulTest.Unpipelined'; do
  TILE_CACHE_DIR=/tmp/tile-cache-t TILE_GPU_TEST_SMALL=1 timeout 150 TileGPUTests --gtest_filter="$f" 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|Expected|Which|e.what" >> $OUT/gtest.txt; echo "$f rc=${PIPESTATUS[0]}" | tee -a $OUT/gtest.txt
done
