// RUN: tile-opt %s --convert-tile-to-gpu | FileCheck %s

// 4 contiguous, aligned f32 per thread: one vector<4xf32> access per group;
// the mask `offs < n` with n divisible by 16 is constant over each group, so
// one predicate guards it (no element-wise fallback).
#b = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: gpu.module @tile_kernels
// CHECK: gpu.func @add(%{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %[[N:.*]]: i32) kernel
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
// CHECK: gpu.thread_id x
// CHECK: %[[PRED:.*]] = arith.cmpi slt, %{{.*}}, %[[N]]
// CHECK: scf.if %[[PRED]] -> (vector<4xf32>)
// CHECK-NEXT: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK: scf.if %[[PRED]] {
// CHECK-NEXT: vector.from_elements
// CHECK-NEXT: llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK-NOT: tile.
module {
  tile.kernel @add(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) attributes {tile.num_warps = 4 : i32} {
    %pid = tile.program_id 0
    %c = arith.constant 512 : i32
    %base = arith.muli %pid, %c : i32
    %r = tile.make_range 0, 512 : tensor<512xi32, #b>
    %bs = tile.splat %base : tensor<512xi32, #b>
    %offs = arith.addi %bs, %r : tensor<512xi32, #b>
    %ns = tile.splat %n : tensor<512xi32, #b>
    %mask = arith.cmpi slt, %offs, %ns : tensor<512xi32, #b>
    %xs = tile.splat %x : tensor<512x!tile.ptr<f32>, #b>
    %xp = tile.addptr %xs, %offs : tensor<512x!tile.ptr<f32>, #b>, tensor<512xi32, #b>
    %v = tile.load %xp, mask %mask : tensor<512x!tile.ptr<f32>, #b>
    %os = tile.splat %out : tensor<512x!tile.ptr<f32>, #b>
    %op = tile.addptr %os, %offs : tensor<512x!tile.ptr<f32>, #b>, tensor<512xi32, #b>
    tile.store %op, %v, mask %mask : tensor<512x!tile.ptr<f32>, #b>
    tile.return
  }
}
