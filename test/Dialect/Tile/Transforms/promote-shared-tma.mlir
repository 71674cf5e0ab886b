// RUN: tile-opt %s --split-input-file --tile-promote-shared="wgmma=true tma=true" | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-promote-shared="wgmma=true tma=true num-stages=4" | FileCheck %s --check-prefix=FLIGHT
// RUN: tile-opt %s --split-input-file --tile-promote-shared="wgmma=true" | FileCheck %s --check-prefix=ASYNC

// examples/matmul_relu.tile (128x64x64 tiles, 8 warps,
// tile-accelerate-dot's wgmma layout) as tile-promote-shared sees it. Both
// loads read whole tiles of row-major tensors: A at a + (pid0*128 + i) *
// lda + (k + j) under (row < M) & (col < K), B likewise with ldb; a, b, lda
// and ldb carry the divisibility facts that make 16-byte aligned rows. With
// `tma` the Tensor Memory Accelerator fills their wgmma stages: one
// mbarrier per stage expecting both copies, the copies named by the
// tensor's base, bounds (rows, columns) and row stride, the tile's starts,
// and the predicate k < K; the loop waits for its stage's phase.
// CHECK-LABEL: tile.kernel @nn
// CHECK: %[[A:.*]] = tile.shared_alloc {{.*}}panel = 64}> : memref<3x128x64xf16, 3 : i32>
// CHECK: %[[B:.*]] = tile.shared_alloc {{.*}}panel = 64}> : memref<3x64x64xf16, 3 : i32>
// CHECK: %[[BAR:.*]] = tile.barrier_alloc arrivals = 2 : memref<3xi64, 3 : i32>
// CHECK: %[[IN0:.*]] = arith.cmpi slt, %[[K0:.*]], %arg5 : i32
// CHECK: tile.tma_copy %arg0[%{{.*}}, %[[K0]]] bounds[%arg3, %arg5] stride %arg6 into %[[A]][%{{.*}}] barriers %[[BAR]] if %[[IN0]]
// CHECK: tile.tma_copy %arg1[%[[K0]], %{{.*}}] bounds[%arg5, %arg4] stride %arg7 into %[[B]][%{{.*}}] barriers %[[BAR]] if %[[IN0]]
// CHECK-COUNT-2: tile.tma_copy
// CHECK-NOT: tile.async_copy
// CHECK: scf.for %[[IV:.*]] = {{.*}} : i32 {
// CHECK: %[[IT:.*]] = arith.divui
// CHECK: %[[STAGE:.*]] = arith.remui %[[IT]], %{{.*}} : i32
// CHECK: %[[ROUND:.*]] = arith.divui %[[IT]], %{{.*}} : i32
// CHECK: %[[PHASE:.*]] = arith.andi %[[ROUND]], %{{.*}} : i32
// The dot's MMAs stay in flight while the loop turns: no block barrier
// before the phase wait (`unsynchronized`); the wait for the previous
// iteration's MMAs follows the dot with the barrier (`synchronize`), and
// the copies of two iterations later follow it, into the stage those MMAs
// read, so that the thread issuing them does not hold back its
// warpgroup's MMAs.
// CHECK: tile.tma_wait %[[BAR]][%[[STAGE]]] phase %[[PHASE]] {unsynchronized}
// CHECK: tile.shared_load %[[A]][%[[STAGE]]]
// CHECK: tile.shared_load %[[B]][%[[STAGE]]]
// CHECK-NOT: tile.load
// CHECK: %[[D:.*]] = tile.dot
// CHECK-NEXT: %[[W:.*]] = tile.dot_wait %[[D]] pending = 1 {synchronize}
// CHECK-NEXT: %[[NEXT:.*]] = arith.cmpi slt, %[[KN:.*]], %arg5 : i32
// The copies behind the in-flight dot's wait are branched around (no
// `predicated`).
// CHECK: tile.tma_copy %arg0[%{{.*}}, %[[KN]]] {{.*}} if %[[NEXT]] :
// CHECK: tile.tma_copy %arg1[%[[KN]], %{{.*}}] {{.*}} if %[[NEXT]] :
// CHECK-NEXT: scf.yield %[[W]]
// CHECK: }
// CHECK: tile.dot_wait %{{.*}} pending = 0 :
// CHECK: tile.async_wait pending = 0
// With four stages the copies run three iterations ahead: three rounds
// of copies in the prologue.
// FLIGHT-LABEL: tile.kernel @nn
// FLIGHT: tile.barrier_alloc arrivals = 2 : memref<4xi64, 3 : i32>
// FLIGHT-COUNT-6: tile.tma_copy
// FLIGHT-NOT: tile.tma_copy
// FLIGHT: scf.for
// FLIGHT: tile.tma_wait {{.*}} {unsynchronized}
// FLIGHT: tile.dot
// FLIGHT-NEXT: tile.dot_wait {{.*}} pending = 1 {synchronize}
// FLIGHT-COUNT-2: tile.tma_copy
// FLIGHT-NEXT: scf.yield
// Without `tma`: cp.async.
// ASYNC-LABEL: tile.kernel @nn
// ASYNC-NOT: tma
// ASYNC: tile.async_copy
#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0], repsPerWarp = [2, 1]}>
#dot_operand = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#dot_operand1 = #tile.dot_operand<{opIdx = 1, parent = #mma}>
#slice = #tile.slice<{dim = 1, parent = #blocked}>
#slice1 = #tile.slice<{dim = 0, parent = #blocked}>
#slice2 = #tile.slice<{dim = 1, parent = #mma}>
#slice3 = #tile.slice<{dim = 0, parent = #mma}>
tile.kernel @nn(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16>, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32 {tile.divisibility = 16 : i32}, %arg7: i32 {tile.divisibility = 16 : i32}, %arg8: i32) attributes {tile.num_warps = 8 : i32} {
  %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #blocked>
  %cst_1 = arith.constant dense<0.000000e+00> : tensor<128x64xf16, #blocked>
  %c0_i32 = arith.constant 0 : i32
  %c64_i32 = arith.constant 64 : i32
  %c128_i32 = arith.constant 128 : i32
  %0 = tile.program_id 0
  %1 = arith.muli %0, %c128_i32 : i32
  %2 = tile.program_id 1
  %3 = arith.muli %2, %c64_i32 : i32
  %4 = scf.for %arg9 = %c0_i32 to %arg5 step %c64_i32 iter_args(%arg10 = %cst) -> (tensor<128x64xf32, #mma>)  : i32 {
    %37 = tile.splat %1 : tensor<128xi32, #slice>
    %38 = tile.make_range 0, 128 : tensor<128xi32, #slice>
    %39 = arith.addi %37, %38 : tensor<128xi32, #slice>
    %40 = tile.expand_dims %39, axis = 1 : tensor<128xi32, #slice> -> tensor<128x1xi32, #blocked>
    %41 = tile.splat %arg6 : tensor<128x1xi32, #blocked>
    %42 = arith.muli %40, %41 : tensor<128x1xi32, #blocked>
    %43 = tile.splat %arg0 : tensor<128x1x!tile.ptr<f16>, #blocked>
    %44 = tile.addptr %43, %42 : tensor<128x1x!tile.ptr<f16>, #blocked>, tensor<128x1xi32, #blocked>
    %45 = tile.splat %arg9 : tensor<64xi32, #slice1>
    %46 = tile.make_range 0, 64 : tensor<64xi32, #slice1>
    %47 = arith.addi %45, %46 : tensor<64xi32, #slice1>
    %48 = tile.expand_dims %47, axis = 0 : tensor<64xi32, #slice1> -> tensor<1x64xi32, #blocked>
    %49 = tile.broadcast %44 : tensor<128x1x!tile.ptr<f16>, #blocked> -> tensor<128x64x!tile.ptr<f16>, #blocked>
    %50 = tile.broadcast %48 : tensor<1x64xi32, #blocked> -> tensor<128x64xi32, #blocked>
    %51 = tile.addptr %49, %50 : tensor<128x64x!tile.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
    %52 = tile.splat %arg3 : tensor<128x1xi32, #blocked>
    %53 = arith.cmpi slt, %40, %52 : tensor<128x1xi32, #blocked>
    %54 = tile.splat %arg5 : tensor<1x64xi32, #blocked>
    %55 = arith.cmpi slt, %48, %54 : tensor<1x64xi32, #blocked>
    %56 = tile.broadcast %53 : tensor<128x1xi1, #blocked> -> tensor<128x64xi1, #blocked>
    %57 = tile.broadcast %55 : tensor<1x64xi1, #blocked> -> tensor<128x64xi1, #blocked>
    %58 = arith.andi %56, %57 : tensor<128x64xi1, #blocked>
    %59 = tile.load %51, mask %58, other %cst_1 : tensor<128x64x!tile.ptr<f16>, #blocked>
    %60 = tile.splat %arg9 : tensor<64xi32, #slice>
    %61 = tile.make_range 0, 64 : tensor<64xi32, #slice>
    %62 = arith.addi %60, %61 : tensor<64xi32, #slice>
    %63 = tile.expand_dims %62, axis = 1 : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
    %64 = tile.splat %arg7 : tensor<64x1xi32, #blocked>
    %65 = arith.muli %63, %64 : tensor<64x1xi32, #blocked>
    %66 = tile.splat %arg1 : tensor<64x1x!tile.ptr<f16>, #blocked>
    %67 = tile.addptr %66, %65 : tensor<64x1x!tile.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %68 = tile.splat %3 : tensor<64xi32, #slice1>
    %69 = tile.make_range 0, 64 : tensor<64xi32, #slice1>
    %70 = arith.addi %68, %69 : tensor<64xi32, #slice1>
    %71 = tile.expand_dims %70, axis = 0 : tensor<64xi32, #slice1> -> tensor<1x64xi32, #blocked>
    %72 = tile.broadcast %67 : tensor<64x1x!tile.ptr<f16>, #blocked> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %73 = tile.broadcast %71 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %74 = tile.addptr %72, %73 : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %75 = tile.splat %arg5 : tensor<64x1xi32, #blocked>
    %76 = arith.cmpi slt, %63, %75 : tensor<64x1xi32, #blocked>
    %77 = tile.splat %arg4 : tensor<1x64xi32, #blocked>
    %78 = arith.cmpi slt, %71, %77 : tensor<1x64xi32, #blocked>
    %79 = tile.broadcast %76 : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %80 = tile.broadcast %78 : tensor<1x64xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %81 = arith.andi %79, %80 : tensor<64x64xi1, #blocked>
    %82 = tile.load %74, mask %81, other %cst_0 : tensor<64x64x!tile.ptr<f16>, #blocked>
    %83 = tile.convert_layout %59 : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #dot_operand>
    %84 = tile.convert_layout %82 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #dot_operand1>
    %85 = tile.dot %83, %84, %arg10 : tensor<128x64xf16, #dot_operand> * tensor<64x64xf16, #dot_operand1> -> tensor<128x64xf32, #mma>
    scf.yield %85 : tensor<128x64xf32, #mma>
  }
  %5 = arith.maximumf %4, %cst : tensor<128x64xf32, #mma>
  %6 = arith.truncf %5 : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
  %7 = tile.splat %arg2 : tensor<128x1x!tile.ptr<f16>, #mma>
  %8 = tile.splat %1 : tensor<128xi32, #slice2>
  %9 = tile.make_range 0, 128 : tensor<128xi32, #slice2>
  %10 = arith.addi %8, %9 : tensor<128xi32, #slice2>
  %11 = tile.expand_dims %10, axis = 1 : tensor<128xi32, #slice2> -> tensor<128x1xi32, #mma>
  %12 = tile.splat %arg8 : tensor<128x1xi32, #mma>
  %13 = arith.muli %11, %12 : tensor<128x1xi32, #mma>
  %14 = tile.addptr %7, %13 : tensor<128x1x!tile.ptr<f16>, #mma>, tensor<128x1xi32, #mma>
  %15 = tile.broadcast %14 : tensor<128x1x!tile.ptr<f16>, #mma> -> tensor<128x64x!tile.ptr<f16>, #mma>
  %16 = tile.splat %3 : tensor<64xi32, #slice3>
  %17 = tile.make_range 0, 64 : tensor<64xi32, #slice3>
  %18 = arith.addi %16, %17 : tensor<64xi32, #slice3>
  %19 = tile.expand_dims %18, axis = 0 : tensor<64xi32, #slice3> -> tensor<1x64xi32, #mma>
  %20 = tile.broadcast %19 : tensor<1x64xi32, #mma> -> tensor<128x64xi32, #mma>
  %21 = tile.addptr %15, %20 : tensor<128x64x!tile.ptr<f16>, #mma>, tensor<128x64xi32, #mma>
  %22 = tile.splat %1 : tensor<128xi32, #slice2>
  %23 = tile.make_range 0, 128 : tensor<128xi32, #slice2>
  %24 = arith.addi %22, %23 : tensor<128xi32, #slice2>
  %25 = tile.expand_dims %24, axis = 1 : tensor<128xi32, #slice2> -> tensor<128x1xi32, #mma>
  %26 = tile.splat %arg3 : tensor<128x1xi32, #mma>
  %27 = arith.cmpi slt, %25, %26 : tensor<128x1xi32, #mma>
  %28 = tile.broadcast %27 : tensor<128x1xi1, #mma> -> tensor<128x64xi1, #mma>
  %29 = tile.splat %3 : tensor<64xi32, #slice3>
  %30 = tile.make_range 0, 64 : tensor<64xi32, #slice3>
  %31 = arith.addi %29, %30 : tensor<64xi32, #slice3>
  %32 = tile.expand_dims %31, axis = 0 : tensor<64xi32, #slice3> -> tensor<1x64xi32, #mma>
  %33 = tile.splat %arg4 : tensor<1x64xi32, #mma>
  %34 = arith.cmpi slt, %32, %33 : tensor<1x64xi32, #mma>
  %35 = tile.broadcast %34 : tensor<1x64xi1, #mma> -> tensor<128x64xi1, #mma>
  %36 = arith.andi %28, %35 : tensor<128x64xi1, #mma>
  tile.store %21, %6, mask %36 : tensor<128x64x!tile.ptr<f16>, #mma>
  tile.return
}
// -----

