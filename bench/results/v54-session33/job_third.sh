#!/usr/bin/env bash
# Session 33, third GPU call: why examples/attention.tile D64 (64x128/4/2)
# is ~13% faster when Q, K, V, O start on 2 MiB boundaries (v53's
# placement_probe): ncu (full set) of one launch at offset 0 and at 8320
# bytes, and of SDPA's kernel at both (its name and launch shape too).
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1 TILE_CACHE_DIR=/tmp/tile-cache-ncu
D=bench/results/v54-session33
mkdir -p $OUT/ncu
python3 $D/place_one.py tile 1 0
run() { # name, kernel regex, args...
  local name=$1 regex=$2; shift 2
  timeout 120 ncu -k "regex:$regex" -s 2 -c 1 --set full --import-source no -o /tmp/$name -f python3 $D/place_one.py "$@" > $OUT/ncu/${name}_run.txt 2>&1
  echo "$name rc=$?"
  ncu --import /tmp/$name.ncu-rep --page details > $OUT/ncu/${name}_details.txt 2>&1
  ncu --import /tmp/$name.ncu-rep --page raw --csv > $OUT/ncu/${name}_raw.csv 2>&1
}
run t_al attention tile 3 0
run t_off attention tile 3 8320
run s_al '^(?!.*(elementwise|distribution|fill|copy|reduce|vectorized)).*$' sdpa 3 0
run s_off '^(?!.*(elementwise|distribution|fill|copy|reduce|vectorized)).*$' sdpa 3 8320
grep -E "^  [a-zA-Z_]|Duration|DRAM Throughput|L2 Hit|L1/TEX Hit|Memory Throughput|Grid Size|Block Size|Registers" $OUT/ncu/*_details.txt | head -80
