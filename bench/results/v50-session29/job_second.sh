#!/usr/bin/env bash
# Session 29, second GPU call: a second round of the A/B (example 4-warp
# tiles, attention_fa3 on 8 warps), key blocks of 256 for attention_fa3 at
# D64, and the heaviest-first order of causal row blocks (*_lpt.tile).
# B4 H32 N4096; SDPA's default in each process; every process time-limited.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tn-*
source scripts/gpu/unpack.sh
export PYTHONUNBUFFERED=1
AB=bench/results/v48-session27/attn_ab.py
D=bench/results/v50-session29
run2() { local v=$1 s=$2; shift 2; ATTENTION_SOURCE=$s TILE_CACHE_DIR=/tmp/tn-$v timeout 200 python3 $AB $v "$@" >> $OUT/ab.jsonl 2>> $OUT/ab.err; echo "$v rc=$?"; }
run2 example examples/attention.tile "128,64,4,2;64,128,4,2;128,128,8,2"
run2 fa3 examples/attention_fa3.tile "128,128,8,2;128,128,8,3"
run2 fa3 examples/attention_fa3.tile "128,256,8,2;128,256,8,3" "64,0;64,1"
run2 lpt-example $D/attention_lpt.tile "128,64,4,2;64,128,4,2" "64,1;128,1"
run2 lpt-fa3 $D/attention_fa3_lpt.tile "128,128,8,2;128,128,8,3" "64,1;128,1"
tail -5 $OUT/ab.err
python3 bench/results/v49-session28/summarize_ab.py $OUT/ab.jsonl example fa3 lpt-example lpt-fa3