// lda without a divisibility fact: A's rows may not be 16-byte multiples,
// which tensor maps need, so neither operand uses the TMA.
// CHECK-LABEL: tile.kernel @unaligned_rows
// CHECK-NOT: tma
// CHECK-NOT: barrier_alloc
// CHECK: tile.async_copy
#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0], repsPerWarp = [2, 1]}>
#dot_operand = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#dot_operand1 = #tile.dot_operand<{opIdx = 1, parent = #mma}>
#slice = #tile.slice<{dim = 1, parent = #blocked}>
#slice1 = #tile.slice<{dim = 0, parent = #blocked}>
#slice2 = #tile.slice<{dim = 1, parent = #mma}>
#slice3 = #tile.slice<{dim = 0, parent = #mma}>
tile.kernel @unaligned_rows(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16>, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32 {tile.divisibility = 16 : i32}, %arg8: i32) attributes {tile.num_warps = 8 : i32} {
  %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #blocked>
  %cst_1 = arith.constant dense<0.000000e+00> : tensor<128x64xf16, #blocked>
  %c0_i32 = arith.constant 0 : i32
  %c64_i32 = arith.constant 64 : i32
  %c128_i32 = arith.constant 128 : i32
  %0 = tile.program_id 0
  %1 = arith.muli %0, %c128_i32 : i32
  %2 = tile.program_id 1
  %3 = arith.muli %2, %c64_i32 : i32
  %4 = scf.for %arg9 = %c0_i32 to %arg5 step %c64_i32 iter_args(%arg10 = %cst) -> (tensor<128x64xf32, #mma>)  : i32 {
    %37 = tile.splat %1 : tensor<128xi32, #slice>
    %38 = tile.make_range 0, 128 : tensor<128xi32, #slice>
    %39 = arith.addi %37, %38 : tensor<128xi32, #slice>
    %40 = tile.expand_dims %39, axis = 1 : tensor<128xi32, #slice> -> tensor<128x1xi32, #blocked>
    %41 = tile.splat %arg6 : tensor<128x1xi32, #blocked>
    %42 = arith.muli %40, %41 : tensor<128x1xi32, #blocked>
    %43 = tile.splat %arg0 : tensor<128x1x!tile.ptr<f16>, #blocked>
    %44 = tile.addptr %43, %42 : tensor<128x1x!tile.ptr<f16>, #blocked>, tensor<128x1xi32, #blocked>
    %45 = tile.splat %arg9 : tensor<64xi32, #slice1>
    %46 = tile.make_range 0, 64 : tensor<64xi32, #slice1>
    %47 = arith.addi %45, %46 : tensor<64xi32, #slice1>
    %48 = tile.expand_dims %47, axis = 0 : tensor<64xi32, #slice1> -> tensor<1x64xi32, #blocked>
    %49 = tile.broadcast %44 : tensor<128x1x!tile.ptr<f16>, #blocked> -> tensor<128x64x!tile.ptr<f16>, #blocked>
    %50 = tile.broadcast %48 : tensor<1x64xi32, #blocked> -> tensor<128x64xi32, #blocked>
    %51 = tile.addptr %49, %50 : tensor<128x64x!tile.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
    %52 = tile.splat %arg3 : tensor<128x1xi32, #blocked>
    %53 = arith.cmpi slt, %40, %52 : tensor<128x1xi32, #blocked>
    %54 = tile.splat %arg5 : tensor<1x64xi32, #blocked>
    %55 = arith.cmpi slt, %48, %54 : tensor<1x64xi32, #blocked>
    %56 = tile.broadcast %53 : tensor<128x1xi1, #blocked> -> tensor<128x64xi1, #blocked>
    %57 = tile.broadcast %55 : tensor<1x64xi1, #blocked> -> tensor<128x64xi1, #blocked>
    %58 = arith.andi %56, %57 : tensor<128x64xi1, #blocked>
    %59 = tile.load %51, mask %58, other %cst_1 : tensor<128x64x!tile.ptr<f16>, #blocked>
    %60 = tile.splat %arg9 : tensor<64xi32, #slice>
    %61 = tile.make_range 0, 64 : tensor<64xi32, #slice>
    %62 = arith.addi %60, %61 : tensor<64xi32, #slice>
    %63 = tile.expand_dims %62, axis = 1 : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
    %64 = tile.splat %arg7 : tensor<64x1xi32, #blocked>
    %65 = arith.muli %63, %64 : tensor<64x1xi32, #blocked>
    %66 = tile.splat %arg1 : tensor<64x1x!tile.ptr<f16>, #blocked>
    %67 = tile.addptr %66, %65 : tensor<64x1x!tile.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %68 = tile.splat %3 : tensor<64xi32, #slice1>
    %69 = tile.make_range 0, 64 : tensor<64xi32, #slice1>
    %70 = arith.addi %68, %69 : tensor<64xi32, #slice1>
    %71 = tile.expand_dims %70, axis = 0 : tensor<64xi32, #slice1> -> tensor<1x64xi32, #blocked>
    %72 = tile.broadcast %67 : tensor<64x1x!tile.ptr<f16>, #blocked> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %73 = tile.broadcast %71 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %74 = tile.addptr %72, %73 : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %75 = tile.splat %arg5 : tensor<64x1xi32, #blocked>
    %76 = arith.cmpi slt, %63, %75 : tensor<64x1xi32, #blocked>
    %77 = tile.splat %arg4 : tensor<1x64xi32, #blocked>
    %78 = arith.cmpi slt, %71, %77 : tensor<1x64xi32, #blocked>
    %79 = tile.broadcast %76 : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %80 = tile.broadcast %78 : tensor<1x64xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %81 = arith.andi %79, %80 : tensor<64x64xi1, #blocked>
    %82 = tile.load %74, mask %81, other %cst_0 : tensor<64x64x!tile.ptr<f16>, #blocked>
    %83 = tile.convert_layout %59 : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #dot_operand>
    %84 = tile.convert_layout %82 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #dot_operand1>
    %85 = tile.dot %83, %84, %arg10 : tensor<128x64xf16, #dot_operand> * tensor<64x64xf16, #dot_operand1> -> tensor<128x64xf32, #mma>
    scf.yield %85 : tensor<128x64xf32, #mma>
  }
  %5 = arith.maximumf %4, %cst : tensor<128x64xf32, #mma>
  %6 = arith.truncf %5 : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
  %7 = tile.splat %arg2 : tensor<128x1x!tile.ptr<f16>, #mma>
  %8 = tile.splat %1 : tensor<128xi32, #slice2>
  %9 = tile.make_range 0, 128 : tensor<128xi32, #slice2>
  %10 = arith.addi %8, %9 : tensor<128xi32, #slice2>
  %11 = tile.expand_dims %10, axis = 1 : tensor<128xi32, #slice2> -> tensor<128x1xi32, #mma>
  %12 = tile.splat %arg8 : tensor<128x1xi32, #mma>
  %13 = arith.muli %11, %12 : tensor<128x1xi32, #mma>
  %14 = tile.addptr %7, %13 : tensor<128x1x!tile.ptr<f16>, #mma>, tensor<128x1xi32, #mma>
  %15 = tile.broadcast %14 : tensor<128x1x!tile.ptr<f16>, #mma> -> tensor<128x64x!tile.ptr<f16>, #mma>
  %16 = tile.splat %3 : tensor<64xi32, #slice3>
  %17 = tile.make_range 0, 64 : tensor<64xi32, #slice3>
  %18 = arith.addi %16, %17 : tensor<64xi32, #slice3>
  %19 = tile.expand_dims %18, axis = 0 : tensor<64xi32, #slice3> -> tensor<1x64xi32, #mma>
  %20 = tile.broadcast %19 : tensor<1x64xi32, #mma> -> tensor<128x64xi32, #mma>
  %21 = tile.addptr %15, %20 : tensor<128x64x!tile.ptr<f16>, #mma>, tensor<128x64xi32, #mma>
  %22 = tile.splat %1 : tensor<128xi32, #slice2>
  %23 = tile.make_range 0, 128 : tensor<128xi32, #slice2>
  %24 = arith.addi %22, %23 : tensor<128xi32, #slice2>
  %25 = tile.expand_dims %24, axis = 1 : tensor<128xi32, #slice2> -> tensor<128x1xi32, #mma>
  %26 = tile.splat %arg3 : tensor<128x1xi32, #mma>
  %27 = arith.cmpi slt, %25, %26 : tensor<128x1xi32, #mma>
  %28 = tile.broadcast %27 : tensor<128x1xi1, #mma> -> tensor<128x64xi1, #mma>
  %29 = tile.splat %3 : tensor<64xi32, #slice3>
  %30 = tile.make_range 0, 64 : tensor<64xi32, #slice3>
  %31 = arith.addi %29, %30 : tensor<64xi32, #slice3>
  %32 = tile.expand_dims %31, axis = 0 : tensor<64xi32, #slice3> -> tensor<1x64xi32, #mma>
  %33 = tile.splat %arg4 : tensor<1x64xi32, #mma>
  %34 = arith.cmpi slt, %32, %33 : tensor<1x64xi32, #mma>
  %35 = tile.broadcast %34 : tensor<1x64xi1, #mma> -> tensor<128x64xi1, #mma>
  %36 = arith.andi %28, %35 : tensor<128x64xi1, #mma>
  tile.store %21, %6, mask %36 : tensor<128x64x!tile.ptr<f16>, #mma>
  tile.return
}
// -----

