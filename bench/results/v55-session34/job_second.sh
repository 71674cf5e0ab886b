#!/usr/bin/env bash
# Session 34, second GPU call. ptxas ends P's live range at the warpgroup
# MMA that reads it (the PTX wait names no register), so it may give the new
# P's conversions P's registers and must then wait for P V early. Variants
# of the cached PTX (edit_keep.py): "keep" reads P again after P V's wait on
# a path that never runs; "keep+guard" also starts the wait's own basic
# block (edit_waits.py's guard). SASS of D64 (DEPBAR against MUFU), then
# two rounds alternating: persistent 128x128/8/2 D64/D128 causal or not,
# grid 64x128/4/2 D64 causal or not.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/c-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1
D=bench/results/v55-session34
P=bench/results/v54-session33/pers_ab.py
mkdir -p $OUT/sass
tilec examples/attention_persistent.tile --arch=sm_90a --num-warps=8 --num-stages=2 -D D=64 -o /tmp/base.ptx
for m in base keep keep+guard; do
  cp /tmp/base.ptx /tmp/$m.ptx
  [ $m != base ] && python3 $D/edit_keep.py $m x /tmp/$m.ptx
  ptxas -arch=sm_90a /tmp/$m.ptx -o /tmp/$m.cubin && cuobjdump -sass /tmp/$m.cubin | grep -E "^\s+/\*[0-9a-f]{4}\*/" | xz -9 > $OUT/sass/$m.sass.xz
  echo "$m: $(xz -dc $OUT/sass/$m.sass.xz | grep -E 'DEPBAR|HGMMA|BAR\.|F2FP|MUFU|BRA|EXIT' | sed 's/;.*//; s/^\s*//' | awk '{k=$2; if ($2 ~ /^@/) k=$3; if (k!=prev) {if (prev) print first, prev, n; first=$1; n=0} prev=k; n++} END{print first, prev, n}' | tr '\n' '|')"
done
run() { # variant cache source kind config shapes
  TILE_CACHE_DIR=$2 timeout 120 python3 $P $1 $3 $4 $5 "$6" >> $OUT/ab.jsonl 2>> $OUT/ab.err
  echo "$1 $4 rc=$?"
}
both() { # variant cache
  run $1 $2 examples/attention_persistent.tile persistent "128,128,8,2" "64,0;64,1;128,0;128,1"
  run $1 $2 examples/attention.tile grid "64,128,4,2" "64,0;64,1"
}
both base /tmp/c-base
for m in keep keep+guard; do
  both populate /tmp/c-$m > /dev/null
  python3 $D/edit_keep.py $m /tmp/c-$m
done
for round in 1 2; do
  for v in base keep keep+guard; do both $v /tmp/c-$v; done
done
grep -v populate $OUT/ab.jsonl > $OUT/ab_clean.jsonl
python3 bench/results/v49-session28/summarize_ab.py $OUT/ab_clean.jsonl base keep keep+guard
tail -3 $OUT/ab.err
