#!/bin/bash
ex=$1 arch=$2 w=$3 s=$4
o=$(timeout 60 /work/main/build/bin/tilec /work/main/examples/$ex --arch=$arch --num-warps=$w --num-stages=$s -o /tmp/exs_$$.ptx 2>&1); rc=$?
if [ $rc = 0 ]; then
  r=$(timeout 120 /usr/local/cuda/bin/ptxas -arch=$arch -v /tmp/exs_$$.ptx -o /dev/null 2>&1); prc=$?
  sp=$(echo "$r" | grep -oE '[0-9]+ bytes spill stores' | awk '{s+=$1} END{print s+0}')
  [ $prc = 0 ] && k="ok spill=$sp" || k="PTXAS-ERROR $(echo "$r" | grep -m1 -i error | cut -c1-100)"
elif [ $rc = 124 ]; then k=HANG
elif echo "$o" | grep -q "Stack dump\|Assertion\|LLVM ERROR\|UNREACHABLE\|PLEASE submit"; then k=CRASH
elif echo "$o" | grep -q "error:"; then k="diag: $(echo "$o" | grep -m1 'error:' | sed 's/.*error: //' | cut -c1-100)"
else k="OTHER rc=$rc"; fi
rm -f /tmp/exs_$$.ptx
echo "$ex $arch w$w s$s | $k"
