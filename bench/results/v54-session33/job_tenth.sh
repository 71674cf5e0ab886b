#!/usr/bin/env bash
# Session 33, tenth GPU call: bench/attention.py timing every
# implementation at three placements of the same inputs (medians) on main's
# tools (7b8ef46: c1dfb64 and 553ab69 in), B2 H16 N4096 at D = 256 (no example was tuned for it).
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tn-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1
for s in 2x16x4096x256; do
  TILE_CACHE_DIR=/tmp/tile-cache-table timeout 420 python3 bench/attention.py $s > $OUT/attention_$s.jsonl 2> $OUT/attention_$s.err
  rc=$?; echo "$s rc=$rc"; tail -3 $OUT/attention_$s.err
  grep -v '"impl": "attention"' $OUT/attention_$s.jsonl | python3 -c "
import json,sys
for l in sys.stdin:
    r=json.loads(l)
    if 'tflops' in r: print(r.get('impl'), r.get('kernel',''), r['shape'], r.get('config',''), round(r['tflops'],1), [round(x,4) for x in r.get('ms_placements',[])])
"
  [ $rc = 0 ] || break
done
