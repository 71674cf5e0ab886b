#!/usr/bin/env bash
# Session 31, sixth GPU call (f61b082's tools): the GPU tests of the
# attention examples and the staging rules (the persistent cases now copy Q
# by the producer); the in-shared path at D = 256 (one slot, descriptors)
# against SDPA at an odd N; then bench/attention.py at B4 H32 N4096 D128 and
# D64 (every example autotuned, peers in the same process).
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tn-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx PYTHONUNBUFFERED=1
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
timeout 200 TileGPUTests --gtest_filter='MatmulTest.Attention*:MatmulTest.HeadSlicesInLoops:MatmulTest.WgmmaLoneDot:SharedStageTest.*:GPUTest.GridStrideLoops' > $OUT/gtest.log 2>&1
echo "gtest rc=$?"
grep -E "^\[ +(OK|FAILED)|PASSED|FAILED|Failure|Expected|Which|exception" $OUT/gtest.log | head -20
R=bench/results/v52-session31
TILE_CACHE_DIR=/tmp/tn-d256 timeout 60 python3 $R/pers_ab.py d256 examples/attention_persistent.tile persistent:100 "128,64,8,2" "256,0;256,1" 2x8x1000 > $OUT/d256.jsonl 2>&1
echo "d256 rc=$?"; cat $OUT/d256.jsonl | cut -c1-300
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
