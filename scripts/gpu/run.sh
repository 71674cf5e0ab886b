#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, with pack/ carried:
# unpacks the tools, reports the machine, and runs the smoke checks (later
# also the GPU tests and the benchmarks). Results go to $OUT when set.
set -uo pipefail
out=${OUT:-/tmp/tile-out}
mkdir -p "$out" /tmp/tile-bin
for f in pack/*.xz; do
  xz -dc "$f" > "/tmp/tile-bin/$(basename "$f" .xz)"
done
chmod +x /tmp/tile-bin/*
export PATH=/tmp/tile-bin:$PATH

{
  echo "== machine"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
  ldconfig -p | grep -m1 'libcuda.so.1' || echo "libcuda.so.1: not found"
  (command -v ptxas && ptxas --version | tail -1) || echo "ptxas: not on PATH"
  python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)' 2>&1
  echo "== static tilec runs here"
  tilec --version | head -3
  tilec examples/vector_add.tile --run --grid=2 --arg x=iota:2000 \
    --arg y=fill:1:2000 --arg out=zeros:2000 --arg n=2000
} 2>&1 | tee "$out/run.log"
