#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, with pack/ carried:
# unpacks the tools, reports the machine, runs the GPU tests (and, with
# TILE_SANITIZE=1, the same tests under compute-sanitizer), the benchmark
# and the peer script, and prints one table. Results go to $OUT.
set -uo pipefail
out=${OUT:-/tmp/tile-out}
mkdir -p "$out" /tmp/tile-bin /tmp/tile-ptx
for f in pack/*.xz; do
  xz -dc "$f" > "/tmp/tile-bin/$(basename "$f" .xz)"
done
chmod +x /tmp/tile-bin/*
export PATH=/tmp/tile-bin:$PATH
export TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
export TILE_CACHE_DIR=/tmp/tile-cache
rm -rf "$TILE_CACHE_DIR"

{
  echo "== machine"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
  python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)' 2>&1
  tilec --version | head -2
  echo "== tilec PTX accepted by ptxas (resource report)"
  tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
  for e in vector_add softmax matmul_relu; do
    tilec examples/$e.tile -o /tmp/tile-ptx/$e.ptx &&
      ptxas -arch=sm_90 -v /tmp/tile-ptx/$e.ptx -o /tmp/tile-ptx/$e.cubin 2>&1 | grep -E "error|Used"
  done
  echo "== matmul_relu (all ints divisible by 16): resources and SASS"
  tilec examples/matmul_relu.tile --divisible=a,b,c,M,N,K,lda,ldb,ldc \
    -o /tmp/tile-ptx/mm.ptx &&
    ptxas -arch=sm_90 -v /tmp/tile-ptx/mm.ptx -o /tmp/tile-ptx/mm.cubin 2>&1 | grep -E "error|Used|spill" &&
    cuobjdump -sass /tmp/tile-ptx/mm.cubin | grep -oE "\b(HMMA|LDSM|LDGSTS|LDG|STS|LDS|LDL|STL|BAR)[.A-Z0-9]*" | sort | uniq -c
  echo "== GPU tests"
  TileGPUTests --gtest_color=no 2>&1 | grep -E "^\[|worst error|seed|Failure|Expected|Which|actual|error" | tail -80
  echo "== bench"
  tile-bench --examples examples --tune-verbose > "$out/tile.jsonl" 2> "$out/tune.log"
  grep -A10 "autotune matmul_relu \[M=4096,N=4096,K=4096" "$out/tune.log" | head -11
  echo "== a second process: matmul choices from the tuning store"
  tile-bench --examples examples --only=matmul --warmup=2 --reps=5 |
    grep -oE '"kernel": "[^"]*", "shape": "[^"]*"|"config": .*' | paste - -
  python3 bench/peers.py > "$out/peers.jsonl"
  python3 bench/report.py "$out/tile.jsonl" "$out/peers.jsonl"
  if [[ ${TILE_SANITIZE:-0} == 1 ]]; then
    for tool in memcheck racecheck initcheck; do
      echo "== compute-sanitizer --tool $tool"
      TILE_GPU_TEST_SMALL=1 compute-sanitizer --tool "$tool" --error-exitcode 9 TileGPUTests \
        --gtest_filter='*VectorAdd*:*Softmax*:*Matmul*' --gtest_color=no 2>&1 | tail -4
      echo "exit: ${PIPESTATUS[0]}"
    done
  fi
} 2>&1 | tee "$out/run.log"
