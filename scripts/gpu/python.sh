#!/usr/bin/env bash
# Runs on the GPU machine with pack/ carried: the C interface's GPU test, the
# Python package's GPU tests and examples on torch tensors, then the Python
# benchmark, tile-bench and the peers in the same run (JSON lines in $OUT),
# the joined table, and PNG plots where matplotlib is present.
# Usage: scripts/gpu/python.sh [MATMUL_FILTER]   (default: matmul_f16)
set -uo pipefail
out=${OUT:-/tmp/tile-out}
mkdir -p "$out"
source "$(dirname "$0")/unpack.sh"
filter=${1:-matmul_f16}
echo "== C interface (capi-gpu)"
/tmp/tile-bin/TileCApiTest --gpu | tail -2
echo "== Python GPU tests"
python3 python/tests/test_gpu.py
echo "== Python examples"
for e in vector_add softmax matmul_relu; do python3 "python/examples/$e.py"; done
echo "== benchmark: Python, tile-bench, peers"
python3 python/examples/benchmark.py > "$out/py.jsonl"
/tmp/tile-bin/tile-bench --examples examples --matmul-filter="$filter" \
  > "$out/tile.jsonl" 2> "$out/tile-bench.log" || tail -3 "$out/tile-bench.log"
python3 bench/peers.py --only vector_add,softmax,matmul,launch \
  --matmul-filter="$filter" > "$out/peers.jsonl"
plot=()
python3 -c 'import matplotlib' 2>/dev/null && plot=(--plot "$out/plots")
python3 bench/report.py "${plot[@]}" "$out/tile.jsonl" "$out/peers.jsonl" \
  "$out/py.jsonl"
