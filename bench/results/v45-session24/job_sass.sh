#!/usr/bin/env bash
# Where tf32 TN 256x128x32 (8 warps + the producer, 4 stages) stalls: ncu's
# warp-state samples per SASS instruction (source page, csv).
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH
tile-bench --dump-kernels=/tmp/k > /dev/null
n=$((4096 * 4096))
timeout 200 ncu -k regex:matmul -c 1 --section SourceCounters --section WarpStateStats -o /tmp/rep -f \
  tile-bench --kernel=/tmp/k/matmul_tf32_TN.tile --grid=16,32 -D BM=256 -D BN=128 -D BK=32 --num-warps=8 --num-stages=4 \
  --arg a=$n --arg b=$n --arg c=$n --arg M=4096 --arg N=4096 --arg K=4096 --arg lda=4096 --arg ldb=4096 --arg ldc=4096 \
  --reps=1 --warmup=0 > $OUT/ncu_run.txt 2>&1; echo "ncu rc=$?"
ncu --import /tmp/rep.ncu-rep --page source --csv --print-source sass > $OUT/sass.csv 2> $OUT/sass.err; echo "import rc=$?"
wc -c $OUT/sass.csv; head -2 $OUT/sass.csv | cut -c1-600
