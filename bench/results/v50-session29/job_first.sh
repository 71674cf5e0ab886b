#!/usr/bin/env bash
# Session 29, first GPU call: the producer warpgroup for TMA-only loops of
# two or more dots on 8 warps, turns, named barriers after the producer's
# branch, examples/attention_fa3.tile. GPU tests the change touches, then
# one round of A/B timings (B4 H32 N4096; SDPA's default in each process);
# every process under a time limit (a deadlock ends the process, not the job).
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tn-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx PYTHONUNBUFFERED=1
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
( timeout 240 TileGPUTests --gtest_filter='MatmulTest.AttentionExample:MatmulTest.AttentionHeadSlices:MatmulTest.HeadSlicesInLoops:SharedStageTest.*'
  TILE_GPU_TEST_SMALL=1 timeout 150 TileGPUTests --gtest_filter='MatmulTest.WarpgroupMmaTf32:MatmulTest.TF32:MatmulTest.WgmmaPipelineSmall' ) > $OUT/gtest.log 2>&1
echo "tests rc=$?"
grep -E "^\[ +(OK|FAILED)|PASSED|FAILED|Failure|Expected|Which|worst error|timeout" $OUT/gtest.log | grep -v "^\[       OK" | head -80
AB=bench/results/v48-session27/attn_ab.py
T8="128,128,8,3;128,128,8,2;128,64,8,3;128,64,8,2"
TILE_CACHE_DIR=/tmp/tn-ex timeout 200 python3 $AB example "128,64,4,2;$T8" >> $OUT/ab.jsonl 2>> $OUT/ab.err; echo "example rc=$?"
ATTENTION_SOURCE=examples/attention_fa3.tile TILE_CACHE_DIR=/tmp/tn-fa3 timeout 200 python3 $AB fa3 "$T8" >> $OUT/ab.jsonl 2>> $OUT/ab.err; echo "fa3 rc=$?"
tail -5 $OUT/ab.err
python3 bench/results/v49-session28/summarize_ab.py $OUT/ab.jsonl example fa3
