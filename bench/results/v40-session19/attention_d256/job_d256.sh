#!/usr/bin/env bash
# ca2a337: attention with D = 256 (Q copied once, 2 stages beside it) on
# the GPU: AttentionExample (now with D = 256 cases), then bench/attention.py
# at B4 H16 N4096 D256 (non-causal and causal are both in the script) with
# PyTorch's SDPA (default and flash backends) and the Triton kernel.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 120 TileGPUTests --gtest_filter=MatmulTest.AttentionExample 2>&1 | grep -E "^\[ +(OK|FAILED)|PASSED|FAILED|Failure|D=256" | head -20 > $OUT/gtest_d256.txt; cat $OUT/gtest_d256.txt
timeout 300 python3 bench/attention.py 4x16x4096x256 > $OUT/attention_d256.jsonl 2> $OUT/attention_d256.err
echo "bench exit=$?"; tail -3 $OUT/attention_d256.err; cut -c1-220 $OUT/attention_d256.jsonl