// B's columns bounded by N - pid1*64 against an index that starts at 0:
// the bound is no kernel argument, so the host cannot encode the tensor.
// CHECK-LABEL: tile.kernel @computed_bound
// CHECK-NOT: tma
// CHECK: tile.async_copy
#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0], repsPerWarp = [2, 1]}>
#dot_operand = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#dot_operand1 = #tile.dot_operand<{opIdx = 1, parent = #mma}>
#slice = #tile.slice<{dim = 1, parent = #blocked}>
#slice1 = #tile.slice<{dim = 0, parent = #blocked}>
#slice2 = #tile.slice<{dim = 1, parent = #mma}>
#slice3 = #tile.slice<{dim = 0, parent = #mma}>
tile.kernel @computed_bound(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16>, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32 {tile.divisibility = 16 : i32}, %arg7: i32 {tile.divisibility = 16 : i32}, %arg8: i32) attributes {tile.num_warps = 8 : i32} {
  %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #blocked>
  %cst_1 = arith.constant dense<0.000000e+00> : tensor<128x64xf16, #blocked>
  %c0_i32 = arith.constant 0 : i32
  %c64_i32 = arith.constant 64 : i32
  %c128_i32 = arith.constant 128 : i32
  %0 = tile.program_id 0
  %1 = arith.muli %0, %c128_i32 : i32
  %2 = tile.program_id 1
  %3 = arith.muli %2, %c64_i32 : i32
  %4 = scf.for %arg9 = %c0_i32 to %arg5 step %c64_i32 iter_args(%arg10 = %cst) -> (tensor<128x64xf32, #mma>)  : i32 {
    %37 = tile.splat %1 : tensor<128xi32, #slice>
    %38 = tile.make_range 0, 128 : tensor<128xi32, #slice>
    %39 = arith.addi %37, %38 : tensor<128xi32, #slice>
    %40 = tile.expand_dims %39, axis = 1 : tensor<128xi32, #slice> -> tensor<128x1xi32, #blocked>
    %41 = tile.splat %arg6 : tensor<128x1xi32, #blocked>
    %42 = arith.muli %40, %41 : tensor<128x1xi32, #blocked>
    %43 = tile.splat %arg0 : tensor<128x1x!tile.ptr<f16>, #blocked>
    %44 = tile.addptr %43, %42 : tensor<128x1x!tile.ptr<f16>, #blocked>, tensor<128x1xi32, #blocked>
    %45 = tile.splat %arg9 : tensor<64xi32, #slice1>
    %46 = tile.make_range 0, 64 : tensor<64xi32, #slice1>
    %47 = arith.addi %45, %46 : tensor<64xi32, #slice1>
    %48 = tile.expand_dims %47, axis = 0 : tensor<64xi32, #slice1> -> tensor<1x64xi32, #blocked>
    %49 = tile.broadcast %44 : tensor<128x1x!tile.ptr<f16>, #blocked> -> tensor<128x64x!tile.ptr<f16>, #blocked>
    %50 = tile.broadcast %48 : tensor<1x64xi32, #blocked> -> tensor<128x64xi32, #blocked>
    %51 = tile.addptr %49, %50 : tensor<128x64x!tile.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
    %52 = tile.splat %arg3 : tensor<128x1xi32, #blocked>
    %53 = arith.cmpi slt, %40, %52 : tensor<128x1xi32, #blocked>
    %54 = tile.splat %arg5 : tensor<1x64xi32, #blocked>
    %55 = arith.cmpi slt, %48, %54 : tensor<1x64xi32, #blocked>
    %56 = tile.broadcast %53 : tensor<128x1xi1, #blocked> -> tensor<128x64xi1, #blocked>
    %57 = tile.broadcast %55 : tensor<1x64xi1, #blocked> -> tensor<128x64xi1, #blocked>
    %58 = arith.andi %56, %57 : tensor<128x64xi1, #blocked>
    %59 = tile.load %51, mask %58, other %cst_1 : tensor<128x64x!tile.ptr<f16>, #blocked>
    %60 = tile.splat %arg9 : tensor<64xi32, #slice>
    %61 = tile.make_range 0, 64 : tensor<64xi32, #slice>
    %62 = arith.addi %60, %61 : tensor<64xi32, #slice>
    %63 = tile.expand_dims %62, axis = 1 : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
    %64 = tile.splat %arg7 : tensor<64x1xi32, #blocked>
    %65 = arith.muli %63, %64 : tensor<64x1xi32, #blocked>
    %66 = tile.splat %arg1 : tensor<64x1x!tile.ptr<f16>, #blocked>
    %67 = tile.addptr %66, %65 : tensor<64x1x!tile.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %69 = tile.make_range 0, 64 : tensor<64xi32, #slice1>
    %68 = tile.splat %3 : tensor<64xi32, #slice1>
    %70 = arith.addi %68, %69 : tensor<64xi32, #slice1>
    %rem = arith.subi %arg4, %3 : i32
    %71 = tile.expand_dims %70, axis = 0 : tensor<64xi32, #slice1> -> tensor<1x64xi32, #blocked>
    %72 = tile.broadcast %67 : tensor<64x1x!tile.ptr<f16>, #blocked> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %73 = tile.broadcast %71 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %74 = tile.addptr %72, %73 : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %75 = tile.splat %arg5 : tensor<64x1xi32, #blocked>
    %76 = arith.cmpi slt, %63, %75 : tensor<64x1xi32, #blocked>
    %77 = tile.splat %rem : tensor<1x64xi32, #blocked>
    %r0 = tile.expand_dims %69, axis = 0 : tensor<64xi32, #slice1> -> tensor<1x64xi32, #blocked>
    %78 = arith.cmpi slt, %r0, %77 : tensor<1x64xi32, #blocked>
    %79 = tile.broadcast %76 : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %80 = tile.broadcast %78 : tensor<1x64xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %81 = arith.andi %79, %80 : tensor<64x64xi1, #blocked>
    %82 = tile.load %74, mask %81, other %cst_0 : tensor<64x64x!tile.ptr<f16>, #blocked>
    %83 = tile.convert_layout %59 : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #dot_operand>
    %84 = tile.convert_layout %82 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #dot_operand1>
    %85 = tile.dot %83, %84, %arg10 : tensor<128x64xf16, #dot_operand> * tensor<64x64xf16, #dot_operand1> -> tensor<128x64xf32, #mma>
    scf.yield %85 : tensor<128x64xf32, #mma>
  }
  %5 = arith.maximumf %4, %cst : tensor<128x64xf32, #mma>
  %6 = arith.truncf %5 : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
  %7 = tile.splat %arg2 : tensor<128x1x!tile.ptr<f16>, #mma>
  %8 = tile.splat %1 : tensor<128xi32, #slice2>
  %9 = tile.make_range 0, 128 : tensor<128xi32, #slice2>
  %10 = arith.addi %8, %9 : tensor<128xi32, #slice2>
  %11 = tile.expand_dims %10, axis = 1 : tensor<128xi32, #slice2> -> tensor<128x1xi32, #mma>
  %12 = tile.splat %arg8 : tensor<128x1xi32, #mma>
  %13 = arith.muli %11, %12 : tensor<128x1xi32, #mma>
  %14 = tile.addptr %7, %13 : tensor<128x1x!tile.ptr<f16>, #mma>, tensor<128x1xi32, #mma>
  %15 = tile.broadcast %14 : tensor<128x1x!tile.ptr<f16>, #mma> -> tensor<128x64x!tile.ptr<f16>, #mma>
  %16 = tile.splat %3 : tensor<64xi32, #slice3>
  %17 = tile.make_range 0, 64 : tensor<64xi32, #slice3>
  %18 = arith.addi %16, %17 : tensor<64xi32, #slice3>
  %19 = tile.expand_dims %18, axis = 0 : tensor<64xi32, #slice3> -> tensor<1x64xi32, #mma>
  %20 = tile.broadcast %19 : tensor<1x64xi32, #mma> -> tensor<128x64xi32, #mma>
  %21 = tile.addptr %15, %20 : tensor<128x64x!tile.ptr<f16>, #mma>, tensor<128x64xi32, #mma>
  %22 = tile.splat %1 : tensor<128xi32, #slice2>
  %23 = tile.make_range 0, 128 : tensor<128xi32, #slice2>
  %24 = arith.addi %22, %23 : tensor<128xi32, #slice2>
  %25 = tile.expand_dims %24, axis = 1 : tensor<128xi32, #slice2> -> tensor<128x1xi32, #mma>
  %26 = tile.splat %arg3 : tensor<128x1xi32, #mma>
  %27 = arith.cmpi slt, %25, %26 : tensor<128x1xi32, #mma>
  %28 = tile.broadcast %27 : tensor<128x1xi1, #mma> -> tensor<128x64xi1, #mma>
  %29 = tile.splat %3 : tensor<64xi32, #slice3>
  %30 = tile.make_range 0, 64 : tensor<64xi32, #slice3>
  %31 = arith.addi %29, %30 : tensor<64xi32, #slice3>
  %32 = tile.expand_dims %31, axis = 0 : tensor<64xi32, #slice3> -> tensor<1x64xi32, #mma>
  %33 = tile.splat %arg4 : tensor<1x64xi32, #mma>
  %34 = arith.cmpi slt, %32, %33 : tensor<1x64xi32, #mma>
  %35 = tile.broadcast %34 : tensor<1x64xi1, #mma> -> tensor<128x64xi1, #mma>
  %36 = arith.andi %28, %35 : tensor<128x64xi1, #mma>
  tile.store %21, %6, mask %36 : tensor<128x64x!tile.ptr<f16>, #mma>
  tile.return
}

