#!/usr/bin/env bash
# Final tools of the session (c3e3188, main): tile-bench's tf32 and f32
# tables (every order, every configuration's time), then the same kernels'
# peers (PyTorch, grouped autotuned Triton) in the same machine session.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
export TILE_CACHE_DIR=/tmp/tile-cache-final
timeout 300 tile-bench --only=matmul --matmul-filter=matmul_tf32,matmul_f32 --tune-verbose > $OUT/matmul.jsonl 2> $OUT/matmul_tuning.txt
echo "bench exit=$?"; grep -o '"kernel": "[^"]*", "shape": "[^"]*".*"tflops": [0-9.]*, "config": "[^"]*"' $OUT/matmul.jsonl | sed 's/"ms".*"tflops"/"tflops"/'
timeout 270 python3 bench/peers.py --only matmul --matmul-filter matmul_tf32,matmul_f32 > $OUT/peers.jsonl 2> $OUT/peers.err
echo "peers exit=$?"; grep -o '"impl": "[a-z]*", "kernel": "[^"]*".*"tflops": [0-9.]*' $OUT/peers.jsonl | sed 's/"shape.*"ms_p80": [0-9.]*,//'
