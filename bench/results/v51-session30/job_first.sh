#!/usr/bin/env bash
# Session 30, first GPU call: the persistent attention kernel (a loop over
# tiles; the producer's copy of that loop feeds the ring of K/V stages)
# against attention_fa3.tile on its grid, same inputs, two rounds; then the
# attention GPU tests.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tn-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx PYTHONUNBUFFERED=1
mkdir -p /tmp/tile-ptx
R=bench/results/v51-session30
AB=$R/pers_ab.py
run2() { local v=$1 s=$2 k=$3; shift 3; TILE_CACHE_DIR=/tmp/tn-$v timeout 150 python3 $AB $v $s $k "$@" >> $OUT/ab.jsonl 2>> $OUT/ab.err; echo "$v rc=$?"; }
for round in 1 2; do
  run2 fa3 examples/attention_fa3.tile grid "128,128,8,2"
  run2 pers $R/attention_persistent.tile persistent "128,128,8,2"
done
run2 pers1 $R/attention_persistent.tile persistent:100000 "128,128,8,2" "128,0;128,1"
tail -5 $OUT/ab.err
python3 bench/results/v49-session28/summarize_ab.py $OUT/ab.jsonl fa3 pers pers1
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
( timeout 200 TileGPUTests --gtest_filter='MatmulTest.AttentionExample:MatmulTest.AttentionHeadSlices:MatmulTest.HeadSlicesInLoops' ) > $OUT/gtest.log 2>&1
echo "tests rc=$?"
grep -E "^\[ +(OK|FAILED)|PASSED|FAILED|Failure|Expected|Which|timeout" $OUT/gtest.log | grep -v "^\[       OK" | head -40
