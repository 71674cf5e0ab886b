// NAME:D records divisibility D (an f16 row stride divisible by 8 makes
// 16-byte rows); a divisor that is no power of two up to 16 is an error.
// RUN: tile-opt %s --tile-specialize="divisible=n:8,m:4" | FileCheck %s --check-prefix=EIGHT
// RUN: not tile-opt %s --tile-specialize="divisible=n:3" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not tile-opt %s --tile-specialize="divisible=n:32" 2>&1 | FileCheck %s --check-prefix=BAD32
// EIGHT-LABEL: tile.kernel @d(
// EIGHT-SAME: %{{.*}}: !tile.ptr<f16>,
// EIGHT-SAME: %{{.*}}: i32 {tile.divisibility = 8 : i32}
// EIGHT-SAME: %{{.*}}: i32 {tile.divisibility = 4 : i32})
// BAD32: error: divisible 'n:32': the divisor must be 2, 4, 8 or 16
// BAD: error: divisible 'n:3': the divisor must be 2, 4, 8 or 16
tile.kernel @d(%p: !tile.ptr<f16> loc("p"), %n: i32 loc("n"), %m: i32 loc("m")) {
  tile.return
}
