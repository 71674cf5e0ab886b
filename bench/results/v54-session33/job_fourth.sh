#!/usr/bin/env bash
# Session 33, fourth GPU call: clocks and power beside sustained attention
# (under ncu's locked 1.35 GHz the grid example D64 took 1.918 M cycles
# against cuDNN's 2.042 M, yet at boost it is slower or level): each
# implementation 4 s back to back with nvidia-smi sampling every 50 ms;
# then ncu (full set) of the persistent example D64.
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1 TILE_CACHE_DIR=/tmp/tile-cache-s
D=bench/results/v54-session33
for impl in grid persistent sdpa; do python3 $D/sustain.py $impl 64 0 0.2 > /dev/null; done
f=clocks_event_reasons.active
nvidia-smi --query-gpu=$f --format=csv >/dev/null 2>&1 || f=clocks_throttle_reasons.active
for c in 0 1; do for impl in grid persistent sdpa; do
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,$f --format=csv,noheader -lms 50 > $OUT/smi_${impl}_$c.csv &
  pid=$!
  python3 $D/sustain.py $impl 64 $c 4 | tee -a $OUT/sustain.jsonl
  kill $pid
  sleep 1
  tail -n 40 $OUT/smi_${impl}_$c.csv | awk -F', ' '{c+=$2; p+=$4; n++; r[$6]++} END{printf "  mean clock %.0f MHz power %.0f W over %d samples; reasons:", c/n, p/n, n; for (k in r) printf " %s x%d", k, r[k]; print ""}'
done; done
mkdir -p $OUT/ncu
timeout 120 ncu -k regex:attention -s 1 -c 1 --set full --import-source no -o /tmp/p64 -f python3 $D/sustain.py persistent 64 0 0.01 > $OUT/ncu/p64_run.txt 2>&1
echo "ncu rc=$?"
ncu --import /tmp/p64.ncu-rep --page details > $OUT/ncu/p64_details.txt 2>&1
grep -E "SM Frequency|Elapsed Cycles|Duration|Issue Slots|L2 Cache Throughput|Warp Cycles Per Issued" $OUT/ncu/p64_details.txt
