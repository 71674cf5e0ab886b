#!/usr/bin/env bash
# Runs on the GPU machine with pack/ carried: reruns failing programs of
# tile-fuzz-programs at ptxas' default optimization level and at -O0
# (TILE_JIT_OPT_LEVEL=0), and writes each failing program's PTX and SASS to
# $OUT/triage/seed-N. A program wrong at the default level and right at -O0
# points at ptxas (or at undefined behaviour in our PTX that -O0 happens to
# hide); wrong at both points at our lowering.
# Usage: [LEVELS="default 0 1 2 3"] scripts/gpu/triage.sh SEED[:FILE.tile] ...
set -uo pipefail
out=${OUT:-/tmp/tile-out}/triage
mkdir -p "$out"
source "$(dirname "$0")/unpack.sh"
for spec in "$@"; do
  seed=${spec%%:*} source=
  [[ $spec == *:* ]] && source=--source=${spec#*:}
  for level in ${LEVELS:-default 0}; do
    if [[ $level == default ]]; then unset TILE_JIT_OPT_LEVEL
    else export TILE_JIT_OPT_LEVEL=$level; fi
    result=$(/tmp/tile-bin/tile-fuzz-programs --gpu --seed="$seed" --count=1 \
      $source --failures="$out/$level" 2>&1 | grep -E "^FAIL|^programs" | head -3)
    echo "$spec ptxas=$level: $result"
  done
  unset TILE_JIT_OPT_LEVEL
  dir=$out/default/seed-$seed
  if [[ -f $dir/program.ptx ]]; then
    ptxas -arch=sm_90 "$dir/program.ptx" -o "$dir/program.cubin" &&
      cuobjdump -sass "$dir/program.cubin" > "$dir/program.sass"
    ptxas -arch=sm_90 -O0 "$dir/program.ptx" -o "$dir/program-O0.cubin" &&
      cuobjdump -sass "$dir/program-O0.cubin" > "$dir/program-O0.sass"
  fi
done
