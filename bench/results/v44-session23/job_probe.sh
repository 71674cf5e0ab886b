#!/usr/bin/env bash
# Where attention's TMA copies go (top / after the first dot / end of the
# body), with and without prefetch.tensormap, against cp.async (pack/base);
# then ncu's per-instruction stall samples of the 4-warp 3-stage kernel.
source scripts/gpu/unpack.sh
mkdir -p /tmp/tile-base && xz -dc pack/base/libtile.so.xz > /tmp/tile-base/libtile.so
export PYTHONUNBUFFERED=1
P=bench/results/v44-session23/attn_probe.py
for round in 1 2; do
  for variant in base top end firstdot top+pf; do
    lib=/tmp/tile-bin/libtile.so; [[ $variant == base ]] && lib=/tmp/tile-base/libtile.so
    env TILE_LIBRARY=$lib TILE_CACHE_DIR=/tmp/tc-$variant \
      $( [[ $variant == end ]] && echo TILE_PROBE_TMA=end ) \
      $( [[ $variant == firstdot ]] && echo TILE_PROBE_TMA=firstdot ) \
      $( [[ $variant == top+pf ]] && echo TILE_PROBE_PREFETCH=1 ) \
      timeout 100 python3 $P $variant >> $OUT/probe.jsonl 2>> $OUT/probe.err
    echo "$variant $round rc=$?"
  done
done
python3 - <<'PY'
import json, os, collections
rows = [json.loads(l) for l in open(os.environ["OUT"] + "/probe.jsonl") if l.strip()]
agg = collections.defaultdict(list)
for r in rows: agg[(r["D"], str(r["config"]), r["variant"])].append(r["tflops"])
vs = ["base", "top", "end", "firstdot", "top+pf"]
print("shape config " + " ".join(vs))
for key in sorted(set(k[:2] for k in agg)):
    print("D%d %-18s" % key, " ".join("%6.1f" % (sum(agg[key + (v,)]) / max(1, len(agg[key + (v,)]))) for v in vs))
PY
A=bench/results/v44-session23/attn_one.py
python3 $A tile 128 128 64 4 3 > /dev/null
timeout 120 ncu --section WarpStateStats --section SourceCounters --launch-count 1 --launch-skip 1 -k regex:'^attention' -o /tmp/r43 python3 $A tile 128 128 64 4 3 > /dev/null 2>&1
ncu --import /tmp/r43.ncu-rep --page source --csv --print-source sass > $OUT/src_tma_128_64_4_3.csv 2>&1
ncu --import /tmp/r43.ncu-rep --page raw | grep -E "issue_stalled_[a-z_]+_per_issue_active|gpu__time_duration.sum" > $OUT/raw_tma_128_64_4_3.txt
