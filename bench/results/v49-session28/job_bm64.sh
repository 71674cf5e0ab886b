#!/usr/bin/env bash
# Attention tiles the tuning list never had: 64 query rows by 128 keys on 4
# warps (three CTAs per SM at D64: 168 registers, 74.7 KB), against the list's
# best; main's tools; two rounds.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tb-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1 TILE_LIBRARY=/tmp/tile-bin/libtile.so
D=bench/results/v49-session28
C="128,64,4,2;64,64,4,3;64,128,4,2;64,128,4,3;64,128,4,4;64,64,4,2;64,64,4,4"
for round in 1 2; do
  TILE_CACHE_DIR=/tmp/tb-$round timeout 250 python3 bench/results/v48-session27/attn_ab.py main "$C" >> $OUT/bm64.jsonl 2>> $OUT/bm64.err; echo "round $round rc=$?"
done
python3 $D/summarize_ab.py $OUT/bm64.jsonl main
