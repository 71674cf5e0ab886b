// RUN: tile-opt %s -split-input-file --convert-tile-to-gpu | FileCheck %s

// A generic reduce applies its combiner wherever two partial results meet:
// 64 elements on one warp, 2 per thread: once in the thread, then after
// each of the 5 xor shuffles (math.absi as a compare and a select).
#b = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// CHECK-LABEL: gpu.func @widest
// CHECK: arith.cmpi slt
// CHECK: arith.select
// CHECK: arith.cmpi slt
// CHECK: arith.select
// CHECK: arith.maxsi
// CHECK-COUNT-5: gpu.shuffle  xor
// CHECK-NOT: gpu.shuffle
// CHECK-NOT: tile.
// CHECK: gpu.return
module {
  tile.kernel @widest(%x: !tile.ptr<i32>, %out: !tile.ptr<i32>) attributes {tile.num_warps = 1 : i32} {
    %r = tile.make_range 0, 64 : tensor<64xi32, #b>
    %xs = tile.splat %x : tensor<64x!tile.ptr<i32>, #b>
    %xp = tile.addptr %xs, %r : tensor<64x!tile.ptr<i32>, #b>, tensor<64xi32, #b>
    %v = tile.load %xp : tensor<64x!tile.ptr<i32>, #b>
    %m = tile.generic_reduce %v, axis = 0 : tensor<64xi32, #b> -> i32 {
    ^bb0(%a: i32, %c: i32):
      %aa = math.absi %a : i32
      %ca = math.absi %c : i32
      %w = arith.maxsi %aa, %ca : i32
      tile.combine_yield %w : i32
    }
    tile.store %out, %m : !tile.ptr<i32>
    tile.return
  }
}

// -----

// A generic scan has no identity: the lane's exclusive prefix is absent in
// lane 0, so each element combines with it only where the lane is not the
// first (a select on that flag); 2 warps add the warps' totals the same
// way, the flag being "a warp before this one".
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
// CHECK-LABEL: gpu.func @running_max
// CHECK-COUNT-5: gpu.shuffle  up
// CHECK: %[[NOT_FIRST:.*]] = arith.cmpi ne
// CHECK: %[[UP:[^,]*]], %{{.*}} = gpu.shuffle  up
// CHECK: gpu.shuffle  idx
// CHECK: gpu.barrier
// CHECK: arith.cmpi ult
// CHECK: gpu.barrier
// CHECK: %[[WITH_LANES:.*]] = arith.maxsi %{{.*}}, %[[UP]]
// CHECK: arith.select %[[NOT_FIRST]], %[[WITH_LANES]]
// CHECK: %[[HAS_PREFIX:.*]] = arith.ori
// CHECK: %[[ALL:.*]] = arith.maxsi
// CHECK: arith.select %[[HAS_PREFIX]], %[[ALL]]
// CHECK-NOT: tile.
// CHECK: gpu.return
module {
  tile.kernel @running_max(%x: !tile.ptr<i32>) attributes {tile.num_warps = 2 : i32} {
    %r = tile.make_range 0, 64 : tensor<64xi32, #b>
    %xs = tile.splat %x : tensor<64x!tile.ptr<i32>, #b>
    %xp = tile.addptr %xs, %r : tensor<64x!tile.ptr<i32>, #b>, tensor<64xi32, #b>
    %v = tile.load %xp : tensor<64x!tile.ptr<i32>, #b>
    %s = tile.generic_scan %v, axis = 0 : tensor<64xi32, #b> {
    ^bb0(%a: i32, %c: i32):
      %m = arith.maxsi %a, %c : i32
      tile.combine_yield %m : i32
    }
    tile.store %xp, %s : tensor<64x!tile.ptr<i32>, #b>
    tile.return
  }
}
