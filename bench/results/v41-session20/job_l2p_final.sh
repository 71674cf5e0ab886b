#!/usr/bin/env bash
# The committed L2-promotion rule (128B for rows off 128-byte lines): GPU
# tests over TMA stages with such strides, tile-bench f16 matmuls and the
# linear example, then their peers in the same machine session.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_GPU_TEST_SMALL=1 timeout 150 TileGPUTests --gtest_filter=MatmulTest.LinearEpilogue:MatmulTest.WgmmaPipelineSmall:MatmulTest.F16:Int8DotTest.LinearExample:MatmulTest.TF32 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|error" > $OUT/gtest_l2p.txt; grep -E "OK|FAIL|PASS" $OUT/gtest_l2p.txt
export TILE_CACHE_DIR=/tmp/tile-cache-l2p-final
timeout 150 tile-bench --only=matmul,linear --matmul-filter=matmul_f16 > $OUT/tile_f16_linear.jsonl 2> $OUT/tile_f16_linear.err
echo "bench exit=$?"; grep -o '"kernel": "[^"]*", "shape": "[^"]*".*"tflops": [0-9.]*' $OUT/tile_f16_linear.jsonl | sed 's/"ms".*"tflops"/"tflops"/'
timeout 240 python3 bench/peers.py --only matmul,linear --matmul-filter matmul_f16 > $OUT/peers_f16_linear.jsonl 2> $OUT/peers_f16_linear.err
echo "peers exit=$?"; grep -o '"impl": "[a-z]*", "kernel": "[^"]*", "shape": "[^"]*".*"tflops": [0-9.]*' $OUT/peers_f16_linear.jsonl | sed 's/"ms".*"tflops"/"tflops"/'
