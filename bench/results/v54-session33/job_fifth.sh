#!/usr/bin/env bash
# Session 33, fifth GPU call: per-instruction stall samples (ncu source page,
# SASS) of the persistent example D64 non-causal (128x128/8/2), whose warps
# wait 2.3 of 7.2 cycles an issue on L1TEX scoreboards (fourth call).
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1 TILE_CACHE_DIR=/tmp/tile-cache-s
D=bench/results/v54-session33
mkdir -p $OUT/ncu
timeout 150 ncu -k regex:attention -s 1 -c 1 --set full --import-source no -o /tmp/p64 -f python3 $D/sustain.py persistent 64 0 0.01 > /tmp/p64_run.txt 2>&1
echo "ncu rc=$?"
ncu --import /tmp/p64.ncu-rep --page source --csv --print-source sass 2>/dev/null | xz -9 > $OUT/ncu/p64_sass.csv.xz
ncu --import /tmp/p64.ncu-rep --page raw --csv 2>/dev/null | xz -9 > $OUT/ncu/p64_raw.csv.xz
ls -la $OUT/ncu
