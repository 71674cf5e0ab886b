#!/usr/bin/env bash
# Where tf32 TN with the producer (a7f2e37's pipeline: two groups of 2
# warps beside 8 MMA warps) spends its time: TN timed with the producer
# and without, alternating, then NN in the same session; then ncu's
# per-SASS warp-state samples of the tuned tile (256x128x32, 8 warps, 4
# stages).
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH
mkdir -p /tmp/r
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader > /tmp/r/machine.txt
run() { # name ws filter
  TILE_CACHE_DIR=/tmp/tile-cache-$2 timeout 200 tile-bench --only=matmul --matmul-filter=$3 \
    --warp-specialize=$2 --tune-verbose > /tmp/r/$1.jsonl 2> /tmp/r/$1.txt
  echo "$1 rc=$?"; grep -o '"kernel": "[^"]*".*"tflops": [0-9.]*' /tmp/r/$1.jsonl | sed 's/"ms".*"tflops"/"tflops"/'
}
run tn_ws1 true tf32_TN; run tn_one1 false tf32_TN
run tn_ws2 true tf32_TN; run tn_one2 false tf32_TN
run all_ws true matmul_tf32
tile-bench --dump-kernels=/tmp/k > /dev/null
n=$((4096 * 4096))
timeout 200 ncu -k regex:matmul -c 1 --section SourceCounters --section WarpStateStats --section SpeedOfLight -o /tmp/rep -f \
  tile-bench --kernel=/tmp/k/matmul_tf32_TN.tile --grid=16,32 -D BM=256 -D BN=128 -D BK=32 --num-warps=8 --num-stages=4 \
  --arg a=$n --arg b=$n --arg c=$n --arg M=4096 --arg N=4096 --arg K=4096 --arg lda=4096 --arg ldb=4096 --arg ldc=4096 \
  --reps=1 --warmup=0 > /tmp/r/ncu_run.txt 2>&1; echo "ncu rc=$?"
ncu --import /tmp/rep.ncu-rep --page details > /tmp/r/ncu_details.txt 2>&1
ncu --import /tmp/rep.ncu-rep --page source --csv --print-source sass > /tmp/r/sass.csv 2> /tmp/r/sass.err; echo "import rc=$?"
tar -C /tmp -cJf $OUT/diag.tar.xz r
