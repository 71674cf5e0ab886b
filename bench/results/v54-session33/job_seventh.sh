#!/usr/bin/env bash
# Session 33, seventh GPU call: does ptxas keep P V's wait where the PTX
# puts it (after the softmax's exponentials) when the wait begins a basic
# block of its own (edit_waits.py: a uniform branch over a trap)? SASS of
# the persistent example D64 edited so, then two A/B rounds of the example
# against the same PTX edited (the runtime cache's PTX rewritten).
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/c-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1
D=bench/results/v54-session33
mkdir -p $OUT/sass
tilec examples/attention_persistent.tile --arch=sm_90a --num-warps=8 --num-stages=2 -D D=64 -D CAUSAL=0 -o /tmp/e1.ptx
python3 $D/edit_waits.py x /tmp/e1.ptx
ptxas -arch=sm_90a /tmp/e1.ptx -o /tmp/e1.cubin && cuobjdump -sass /tmp/e1.cubin | grep -E "^\s+/\*[0-9a-f]{4}\*/" | xz -9 > $OUT/sass/e1_D64_c0.sass.xz
xz -dc $OUT/sass/e1_D64_c0.sass.xz | grep -E "DEPBAR|HGMMA|BAR\.|F2FP|MUFU|BRA|BPT|TRAP|EXIT" | sed 's/;.*//; s/^\s*//' | awk '{k=$2; if ($2 ~ /^@/) k=$3; if (k!=prev) {if (prev) print first, prev, n; first=$1; n=0} prev=k; n++} END{print first, prev, n}' | tr '\n' '|'
echo
ab() { # variant cache
  TILE_CACHE_DIR=$2 timeout 100 python3 $D/pers_ab.py $1 examples/attention_persistent.tile persistent "128,128,8,2" >> $OUT/ab.jsonl 2>> $OUT/ab.err
  echo "$1 rc=$?"
}
TILE_CACHE_DIR=/tmp/c-e1 timeout 100 python3 $D/pers_ab.py populate examples/attention_persistent.tile persistent "128,128,8,2" > /dev/null 2>> $OUT/ab.err
python3 $D/edit_waits.py /tmp/c-e1
ab ex /tmp/c-ex; ab e1 /tmp/c-e1; ab e1 /tmp/c-e1; ab ex /tmp/c-ex
python3 bench/results/v49-session28/summarize_ab.py $OUT/ab.jsonl ex e1
tail -3 $OUT/ab.err
