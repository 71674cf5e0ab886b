// RUN: tile-opt %s --split-input-file --tile-promote-shared | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-promote-shared=num-stages=4 | FileCheck %s --check-prefix=FOUR
// RUN: tile-opt %s --split-input-file --tile-promote-shared=num-stages=1 | FileCheck %s --check-prefix=OFF

#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>

// A's load depends on the induction variable: staged in 3 buffers, two
// iterations copied ahead in the prologue, one per iteration after the
// wait. B's pointers are loop-carried, so B stays a load + conversion.
// CHECK-LABEL: tile.kernel @gemm
// CHECK: %[[BUF:.*]] = tile.shared_alloc <{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}> : memref<3x64x32xf16, 3 : i32>
// CHECK: %[[IN0:.*]] = arith.cmpi slt, %{{.*}}, %[[K:.*]] : i32
// CHECK: %[[M0:.*]] = tile.splat %[[IN0]] : tensor<64x32xi1, #blocked>
// CHECK: tile.async_copy %{{.*}}, mask %[[M0]] into %[[BUF]][%{{.*}}]
// CHECK-NEXT: tile.async_commit
// CHECK: tile.async_copy
// CHECK-NEXT: tile.async_commit
// CHECK: scf.for %[[IV:.*]] = %[[LB:.*]] to %[[K]] step %[[STEP:.*]] iter_args
// CHECK: %[[I:.*]] = arith.divui %{{.*}}, %[[STEP]] : i32
// CHECK: %[[STAGE:.*]] = arith.remui %[[I]], %{{.*}} : i32
// CHECK: tile.async_wait pending = 1
// CHECK: %[[FRAG:.*]] = tile.shared_load %[[BUF]][%[[STAGE]]] : memref<3x64x32xf16, 3 : i32> -> tensor<64x32xf16, #dot_operand>
// CHECK: tile.async_copy
// CHECK: tile.async_commit
// CHECK: %[[BL:.*]] = tile.load
// CHECK: %[[BC:.*]] = tile.convert_layout %[[BL]]
// CHECK: tile.dot %[[FRAG]], %[[BC]]
// CHECK: tile.async_wait pending = 0
// FOUR: tile.shared_alloc <{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}> : memref<4x64x32xf16, 3 : i32>
// FOUR-COUNT-3: tile.async_commit
// FOUR: scf.for
// FOUR: tile.async_wait pending = 2
// OFF-NOT: tile.shared_alloc
// OFF-NOT: tile.async
tile.kernel @gemm(%pa: !tile.ptr<f16>, %pb: !tile.ptr<f16>, %k: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %bbase = tile.splat %pb : tensor<32x64x!tile.ptr<f16>, #b>
  %res:2 = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %zero, %bp = %bbase) -> (tensor<64x64xf32, #mma>, tensor<32x64x!tile.ptr<f16>, #b>) : i32 {
    %ap = tile.splat %pa : tensor<64x32x!tile.ptr<f16>, #b>
    %off = tile.splat %i : tensor<64x32xi32, #b>
    %aptr = tile.addptr %ap, %off : tensor<64x32x!tile.ptr<f16>, #b>, tensor<64x32xi32, #b>
    %av = tile.load %aptr : tensor<64x32x!tile.ptr<f16>, #b>
    %bv = tile.load %bp : tensor<32x64x!tile.ptr<f16>, #b>
    %ca = tile.convert_layout %av : tensor<64x32xf16, #b> -> tensor<64x32xf16, #a>
    %cb = tile.convert_layout %bv : tensor<32x64xf16, #b> -> tensor<32x64xf16, #bo>
    %d = tile.dot %ca, %cb, %acc : tensor<64x32xf16, #a> * tensor<32x64xf16, #bo> -> tensor<64x64xf32, #mma>
    %step = tile.splat %c32 : tensor<32x64xi32, #b>
    %next = tile.addptr %bp, %step : tensor<32x64x!tile.ptr<f16>, #b>, tensor<32x64xi32, #b>
    scf.yield %d, %next : tensor<64x64xf32, #mma>, tensor<32x64x!tile.ptr<f16>, #b>
  }
  tile.return
}

// -----

