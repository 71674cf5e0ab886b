#!/usr/bin/env bash
# Session 34, tenth GPU call: the C interface's and the Python package's GPU
# tests and examples on c383b28's tools (the runtime compiles through
# tile-prefetch-loads; 8d49ec5 after it only orders two ops of the pass the
# way GCC already did), and the layernorm looped forward's PTX checked by
# LayerNormTest above. Also the survey once more, all kernels, new tools.
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PYTHONUNBUFFERED=1
(/tmp/tile-bin/TileCApiTest --gpu | tail -2; timeout 150 python3 python/tests/test_gpu.py; for e in vector_add softmax matmul_relu; do python3 python/examples/$e.py; done) > $OUT/python_gpu.txt 2>&1
echo "python rc=$?"; tail -8 $OUT/python_gpu.txt
timeout 300 python3 bench/results/v55-session34/survey/survey.py > $OUT/survey.jsonl 2>&1
python3 -c "
import json
for l in open('$OUT/survey.jsonl'):
    if l.startswith('{'):
        r = json.loads(l)
        print(r['kernel'][:50], 'ok' if r.get('ok') else r, round(r.get('tile_GBs', 0)), round(r.get('torch_GBs', 0)), round(r.get('ratio', 0), 2))
"
