#!/usr/bin/env bash
# f16 3000^3: TMA against cp.async stages for the tuned tile (pinned), and
# ncu's memory counters for lda = 3000 against 3008.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples
which ncu || ls /usr/local/cuda/bin | grep -i nsight
for tma in true false; do
  export TILE_CACHE_DIR=/tmp/tile-cache-tma-$tma
  echo "== --tma=$tma (configuration 10: 128x256x64, 8 warps, 4 stages)"
  timeout 90 tile-bench --only=matmul --matmul-filter=matmul_f16 --pin-config=10 --tma=$tma 2>&1 | grep -o '"kernel": "[^"]*", "shape": "[^"]*".*"tflops": [0-9.]*' | sed 's/"ms_p20.*"tflops"/"tflops"/'
done
export TILE_CACHE_DIR=/tmp/tile-cache-ncu
for ld in 3000 3008; do
  n=$((3000 * ld))
  echo "== ncu lda=$ld"
  timeout 150 ncu -k regex:matmul -c 1 --section SpeedOfLight --section MemoryWorkloadAnalysis_Tables \
    --metrics lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,l1tex__m_xbar2l1tex_read_sectors.sum,lts__t_sectors.sum,lts__t_requests.sum,smsp__cycles_active.avg,dram__bytes_read.sum \
    tile-bench --kernel=examples/matmul_relu.tile --grid=24,12 -D BM=128 -D BN=256 -D BK=64 --num-warps=8 --num-stages=4 \
    --arg a=$n --arg b=$n --arg c=$n --arg M=3000 --arg N=3000 --arg K=3000 --arg lda=$ld --arg ldb=$ld --arg ldc=$ld \
    --flops=54000000000 --reps=1 --warmup=0 > $OUT/ncu_$ld.txt 2>&1
  echo "exit=$?"; grep -E "Duration|Throughput|sectors|requests|Hit Rate|dram__|Bank" $OUT/ncu_$ld.txt | head -40
done
