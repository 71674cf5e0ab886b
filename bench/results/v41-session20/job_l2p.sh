#!/usr/bin/env bash
# f16 3000^3 probe: the tensor maps' L2 promotion (0 none, 1 64B, 2 128B,
# 3 256B: the default) through an uncommitted environment switch.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples
for round in 1 2; do
for p in 3 0 1 2; do
  export TILE_PROBE_L2P=$p TILE_CACHE_DIR=/tmp/tile-cache-l2p
  for ld in 3000 3008; do
    n=$((3000 * ld))
    echo -n "L2P=$p ld=$ld: "
    timeout 60 tile-bench --kernel=examples/matmul_relu.tile --grid=24,12 -D BM=128 -D BN=256 -D BK=64 --num-warps=8 --num-stages=4 \
      --arg a=$n --arg b=$n --arg c=$n --arg M=3000 --arg N=3000 --arg K=3000 --arg lda=$ld --arg ldb=$ld --arg ldc=$ld \
      --flops=54000000000 2>&1 | tail -1 | grep -o '"ms": [0-9.]*\|"tflops": [0-9.]*' | tr '\n' ' '; echo
  done
  echo -n "L2P=$p 4096: "
  timeout 60 tile-bench --only=matmul --matmul-filter=matmul_f16 --pin-config=10 2>&1 | grep '"4096x4096x4096"' | head -1 | grep -o '"ms": [0-9.]*\|"tflops": [0-9.]*' | tr '\n' ' '; echo
done
done
