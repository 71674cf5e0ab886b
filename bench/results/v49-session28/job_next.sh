#!/usr/bin/env bash
# For the next session: branch wip/attention-producer's tools (pack them
# from that branch), main's libtile.so in pack-old for the base. GPU tests
# the branch touches, then attention_fa3 and the example (8 warps now with
# the producer) against main's example and SDPA's default, two rounds, every
# process under a time limit (a deadlock ends the process, not the job).
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tn-*
source scripts/gpu/unpack.sh
mkdir -p /tmp/tile-base && xz -dc pack-old/libtile.so.xz > /tmp/tile-base/libtile.so
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx PYTHONUNBUFFERED=1
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
( timeout 200 TileGPUTests --gtest_filter='MatmulTest.AttentionExample:MatmulTest.AttentionHeadSlices:MatmulTest.HeadSlicesInLoops:SharedStageTest.*'
  TILE_GPU_TEST_SMALL=1 timeout 150 TileGPUTests --gtest_filter='MatmulTest.WarpgroupMmaTf32:MatmulTest.TF32:MatmulTest.WgmmaPipelineSmall' ) 2>&1 |
  grep -E "^\[ +(OK|FAILED)|PASSED|FAILED|Failure|Expected|Which" > $OUT/gtest.txt; grep -v "^\[       OK" $OUT/gtest.txt
D=bench/results/v49-session28
T8="128,128,8,3;128,128,8,2;128,64,8,3;128,64,8,2"
for round in 1 2; do
  TILE_LIBRARY=/tmp/tile-base/libtile.so TILE_CACHE_DIR=/tmp/tn-base timeout 150 python3 bench/results/v48-session27/attn_ab.py main "128,64,4,2;64,64,4,3;$T8" >> $OUT/next.jsonl 2>> $OUT/next.err; echo "main rc=$?"
  TILE_LIBRARY=/tmp/tile-bin/libtile.so TILE_CACHE_DIR=/tmp/tn-ex timeout 150 python3 bench/results/v48-session27/attn_ab.py example "$T8" >> $OUT/next.jsonl 2>> $OUT/next.err; echo "example rc=$?"
  ATTENTION_SOURCE=examples/attention_fa3.tile TILE_LIBRARY=/tmp/tile-bin/libtile.so TILE_CACHE_DIR=/tmp/tn-fa3 timeout 150 python3 bench/results/v48-session27/attn_ab.py fa3 "$T8;128,64,4,2" >> $OUT/next.jsonl 2>> $OUT/next.err; echo "fa3 rc=$?"
done
python3 $D/summarize_ab.py $OUT/next.jsonl main example fa3
