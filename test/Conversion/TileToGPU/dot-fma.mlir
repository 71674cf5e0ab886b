// RUN: tile-opt %s --convert-tile-to-gpu --split-input-file | FileCheck %s

// An f32 dot without tensor cores (precision ieee): both operands are
// staged in shared memory swizzled (16-byte vector stores), then the loop
// steps k by 4 (one 16-byte chunk of A's row). The thread holds 2 rows x 8
// columns: A's 2 row vectors are loaded first (8 values live, rather than
// B's 4 x 8), then per k B's 2 runs of 4 columns and 2x8 FMAs. The 2 rows
// of A are 32 apart, a whole swizzle period: one anchor address and a
// constant 32*16 elements.
#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: gpu.func @fma
// CHECK-NOT: : f32, !llvm.ptr<3>
// CHECK: llvm.store {{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK-NOT: : f32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c4_i32
// CHECK: %[[A0:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.load %[[A0]] {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK: %[[A1:.*]] = llvm.getelementptr %[[A0]][512] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.load %[[A1]] {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-NOT: llvm.intr.fma
// CHECK-COUNT-2: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-NOT: llvm.load
// CHECK-COUNT-16: llvm.intr.fma
// CHECK-COUNT-2: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-NOT: llvm.load
// CHECK-COUNT-16: llvm.intr.fma
// CHECK-COUNT-2: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-NOT: llvm.load
// CHECK-COUNT-16: llvm.intr.fma
// CHECK-COUNT-2: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-NOT: llvm.load
// CHECK-COUNT-16: llvm.intr.fma
// CHECK-NOT: llvm.intr.fma
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

// -----

// 16 rows x 4 columns per thread: B's 4 rows (one vector each) first, then
// per row of A its vector and 4x4 FMAs.
#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: gpu.func @tall
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c4_i32
// CHECK-COUNT-4: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-NOT: llvm.intr.fma
// CHECK: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-NOT: llvm.load
// CHECK-COUNT-16: llvm.intr.fma
// CHECK: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK: scf.yield
tile.kernel @tall(%x: f32, %p: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %a = tile.splat %x : tensor<64x16xf32, #b>
  %bv = tile.splat %x : tensor<16x128xf32, #b>
  %c = tile.splat %x : tensor<64x128xf32, #b>
  %d = tile.dot %a, %bv, %c : tensor<64x16xf32, #b> * tensor<16x128xf32, #b> -> tensor<64x128xf32, #b>
  %ps = tile.splat %p : tensor<64x128x!tile.ptr<f32>, #b>
  tile.store %ps, %d : tensor<64x128x!tile.ptr<f32>, #b>
  tile.return
}

// -----

// Operands in pipeline stages (tile-promote-shared): the dot reads them
// from the stage and stores nothing; the pipeline's waits and barriers
// order the reads, so the dot adds no barrier.
#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: gpu.func @staged
// CHECK-NOT: llvm.store
// CHECK-NOT: gpu.barrier
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c4_i32
// CHECK-COUNT-8: llvm.load {{.*}} : !llvm.ptr<3> -> vector<4xf32>
// CHECK: llvm.intr.fma
// CHECK: scf.yield
// CHECK-NOT: gpu.barrier
// CHECK: llvm.store {{.*}} !llvm.ptr<1>
tile.kernel @staged(%x: f32, %p: !tile.ptr<f32>, %s: i32) attributes {tile.num_warps = 4 : i32} {
  %abuf = tile.shared_alloc <{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}> : memref<2x64x16xf32, 3>
  %bbuf = tile.shared_alloc <{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}> : memref<2x16x32xf32, 3>
  %a = tile.shared_load %abuf[%s] : memref<2x64x16xf32, 3> -> tensor<64x16xf32, #b>
  %bv = tile.shared_load %bbuf[%s] : memref<2x16x32xf32, 3> -> tensor<16x32xf32, #b>
  %c = tile.splat %x : tensor<64x32xf32, #b>
  %d = tile.dot %a, %bv, %c : tensor<64x16xf32, #b> * tensor<16x32xf32, #b> -> tensor<64x32xf32, #b>
  %ps = tile.splat %p : tensor<64x32x!tile.ptr<f32>, #b>
  tile.store %ps, %d : tensor<64x32x!tile.ptr<f32>, #b>
  tile.return
}

// -----

// A blocked shared_load with another user is read element-wise from the
// swizzled stage (runs of 4 as vectors).
#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: gpu.func @materialized
// CHECK: arith.xori
// CHECK: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK: llvm.store {{.*}} !llvm.ptr<1>
tile.kernel @materialized(%p: !tile.ptr<f32>, %s: i32) attributes {tile.num_warps = 4 : i32} {
  %buf = tile.shared_alloc <{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}> : memref<2x32x16xf32, 3>
  %t = tile.shared_load %buf[%s] : memref<2x32x16xf32, 3> -> tensor<32x16xf32, #b>
  %ps = tile.splat %p : tensor<32x16x!tile.ptr<f32>, #b>
  tile.store %ps, %t : tensor<32x16x!tile.ptr<f32>, #b>
  tile.return
}