// The buffers are capped by max-shared-bytes: 128x64 f32 is 32 KiB a stage,
// so in 48 KiB no two stages fit and the loop is left alone, in 80 KiB two
// do, and the default budget (sm_90's 227 KiB) holds the 3 asked for.
// RUN: tile-opt %s --split-input-file --tile-promote-shared=max-shared-bytes=49152 | FileCheck %s --check-prefix=BUDGET
// RUN: tile-opt %s --split-input-file --tile-promote-shared=max-shared-bytes=81920 | FileCheck %s --check-prefix=TWO
// RUN: tile-opt %s --split-input-file --tile-promote-shared | FileCheck %s --check-prefix=ROOM
// BUDGET-LABEL: tile.kernel @big
// BUDGET-NOT: tile.shared_alloc
// TWO-LABEL: tile.kernel @big
// TWO: tile.shared_alloc <{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}> : memref<2x128x64xf32, 3 : i32>
// ROOM-LABEL: tile.kernel @big
// ROOM: tile.shared_alloc <{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}> : memref<3x128x64xf32, 3 : i32>
#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>
tile.kernel @big(%pa: !tile.ptr<f32>, %x: f32, %k: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
  %bv = tile.splat %x : tensor<64x64xf32, #b>
  %cb = tile.convert_layout %bv : tensor<64x64xf32, #b> -> tensor<64x64xf32, #bo>
  %res = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mma>) : i32 {
    %ap = tile.splat %pa : tensor<128x64x!tile.ptr<f32>, #b>
    %off = tile.splat %i : tensor<128x64xi32, #b>
    %aptr = tile.addptr %ap, %off : tensor<128x64x!tile.ptr<f32>, #b>, tensor<128x64xi32, #b>
    %av = tile.load %aptr : tensor<128x64x!tile.ptr<f32>, #b>
    %ca = tile.convert_layout %av : tensor<128x64xf32, #b> -> tensor<128x64xf32, #a>
    %d = tile.dot %ca, %cb, %acc precision = tf32 : tensor<128x64xf32, #a> * tensor<64x64xf32, #bo> -> tensor<128x64xf32, #mma>
    scf.yield %d : tensor<128x64xf32, #mma>
  }
  tile.return
}

// -----

// An FMA dot (blocked operands, f32 ieee): A's load is staged and its
// shared_load keeps the blocked layout; B's load, which a store also uses,
// is left alone.
// CHECK-LABEL: tile.kernel @fma
// 3 stages of 8 KiB fit the 48 KiB budget too.
// BUDGET-LABEL: tile.kernel @fma
// BUDGET: tile.shared_alloc <{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}> : memref<3x64x32xf32, 3 : i32>
// CHECK: %[[FBUF:.*]] = tile.shared_alloc <{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}> : memref<3x64x32xf32, 3 : i32>
// CHECK-NOT: tile.shared_alloc
// CHECK: scf.for
// CHECK: tile.async_wait pending = 1
// CHECK: %[[FA:.*]] = tile.shared_load %[[FBUF]][%{{.*}}] : memref<3x64x32xf32, 3 : i32> -> tensor<64x32xf32, #blocked>
// CHECK: %[[FB:.*]] = tile.load
// CHECK: tile.dot %[[FA]], %[[FB]]
// CHECK: tile.store %{{.*}}, %[[FB]]
// CHECK: tile.async_wait pending = 0
#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
tile.kernel @fma(%pa: !tile.ptr<f32>, %pb: !tile.ptr<f32>, %k: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %zero = arith.constant dense<0.0> : tensor<64x32xf32, #b>
  %res = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %zero) -> (tensor<64x32xf32, #b>) : i32 {
    %off = tile.splat %i : tensor<64x32xi32, #b>
    %ap = tile.splat %pa : tensor<64x32x!tile.ptr<f32>, #b>
    %aptr = tile.addptr %ap, %off : tensor<64x32x!tile.ptr<f32>, #b>, tensor<64x32xi32, #b>
    %av = tile.load %aptr : tensor<64x32x!tile.ptr<f32>, #b>
    %boff = tile.splat %i : tensor<32x32xi32, #b>
    %bp = tile.splat %pb : tensor<32x32x!tile.ptr<f32>, #b>
    %bptr = tile.addptr %bp, %boff : tensor<32x32x!tile.ptr<f32>, #b>, tensor<32x32xi32, #b>
    %bv = tile.load %bptr : tensor<32x32x!tile.ptr<f32>, #b>
    %d = tile.dot %av, %bv, %acc : tensor<64x32xf32, #b> * tensor<32x32xf32, #b> -> tensor<64x32xf32, #b>
    tile.store %bptr, %bv : tensor<32x32x!tile.ptr<f32>, #b>
    scf.yield %d : tensor<64x32xf32, #b>
  }
  tile.return
}

