#!/usr/bin/env bash
# tf32 TN with B loaded in 4 x 4 blocks per thread (16-byte loads along N)
# one iteration ahead of its K-major st.shared.v4 stores. GPU tests of
# every tf32 order, tile-bench's tf32 table (every configuration's time),
# the tf32 peers in the same machine session, and ncu's shared-memory
# loads and stores (wavefronts, bank conflicts) of TN's and NN's tuned tiles.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tilec --version | head -1
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
timeout 200 TileGPUTests --gtest_filter=MatmulTest.WarpgroupMmaTf32:MatmulTest.WgmmaPipelineSmall:MatmulTest.TF32:MatmulTest.OperandOrders 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|error|Expected|Which|worst" > $OUT/gtest_tn.txt; grep -E "OK|FAIL|PASS" $OUT/gtest_tn.txt | head -20
export TILE_CACHE_DIR=/tmp/tile-cache-tn
timeout 200 tile-bench --only=matmul --matmul-filter=matmul_tf32 --tune-verbose > $OUT/matmul_tf32.jsonl 2> $OUT/matmul_tf32_tuning.txt
echo "bench exit=$?"; grep -o '"kernel": "[^"]*", "shape": "[^"]*".*"tflops": [0-9.]*, "config": "[^"]*"' $OUT/matmul_tf32.jsonl | sed 's/"ms".*"tflops"/"tflops"/'
timeout 150 python3 bench/peers.py --only matmul --matmul-filter matmul_tf32 > $OUT/peers_tf32.jsonl 2> $OUT/peers_tf32.err
echo "peers exit=$?"; grep -o '"impl": "[a-z]*", "kernel": "[^"]*".*"tflops": [0-9.]*' $OUT/peers_tf32.jsonl | sed 's/"shape.*"ms_p80": [0-9.]*,//'
tile-bench --dump-kernels=/tmp/k > /dev/null
n=$((4096 * 4096))
for spec in "matmul_tf32_TN 128 256" "matmul_tf32 256 128"; do
  set -- $spec
  echo "== ncu $1 BM=$2 BN=$3"
  timeout 120 ncu -k regex:matmul -c 1 --section SpeedOfLight --section WarpStateStats --section InstructionStats \
    --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio \
    tile-bench --kernel=/tmp/k/$1.tile --grid=$((4096 / $2)),$((4096 / $3)) -D BM=$2 -D BN=$3 -D BK=32 --num-warps=8 --num-stages=4 \
    --arg a=$n --arg b=$n --arg c=$n --arg M=4096 --arg N=4096 --arg K=4096 --arg lda=4096 --arg ldb=4096 --arg ldc=4096 \
    --reps=1 --warmup=0 > $OUT/ncu_$1.txt 2>&1
  grep -E "Duration|bank_conflicts|wavefronts|stalled|inst_executed|Warp Cycles Per Issued" $OUT/ncu_$1.txt
done
