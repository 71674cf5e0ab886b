#!/usr/bin/env bash
# Probe: dot operands' copies capped at 2 rows per thread (one 128-byte line
# per row per warp access) instead of 8, through an uncommitted switch
# (TILE_PROBE_ROWCAP), on the f32 orders (tuned, every configuration's time)
# and f16/tf32 NN pinned; each setting with its own kernel cache; two rounds.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples
for round in 1 2; do
  for cap in 2 8; do
    export TILE_PROBE_ROWCAP=$cap TILE_CACHE_DIR=/tmp/tile-cache-cap$cap-$round
    timeout 100 tile-bench --only=matmul --matmul-filter=matmul_f32 --tune-verbose > $OUT/cap${cap}_r$round.jsonl 2> $OUT/cap${cap}_r${round}_tuning.txt
    echo "cap=$cap r$round exit=$?"; grep -o '"kernel": "[^"]*".*"tflops": [0-9.]*, "config": "[^"]*"' $OUT/cap${cap}_r$round.jsonl | sed 's/"shape.*"ms_p80": [0-9.]*,//'
  done
done
