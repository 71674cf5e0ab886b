#!/usr/bin/env bash
# Why tf32 TN with 4-byte cp.async copies of B runs at half of NN: ncu of
# TN 256x128x32/8 warps/4 stages against NN's same tile (stall reasons, L1
# and LSU load), and TT with cp.async instead of TMA (what A's cp.async
# stage costs).
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_CACHE_DIR=/tmp/tile-cache-ncu
tile-bench --dump-kernels=/tmp/k > /dev/null
n=$((4096 * 4096))
args="--arg a=$n --arg b=$n --arg c=$n --arg M=4096 --arg N=4096 --arg K=4096 --arg lda=4096 --arg ldb=4096 --arg ldc=4096 --flops=137438953472"
for spec in "matmul_tf32_TT 128 256 true" "matmul_tf32_TT 128 256 false" "matmul_tf32_TN 256 128 false" "matmul_tf32_TN 128 256 false"; do
  set -- $spec
  echo -n "$1 BM=$2 BN=$3 tma=$4: "
  timeout 60 tile-bench --kernel=/tmp/k/$1.tile --grid=$((4096 / $2)),$((4096 / $3)) -D BM=$2 -D BN=$3 -D BK=32 \
    --num-warps=8 --num-stages=4 --tma=$4 $args 2>&1 | tail -1 | grep -o '"ms": [0-9.]*\|"tflops": [0-9.]*' | tr '\n' ' '; echo
done
for spec in "matmul_tf32 256 128" "matmul_tf32_TN 256 128"; do
  set -- $spec
  echo "== $1 BM=$2 BN=$3"
  timeout 200 ncu -k regex:matmul -c 1 --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
    --section MemoryWorkloadAnalysis_Tables --section LaunchStats \
    --metrics l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__throughput.avg.pct_of_peak_sustained_active,lsu__pipe_utilization.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_membar_per_issue_active.ratio,smsp__average_warps_issue_stalled_sleeping_per_issue_active.ratio \
    tile-bench --kernel=/tmp/k/$1.tile --grid=$((4096 / $2)),$((4096 / $3)) -D BM=$2 -D BN=$3 -D BK=32 \
    --num-warps=8 --num-stages=4 $args --reps=1 --warmup=0 > $OUT/ncu_$1.txt 2>&1
  grep -E "Duration|Registers Per|No Eligible|Warp Cycles Per Issued|L1/TEX Hit|bank_conflicts|wavefronts|stalled|ldgsts|throughput|utilization" $OUT/ncu_$1.txt | head -30
done
