// RUN: tile-opt %s --convert-tile-to-gpu | FileCheck %s
// RUN: tile-opt %s --convert-tile-to-gpu --canonicalize | FileCheck %s --check-prefix=FOLD

// Shifts and signed division as the language defines them for every input
// (LLVM's shl/ashr past the width and sdiv/srem by 0 or of MIN by -1 are
// poison or undefined): `<<` past the width gives 0, `>>` the sign, MIN / -1
// wraps, a zero divisor gives 0; cdiv rounds up from the safe quotient and
// remainder. A constant amount or divisor needs no checks.
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// CHECK-LABEL: gpu.func @ops
// CHECK: %[[LAST:.*]] = arith.constant 31 : i32
// CHECK: %[[IN:.*]] = arith.cmpi ule, %[[AMT:.*]], %[[LAST]] : i32
// CHECK: %[[SAFE:.*]] = arith.select %[[IN]], %[[AMT]], %[[LAST]]
// CHECK: %[[SHL:.*]] = arith.shli %{{.*}}, %[[SAFE]]
// CHECK: arith.select %[[IN]], %[[SHL]], %{{.*}}
// CHECK: %[[CLAMP:.*]] = arith.minui %[[AMT]], %{{.*}} : i32
// CHECK: arith.shrsi %{{.*}}, %[[CLAMP]]
// CHECK: %[[BY0:.*]] = arith.cmpi eq, %[[D:.*]], %{{.*}} : i32
// CHECK: %[[BYM1:.*]] = arith.cmpi eq, %[[D]], %{{.*}} : i32
// CHECK: %[[EITHER:.*]] = arith.ori %[[BY0]], %[[BYM1]]
// CHECK: %[[SAFED:.*]] = arith.select %[[EITHER]], %{{.*}}, %[[D]]
// CHECK: arith.divsi %{{.*}}, %[[SAFED]]
// CHECK: arith.remsi %{{.*}}, %{{.*}}
// CHECK-NOT: arith.ceildivsi
// CHECK: arith.xori
// CHECK: arith.extui
// FOLD-LABEL: gpu.func @ops
// The constant shift and the division by 4 keep no select:
// FOLD: arith.shli %{{.*}}, %c3_i32
// FOLD-NOT: arith.select
// FOLD: arith.divsi %{{.*}}, %c4_i32
// FOLD-NOT: arith.select
// FOLD: llvm.store
module {
  tile.kernel @ops(%p: !tile.ptr<i32> {tile.divisibility = 16 : i32}, %q: !tile.ptr<i32> {tile.divisibility = 16 : i32}) attributes {tile.num_warps = 1 : i32} {
    %r = tile.make_range 0, 32 : tensor<32xi32, #b>
    %ps = tile.splat %p : tensor<32x!tile.ptr<i32>, #b>
    %pp = tile.addptr %ps, %r : tensor<32x!tile.ptr<i32>, #b>, tensor<32xi32, #b>
    %x = tile.load %pp : tensor<32x!tile.ptr<i32>, #b>
    %qs = tile.splat %q : tensor<32x!tile.ptr<i32>, #b>
    %qp = tile.addptr %qs, %r : tensor<32x!tile.ptr<i32>, #b>, tensor<32xi32, #b>
    %y = tile.load %qp : tensor<32x!tile.ptr<i32>, #b>
    %shl = arith.shli %x, %y : tensor<32xi32, #b>
    %shr = arith.shrsi %shl, %y : tensor<32xi32, #b>
    %div = arith.divsi %shr, %y : tensor<32xi32, #b>
    %rem = arith.remsi %div, %y : tensor<32xi32, #b>
    %cdiv = arith.ceildivsi %rem, %y : tensor<32xi32, #b>
    tile.store %pp, %cdiv : tensor<32x!tile.ptr<i32>, #b>
    %c3 = arith.constant dense<3> : tensor<32xi32, #b>
    %c4 = arith.constant dense<4> : tensor<32xi32, #b>
    %s3 = arith.shli %x, %c3 : tensor<32xi32, #b>
    %d4 = arith.divsi %s3, %c4 : tensor<32xi32, #b>
    tile.store %qp, %d4 : tensor<32x!tile.ptr<i32>, #b>
    tile.return
  }
}
