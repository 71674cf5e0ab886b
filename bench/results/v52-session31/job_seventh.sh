#!/usr/bin/env bash
# Session 31, seventh GPU call: the MMAs of a dot whose A is carried from
# zeros skipped in its loop's first iteration (libtile-skip: the zero
# P x V_0 of each query block) against f61b082's tools, persistent example
# 128x128/8/2, B4 H32 N4096, two rounds alternating; AttentionExample on
# the skip tools; then bench/attention.py at B2 H16 N4000 D128 and D64 on
# f61b082's tools.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tn-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx PYTHONUNBUFFERED=1
mkdir -p /tmp/tile-ptx
R=bench/results/v52-session31
AB=$R/pers_ab.py
run2() { local v=$1 lib=$2 s=$3 k=$4; shift 4; TILE_LIBRARY=/tmp/tile-bin/$lib TILE_CACHE_DIR=/tmp/tn-$v timeout 90 python3 $AB $v $s $k "$@" >> $OUT/ab.jsonl 2>> $OUT/ab.err; echo "$v rc=$?"; }
for round in 1 2; do
  run2 pex libtile.so examples/attention_persistent.tile persistent "128,128,8,2"
  run2 skip libtile-skip.so examples/attention_persistent.tile persistent "128,128,8,2"
done
tail -3 $OUT/ab.err
python3 bench/results/v49-session28/summarize_ab.py $OUT/ab.jsonl pex skip
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
timeout 120 TileGPUTests-skip --gtest_filter='MatmulTest.AttentionExample' > $OUT/gtest.log 2>&1
echo "gtest rc=$?"
grep -E "^\[ +(OK|FAILED)|PASSED|FAILED|Failure|Expected|Which|exception" $OUT/gtest.log | head -20
for s in 2x16x4000x128 2x16x4000x64; do
  TILE_CACHE_DIR=/tmp/tile-cache-table timeout 150 python3 bench/attention.py $s > $OUT/attention_$s.jsonl 2> $OUT/attention_$s.err
  echo "$s rc=$?"; tail -2 $OUT/attention_$s.err
  grep -v '"impl": "attention"' $OUT/attention_$s.jsonl | python3 -c "
import json,sys
for l in sys.stdin:
    r=json.loads(l)
    if 'tflops' in r: print(r.get('impl'), r.get('kernel',''), r['shape'], r.get('config',''), round(r['tflops'],1))
"
done
