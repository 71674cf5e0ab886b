#!/usr/bin/env bash
# Final tools: the suites the launch's warps (now per compiled variant) and
# the producer touch (every GPUTest, the C interface's and the Python
# package's GPU tests and examples, the tf32 MatmulTest cases), ncu of tf32
# TN 256x128x32 with and without the producer and of TT, then tile-bench's
# tf32 table and the tf32 peers in the same machine session.
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 120 TileGPUTests --gtest_filter='GPUTest.*:MatmulTest.Autotuned:MatmulTest.WgmmaPipelineSmall' 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|Expected|Which|e.what" > $OUT/gtest_final.txt; echo "gtest rc=${PIPESTATUS[0]}"; grep -cE "^\[ +OK" $OUT/gtest_final.txt; grep -E "FAIL|PASS|SKIP" $OUT/gtest_final.txt
export PYTHONUNBUFFERED=1
(/tmp/tile-bin/TileCApiTest --gpu | tail -2; timeout 150 python3 python/tests/test_gpu.py; for e in vector_add softmax matmul_relu; do python3 python/examples/$e.py; done) > $OUT/python_gpu.txt 2>&1; echo "python rc=$?"; tail -6 $OUT/python_gpu.txt
tile-bench --dump-kernels=/tmp/k > /dev/null
n=$((4096 * 4096))
for v in "TN true" "TN false" "TT true"; do set -- $v
  timeout 100 ncu -k regex:matmul -c 1 --section SpeedOfLight --section WarpStateStats \
    --metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio \
    tile-bench --kernel=/tmp/k/matmul_tf32_$1.tile --warp-specialize=$2 --grid=16,32 -D BM=256 -D BN=128 -D BK=32 --num-warps=8 --num-stages=4 \
    --arg a=$n --arg b=$n --arg c=$n --arg M=4096 --arg N=4096 --arg K=4096 --arg lda=4096 --arg ldb=4096 --arg ldc=4096 \
    --reps=1 --warmup=0 > $OUT/ncu_$1_$2.txt 2>&1
  echo "== $1 ws=$2"; grep -E "Duration|gmma|Block Size|Registers|Stall|stalled|bank_conflicts|Warp Cycles Per Issued" $OUT/ncu_$1_$2.txt | head -14
done
export TILE_CACHE_DIR=/tmp/tile-cache-final
timeout 150 tile-bench --only=matmul --matmul-filter=matmul_tf32 --tune-verbose > $OUT/matmul_tf32.jsonl 2> $OUT/matmul_tf32_tuning.txt
echo "bench exit=$?"; grep -o '"kernel": "[^"]*", "shape": "[^"]*".*"tflops": [0-9.]*, "config": "[^"]*"' $OUT/matmul_tf32.jsonl | sed 's/"ms".*"tflops"/"tflops"/'
timeout 150 python3 bench/peers.py --only matmul --matmul-filter matmul_tf32 > $OUT/peers_tf32.jsonl 2> $OUT/peers_tf32.err
echo "peers exit=$?"; grep -o '"impl": "[a-z]*", "kernel": "[^"]*".*"tflops": [0-9.]*' $OUT/peers_tf32.jsonl | sed 's/"shape.*"ms_p80": [0-9.]*,//'
