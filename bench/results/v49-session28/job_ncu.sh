#!/usr/bin/env bash
# ncu (full set) of attention D128 non-causal: tile's 128x64/4/2 and
# 128x128/8/2 and SDPA's default kernel, one launch each after warm-up.
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1 TILE_LIBRARY=/tmp/tile-bin/libtile.so TILE_CACHE_DIR=/tmp/tile-cache-ncu
D=bench/results/v49-session28
mkdir -p $OUT/ncu
for cfg in 128,64,4,2 128,128,8,2; do python3 $D/attn_one.py tile 3 128 0 $cfg; done
run() { # name, kernel regex, args...
  local name=$1 regex=$2; shift 2
  timeout 150 ncu -k "regex:$regex" -s 2 -c 1 --set full --import-source no -o /tmp/$name -f python3 $D/attn_one.py "$@" > $OUT/ncu/${name}_run.txt 2>&1
  echo "$name rc=$?"
  ncu --import /tmp/$name.ncu-rep --page details > $OUT/ncu/${name}_details.txt 2>&1
  ncu --import /tmp/$name.ncu-rep --page raw --csv > $OUT/ncu/${name}_raw.csv 2>&1
  ncu --import /tmp/$name.ncu-rep --page source --csv --print-source sass 2>/dev/null | xz -9 > $OUT/ncu/${name}_sass.csv.xz
}
run t64 attention tile 3 128 0 128,64,4,2
run t128 attention tile 3 128 0 128,128,8,2
run sdpa '^(?!.*(elementwise|distribution|fill|copy|reduce|vectorized)).*$' sdpa 3 128 0
grep -E "^  [a-z_]|Duration|Throughput|Registers|Threads|Block Size|Warp Cycles|Issue|Eligible|Active Warps|Pipe|Achieved" $OUT/ncu/*_details.txt | head -300
