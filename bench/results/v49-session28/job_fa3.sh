#!/usr/bin/env bash
# Probe (branch wip/rotated-q-shared): attention in FlashAttention-3's
# order within a warpgroup (attention_fa3order.tile: S_j and P_{j-1} V_{j-1}
# issued together, block j's softmax beside P_{j-1} V_{j-1}), with Q in
# registers (default) or in shared memory (TILE_STAGE_Q_ELEMENTS=32),
# against the example; two rounds, alternating.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tf-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1 TILE_LIBRARY=/tmp/tile-bin/libtile.so
D=bench/results/v49-session28
for round in 1 2; do
  TILE_CACHE_DIR=/tmp/tf-ex timeout 200 python3 bench/results/v48-session27/attn_ab.py example "128,64,4,2;128,128,8,2;128,128,8,3" >> $OUT/fa3.jsonl 2>> $OUT/fa3.err; echo "example rc=$?"
  ATTENTION_SOURCE=$D/attention_fa3order.tile TILE_CACHE_DIR=/tmp/tf-fa3 timeout 200 python3 bench/results/v48-session27/attn_ab.py fa3 "128,128,8,2;128,128,8,3;128,64,8,2;128,64,4,2" >> $OUT/fa3.jsonl 2>> $OUT/fa3.err; echo "fa3 rc=$?"
  TILE_STAGE_Q_ELEMENTS=32 ATTENTION_SOURCE=$D/attention_fa3order.tile TILE_CACHE_DIR=/tmp/tf-fa3q timeout 200 python3 bench/results/v48-session27/attn_ab.py fa3qs "128,128,8,2;128,128,8,3" >> $OUT/fa3.jsonl 2>> $OUT/fa3.err; echo "fa3qs rc=$?"
done
python3 $D/summarize_ab.py $OUT/fa3.jsonl example fa3 fa3qs
