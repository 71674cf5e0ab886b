#!/usr/bin/env bash
# Session 31, second GPU call: bench/attention.py at B4 H32 N4096 D128 and
# D64 (every example autotuned, peers in the same process) with the Q
# prefetch of c05f88f; then the GPU test of the attention examples.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tn-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx PYTHONUNBUFFERED=1
mkdir -p /tmp/tile-ptx
for s in 4x32x4096x128 4x32x4096x64; do
  TILE_CACHE_DIR=/tmp/tile-cache-table timeout 200 python3 bench/attention.py $s > $OUT/attention_$s.jsonl 2> $OUT/attention_$s.err
  echo "$s rc=$?"; tail -2 $OUT/attention_$s.err
  grep -v '"impl": "attention"' $OUT/attention_$s.jsonl | python3 -c "
import json,sys
for l in sys.stdin:
    r=json.loads(l)
    if 'tflops' in r: print(r.get('impl'), r.get('kernel',''), r['shape'], r.get('config',''), round(r['tflops'],1))
"
done
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
timeout 150 TileGPUTests --gtest_filter='MatmulTest.AttentionExample' > $OUT/gtest.log 2>&1
echo "attention rc=$?"
grep -E "^\[ +(OK|FAILED)|PASSED|FAILED|Failure|Expected|Which|exception" $OUT/gtest.log | grep -v "^\[       OK" | head -20
