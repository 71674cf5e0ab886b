#!/usr/bin/env bash
# Session 32, first GPU call: the persistent example's first key block as a
# loop of its own (S_0 alone, no P V of zeros; the producer's ring grows V's
# buffer at the next loop) against the example before it (ap_before.tile),
# same tools, B4 H32 N4096, three rounds alternating; then the GPU tests of
# the attention examples and the staging rules.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tn-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx PYTHONUNBUFFERED=1
R=bench/results/v53-session32
AB=$R/pers_ab.py
run2() { local v=$1 s=$2; shift 2; TILE_CACHE_DIR=/tmp/tn-$v timeout 100 python3 $AB $v $s persistent "128,128,8,2" "$@" >> $OUT/ab.jsonl 2>> $OUT/ab.err; echo "$v rc=$?"; }
for round in 1 2 3; do
  run2 before $R/ap_before.tile
  run2 peel examples/attention_persistent.tile
done
run2 before $R/ap_before.tile "128,0;128,1;64,0;64,1" 2x16x4000
run2 peel examples/attention_persistent.tile "128,0;128,1;64,0;64,1" 2x16x4000
tail -3 $OUT/ab.err
python3 bench/results/v49-session28/summarize_ab.py $OUT/ab.jsonl before peel
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
timeout 200 TileGPUTests --gtest_filter='MatmulTest.Attention*:MatmulTest.HeadSlicesInLoops:MatmulTest.WgmmaLoneDot:SharedStageTest.*:GPUTest.GridStrideLoops' > $OUT/gtest.log 2>&1
echo "gtest rc=$?"
grep -E "^\[ +(OK|FAILED)|PASSED|FAILED|Failure|Expected|Which|exception" $OUT/gtest.log | head -20
