#!/usr/bin/env bash
# Session 29, third GPU call: the masked loop continues the unmasked loop's
# ring of stages (one producer feeds both). GPU tests, then two rounds of
# the A/B (example's 4-warp tiles, attention_fa3 on 8 warps).
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tn-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx PYTHONUNBUFFERED=1
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
( timeout 240 TileGPUTests --gtest_filter='MatmulTest.AttentionExample:MatmulTest.AttentionHeadSlices:MatmulTest.HeadSlicesInLoops'
  TILE_GPU_TEST_SMALL=1 timeout 150 TileGPUTests --gtest_filter='MatmulTest.WarpgroupMmaTf32:MatmulTest.WgmmaPipelineSmall' ) > $OUT/gtest.log 2>&1
echo "tests rc=$?"
grep -E "^\[ +(OK|FAILED)|PASSED|FAILED|Failure|Expected|Which|timeout" $OUT/gtest.log | grep -v "^\[       OK" | head -40
grep -c "worst error" $OUT/gtest.log
AB=bench/results/v48-session27/attn_ab.py
run2() { local v=$1 s=$2; shift 2; ATTENTION_SOURCE=$s TILE_CACHE_DIR=/tmp/tn-$v timeout 200 python3 $AB $v "$@" >> $OUT/ab.jsonl 2>> $OUT/ab.err; echo "$v rc=$?"; }
for round in 1 2; do
  run2 example examples/attention.tile "128,64,4,2;64,128,4,2"
  run2 fa3 examples/attention_fa3.tile "128,128,8,2;128,128,8,3"
done
tail -5 $OUT/ab.err
python3 bench/results/v49-session28/summarize_ab.py $OUT/ab.jsonl example fa3
