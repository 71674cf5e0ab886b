#!/usr/bin/env bash
# f16 3000^3 follow-up: cp.async stages instead of TMA (--tma=false), and
# BK 32 (64-byte box rows), against the same kernel at lda = 3008.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_CACHE_DIR=/tmp/tile-cache-3000b
run() { # BM BN BK warps stages ld tma
  local gx=$(( (3000 + $1 - 1) / $1 )) gy=$(( (3000 + $2 - 1) / $2 )) n=$(( 3000 * $6 ))
  echo -n "BM=$1 BN=$2 BK=$3 warps=$4 stages=$5 ld=$6 tma=$7: "
  timeout 60 tile-bench --kernel=examples/matmul_relu.tile --grid=$gx,$gy -D BM=$1 -D BN=$2 -D BK=$3 --tma=$7 \
    --num-warps=$4 --num-stages=$5 --arg a=$n --arg b=$n --arg c=$n --arg M=3000 --arg N=3000 --arg K=3000 \
    --arg lda=$6 --arg ldb=$6 --arg ldc=$6 --flops=54000000000 2>&1 | tail -1 | grep -o '"ms": [0-9.]*\|"tflops": [0-9.]*' | tr '\n' ' '; echo
}
for round in 1 2; do
  for ld in 3000 3008; do
    run 128 256 64 8 4 $ld true
    run 128 256 64 8 4 $ld false
    run 128 256 64 8 3 $ld false
    run 128 256 32 8 6 $ld true
    run 128 256 32 8 4 $ld true
    run 128 128 64 8 4 $ld true
  done
done
