#!/usr/bin/env bash
# Probe (branch wip/rotated-q-shared): the FlashAttention-3-order source at 8
# warps fed by a producer warpgroup issuing the TMA copies (setmaxnreg 40 for
# it, 232 for the MMA warps), with and without turns, against the previous
# best probe (turns + per-warp release) and the example's tuned tile.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tp-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1 TILE_LIBRARY=/tmp/tile-bin/libtile.so
D=bench/results/v49-session28
F=$D/attention_fa3order.tile
for round in 1 2; do
  TILE_CACHE_DIR=/tmp/tp-ex timeout 200 python3 bench/results/v48-session27/attn_ab.py example "128,64,4,2" >> $OUT/prod.jsonl 2>> $OUT/prod.err; echo "example rc=$?"
  ATTENTION_SOURCE=$F TILE_EXPERIMENT_PINGPONG=2 TILE_EXPERIMENT_EMPTY=1 TILE_CACHE_DIR=/tmp/tp-ppe timeout 200 python3 bench/results/v48-session27/attn_ab.py pp2empty "128,128,8,3" >> $OUT/prod.jsonl 2>> $OUT/prod.err; echo "pp2empty rc=$?"
  ATTENTION_SOURCE=$F TILE_EXPERIMENT_PINGPONG=2 TILE_EXPERIMENT_PRODUCER=40 TILE_CACHE_DIR=/tmp/tp-ppp timeout 250 python3 bench/results/v48-session27/attn_ab.py pp2prod "128,128,8,2;128,128,8,3;128,64,8,2;128,64,8,3" >> $OUT/prod.jsonl 2>> $OUT/prod.err; echo "pp2prod rc=$?"
  ATTENTION_SOURCE=$F TILE_EXPERIMENT_PRODUCER=40 TILE_CACHE_DIR=/tmp/tp-p timeout 200 python3 bench/results/v48-session27/attn_ab.py prod "128,128,8,3;128,128,8,2" >> $OUT/prod.jsonl 2>> $OUT/prod.err; echo "prod rc=$?"
done
python3 $D/summarize_ab.py $OUT/prod.jsonl example pp2empty pp2prod prod
