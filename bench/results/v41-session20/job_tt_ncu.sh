#!/usr/bin/env bash
# ncu of f32 NN 256x64x32/2 against TT 64x256x32/2 (4096^3, one launch each):
# stall reasons, issue rates, shared-memory wavefronts and bank conflicts.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_CACHE_DIR=/tmp/tile-cache-ncu
tile-bench --dump-kernels=/tmp/k > /dev/null
n=$((4096 * 4096))
for spec in "matmul_f32 256 64" "matmul_f32_TT 64 256"; do
  set -- $spec
  echo "== $1 BM=$2 BN=$3"
  timeout 200 ncu -k regex:matmul -c 1 --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
    --section InstructionStats --section MemoryWorkloadAnalysis_Tables --section LaunchStats --section Occupancy \
    --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio \
    tile-bench --kernel=/tmp/k/$1.tile --grid=$((4096 / $2)),$((4096 / $3)) -D BM=$2 -D BN=$3 -D BK=32 \
    --num-warps=4 --num-stages=2 --arg a=$n --arg b=$n --arg c=$n --arg M=4096 --arg N=4096 --arg K=4096 \
    --arg lda=4096 --arg ldb=4096 --arg ldc=4096 --reps=1 --warmup=0 > $OUT/ncu_$1.txt 2>&1
  grep -E "Duration|Registers Per|No Eligible|Warp Cycles Per Issued|bank_conflicts|wavefronts|stalled" $OUT/ncu_$1.txt | head -30
done
