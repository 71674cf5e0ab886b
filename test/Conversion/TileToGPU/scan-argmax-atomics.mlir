// RUN: tile-opt %s -split-input-file --convert-tile-to-gpu | FileCheck %s

// A 1-D cumsum of 1024 elements on 4 warps, 4 per thread in two
// repetitions of the block's 512: the chunks in the thread (3 adds each),
// 5 shuffles up per repetition across the warp, the lane's exclusive prefix
// (one more shuffle up) and the warp's total (a shuffle from the last
// lane), the warps' totals through shared memory between barriers.
#b = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: gpu.func @cumsum
// CHECK-COUNT-6: arith.addi
// CHECK-COUNT-5: gpu.shuffle  up
// CHECK-COUNT-5: gpu.shuffle  up
// CHECK: gpu.shuffle  up
// CHECK: gpu.shuffle  idx
// CHECK: gpu.shuffle  up
// CHECK: gpu.shuffle  idx
// CHECK-NOT: gpu.shuffle
// CHECK: scf.if
// CHECK: llvm.store %{{.*}} : i32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK-COUNT-8: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK: gpu.barrier
module {
  tile.kernel @cumsum(%x: !tile.ptr<i32> {tile.divisibility = 16 : i32}) attributes {tile.num_warps = 4 : i32} {
    %r = tile.make_range 0, 1024 : tensor<1024xi32, #b>
    %xs = tile.splat %x : tensor<1024x!tile.ptr<i32>, #b>
    %xp = tile.addptr %xs, %r : tensor<1024x!tile.ptr<i32>, #b>, tensor<1024xi32, #b>
    %v = tile.load %xp : tensor<1024x!tile.ptr<i32>, #b>
    %s = tile.scan sum %v, axis = 0 : tensor<1024xi32, #b>
    tile.store %xp, %s : tensor<1024x!tile.ptr<i32>, #b>
    tile.return
  }
}

// -----

// argmax carries an index with each value: each comparison selects both,
// and each xor shuffle moves both.
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// CHECK-LABEL: gpu.func @argmax
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpf uno
// CHECK: arith.select
// CHECK: arith.select
// CHECK-COUNT-2: gpu.shuffle  xor %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: gpu.shuffle  xor %{{.*}}, %{{.*}}, %{{.*}} : i32
module {
  tile.kernel @argmax(%x: !tile.ptr<f32>, %out: !tile.ptr<i32>) attributes {tile.num_warps = 1 : i32} {
    %r = tile.make_range 0, 64 : tensor<64xi32, #b>
    %xs = tile.splat %x : tensor<64x!tile.ptr<f32>, #b>
    %xp = tile.addptr %xs, %r : tensor<64x!tile.ptr<f32>, #b>, tensor<64xi32, #b>
    %v = tile.load %xp : tensor<64x!tile.ptr<f32>, #b>
    %i = tile.reduce argmax %v, axis = 0 : tensor<64xf32, #b> -> i32
    tile.store %out, %i : !tile.ptr<i32>
    tile.return
  }
}

// -----

// An acq_rel atomic add: a release fence, the relaxed atomic in the owner
// thread where the mask holds, an acquire fence. A scalar atomic whose old
// value is used: thread 0 updates, the old value reaches the others through
// shared memory.
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// CHECK-LABEL: gpu.func @atomics
// CHECK: llvm.fence syncscope("device") release
// CHECK: scf.if
// CHECK: llvm.atomicrmw add %{{.*}}, %{{.*}} syncscope("device") monotonic
// CHECK: llvm.fence syncscope("device") acquire
// CHECK: arith.cmpi eq
// CHECK: scf.if
// CHECK: llvm.atomicrmw fmax %{{.*}} syncscope("block") monotonic
// CHECK-NOT: llvm.fence
// CHECK: gpu.barrier
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: llvm.cmpxchg %{{.*}}, %{{.*}}, %{{.*}} acq_rel acquire
module {
  tile.kernel @atomics(%p: !tile.ptr<i32>, %f: !tile.ptr<f32>, %x: f32, %n: i32) attributes {tile.num_warps = 1 : i32} {
    %r = tile.make_range 0, 32 : tensor<32xi32, #b>
    %ns = tile.splat %n : tensor<32xi32, #b>
    %m = arith.cmpi slt, %r, %ns : tensor<32xi32, #b>
    %ps = tile.splat %p : tensor<32x!tile.ptr<i32>, #b>
    %pp = tile.addptr %ps, %r : tensor<32x!tile.ptr<i32>, #b>, tensor<32xi32, #b>
    %old = tile.atomic_rmw add %pp, %r, mask %m sem = acq_rel scope = gpu : tensor<32x!tile.ptr<i32>, #b>
    %o = tile.atomic_rmw max %f, %x sem = relaxed scope = cta : !tile.ptr<f32>
    tile.store %f, %o : !tile.ptr<f32>
    %c = tile.atomic_cas %p, %n, %n sem = acq_rel scope = sys : !tile.ptr<i32>
    tile.return
  }
}
