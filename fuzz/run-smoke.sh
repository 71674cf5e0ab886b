#!/usr/bin/env bash
# Bounded fuzzing smoke: runs every seed input once, then mutates for
# SECONDS seconds. Usage: run-smoke.sh FUZZER SECONDS SEED_DIR...
set -euo pipefail
fuzzer=$1 seconds=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$fuzzer" -dict="$(dirname "$0")/tile.dict" -max_total_time="$seconds" \
  -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 "$work" "$@"
