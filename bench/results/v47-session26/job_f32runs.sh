#!/usr/bin/env bash
# f32 (ieee, FMA dots) at 4095³: every tile of the default tuning list in
# all four orders, 4-byte element copies with lanes along the row (main)
# and in runs (TILE_PROBE_RUNS32=1, a probe build), alternating; PyTorch
# in the same run.
D=bench/results/v47-session26
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH
n=4095
C="128 128 32 4 3;128 128 64 4 3;128 128 16 4 4;256 128 32 8 4;128 256 32 8 4;256 64 32 4 3;64 128 64 4 3;128 64 64 4 3;64 64 32 4 4;256 64 32 4 2;128 256 64 8 4;128 128 64 4 4;128 64 64 4 6;64 256 32 4 2"
for k in matmul_f32 matmul_f32_NT matmul_f32_TN matmul_f32_TT; do
  echo "$C" | tr ';' '\n' | while read bm bn bk nw ns; do
    for v in lanes runs; do
      E=""; [ $v = runs ] && E="TILE_PROBE_RUNS32=1"
      gm=$(( (n + bm - 1) / bm )); gn=$(( (n + bn - 1) / bn ))
      env $E TILE_CACHE_DIR=/tmp/tile-cache-$v timeout 60 tile-bench --kernel=$D/$k.tile --grid=$gm,$gn \
        -D BM=$bm -D BN=$bn -D BK=$bk --num-warps=$nw --num-stages=$ns \
        --arg a=$((n * n)) --arg b=$((n * n)) --arg c=$((n * n)) --arg M=$n --arg N=$n --arg K=$n \
        --arg lda=$n --arg ldb=$n --arg ldc=$n --flops=$((2 * n * n * n)) --reps=10 2>&1 | tail -1 | grep -o '"ms": [0-9.]*.*' | sed "s/^/$v $k $bm,$bn,$bk,$nw,$ns: /"
    done
  done
done | tee $OUT/f32runs.txt
python3 $D/odd32_peer.py | grep '"f32"' | tee -a $OUT/f32runs.txt
