#!/usr/bin/env bash
# Q staged once in shared memory (stageInvariantOperands) against Q in
# registers (TILE_NO_INVARIANT_A=1, a probe switch): correctness, then the
# per-configuration attention probe alternating the two in one session.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
rm -rf /tmp/tile-cache
TILE_GPU_TEST_SMALL=1 timeout 100 TileGPUTests --gtest_filter=MatmulTest.AttentionExample:MatmulTest.WgmmaLoneDot:MatmulTest.BatchedDot:MatmulTest.WgmmaPipelineSmall 2>&1 | grep -E "^\[ +(OK|FAILED)|PASSED|FAILED|Failure|error" > $OUT/gtest.txt; tail -6 $OUT/gtest.txt
rm -rf /tmp/tile-cache
TILE_GPU_TEST_SMALL=1 timeout 90 compute-sanitizer --tool racecheck --error-exitcode 9 TileGPUTests --gtest_filter=MatmulTest.AttentionExample > $OUT/racecheck_attention.txt 2>&1
echo "racecheck exit=$?"; grep -E "FAILED|Failure|RACECHECK" $OUT/racecheck_attention.txt | head -5
for round in 1 2; do
  for v in staged registers; do
    if [ $v = registers ]; then export TILE_NO_INVARIANT_A=1; else unset TILE_NO_INVARIANT_A; fi
    TILE_CACHE_DIR=/tmp/tile-cache-$v ATTENTION_VARIANTS=$v=examples/attention.tile timeout 120 python3 bench/results/v39-session18/attn_ab.py 64:0 128:0 > $OUT/attn_q_${v}_$round.jsonl 2>> $OUT/attn_q.err
  done
done
unset TILE_NO_INVARIANT_A
tail -3 $OUT/attn_q.err
python3 - <<'PY'
import json, os, glob
by = {}
for f in sorted(glob.glob(os.environ["OUT"] + "/attn_q_*.jsonl")):
    for l in open(f):
        r = json.loads(l)
        key = (r["D"], r["causal"], tuple(r["config"]))
        by.setdefault(key, {}).setdefault(r["variant"], []).append(round(r.get("tflops", 0), 1))
        if r.get("maxerr", 0) > 0.02: print("ERR", r)
for key, v in by.items():
    print(key, v)
PY
