#!/usr/bin/env bash
# Runs on the GPU machine with pack/ carried: tile-fuzz-programs --gpu over
# PROCS processes of COUNT programs each (seeds FIRST, FIRST+COUNT, ...), so
# that compiling on the CPU cores keeps the GPU busy. Failures (program,
# inputs, a tilec --run command) go to $OUT/fuzz-failures.
# Usage: scripts/gpu/fuzz.sh FIRST COUNT [PROCS]
set -uo pipefail
first=$1 count=$2 procs=${3:-12}
out=${OUT:-/tmp/tile-out}
mkdir -p "$out"
source "$(dirname "$0")/unpack.sh"
seq 0 $((procs - 1)) | xargs -P "$procs" -I{} bash -c '
  /tmp/tile-bin/tile-fuzz-programs --gpu --seed=$(('"$first"' + {} * '"$count"')) \
    --count='"$count"' --failures='"$out"'/fuzz-failures > '"$out"'/fuzz-{}.log 2>&1'
grep -h "^FAIL" "$out"/fuzz-*.log | sort | uniq | head -50
awk '/^programs/ {p += $2; s += $5; g += $8; f += $10}
     END {print "total: programs " p ", stages checked " s ", GPU checked " g ", failures " f}' \
  FS='[ ,]+' "$out"/fuzz-*.log
