#!/usr/bin/env bash
# Element-aligned dot-operand copies in 16-byte runs a thread
# (TILE_PROBE_ELEMENT_RUNS=1) and every copy's loads first
# (TILE_PROBE_LOADS_FIRST=1000) against main's lowering: f16 x @ W.T at 4095³
# (rows 2-byte aligned) over six tiles, PyTorch in the same run; then the
# GPU tests that copy element by element, on main's lowering and with runs.
D=bench/results/v47-session26
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
n=4095
for round in 1 2; do
for v in base runs runs-all; do
  case $v in base) E="";; runs) E="TILE_PROBE_ELEMENT_RUNS=1";; runs-all) E="TILE_PROBE_ELEMENT_RUNS=1 TILE_PROBE_LOADS_FIRST=1000";; esac
  for c in "128 128 32 4 3" "128 256 64 8 4" "64 64 32 4 4" "128 128 64 4 4" "64 128 32 4 4" "128 64 32 4 4"; do
    set -- $c
    gm=$(( (n + $1 - 1) / $1 )); gn=$(( (n + $2 - 1) / $2 ))
    env $E TILE_CACHE_DIR=/tmp/tile-cache-$v timeout 120 tile-bench --kernel=$D/matmul_f16_NT.tile --grid=$gm,$gn \
      -D BM=$1 -D BN=$2 -D BK=$3 --num-warps=$4 --num-stages=$5 \
      --arg a=$((n * n)) --arg b=$((n * n)) --arg c=$((n * n)) --arg M=$n --arg N=$n --arg K=$n \
      --arg lda=$n --arg ldb=$n --arg ldc=$n --flops=$((2 * n * n * n)) --reps=20 2>&1 | tail -1 | grep -o '"ms": [0-9.]*.*' | sed "s/^/r$round $v $c: /"
  done
done
python3 $D/odd_peer.py | grep '"n": 4095'
done | tee $OUT/runs.txt
F='MatmulTest.F16:MatmulTest.BF16:MatmulTest.OperandOrders:MatmulTest.WarpgroupMma:MatmulTest.WgmmaPipelineSmall:MatmulTest.Unpipelined:Int8DotTest.*:GPUTest.MatmulReluSmall'
for v in base runs; do
  E=""; [ $v = runs ] && E="TILE_PROBE_ELEMENT_RUNS=1 TILE_PROBE_LOADS_FIRST=1000"
  env $E TILE_CACHE_DIR=/tmp/tile-cache-t$v TILE_GPU_TEST_SMALL=1 timeout 200 TileGPUTests --gtest_filter="$F" 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|Expected|Which|e.what" > $OUT/gtest_$v.txt; echo "$v gtest rc=${PIPESTATUS[0]}"; grep -cE "OK" $OUT/gtest_$v.txt; grep -E "FAIL|PASSED" $OUT/gtest_$v.txt | head
done
