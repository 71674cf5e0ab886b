#!/usr/bin/env bash
# Probe (branch wip/rotated-q-shared): the FlashAttention-3-order source at
# 128x128 on 8 warps with turns spanning the body (TILE_EXPERIMENT_PINGPONG=2)
# and stages released per warp through empty mbarriers instead of a block
# barrier each iteration (TILE_EXPERIMENT_EMPTY=1, refill at the body's end);
# the example's tuned tile for reference; two rounds.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/te-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1 TILE_LIBRARY=/tmp/tile-bin/libtile.so
D=bench/results/v49-session28
F=$D/attention_fa3order.tile
C="128,128,8,3;128,128,8,2"
for round in 1 2; do
  TILE_CACHE_DIR=/tmp/te-ex timeout 200 python3 bench/results/v48-session27/attn_ab.py example "128,64,4,2" >> $OUT/empty.jsonl 2>> $OUT/empty.err; echo "example rc=$?"
  ATTENTION_SOURCE=$F TILE_EXPERIMENT_PINGPONG=2 TILE_CACHE_DIR=/tmp/te-pp timeout 200 python3 bench/results/v48-session27/attn_ab.py pp2 "$C" >> $OUT/empty.jsonl 2>> $OUT/empty.err; echo "pp2 rc=$?"
  ATTENTION_SOURCE=$F TILE_EXPERIMENT_PINGPONG=2 TILE_EXPERIMENT_EMPTY=1 TILE_CACHE_DIR=/tmp/te-ppe timeout 200 python3 bench/results/v48-session27/attn_ab.py pp2empty "$C" >> $OUT/empty.jsonl 2>> $OUT/empty.err; echo "pp2empty rc=$?"
  ATTENTION_SOURCE=$F TILE_EXPERIMENT_EMPTY=1 TILE_CACHE_DIR=/tmp/te-e timeout 200 python3 bench/results/v48-session27/attn_ab.py empty "$C" >> $OUT/empty.jsonl 2>> $OUT/empty.err; echo "empty rc=$?"
done
python3 $D/summarize_ab.py $OUT/empty.jsonl example pp2 pp2empty empty
