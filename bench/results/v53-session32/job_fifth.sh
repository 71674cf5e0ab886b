#!/usr/bin/env bash
# Session 32, fifth GPU call: the output normalized by one reciprocal a row
# and products (rcp) instead of an f32 division an element (div.rn: a
# reciprocal, its refinement and a slow path for each of 64 elements a
# thread at D128), in the persistent example (against ap_peel.tile, 279899f)
# and the grid example at its tuned D64 tiles (against attention_div.tile);
# two rounds alternating at B4 H32 N4096; then the GPU tests of the
# attention examples.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tn-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx PYTHONUNBUFFERED=1
R=bench/results/v53-session32
AB=$R/pers_ab.py
run2() { local f=$1 v=$2 s=$3 kind=$4 cfg=$5; shift 5; TILE_CACHE_DIR=/tmp/tn-$v timeout 100 python3 $AB $v $s $kind "$cfg" "$@" >> $OUT/$f 2>> $OUT/ab.err; echo "$v rc=$?"; }
for round in 1 2; do
  run2 pers.jsonl div $R/ap_peel.tile persistent "128,128,8,2"
  run2 pers.jsonl rcp examples/attention_persistent.tile persistent "128,128,8,2"
  run2 grid.jsonl div $R/attention_div.tile grid "64,128,4,2;64,64,4,2" "64,0;64,1"
  run2 grid.jsonl rcp examples/attention.tile grid "64,128,4,2;64,64,4,2" "64,0;64,1"
done
tail -3 $OUT/ab.err
python3 bench/results/v49-session28/summarize_ab.py $OUT/pers.jsonl div rcp
python3 bench/results/v49-session28/summarize_ab.py $OUT/grid.jsonl div rcp
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
timeout 200 TileGPUTests --gtest_filter='MatmulTest.Attention*:MatmulTest.HeadSlicesInLoops:SharedStageTest.*' > $OUT/gtest.log 2>&1
echo "gtest rc=$?"
grep -E "^\[ +(OK|FAILED)|PASSED|FAILED|Failure|Expected|Which|exception" $OUT/gtest.log | head -20
