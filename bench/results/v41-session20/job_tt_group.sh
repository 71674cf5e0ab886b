#!/usr/bin/env bash
# f32 TT's transposed tile against NN's at 4096^3 with other GROUP_M
# (matmul_relu's grouped order): is TT's remaining 9% the traversal order?
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_CACHE_DIR=/tmp/tile-cache-group
tile-bench --dump-kernels=/tmp/k > /dev/null
n=$((4096 * 4096))
run() { # file BM BN group
  echo -n "$1 BM=$2 BN=$3 GROUP_M=$4: "
  timeout 60 tile-bench --kernel=/tmp/k/$1.tile --grid=$((4096 / $2)),$((4096 / $3)) -D BM=$2 -D BN=$3 -D BK=32 -D GROUP_M=$4 \
    --num-warps=4 --num-stages=2 --arg a=$n --arg b=$n --arg c=$n --arg M=4096 --arg N=4096 --arg K=4096 \
    --arg lda=4096 --arg ldb=4096 --arg ldc=4096 --flops=137438953472 2>&1 | tail -1 | grep -o '"ms": [0-9.]*\|"tflops": [0-9.]*' | tr '\n' ' '; echo
}
for g in 8 1 4 16 64; do
  run matmul_f32 256 64 $g
  run matmul_f32_TT 64 256 $g
  run matmul_f32_TT 256 64 $g
done
