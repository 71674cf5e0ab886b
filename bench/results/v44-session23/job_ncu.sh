#!/usr/bin/env bash
# ncu of attention: our D128 winners and SDPA's default (one launch each).
source scripts/gpu/unpack.sh
export PYTHONUNBUFFERED=1
P=bench/results/v44-session23/attn_one.py
NCU="ncu --set full --launch-count 1 --launch-skip 1"
for cfg in "128 128 64 4 2" "128 128 128 8 2" "64 128 64 8 2"; do
  python3 $P tile $cfg || echo "FAILED $cfg"   # fills the kernel cache
  tag=$(echo $cfg | tr ' ' _)
  timeout 150 $NCU -k regex:'^attention' -o $OUT/ncu_tile_$tag python3 $P tile $cfg > $OUT/log_$tag.txt 2>&1
  ncu --import $OUT/ncu_tile_$tag.ncu-rep --page details > $OUT/tile_$tag.txt 2>&1
  rm -f $OUT/ncu_tile_$tag.ncu-rep
done
timeout 150 $NCU -k regex:'fmha|flash|sdpa|attention|cudnn' -o $OUT/ncu_sdpa python3 $P sdpa 128 > $OUT/log_sdpa.txt 2>&1
ncu --import $OUT/ncu_sdpa.ncu-rep --page details > $OUT/sdpa_128.txt 2>&1
rm -f $OUT/ncu_sdpa.ncu-rep
# SASS of our D128 128x64 kernel (the cached cubin is PTX; compile it here).
ls /tmp/tile-cache | head
for f in pack/ptx/*.ptx; do
  b=$(basename $f .ptx)
  ptxas -arch=sm_90a $f -o /tmp/$b.cubin && cuobjdump -sass /tmp/$b.cubin > /tmp/$b.sass
  grep -oE "^\s+/\*[0-9a-f]+\*/\s+[A-Z][A-Z0-9_.]*" /tmp/$b.sass | awk '{print $2}' | sed 's/\..*//' | sort | uniq -c | sort -rn > $OUT/mix_$b.txt
done
tar czf $OUT/sass.tgz -C /tmp $(cd /tmp && ls *.sass)
cd $OUT && tar czf all.tgz *.txt sass.tgz && rm -f *.txt sass.tgz; ls -la $OUT