// -----

// BN = 128: B's stored rows are two panels, each copied as its own box
// (LowerTma); with the MMAs in flight across iterations that is faster
// than cp.async (bench/NOTES.md v34), so both operands use the TMA.
// CHECK-LABEL: tile.kernel @two_panel_rows
// CHECK: %[[B:.*]] = tile.shared_alloc {{.*}}panel = 64}> : memref<3x64x128xf16, 3 : i32>
// CHECK: tile.tma_copy %arg1[%{{.*}}, %{{.*}}] bounds[%arg5, %arg4] stride %arg7 into %[[B]]
// CHECK-NOT: tile.async_copy
#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0], repsPerWarp = [2, 1]}>
#dot_operand = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#dot_operand1 = #tile.dot_operand<{opIdx = 1, parent = #mma}>
#slice = #tile.slice<{dim = 1, parent = #blocked}>
#slice1 = #tile.slice<{dim = 0, parent = #blocked}>
#slice2 = #tile.slice<{dim = 1, parent = #mma}>
#slice3 = #tile.slice<{dim = 0, parent = #mma}>
tile.kernel @two_panel_rows(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16>, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32 {tile.divisibility = 16 : i32}, %arg7: i32 {tile.divisibility = 16 : i32}, %arg8: i32) attributes {tile.num_warps = 8 : i32} {
  %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64x128xf16, #blocked>
  %cst_1 = arith.constant dense<0.000000e+00> : tensor<128x64xf16, #blocked>
  %c64_i32 = arith.constant 64 : i32
  %c0_i32 = arith.constant 0 : i32
  %c128_i32 = arith.constant 128 : i32
  %0 = tile.program_id 0
  %1 = arith.muli %0, %c128_i32 : i32
  %2 = tile.program_id 1
  %3 = arith.muli %2, %c128_i32 : i32
  %4 = scf.for %arg9 = %c0_i32 to %arg5 step %c64_i32 iter_args(%arg10 = %cst) -> (tensor<128x128xf32, #mma>)  : i32 {
    %37 = tile.splat %1 : tensor<128xi32, #slice>
    %38 = tile.make_range 0, 128 : tensor<128xi32, #slice>
    %39 = arith.addi %37, %38 : tensor<128xi32, #slice>
    %40 = tile.expand_dims %39, axis = 1 : tensor<128xi32, #slice> -> tensor<128x1xi32, #blocked>
    %41 = tile.splat %arg6 : tensor<128x1xi32, #blocked>
    %42 = arith.muli %40, %41 : tensor<128x1xi32, #blocked>
    %43 = tile.splat %arg0 : tensor<128x1x!tile.ptr<f16>, #blocked>
    %44 = tile.addptr %43, %42 : tensor<128x1x!tile.ptr<f16>, #blocked>, tensor<128x1xi32, #blocked>
    %45 = tile.splat %arg9 : tensor<64xi32, #slice1>
    %46 = tile.make_range 0, 64 : tensor<64xi32, #slice1>
    %47 = arith.addi %45, %46 : tensor<64xi32, #slice1>
    %48 = tile.expand_dims %47, axis = 0 : tensor<64xi32, #slice1> -> tensor<1x64xi32, #blocked>
    %49 = tile.broadcast %44 : tensor<128x1x!tile.ptr<f16>, #blocked> -> tensor<128x64x!tile.ptr<f16>, #blocked>
    %50 = tile.broadcast %48 : tensor<1x64xi32, #blocked> -> tensor<128x64xi32, #blocked>
    %51 = tile.addptr %49, %50 : tensor<128x64x!tile.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
    %52 = tile.splat %arg3 : tensor<128x1xi32, #blocked>
    %53 = arith.cmpi slt, %40, %52 : tensor<128x1xi32, #blocked>
    %54 = tile.splat %arg5 : tensor<1x64xi32, #blocked>
    %55 = arith.cmpi slt, %48, %54 : tensor<1x64xi32, #blocked>
    %56 = tile.broadcast %53 : tensor<128x1xi1, #blocked> -> tensor<128x64xi1, #blocked>
    %57 = tile.broadcast %55 : tensor<1x64xi1, #blocked> -> tensor<128x64xi1, #blocked>
    %58 = arith.andi %56, %57 : tensor<128x64xi1, #blocked>
    %59 = tile.load %51, mask %58, other %cst_1 : tensor<128x64x!tile.ptr<f16>, #blocked>
    %60 = tile.splat %arg9 : tensor<64xi32, #slice>
    %61 = tile.make_range 0, 64 : tensor<64xi32, #slice>
    %62 = arith.addi %60, %61 : tensor<64xi32, #slice>
    %63 = tile.expand_dims %62, axis = 1 : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
    %64 = tile.splat %arg7 : tensor<64x1xi32, #blocked>
    %65 = arith.muli %63, %64 : tensor<64x1xi32, #blocked>
    %66 = tile.splat %arg1 : tensor<64x1x!tile.ptr<f16>, #blocked>
    %67 = tile.addptr %66, %65 : tensor<64x1x!tile.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %68 = tile.splat %3 : tensor<128xi32, #slice1>
    %69 = tile.make_range 0, 128 : tensor<128xi32, #slice1>
    %70 = arith.addi %68, %69 : tensor<128xi32, #slice1>
    %71 = tile.expand_dims %70, axis = 0 : tensor<128xi32, #slice1> -> tensor<1x128xi32, #blocked>
    %72 = tile.broadcast %67 : tensor<64x1x!tile.ptr<f16>, #blocked> -> tensor<64x128x!tile.ptr<f16>, #blocked>
    %73 = tile.broadcast %71 : tensor<1x128xi32, #blocked> -> tensor<64x128xi32, #blocked>
    %74 = tile.addptr %72, %73 : tensor<64x128x!tile.ptr<f16>, #blocked>, tensor<64x128xi32, #blocked>
    %75 = tile.splat %arg5 : tensor<64x1xi32, #blocked>
    %76 = arith.cmpi slt, %63, %75 : tensor<64x1xi32, #blocked>
    %77 = tile.splat %arg4 : tensor<1x128xi32, #blocked>
    %78 = arith.cmpi slt, %71, %77 : tensor<1x128xi32, #blocked>
    %79 = tile.broadcast %76 : tensor<64x1xi1, #blocked> -> tensor<64x128xi1, #blocked>
    %80 = tile.broadcast %78 : tensor<1x128xi1, #blocked> -> tensor<64x128xi1, #blocked>
    %81 = arith.andi %79, %80 : tensor<64x128xi1, #blocked>
    %82 = tile.load %74, mask %81, other %cst_0 : tensor<64x128x!tile.ptr<f16>, #blocked>
    %83 = tile.convert_layout %59 : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #dot_operand>
    %84 = tile.convert_layout %82 : tensor<64x128xf16, #blocked> -> tensor<64x128xf16, #dot_operand1>
    %85 = tile.dot %83, %84, %arg10 : tensor<128x64xf16, #dot_operand> * tensor<64x128xf16, #dot_operand1> -> tensor<128x128xf32, #mma>
    scf.yield %85 : tensor<128x128xf32, #mma>
  }
  %5 = arith.maximumf %4, %cst : tensor<128x128xf32, #mma>
  %6 = arith.truncf %5 : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
  %7 = tile.splat %arg2 : tensor<128x1x!tile.ptr<f16>, #mma>
  %8 = tile.splat %1 : tensor<128xi32, #slice2>
  %9 = tile.make_range 0, 128 : tensor<128xi32, #slice2>
  %10 = arith.addi %8, %9 : tensor<128xi32, #slice2>
  %11 = tile.expand_dims %10, axis = 1 : tensor<128xi32, #slice2> -> tensor<128x1xi32, #mma>
  %12 = tile.splat %arg8 : tensor<128x1xi32, #mma>
  %13 = arith.muli %11, %12 : tensor<128x1xi32, #mma>
  %14 = tile.addptr %7, %13 : tensor<128x1x!tile.ptr<f16>, #mma>, tensor<128x1xi32, #mma>
  %15 = tile.broadcast %14 : tensor<128x1x!tile.ptr<f16>, #mma> -> tensor<128x128x!tile.ptr<f16>, #mma>
  %16 = tile.splat %3 : tensor<128xi32, #slice3>
  %17 = tile.make_range 0, 128 : tensor<128xi32, #slice3>
  %18 = arith.addi %16, %17 : tensor<128xi32, #slice3>
  %19 = tile.expand_dims %18, axis = 0 : tensor<128xi32, #slice3> -> tensor<1x128xi32, #mma>
  %20 = tile.broadcast %19 : tensor<1x128xi32, #mma> -> tensor<128x128xi32, #mma>
  %21 = tile.addptr %15, %20 : tensor<128x128x!tile.ptr<f16>, #mma>, tensor<128x128xi32, #mma>
  %22 = tile.splat %1 : tensor<128xi32, #slice2>
  %23 = tile.make_range 0, 128 : tensor<128xi32, #slice2>
  %24 = arith.addi %22, %23 : tensor<128xi32, #slice2>
  %25 = tile.expand_dims %24, axis = 1 : tensor<128xi32, #slice2> -> tensor<128x1xi32, #mma>
  %26 = tile.splat %arg3 : tensor<128x1xi32, #mma>
  %27 = arith.cmpi slt, %25, %26 : tensor<128x1xi32, #mma>
  %28 = tile.broadcast %27 : tensor<128x1xi1, #mma> -> tensor<128x128xi1, #mma>
  %29 = tile.splat %3 : tensor<128xi32, #slice3>
  %30 = tile.make_range 0, 128 : tensor<128xi32, #slice3>
  %31 = arith.addi %29, %30 : tensor<128xi32, #slice3>
  %32 = tile.expand_dims %31, axis = 0 : tensor<128xi32, #slice3> -> tensor<1x128xi32, #mma>
  %33 = tile.splat %arg4 : tensor<1x128xi32, #mma>
  %34 = arith.cmpi slt, %32, %33 : tensor<1x128xi32, #mma>
  %35 = tile.broadcast %34 : tensor<1x128xi1, #mma> -> tensor<128x128xi1, #mma>
  %36 = arith.andi %28, %35 : tensor<128x128xi1, #mma>
  tile.store %21, %6, mask %36 : tensor<128x128x!tile.ptr<f16>, #mma>
  tile.return
}
