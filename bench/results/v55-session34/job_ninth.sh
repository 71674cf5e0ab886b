#!/usr/bin/env bash
# Session 34, ninth GPU call: tile-prefetch-loads (c383b28: past the end a load
# from the index alone reads its own addresses again, no per-element mask) with pointers the loop
# advances. GPUTest.* and LayerNormTest.* (TILE_GPU_TEST_SMALL;
# PTXFromTilecRoundTrip reads build/gpu-ptx, absent here), then the
# survey's GEMV as written (index), as Triton writes it (advanced
# pointers) and cross-entropy, new tools against main's (pack/old),
# alternating, two rounds.
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PYTHONUNBUFFERED=1
mkdir -p /tmp/old && xz -dc pack/old/libtile.so.xz > /tmp/old/libtile.so
TILE_GPU_TEST_SMALL=1 timeout 300 /tmp/tile-bin/TileGPUTests \
  --gtest_filter='GPUTest.*:LayerNormTest.*-GPUTest.PTXFromTilecRoundTrip' \
  > $OUT/gtest.log 2>&1
echo "gtest rc=$?"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $OUT/gtest.log | head -20
S=bench/results/v55-session34/survey/survey.py
for round in 1 2; do
  for v in old new; do
    lib=/tmp/tile-bin/libtile.so; [ $v = old ] && lib=/tmp/old/libtile.so
    TILE_LIBRARY=$lib TILE_CACHE_DIR=/tmp/tile-cache-$v timeout 200 python3 $S gemv gemv_ptr xent hist_private 2>&1 | sed "s/^{/{\"tools\": \"$v\", /" >> $OUT/survey.jsonl
  done
done
python3 - <<'PY'
import json, os, collections
rows = [json.loads(l) for l in open(os.environ["OUT"] + "/survey.jsonl") if l.startswith("{")]
agg = collections.defaultdict(list)
for r in rows:
    if "tile_GBs" in r:
        agg[(r["kernel"], r["tools"])].append((r["tile_GBs"], r["torch_GBs"], r["ok"], r["config"]))
    else:
        print("ERROR", r)
for (k, t), xs in sorted(agg.items()):
    print(f"{k[:48]:48s} {t}: " + "  ".join(f"{a:.0f} GB/s (peer {b:.0f}, ok {o}, {c})" for a, b, o, c in xs))
PY
