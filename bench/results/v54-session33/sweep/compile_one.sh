#!/bin/bash
set -- $1 $2 $3 $4 $5 $6 $7
src=$1 d=$2 bm=$3 bn=$4 w=$5 s=$6 c=$7
o=$(timeout 60 /work/main/build/bin/tilec /work/main/examples/$src.tile --arch=sm_90a -D D=$d -D BM=$bm -D BN=$bn -D CAUSAL=$c --num-warps=$w --num-stages=$s -o /dev/null 2>&1)
rc=$?
if [ $rc = 0 ]; then k=ok
elif [ $rc = 124 ]; then k=HANG
elif echo "$o" | grep -q "Stack dump\|Assertion\|LLVM ERROR\|UNREACHABLE\|Segmentation\|PLEASE submit"; then k=CRASH
elif [ $rc -ge 128 ]; then k=CRASH
elif echo "$o" | grep -q "error:"; then k="diag: $(echo "$o" | grep -m1 'error:' | sed 's/.*error: //' | cut -c1-90)"
else k="OTHER rc=$rc"
fi
echo "$src $d $bm $bn $w $s $c | $k"
