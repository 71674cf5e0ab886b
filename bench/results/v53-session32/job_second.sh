#!/usr/bin/env bash
# Session 32, second GPU call: bench/attention.py (each example autotuned,
# SDPA default/flash and Triton in the same process) with the first key
# block as a loop of its own, at B4 H32 N4096 D64 and D128.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tn-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1
for s in "$@"; do
  TILE_CACHE_DIR=/tmp/tile-cache-table timeout 280 python3 bench/attention.py $s > $OUT/attention_$s.jsonl 2> $OUT/attention_$s.err
  echo "$s rc=$?"; tail -2 $OUT/attention_$s.err
  grep -v '"impl": "attention"' $OUT/attention_$s.jsonl | python3 -c "
import json,sys
for l in sys.stdin:
    r=json.loads(l)
    if 'tflops' in r: print(r.get('impl'), r.get('kernel',''), r['shape'], r.get('config',''), round(r['tflops'],1))
"
done
