#!/usr/bin/env bash
# Session 34, first GPU call. Does MUFU (ex2) bound the D64 softmax? Every
# K-th exponential of the cached PTX computed by polynomial on the FMA and
# integer pipes (edit_exp2.py), K = 4, 2, against the unedited PTX:
# persistent example 128x128/8/2 and the grid example 64x128/4/2, D64
# causal or not (and D128 for the persistent one), two rounds alternating.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/c-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1
D=bench/results/v55-session34
P=bench/results/v54-session33/pers_ab.py
run() { # variant cache source kind config shapes
  TILE_CACHE_DIR=$2 timeout 120 python3 $P $1 $3 $4 $5 "$6" >> $OUT/ab.jsonl 2>> $OUT/ab.err
  echo "$1 $4 rc=$?"
}
both() { # variant cache
  run $1 $2 examples/attention_persistent.tile persistent "128,128,8,2" "64,0;64,1;128,0"
  run $1 $2 examples/attention.tile grid "64,128,4,2" "64,0;64,1"
}
both base /tmp/c-base
for k in 4 2; do
  both populate /tmp/c-k$k > /dev/null
  python3 $D/edit_exp2.py $k /tmp/c-k$k
done
for round in 1 2; do
  for v in base k4 k2; do both $v /tmp/c-$v; done
done
grep -v populate $OUT/ab.jsonl > $OUT/ab_clean.jsonl
python3 bench/results/v49-session28/summarize_ab.py $OUT/ab_clean.jsonl base k4 k2
tail -3 $OUT/ab.err
