// RUN: tile-opt %s --convert-tile-to-gpu | FileCheck %s

// An f32 dot without tensor cores (precision ieee): both operands are
// staged in shared memory swizzled (16-byte vector stores), then one k per
// iteration of a loop: the thread's 2 rows of A (32 apart, a whole swizzle
// period, so one anchor address and a constant 32*16 elements) and its 2
// runs of 4 columns of B as 4-element vector loads (16 apart: half a
// period, so the second run has its own swizzled offset), then 2x8 FMAs.
#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: gpu.func @fma
// CHECK-NOT: : f32, !llvm.ptr<3>
// CHECK: llvm.store {{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK-NOT: : f32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: arith.xori
// CHECK: %[[A0:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.load %[[A0]] : !llvm.ptr<3> -> f32
// CHECK-NEXT: %[[A1:.*]] = llvm.getelementptr %[[A0]][512] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.load %[[A1]] : !llvm.ptr<3> -> f32
// CHECK: arith.xori
// CHECK: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK: arith.xori
// CHECK: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-COUNT-16: llvm.intr.fma
// CHECK: scf.yield
// CHECK: gpu.barrier
tile.kernel @fma(%x: f32, %p: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %a = tile.splat %x : tensor<64x16xf32, #b>
  %bv = tile.splat %x : tensor<16x32xf32, #b>
  %c = tile.splat %x : tensor<64x32xf32, #b>
  %d = tile.dot %a, %bv, %c : tensor<64x16xf32, #b> * tensor<16x32xf32, #b> -> tensor<64x32xf32, #b>
  %ps = tile.splat %p : tensor<64x32x!tile.ptr<f32>, #b>
  tile.store %ps, %d : tensor<64x32x!tile.ptr<f32>, #b>
  tile.return
}
