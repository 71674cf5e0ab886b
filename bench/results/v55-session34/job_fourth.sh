#!/usr/bin/env bash
# Session 34, fourth GPU call. Tiles of 256 query rows on 16 warps (four
# warpgroups, no producer: 512 threads at 128 registers), never measured:
# at D64 they compile without spills (persistent 256x64/16/2, 256x32/16/3;
# attention.tile 256x64/16/2-3, 256x32/16/3; attention_fa3 256x64/16/3,
# 256x32/16/3). Four warps an SM sub-partition hide latency as the grid
# kernel's three CTAs do, and K/V are read once per 256 rows. Two rounds
# against each example's tuned tile, D64 causal or not.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/c-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1
P=bench/results/v54-session33/pers_ab.py
run() { # variant source kind configs
  timeout 150 python3 $P $1 examples/$2.tile $3 "$4" "64,0;64,1" >> $OUT/ab.jsonl 2>> $OUT/ab.err
  echo "$1 rc=$?"
}
for round in 1 2; do
  run pers attention_persistent persistent "128,128,8,2;256,64,16,2;256,32,16,3"
  run grid attention grid "64,128,4,2;256,64,16,2;256,64,16,3;256,32,16,3"
  run fa3 attention_fa3 grid "128,128,8,2;256,64,16,3;256,32,16,3"
done
python3 bench/results/v49-session28/summarize_ab.py $OUT/ab.jsonl pers grid fa3
tail -3 $OUT/ab.err
