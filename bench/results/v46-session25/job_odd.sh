#!/usr/bin/env bash
# f16 NT (x @ W.T) at an odd size, 4095³ (leading dimensions odd: no
# 4-byte alignment of rows, so no cp.async or TMA), against 4096³, three
# tiles of the default list each, and PyTorch at both sizes.
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH
for n in 4095 4096; do
  for c in "128 128 32 4 3" "128 256 64 8 4" "64 64 32 4 4"; do
    set -- $c
    gm=$(( (n + $1 - 1) / $1 )); gn=$(( (n + $2 - 1) / $2 ))
    timeout 120 tile-bench --kernel=bench/results/v46-session25/matmul_f16_NT.tile --grid=$gm,$gn \
      -D BM=$1 -D BN=$2 -D BK=$3 --num-warps=$4 --num-stages=$5 \
      --arg a=$((n * n)) --arg b=$((n * n)) --arg c=$((n * n)) --arg M=$n --arg N=$n --arg K=$n \
      --arg lda=$n --arg ldb=$n --arg ldc=$n --flops=$((2 * n * n * n)) --reps=20 2>&1 | tail -1 | sed "s/^/n=$n $c: /"
  done
done
python3 bench/results/v46-session25/odd_peer.py
