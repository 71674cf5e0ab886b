#!/usr/bin/env bash
# Session 34, third GPU call. ap_sumfirst.tile: the persistent example with
# the row sums computed before P V's result is read; "sfg": its cached PTX
# with P V's wait behind a uniform branch on both row sums
# (edit_sumguard.py), so the exponentials must run before the wait. SASS of
# D64 (where the DEPBAR lands), then two rounds alternating: base, sf, sfg.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/c-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1
D=bench/results/v55-session34
P=bench/results/v54-session33/pers_ab.py
mkdir -p $OUT/sass
tilec $D/ap_sumfirst.tile --arch=sm_90a --num-warps=8 --num-stages=2 -D D=64 -o /tmp/sf.ptx
cp /tmp/sf.ptx /tmp/sfg.ptx && python3 $D/edit_sumguard.py x /tmp/sfg.ptx
for m in sf sfg; do
  ptxas -arch=sm_90a /tmp/$m.ptx -o /tmp/$m.cubin && cuobjdump -sass /tmp/$m.cubin | grep -E "^\s+/\*[0-9a-f]{4}\*/" | xz -9 > $OUT/sass/$m.sass.xz
  echo "$m: $(xz -dc $OUT/sass/$m.sass.xz | grep -E 'DEPBAR|HGMMA|BAR\.|F2FP|MUFU|BRA|EXIT|VOTE' | sed 's/;.*//; s/^\s*//' | awk '{k=$2; if ($2 ~ /^@/) k=$3; if (k!=prev) {if (prev) print first, prev, n; first=$1; n=0} prev=k; n++} END{print first, prev, n}' | tr '\n' '|')"
done
run() { # variant cache source
  TILE_CACHE_DIR=$2 timeout 120 python3 $P $1 $3 persistent "128,128,8,2" "64,0;64,1;128,0;128,1" >> $OUT/ab.jsonl 2>> $OUT/ab.err
  echo "$1 rc=$?"
}
run base /tmp/c-base examples/attention_persistent.tile
run populate /tmp/c-sfg $D/ap_sumfirst.tile > /dev/null
python3 $D/edit_sumguard.py /tmp/c-sfg
for round in 1 2; do
  run base /tmp/c-base examples/attention_persistent.tile
  run sf /tmp/c-sf $D/ap_sumfirst.tile
  run sfg /tmp/c-sfg $D/ap_sumfirst.tile
done
grep -v populate $OUT/ab.jsonl > $OUT/ab_clean.jsonl
python3 bench/results/v49-session28/summarize_ab.py $OUT/ab_clean.jsonl base sf sfg
tail -3 $OUT/ab.err
