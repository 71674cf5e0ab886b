#!/usr/bin/env bash
# EXPERIMENT (not on main): warpgroups taking turns issuing attention's
# dots (named barriers), A/B against the example as it is; then the
# attention GPU test with the experiment on.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
timeout 330 python3 bench/results/v43-session22/attn_pingpong.py > $OUT/attn_pingpong.jsonl 2> $OUT/attn_pingpong.err
echo "ab exit=$?"; python3 - <<'PY'
import json, os
rows = [json.loads(l) for l in open(os.environ["OUT"] + "/attn_pingpong.jsonl")]
for r in rows:
    if "error" in r: print("ERR", r); continue
    print(r["variant"], r.get("round", ""), "D%d c%d" % (r["D"], r["causal"]), r.get("config", ""), "%.1f" % r["tflops"], "err=%.3g" % r.get("maxerr", 0))
PY
TILE_EXPERIMENT_PINGPONG=1 TILE_GPU_TEST_SMALL=1 timeout 150 TileGPUTests --gtest_filter=MatmulTest.AttentionExample 2>&1 | grep -E "^\[ +(OK|FAILED)|PASSED|FAILED|Failure|Expected|Which" | head -20
