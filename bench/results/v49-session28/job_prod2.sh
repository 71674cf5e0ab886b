#!/usr/bin/env bash
# job_prod.sh again with the deadlock fixed (the consumers' block barriers
# waited for the producer's threads), one round, strict time limits.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tp-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1 TILE_LIBRARY=/tmp/tile-bin/libtile.so
D=bench/results/v49-session28
F=$D/attention_fa3order.tile
S="128,0;64,0"
ATTENTION_SOURCE=$F TILE_EXPERIMENT_PINGPONG=2 TILE_EXPERIMENT_PRODUCER=40 TILE_CACHE_DIR=/tmp/tp-ppp timeout 60 python3 bench/results/v48-session27/attn_ab.py pp2prod "128,128,8,3;128,128,8,2" "$S" >> $OUT/prod.jsonl 2>> $OUT/prod.err; echo "pp2prod rc=$?"
TILE_CACHE_DIR=/tmp/tp-ex timeout 40 python3 bench/results/v48-session27/attn_ab.py example "128,64,4,2" "$S" >> $OUT/prod.jsonl 2>> $OUT/prod.err; echo "example rc=$?"
ATTENTION_SOURCE=$F TILE_EXPERIMENT_PINGPONG=2 TILE_EXPERIMENT_EMPTY=1 TILE_CACHE_DIR=/tmp/tp-ppe timeout 40 python3 bench/results/v48-session27/attn_ab.py pp2empty "128,128,8,3" "$S" >> $OUT/prod.jsonl 2>> $OUT/prod.err; echo "pp2empty rc=$?"
python3 $D/summarize_ab.py $OUT/prod.jsonl example pp2empty pp2prod
tail -3 $OUT/prod.err
