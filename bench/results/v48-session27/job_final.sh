#!/usr/bin/env bash
# c4fc25f's tools: GPU tests of what the change touches, the matmul tiles
# whose PTX it changes (A/B with main's libtile.so, two rounds), then
# bench/attention.py (tile autotuned, SDPA default and flash, Triton's
# autotuned FA2-style kernel, same run).
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tm-* /tmp/ta-*
source scripts/gpu/unpack.sh
mkdir -p /tmp/tile-base && xz -dc pack-old/libtile.so.xz > /tmp/tile-base/libtile.so
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx PYTHONUNBUFFERED=1
mkdir -p /tmp/tile-ptx
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
D=bench/results/v48-session27
( timeout 120 TileGPUTests --gtest_filter='SharedStageTest.*:MatmulTest.AttentionExample:MatmulTest.AttentionHeadSlices:MatmulTest.HeadSlicesInLoops'
  TILE_GPU_TEST_SMALL=1 timeout 150 TileGPUTests --gtest_filter=MatmulTest.WgmmaPipelineSmall:MatmulTest.OperandOrders:MatmulTest.LinearEpilogue:MatmulTest.BatchedDot:MatmulTest.F16:MatmulTest.BF16
  TILE_GPU_TEST_SMALL=1 timeout 100 TileGPUTests --gtest_filter='GPUTest.*:Int8DotTest.*:LayerNormTest.*' ) 2>&1 |
  grep -E "^\[ +(OK|FAILED)|PASSED|FAILED|Failure|Expected|Which|SKIPPED" > $OUT/gtest.txt; grep -v "^\[       OK" $OUT/gtest.txt
for round in 1 2; do
  for variant in base new; do
    lib=/tmp/tile-bin/libtile.so; [[ $variant == base ]] && lib=/tmp/tile-base/libtile.so
    TILE_LIBRARY=$lib TILE_CACHE_DIR=/tmp/tm-$variant timeout 100 python3 $D/matmul_ab.py $variant >> $OUT/matmul_ab.jsonl 2>> $OUT/ab.err
    echo "matmul round $round $variant rc=$?"
  done
done
python3 - <<'PY'
import json, os, collections
rows = [json.loads(l) for l in open(os.environ["OUT"] + "/matmul_ab.jsonl") if l.strip()]
agg = collections.defaultdict(list)
for r in rows:
    agg[(str(r["config"]), r["variant"])].append(r["tflops"])
for key in sorted(set(k[0] for k in agg)):
    print("%-26s" % key, " ".join("%s %s" % (v, " / ".join("%.1f" % x for x in agg[(key, v)])) for v in ("base", "new")))
PY
timeout 300 python3 bench/attention.py > $OUT/attention.jsonl 2> $OUT/attention.err
echo "attention rc=$?"; tail -2 $OUT/attention.err
python3 - <<'PY'
import json, os, collections
rows = [json.loads(l) for l in open(os.environ["OUT"] + "/attention.jsonl") if l.strip()]
t = collections.defaultdict(dict)
for r in rows:
    if "tflops" in r: t[r["shape"]][r["impl"]] = r["tflops"]
    if r.get("kernel") == "attention-config": t[r["shape"]]["config"] = r["config"]
for s, v in t.items():
    tl = v.get("tile-py", 0)
    print("%-26s tile %.1f  sdpa %.1f  flash %.1f  triton %.1f  | %.2f %.2f %.2f  %s" % (s, tl, v.get("torch", 0), v.get("torch-flash", 0), v.get("triton", 0),
          tl / v.get("torch", 1), tl / v.get("torch-flash", 1), tl / v.get("triton", 1), v.get("config", "")))
PY
