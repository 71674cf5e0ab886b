// RUN: tile-opt %s --split-input-file --convert-tile-to-gpu | FileCheck %s

// A 1-D max over 1024 elements on 4 warps: within the thread (8 slots), then
// 5 xor shuffles across the warp, then the 4 warps' partials through shared
// memory between barriers.
#b = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: llvm.mlir.global external @__tile_shared_rmax() {addr_space = 3 : i32, alignment = 16 : i64, tile.shared_bytes = 16 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: gpu.func @rmax
// CHECK-COUNT-7: llvm.call_intrinsic "llvm.maximum.f32"
// CHECK-COUNT-5: gpu.shuffle  xor %{{.*}} : f32
// CHECK-NOT: gpu.shuffle
// CHECK: scf.if
// CHECK: llvm.store %{{.*}} : f32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: gpu.barrier
module {
  tile.kernel @rmax(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %out: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
    %r = tile.make_range 0, 1024 : tensor<1024xi32, #b>
    %xs = tile.splat %x : tensor<1024x!tile.ptr<f32>, #b>
    %xp = tile.addptr %xs, %r : tensor<1024x!tile.ptr<f32>, #b>, tensor<1024xi32, #b>
    %v = tile.load %xp : tensor<1024x!tile.ptr<f32>, #b>
    %m = tile.reduce max %v, axis = 0 : tensor<1024xf32, #b> -> f32
    tile.store %out, %m : !tile.ptr<f32>
    tile.return
  }
}

// -----

// Within the thread the 8 slots are summed as a tree of neighbouring pairs
// (3 adds deep, not 7), in order along the axis; then across the warp.
#b8 = #tile.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: gpu.func @rsum
// CHECK: %[[S01:.*]] = arith.addf %[[X0:.*]], %[[X1:.*]] : f32
// CHECK-NEXT: %[[S23:.*]] = arith.addf %[[X2:.*]], %[[X3:.*]] : f32
// CHECK-NEXT: %[[S45:.*]] = arith.addf %[[X4:.*]], %[[X5:.*]] : f32
// CHECK-NEXT: %[[S67:.*]] = arith.addf %[[X6:.*]], %[[X7:.*]] : f32
// CHECK-NEXT: %[[S03:.*]] = arith.addf %[[S01]], %[[S23]] : f32
// CHECK-NEXT: %[[S47:.*]] = arith.addf %[[S45]], %[[S67]] : f32
// CHECK-NEXT: %[[ALL:.*]] = arith.addf %[[S03]], %[[S47]] : f32
// CHECK: gpu.shuffle  xor %[[ALL]]
module {
  tile.kernel @rsum(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %out: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
    %r = tile.make_range 0, 1024 : tensor<1024xi32, #b8>
    %xs = tile.splat %x : tensor<1024x!tile.ptr<f32>, #b8>
    %xp = tile.addptr %xs, %r : tensor<1024x!tile.ptr<f32>, #b8>, tensor<1024xi32, #b8>
    %v = tile.load %xp : tensor<1024x!tile.ptr<f32>, #b8>
    %m = tile.reduce sum %v, axis = 0 : tensor<1024xf32, #b8> -> f32
    tile.store %out, %m : !tile.ptr<f32>
    tile.return
  }
}
