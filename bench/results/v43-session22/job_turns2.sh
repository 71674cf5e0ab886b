#!/usr/bin/env bash
# Branch wip/attention-turns: stages published with cp.async.mbarrier.arrive
# (TILE_EXP_ASYNCFULL: each thread's copies arrive on the stage's barrier
# when they land; the consumer fences for the async proxy after its wait),
# with and without the turns (TILE_EXP_NOTURNS), against the tools before.
source scripts/gpu/unpack.sh
mkdir -p /tmp/tile-base && xz -dc pack/base/libtile.so.xz > /tmp/tile-base/libtile.so
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
TILE_EXP_ASYNCFULL=1 TILE_GPU_TEST_SMALL=1 timeout 100 TileGPUTests --gtest_filter=MatmulTest.AttentionExample 2>&1 | grep -E "^\[ +(OK|FAILED)|PASSED|FAILED|Failure|Expected|Which" | head; echo "gtest rc=${PIPESTATUS[0]}"
for round in 1 2; do
  for variant in base asyncfull asyncfull_noturns; do
    lib=/tmp/tile-bin/libtile.so; [[ $variant == base ]] && lib=/tmp/tile-base/libtile.so
    envs=""; [[ $variant == asyncfull* ]] && envs="TILE_EXP_ASYNCFULL=1"; [[ $variant == *noturns ]] && envs="$envs TILE_EXP_NOTURNS=1"
    env $envs TILE_LIBRARY=$lib TILE_CACHE_DIR=/tmp/tile-cache-$variant timeout 100 python3 bench/results/v43-session22/attn_turns.py $variant >> $OUT/attn_turns2.jsonl 2>> $OUT/attn_turns2.err
    echo "$variant round $round rc=$?"
  done
done
python3 - <<'PY'
import json, os, collections
rows = [json.loads(l) for l in open(os.environ["OUT"] + "/attn_turns2.jsonl") if l.strip()]
agg = collections.defaultdict(list)
for r in rows:
    if "error" in r: print("ERR", r["variant"], r["D"], r["causal"], r["config"], r["error"][:150]); continue
    if r["impl"] == "tile" and r["config"][2] == 4: continue
    agg[(r["D"], r["causal"], str(r.get("config", r["impl"])), r["variant"])].append((r["tflops"], r.get("maxerr", 0)))
names = ["base", "asyncfull", "asyncfull_noturns"]
for key in sorted(set(k[:3] for k in agg)):
    cells = []
    for n in names:
        v = agg.get(key + (n,), [])
        cells.append("%s %.1f (err %.2g)" % (n, sum(x[0] for x in v) / len(v), max(x[1] for x in v)) if v else n + " -")
    print("D%d c%d %-16s" % key[:2] + key[2], " | ".join(cells))
PY
