#!/usr/bin/env bash
# Stall reasons (raw) and per-SASS-instruction stall samples of attention.
source scripts/gpu/unpack.sh
export PYTHONUNBUFFERED=1
P=bench/results/v44-session23/attn_one.py
NCU="ncu --section WarpStateStats --section SourceCounters --section ComputeWorkloadAnalysis --launch-count 1 --launch-skip 1"
for cfg in "128 128 64 4 2" "128 128 128 8 2"; do
  python3 $P tile $cfg || echo "FAILED $cfg"
  tag=$(echo $cfg | tr ' ' _)
  timeout 150 $NCU -k regex:'^attention' -o /tmp/r_$tag python3 $P tile $cfg > /tmp/log_$tag.txt 2>&1
  ncu --import /tmp/r_$tag.ncu-rep --page raw > /tmp/raw_$tag.txt 2>&1
  ncu --import /tmp/r_$tag.ncu-rep --page source --csv --print-source sass > /tmp/src_$tag.csv 2>&1
done
timeout 150 $NCU -k regex:'fmha|flash|sdpa|cudnn' -o /tmp/r_sdpa python3 $P sdpa 128 > /tmp/log_sdpa.txt 2>&1
ncu --import /tmp/r_sdpa.ncu-rep --page raw > /tmp/raw_sdpa.txt 2>&1
ncu --import /tmp/r_sdpa.ncu-rep --page source --csv --print-source sass > /tmp/src_sdpa.csv 2>&1
cd /tmp && tar czf $OUT/all2.tgz raw_*.txt src_*.csv log_*.txt; ls -la $OUT
