#!/usr/bin/env bash
# 31712e5: f32 TT computed as Cᵀ = Bᵀ Aᵀ. GPU tests of the FMA orders, then
# tile-bench f32 (every order, two rounds, each configuration's time), then
# the f32 peers (PyTorch, Triton autotuned) in the same machine session.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 150 TileGPUTests --gtest_filter=MatmulTest.FmaOperandOrders:MatmulTest.F32IEEE:MatmulTest.Autotuned:MatmulTest.Unpipelined:GPUTest.MatmulReluSmall 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|error" > $OUT/gtest_tt.txt; tail -8 $OUT/gtest_tt.txt
for round in 1 2; do
  export TILE_CACHE_DIR=/tmp/tile-cache-$round
  timeout 120 tile-bench --only=matmul --matmul-filter=matmul_f32 --tune-verbose > $OUT/f32_r$round.jsonl 2> $OUT/f32_r${round}_tuning.txt
  echo "r$round exit=$?"; grep -o '"kernel": "[^"]*".*"tflops": [0-9.]*' $OUT/f32_r$round.jsonl | sed 's/"shape.*"ms_p80": [0-9.]*,//'
done
timeout 200 python3 bench/peers.py --only matmul --matmul-filter matmul_f32 > $OUT/peers_f32.jsonl 2> $OUT/peers_f32.err
echo "peers exit=$?"; grep -o '"impl": "[a-z]*", "kernel": "[^"]*".*"tflops": [0-9.]*' $OUT/peers_f32.jsonl | sed 's/"shape.*"ms_p80": [0-9.]*,//'
