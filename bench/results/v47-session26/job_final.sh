#!/usr/bin/env bash
# Main's final tools (a6aad9c's code): the GPU suites in small mode, each
# with its own time limit, then f16 relu(x @ w.T) at small M (1, 16, 64,
# 256; N = K = 4096) over a few tiles against PyTorch, to find the next
# cliff (not a fix).
D=bench/results/v47-session26
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
for f in 'GPUTest.*' 'LayerNormTest.*:Int8DotTest.*' 'MatmulTest.*-MatmulTest.WarpgroupMma'; do
  TILE_CACHE_DIR=/tmp/tile-cache-t TILE_GPU_TEST_SMALL=1 timeout 170 TileGPUTests --gtest_filter="$f" 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|Expected|Which|e.what" >> $OUT/gtest.txt; echo "$f rc=${PIPESTATUS[0]}" | tee -a $OUT/gtest.txt
done
grep -c "^\[       OK" $OUT/gtest.txt; grep -E "FAILED|SKIPPED" $OUT/gtest.txt | head
n=4096
for m in 1 16 64 256; do
  for c in "64 64 64 4 4" "64 128 64 4 4" "128 64 64 4 6" "64 32 64 4 4"; do
    set -- $c
    gm=$(( (m + $1 - 1) / $1 )); gn=$(( (n + $2 - 1) / $2 ))
    TILE_CACHE_DIR=/tmp/tile-cache-m timeout 60 tile-bench --kernel=$D/matmul_f16_NT.tile --grid=$gm,$gn \
      -D BM=$1 -D BN=$2 -D BK=$3 --num-warps=$4 --num-stages=$5 \
      --arg a=$((m * n)) --arg b=$((n * n)) --arg c=$((m * n)) --arg M=$m --arg N=$n --arg K=$n \
      --arg lda=$n --arg ldb=$n --arg ldc=$n --flops=$((2 * m * n * n)) --reps=20 2>&1 | tail -1 | grep -o '"ms": [0-9.]*.*' | sed "s/^/M=$m $c: /"
  done
done | tee $OUT/small_m.txt
python3 $D/small_m_peer.py | tee -a $OUT/small_m.txt
