#!/usr/bin/env bash
# Session 30, ninth GPU call: bench/attention.py at B4 H32 N4096 D128 on the
# final tools (every example autotuned, peers in the same process).
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tn-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1
TILE_CACHE_DIR=/tmp/tile-cache-table timeout 130 python3 bench/attention.py 4x32x4096x128 > $OUT/attention.jsonl 2> $OUT/attention.err
echo "table rc=$?"
tail -2 $OUT/attention.err
grep -v '"impl": "attention"' $OUT/attention.jsonl | python3 -c "
import json,sys
for l in sys.stdin:
    r=json.loads(l)
    if 'tflops' in r: print(r.get('impl'), r.get('kernel',''), r['shape'], r.get('config',''), round(r['tflops'],1))
"
