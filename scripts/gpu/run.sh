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
  echo "== ptxas over the default tuning list: every timed matmul kernel x configuration"
  echo "   (16-byte-aligned sizes; lines only where a stack frame, spills or errors appear)"
  mkdir -p /tmp/tile-kernels
  tile-bench --examples examples --dump-kernels=/tmp/tile-kernels
  tile-bench --list-configs | while read -r index config; do
    for k in /tmp/tile-kernels/*.tile; do echo "$index $config $k"; done
  done | xargs -P 16 -L 1 bash -c '
    defs=$(echo "$1" | tr , "\n" | grep -E "^B[MNK]=" | sed "s/^/-D /" | tr "\n" " ")
    warps=$(echo "$1" | grep -oE "num_warps=[0-9]+" | cut -d= -f2)
    stages=$(echo "$1" | grep -oE "num_stages=[0-9]+" | cut -d= -f2)
    ptx=/tmp/tile-ptx/cfg$0_$(basename "$2" .tile).ptx
    tilec "$2" $defs --num-warps=$warps --num-stages=$stages \
      --divisible=a,b,c,M,N,K,lda,ldb,ldc -o "$ptx" 2>&1 | head -2
    report=$(ptxas -arch=sm_90 -v "$ptx" -o /dev/null 2>&1)
    regs=$(echo "$report" | grep -oE "Used [0-9]+ registers" | grep -oE "[0-9]+")
    frame=$(echo "$report" | grep -oE "[0-9]+ bytes stack frame" | grep -oE "^[0-9]+" | head -1)
    spill=$(echo "$report" | grep -oE "[0-9]+ bytes spill stores" | grep -oE "^[0-9]+" | head -1)
    echo "$(basename "$2" .tile) $1 regs=$regs stack=$frame spills=$spill"
    echo "$report" | grep -i error | head -2
  ' > "$out/ptxas.log"
  grep -vE "stack=0 spills=0$" "$out/ptxas.log" | sort | head -40
  echo "$(grep -cE "stack=0 spills=0$" "$out/ptxas.log") of $(grep -c regs= "$out/ptxas.log") kernel x configuration pairs without stack frame or spills"
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
