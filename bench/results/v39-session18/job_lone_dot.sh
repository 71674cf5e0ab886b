#!/usr/bin/env bash
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
for t in MatmulTest.WgmmaLoneDot MatmulTest.BatchedDot; do
  rm -rf /tmp/tile-cache
  TILE_GPU_TEST_SMALL=1 timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 TileGPUTests --gtest_filter=$t > $OUT/racecheck_$t.txt 2>&1
  echo "$t racecheck exit=$?"
  grep -E "Failure|FAILED|hazard|RACECHECK" $OUT/racecheck_$t.txt | head -6
done
rm -rf /tmp/tile-cache
TILE_GPU_TEST_SMALL=1 timeout 120 compute-sanitizer --tool synccheck --error-exitcode 9 TileGPUTests --gtest_filter=MatmulTest.WgmmaLoneDot > $OUT/synccheck.txt 2>&1
echo "synccheck exit=$?"; tail -2 $OUT/synccheck.txt
TILE_GPU_TEST_SMALL=1 timeout 150 TileGPUTests --gtest_filter=MatmulTest.WgmmaLoneDot:MatmulTest.BatchedDot:MatmulTest.AttentionExample:MatmulTest.WgmmaPipelineSmall 2>&1 | grep -E "^\[ +(OK|FAILED)|PASSED|FAILED" > $OUT/gtest.txt; cat $OUT/gtest.txt | tail -6
timeout 120 python3 bench/results/v39-session18/lone_dot_bench.py > $OUT/lone_dot.jsonl 2> $OUT/lone_dot.err
tail -2 $OUT/lone_dot.err; cat $OUT/lone_dot.jsonl | cut -c1-150
