#!/usr/bin/env bash
# Session 29, fourth GPU call: bench/attention.py (attention and
# attention_fa3 autotuned, SDPA default and flash, Triton's FA2-style kernel
# autotuned; same inputs, L2 flushed) at B4 H32 N4096 D64/D128.
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PYTHONUNBUFFERED=1
timeout 570 python3 bench/attention.py 4x32x4096x128 4x32x4096x64 > $OUT/attention.jsonl 2> $OUT/attention.err
echo "rc=$?"; tail -3 $OUT/attention.err
python3 - $OUT/attention.jsonl <<'PY'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if "tflops" in r or "config" in r:
        print(r.get("impl"), r.get("kernel"), r.get("shape"), "%.1f" % r["tflops"] if "tflops" in r else "", r.get("config", ""), r.get("source", ""))
PY
