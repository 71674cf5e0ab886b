#!/usr/bin/env bash
# Session 33, sixth GPU call. ptxas hoists the persistent example's
# `wgmma.wait_group 0` (P V's wait) from the end of the softmax to right
# after the first row maximum (SASS: WARPGROUP.DEPBAR.LE gsb0, 0x0 at the
# head of the softmax), because the new P's F2FP writes the registers the
# in-flight P V reads. Variants: ap_f32p.tile (P carried as f32, rounded to
# f16 at the next block between S's issue and P V's), ap_fa3r.tile (the
# same, and acc rescaled before the MMAs: FlashAttention-3's order). SASS
# of each (D64), then two A/B rounds against the example.
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1
D=bench/results/v54-session33
mkdir -p $OUT/sass
for v in ex f32p fa3r; do
  src=$D/ap_$v.tile; [ $v = ex ] && src=examples/attention_persistent.tile
  for c in 0 1; do
    tilec $src --arch=sm_90a --num-warps=8 --num-stages=2 -D D=64 -D CAUSAL=$c -o /tmp/$v$c.ptx
    ptxas -arch=sm_90a /tmp/$v$c.ptx -o /tmp/$v$c.cubin && cuobjdump -sass /tmp/$v$c.cubin | grep -E "^\s+/\*[0-9a-f]{4}\*/" | xz -9 > $OUT/sass/${v}_D64_c$c.sass.xz
    echo "$v c$c: $(xz -dc $OUT/sass/${v}_D64_c$c.sass.xz | grep -nE 'DEPBAR|BAR.SYNC|BAR.ARV|F2FP' | head -12 | awk '{printf "%s %s %s| ", $1, $2, $3}')"
  done
done
ab() { # variant source
  TILE_CACHE_DIR=/tmp/tile-cache-$1 timeout 100 python3 $D/pers_ab.py $1 $2 persistent "128,128,8,2" >> $OUT/ab.jsonl 2>> $OUT/ab.err
  echo "$1 rc=$?"
}
for round in 1 2; do
  ab ex examples/attention_persistent.tile
  ab f32p $D/ap_f32p.tile
  ab fa3r $D/ap_fa3r.tile
done
python3 bench/results/v49-session28/summarize_ab.py $OUT/ab.jsonl ex f32p fa3r
tail -3 $OUT/ab.err
