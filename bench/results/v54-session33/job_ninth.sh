#!/usr/bin/env bash
# Session 33, ninth GPU call: ap_fa3r.tile with each loop's closing P V wait
# moved out of the softmax's block into the loop's successors
# (move_waits.py on the runtime cache's PTX; ptxas: 128 bytes of spills at
# D64): does P V then run beside the whole softmax, and does that pay?
# SASS of the edited D64 kernel, then two A/B rounds against the example.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/c-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1
D=bench/results/v54-session33
mkdir -p $OUT/sass
tilec $D/ap_fa3r.tile --arch=sm_90a --num-warps=8 --num-stages=2 -D D=64 -D CAUSAL=0 -o /tmp/m.ptx
python3 $D/move_waits.py x /tmp/m.ptx
ptxas -arch=sm_90a -v /tmp/m.ptx -o /tmp/m.cubin 2>&1 | grep -E "spill|Used"
cuobjdump -sass /tmp/m.cubin | grep -E "^\s+/\*[0-9a-f]{4}\*/" | xz -9 > $OUT/sass/fa3m_D64_c0.sass.xz
xz -dc $OUT/sass/fa3m_D64_c0.sass.xz | grep -E "DEPBAR|HGMMA|BAR\.|F2FP|MUFU|BRA|SYNCS" | sed 's/;.*//; s/^\s*//' | awk '{k=$2; if ($2 ~ /^@/) k=$3; if (k!=prev) {if (prev) print first, prev, n; first=$1; n=0} prev=k; n++} END{print first, prev, n}' | tr '\n' '|'
echo
ab() { # variant source cache
  TILE_CACHE_DIR=$3 timeout 100 python3 $D/pers_ab.py $1 $2 persistent "128,128,8,2" "64,0;64,1" >> $OUT/ab.jsonl 2>> $OUT/ab.err
  echo "$1 rc=$?"
}
TILE_CACHE_DIR=/tmp/c-m timeout 100 python3 $D/pers_ab.py populate $D/ap_fa3r.tile persistent "128,128,8,2" "64,0;64,1" > /dev/null 2>> $OUT/ab.err
python3 $D/move_waits.py /tmp/c-m
ab ex examples/attention_persistent.tile /tmp/c-ex; ab fa3m $D/ap_fa3r.tile /tmp/c-m
ab fa3m $D/ap_fa3r.tile /tmp/c-m; ab ex examples/attention_persistent.tile /tmp/c-ex
python3 bench/results/v49-session28/summarize_ab.py $OUT/ab.jsonl ex fa3m
tail -3 $OUT/ab.err
