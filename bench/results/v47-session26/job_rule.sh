#!/usr/bin/env bash
# 33bb1c5 (the shortest run leaving <= 8 rows, run-wide stores, 8-bit pairs
# whole): the GPU tests that copy element by element; f16 relu(a @ b) at
# 4095³ in all four orders over six tiles, PyTorch in the same run; then
# tile-bench's f16 NT rows (autotuned) and bench/peers.py's.
D=bench/results/v47-session26
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
for f in 'MatmulTest.F16' 'MatmulTest.BF16' 'Int8DotTest.*' 'MatmulTest.OperandOrders:MatmulTest.Unpipelined:GPUTest.MatmulReluSmall:GPUTest.Float8Conversions'; do
  TILE_CACHE_DIR=/tmp/tile-cache-t TILE_GPU_TEST_SMALL=1 timeout 150 TileGPUTests --gtest_filter="$f" 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|Expected|Which|e.what" >> $OUT/gtest.txt; echo "$f rc=${PIPESTATUS[0]}" | tee -a $OUT/gtest.txt
done
n=4095
for k in matmul_f16 matmul_f16_NT matmul_f16_TN matmul_f16_TT; do
  for c in "128 128 32 4 3" "128 256 64 8 4" "64 64 32 4 4" "256 128 32 8 4" "64 128 64 4 3" "128 64 64 4 6"; do
    set -- $c
    gm=$(( (n + $1 - 1) / $1 )); gn=$(( (n + $2 - 1) / $2 ))
    TILE_CACHE_DIR=/tmp/tile-cache-k timeout 120 tile-bench --kernel=$D/$k.tile --grid=$gm,$gn \
      -D BM=$1 -D BN=$2 -D BK=$3 --num-warps=$4 --num-stages=$5 \
      --arg a=$((n * n)) --arg b=$((n * n)) --arg c=$((n * n)) --arg M=$n --arg N=$n --arg K=$n \
      --arg lda=$n --arg ldb=$n --arg ldc=$n --flops=$((2 * n * n * n)) --reps=20 2>&1 | tail -1 | grep -o '"ms": [0-9.]*.*' | sed "s/^/$k $c: /"
  done
done | tee $OUT/orders.txt
python3 $D/odd_orders_peer.py | tee -a $OUT/orders.txt
TILE_CACHE_DIR=/tmp/tile-cache-bench timeout 200 tile-bench --only=matmul --matmul-filter=matmul_f16_NT --tune-verbose 2> $OUT/tune.txt | tee $OUT/bench.txt
timeout 240 python3 bench/peers.py --only=matmul --matmul-filter=matmul_f16_NT | tee $OUT/peers.txt
