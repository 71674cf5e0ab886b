#!/usr/bin/env bash
# The tensor maps' L2 promotion over tile-bench's whole matmul and linear
# table: 128B (2) against 256B (3, the default), each tuned with its own
# cache, alternating, through an uncommitted environment switch.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples
for p in 2 3; do
  export TILE_PROBE_L2P=$p TILE_CACHE_DIR=/tmp/tile-cache-all-$p
  timeout 200 tile-bench --only=matmul,linear > $OUT/l2p_$p.jsonl 2> $OUT/l2p_$p.err
  echo "L2P=$p exit=$?"
done
python3 - "$OUT" <<'PY'
import json, sys
rows = {}
for p in (2, 3):
    for line in open(f"{sys.argv[1]}/l2p_{p}.jsonl"):
        r = json.loads(line)
        if "kernel" in r:
            rows.setdefault((r["kernel"], r["shape"]), {})[p] = r["tflops"]
for (k, s), v in rows.items():
    print(f"{k:18s} {s:16s} 128B {v.get(2, 0):7.1f}  256B {v.get(3, 0):7.1f}  ratio {v.get(2, 0) / max(v.get(3, 1e-9), 1e-9):.3f}")
PY
