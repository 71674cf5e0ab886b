#!/usr/bin/env bash
# Probe (branch wip/rotated-q-shared + the ping-pong experiment): the
# FlashAttention-3-order source at 128x128 on 8 warps, warpgroups taking
# turns per loop body (TILE_EXPERIMENT_PINGPONG=2: one turn from the first
# loop dot to the last) or per dot (=1), against no turns; two rounds.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tq-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1 TILE_LIBRARY=/tmp/tile-bin/libtile.so
D=bench/results/v49-session28
export ATTENTION_SOURCE=$D/attention_fa3order.tile
C="128,128,8,2;128,128,8,3"
for round in 1 2; do
  TILE_CACHE_DIR=/tmp/tq-0 timeout 200 python3 bench/results/v48-session27/attn_ab.py fa3 "$C" >> $OUT/pp.jsonl 2>> $OUT/pp.err; echo "fa3 rc=$?"
  TILE_EXPERIMENT_PINGPONG=2 TILE_CACHE_DIR=/tmp/tq-2 timeout 200 python3 bench/results/v48-session27/attn_ab.py fa3pp2 "$C" >> $OUT/pp.jsonl 2>> $OUT/pp.err; echo "pp2 rc=$?"
  TILE_EXPERIMENT_PINGPONG=1 TILE_CACHE_DIR=/tmp/tq-1 timeout 200 python3 bench/results/v48-session27/attn_ab.py fa3pp1 "$C" >> $OUT/pp.jsonl 2>> $OUT/pp.err; echo "pp1 rc=$?"
done
python3 $D/summarize_ab.py $OUT/pp.jsonl fa3 fa3pp2 fa3pp1