// -----

// Operands loaded along their first dimension (A as K x M, B as N x K:
// layouts with order [0, 1]) are stored in that order: each stored row is
// one column of the tile. A tf32 operand read one element per lane from
// M-contiguous rows (A here) gets 32-byte chunks (vec 8); B, read by
// ldmatrix from K-contiguous rows, 16-byte ones. An FMA dot's operand
// converted from its own load layout into the dot's is staged with the
// conversion folded into the shared_load.
// CHECK-LABEL: tile.kernel @transposed
// CHECK-DAG: %[[TA:.*]] = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 4, order = [0, 1]}> : memref<3x64x32xf32, 3 : i32>
// CHECK-DAG: %[[TB:.*]] = tile.shared_alloc <{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}> : memref<3x32x64xf32, 3 : i32>
// CHECK-DAG: %[[TF:.*]] = tile.shared_alloc <{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}> : memref<3x32x16xf32, 3 : i32>
// CHECK: scf.for
// CHECK-DAG: tile.shared_load %[[TA]]{{.*}} -> tensor<64x32xf32, #dot_operand>
// CHECK-DAG: tile.shared_load %[[TB]]{{.*}} -> tensor<32x64xf32, #dot_operand1>
// CHECK-DAG: %[[FB:.*]] = tile.shared_load %[[TF]]{{.*}} -> tensor<32x16xf32, #blocked{{[0-9]*}}>
// CHECK: tile.dot %{{.*}}, %[[FB]]
#t = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#r = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>
tile.kernel @transposed(%pa: !tile.ptr<f32>, %pb: !tile.ptr<f32>, %pf: !tile.ptr<f32>, %x: f32, %k: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %fzero = arith.constant dense<0.0> : tensor<64x16xf32, #r>
  %fa = tile.splat %x : tensor<64x32xf32, #r>
  %res:2 = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %zero, %facc = %fzero) -> (tensor<64x64xf32, #mma>, tensor<64x16xf32, #r>) : i32 {
    %off = tile.splat %i : tensor<64x32xi32, #t>
    %ap = tile.splat %pa : tensor<64x32x!tile.ptr<f32>, #t>
    %aptr = tile.addptr %ap, %off : tensor<64x32x!tile.ptr<f32>, #t>, tensor<64x32xi32, #t>
    %av = tile.load %aptr : tensor<64x32x!tile.ptr<f32>, #t>
    %boff = tile.splat %i : tensor<32x64xi32, #t>
    %bp = tile.splat %pb : tensor<32x64x!tile.ptr<f32>, #t>
    %bptr = tile.addptr %bp, %boff : tensor<32x64x!tile.ptr<f32>, #t>, tensor<32x64xi32, #t>
    %bv = tile.load %bptr : tensor<32x64x!tile.ptr<f32>, #t>
    %ca = tile.convert_layout %av : tensor<64x32xf32, #t> -> tensor<64x32xf32, #a>
    %cb = tile.convert_layout %bv : tensor<32x64xf32, #t> -> tensor<32x64xf32, #bo>
    %d = tile.dot %ca, %cb, %acc precision = tf32 : tensor<64x32xf32, #a> * tensor<32x64xf32, #bo> -> tensor<64x64xf32, #mma>
    %foff = tile.splat %i : tensor<32x16xi32, #t>
    %fp = tile.splat %pf : tensor<32x16x!tile.ptr<f32>, #t>
    %fptr = tile.addptr %fp, %foff : tensor<32x16x!tile.ptr<f32>, #t>, tensor<32x16xi32, #t>
    %fv = tile.load %fptr : tensor<32x16x!tile.ptr<f32>, #t>
    %fc = tile.convert_layout %fv : tensor<32x16xf32, #t> -> tensor<32x16xf32, #r>
    %fd = tile.dot %fa, %fc, %facc : tensor<64x32xf32, #r> * tensor<32x16xf32, #r> -> tensor<64x16xf32, #r>
    scf.yield %d, %fd : tensor<64x64xf32, #mma>, tensor<64x16xf32, #r>
  }
  tile.return
}
