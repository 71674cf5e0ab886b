#!/usr/bin/env bash
# Session 29, sixth GPU call: bench/attention.py (attention and
# attention_fa3 autotuned, SDPA default and flash, Triton's FA2-style kernel
# autotuned; same inputs, L2 flushed) at B2 H16 N4000 D64/D128 (a masked last key block in every program).
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PYTHONUNBUFFERED=1
timeout 570 python3 bench/attention.py 2x16x4000x128 2x16x4000x64 > $OUT/attention.jsonl 2> $OUT/attention.err
echo "rc=$?"; tail -3 $OUT/attention.err
python3 - $OUT/attention.jsonl <<'PY'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if "tflops" in r or "config" in r:
        print(r.get("impl"), r.get("kernel"), r.get("shape"), "%.1f" % r["tflops"] if "tflops" in r else "", r.get("config", ""), r.get("source", ""))
PY
