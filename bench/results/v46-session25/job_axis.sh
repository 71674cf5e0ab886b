#!/usr/bin/env bash
# The induction variable of loops without iteration arguments in the axis
# analysis (the TN producer's loads, layernorm's looped variant), and the
# producer's B in 4 x 4 blocks (16-byte loads; TILE_PROBE_BLOCKS=1, probe):
# GPU tests, then tile-bench's tf32 table and layernorm with the new tools
# (probe off, probe on) and the previous commit's (pack-old, d50ac1a)
# alternating.
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
xz -dc pack-old/tile-bench-flip.xz > /tmp/tile-bin/tile-bench-old; chmod +x /tmp/tile-bin/tile-bench-old
mkdir -p /tmp/tile-ptx /tmp/r
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
export TILE_GPU_TEST_SMALL=1
timeout 300 TileGPUTests --gtest_filter='GPUTest.*:LayerNorm*:MatmulTest.WarpgroupMmaTf32:MatmulTest.WgmmaPipelineSmall:MatmulTest.TF32:MatmulTest.OperandOrders:MatmulTest.AttentionExample' 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|Expected|Which|e.what|worst" > /tmp/r/gtest.txt; echo "gtest rc=${PIPESTATUS[0]}"; grep -E "FAIL|PASSED" /tmp/r/gtest.txt | head
TILE_PROBE_BLOCKS=1 TILE_CACHE_DIR=/tmp/tile-cache-probe timeout 200 TileGPUTests --gtest_filter='MatmulTest.WarpgroupMmaTf32:MatmulTest.WgmmaPipelineSmall:MatmulTest.TF32' 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED)|PASSED|FAILED|Failure|Expected|Which|e.what|worst" > /tmp/r/gtest_probe.txt; echo "gtest probe rc=${PIPESTATUS[0]}"; grep -E "FAIL|PASSED" /tmp/r/gtest_probe.txt | head
unset TILE_GPU_TEST_SMALL
run() { # name binary round [probe]
  TILE_PROBE_BLOCKS=$4 TILE_CACHE_DIR=/tmp/tile-cache-$1 timeout 200 $2 --only=matmul,layernorm --matmul-filter=matmul_tf32 --tune-verbose > /tmp/r/$1_$3.jsonl 2> /tmp/r/$1_$3.txt
  echo "$1 round $3 rc=$?"; grep -o '"kernel": "[^"]*".*"tflops": [0-9.]*, "config": "[^"]*"' /tmp/r/$1_$3.jsonl | sed 's/"shape.*"tflops"/"tflops"/'; grep layernorm /tmp/r/$1_$3.jsonl | grep -o '"kernel": "[^"]*", "shape": "[^"]*".*"gbps": [0-9.]*' | sed 's/"ms".*"gbps"/"gbps"/'
}
run new tile-bench 1 ""; run probe tile-bench 1 1; run old tile-bench-old 1 ""
run new tile-bench 2 ""; run probe tile-bench 2 1; run old tile-bench-old 2 ""
tar -C /tmp -cJf $OUT/axis.tar.xz r
