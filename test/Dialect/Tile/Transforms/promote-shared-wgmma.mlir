// RUN: tile-opt %s --split-input-file --tile-promote-shared=wgmma=true | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-promote-shared | FileCheck %s --check-prefix=SYNC
// RUN: tile-opt %s --split-input-file --tile-promote-shared="wgmma=true num-stages=4" | FileCheck %s --check-prefix=FLIGHT

// With wgmma, a dot whose warps are all along M (tile-accelerate-dot's
// layout for warpgroup MMAs) and whose A (row-major: K-major) and B are
// both staged gets stages stored as wgmma descriptors read them: A's rows
// of 128 bytes are one panel, in order (the accumulator, repsPerWarp, is
// in the instructions' row order); B's rows of 256 bytes are two panels of
// 64 elements. Without the option the stages keep whole rows.
#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0], repsPerWarp = [2, 1]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>
// CHECK-LABEL: tile.kernel @nn
// CHECK: tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<3x128x64xf16, 3 : i32>
// CHECK: tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<3x64x128xf16, 3 : i32>
// CHECK: scf.for
// CHECK: tile.shared_load
// CHECK: tile.shared_load
// CHECK: tile.dot
// CHECK-NOT: tile.dot_wait
// CHECK: tile.async_wait pending = 0
// CHECK-NOT: tile.dot_wait
// SYNC-LABEL: tile.kernel @nn
// SYNC-NOT: panel
// SYNC: scf.for
// With four stages the dot's MMAs stay in flight while the loop turns (its
// result is only its own accumulator there): a dot_wait leaves one group
// pending, the copies run two iterations ahead instead of three so that
// the stage those MMAs read is not overwritten, and a dot_wait after the
// loop ends the last group.
// FLIGHT-LABEL: tile.kernel @nn
// FLIGHT-COUNT-2: tile.async_commit
// FLIGHT-NOT: tile.async_commit
// FLIGHT: scf.for
// FLIGHT: tile.async_wait pending = 1
// FLIGHT: tile.async_commit
// FLIGHT: %[[D:.*]] = tile.dot
// FLIGHT-NEXT: %[[W:.*]] = tile.dot_wait %[[D]] pending = 1 : tensor<128x128xf32, #{{.*}}>
// FLIGHT-NEXT: scf.yield %[[W]]
// FLIGHT: %[[R:.*]] = tile.dot_wait %{{.*}} pending = 0
// FLIGHT-NEXT: tile.async_wait pending = 0
// FLIGHT: tile.store {{.*}}, %[[R]]
tile.kernel @nn(%pa: !tile.ptr<f16>, %pb: !tile.ptr<f16>, %pc: !tile.ptr<f32>, %k: i32) attributes {tile.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
  %res = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<128x128xf32, #mma>) : i32 {
    %ap = tile.splat %pa : tensor<128x64x!tile.ptr<f16>, #b>
    %aoff = tile.splat %i : tensor<128x64xi32, #b>
    %aptr = tile.addptr %ap, %aoff : tensor<128x64x!tile.ptr<f16>, #b>, tensor<128x64xi32, #b>
    %bp = tile.splat %pb : tensor<64x128x!tile.ptr<f16>, #b>
    %boff = tile.splat %i : tensor<64x128xi32, #b>
    %bptr = tile.addptr %bp, %boff : tensor<64x128x!tile.ptr<f16>, #b>, tensor<64x128xi32, #b>
    %av = tile.load %aptr : tensor<128x64x!tile.ptr<f16>, #b>
    %bv = tile.load %bptr : tensor<64x128x!tile.ptr<f16>, #b>
    %ca = tile.convert_layout %av : tensor<128x64xf16, #b> -> tensor<128x64xf16, #a>
    %cb = tile.convert_layout %bv : tensor<64x128xf16, #b> -> tensor<64x128xf16, #bo>
    %d = tile.dot %ca, %cb, %acc : tensor<128x64xf16, #a> * tensor<64x128xf16, #bo> -> tensor<128x128xf32, #mma>
    scf.yield %d : tensor<128x128xf32, #mma>
  }
  %cp = tile.splat %pc : tensor<128x128x!tile.ptr<f32>, #mma>
  tile.store %cp, %res : tensor<128x128x!tile.ptr<f32>, #mma>
  tile.return
}

// -----

// A loaded K x M (M contiguous) and transposed: an MN-major A, stored for
// wgmma too (its stored rows, along M, are one panel); the dot reads a
// transposed view of A's stage, and with four stages its MMAs stay in
// flight as with a K-major A.
#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [2, 1]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>
// CHECK-LABEL: tile.kernel @tn
// CHECK: tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<3x32x64xf16, 3 : i32>
// CHECK: tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<3x32x64xf16, 3 : i32>
// CHECK: scf.for
// CHECK: tile.shared_load %{{.*}} transposed : memref<3x32x64xf16, 3 : i32> -> tensor<64x32xf16
// FLIGHT-LABEL: tile.kernel @tn
// FLIGHT: %[[D:.*]] = tile.dot
// FLIGHT-NEXT: %[[W:.*]] = tile.dot_wait %[[D]] pending = 1
// FLIGHT-NEXT: scf.yield %[[W]]
// SYNC-LABEL: tile.kernel @tn
// SYNC-NOT: panel
// SYNC: scf.for
tile.kernel @tn(%pa: !tile.ptr<f16>, %pb: !tile.ptr<f16>, %k: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %res = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
    %ap = tile.splat %pa : tensor<32x64x!tile.ptr<f16>, #b>
    %aoff = tile.splat %i : tensor<32x64xi32, #b>
    %aptr = tile.addptr %ap, %aoff : tensor<32x64x!tile.ptr<f16>, #b>, tensor<32x64xi32, #b>
    %bp = tile.splat %pb : tensor<32x64x!tile.ptr<f16>, #b>
    %boff = tile.splat %i : tensor<32x64xi32, #b>
    %bptr = tile.addptr %bp, %boff : tensor<32x64x!tile.ptr<f16>, #b>, tensor<32x64xi32, #b>
    %av = tile.load %aptr : tensor<32x64x!tile.ptr<f16>, #b>
    %bv = tile.load %bptr : tensor<32x64x!tile.ptr<f16>, #b>
    %at = tile.trans %av : tensor<32x64xf16, #b> -> tensor<64x32xf16, #b>
    %ca = tile.convert_layout %at : tensor<64x32xf16, #b> -> tensor<64x32xf16, #a>
    %cb = tile.convert_layout %bv : tensor<32x64xf16, #b> -> tensor<32x64xf16, #bo>
    %d = tile.dot %ca, %cb, %acc : tensor<64x32xf16, #a> * tensor<32x64xf16, #bo> -> tensor<64x64xf32, #mma>
    scf.yield %d : tensor<64x64xf32, #mma>
  }
  tile.return
}

// -----

// The same with mma.sync's accumulator layout (warp w: rows 8w + [0, 8),
// no repsPerWarp), which m64 instructions do not produce: no stage is
// stored for wgmma.
// CHECK-LABEL: tile.kernel @tn_interleaved_rows
// CHECK-NOT: panel
// CHECK: scf.for
#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>
tile.kernel @tn_interleaved_rows(%pa: !tile.ptr<f16>, %pb: !tile.ptr<f16>, %k: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %res = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
    %ap = tile.splat %pa : tensor<32x64x!tile.ptr<f16>, #b>
    %aoff = tile.splat %i : tensor<32x64xi32, #b>
    %aptr = tile.addptr %ap, %aoff : tensor<32x64x!tile.ptr<f16>, #b>, tensor<32x64xi32, #b>
    %bp = tile.splat %pb : tensor<32x64x!tile.ptr<f16>, #b>
    %boff = tile.splat %i : tensor<32x64xi32, #b>
    %bptr = tile.addptr %bp, %boff : tensor<32x64x!tile.ptr<f16>, #b>, tensor<32x64xi32, #b>
    %av = tile.load %aptr : tensor<32x64x!tile.ptr<f16>, #b>
    %bv = tile.load %bptr : tensor<32x64x!tile.ptr<f16>, #b>
    %at = tile.trans %av : tensor<32x64xf16, #b> -> tensor<64x32xf16, #b>
    %ca = tile.convert_layout %at : tensor<64x32xf16, #b> -> tensor<64x32xf16, #a>
    %cb = tile.convert_layout %bv : tensor<32x64xf16, #b> -> tensor<32x64xf16, #bo>
    %d = tile.dot %ca, %cb, %acc : tensor<64x32xf16, #a> * tensor<32x64xf16, #bo> -> tensor<64x64xf32, #mma>
    scf.yield %d : tensor<64x64xf32, #mma>
  }
  tile.return
}

// -----

// Only B staged, A in registers loaded before the loop (attention's Q): B's
// stage is stored for wgmma all the same (the MMAs take A from registers),
// and A's registers never change, so with four stages the MMAs stay in
// flight while the loop turns.
#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [2, 1]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>
// CHECK-LABEL: tile.kernel @invariant_a
// CHECK: %[[A:.*]] = arith.sitofp
// CHECK: tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<3x64x64xf16, 3 : i32>
// CHECK-NOT: tile.shared_alloc
// CHECK: scf.for
// CHECK: tile.dot %[[A]], %{{.*}}, %{{.*}}
// FLIGHT-LABEL: tile.kernel @invariant_a
// FLIGHT: tile.dot_wait %{{.*}} pending = 1
// SYNC-LABEL: tile.kernel @invariant_a
// SYNC-NOT: panel
// SYNC: scf.for
tile.kernel @invariant_a(%pb: !tile.ptr<f16>, %pc: !tile.ptr<f32>, %k: i32) attributes {tile.num_warps = 4 : i32} {
  %ak = tile.splat %k : tensor<64x64xi32, #a>
  %a = arith.sitofp %ak : tensor<64x64xi32, #a> to tensor<64x64xf16, #a>
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %res = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
    %bp = tile.splat %pb : tensor<64x64x!tile.ptr<f16>, #b>
    %boff = tile.splat %i : tensor<64x64xi32, #b>
    %bptr = tile.addptr %bp, %boff : tensor<64x64x!tile.ptr<f16>, #b>, tensor<64x64xi32, #b>
    %bv = tile.load %bptr : tensor<64x64x!tile.ptr<f16>, #b>
    %cb = tile.convert_layout %bv : tensor<64x64xf16, #b> -> tensor<64x64xf16, #bo>
    %d = tile.dot %a, %cb, %acc : tensor<64x64xf16, #a> * tensor<64x64xf16, #bo> -> tensor<64x64xf32, #mma>
    scf.yield %d : tensor<64x64xf32, #mma>
  }
  %cp = tile.splat %pc : tensor<64x64x!tile.ptr<f32>, #mma>
  tile.store %cp, %res : tensor<64x64x!tile.ptr<f32>, #mma>
  tile.return
}

// -----

// An A computed in the body (here from the induction variable) gets new
// registers each iteration, which MMAs still in flight could be reading:
// B is stored for wgmma, but even with four stages the dot waits for its
// own MMAs (no dot_wait).
#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [2, 1]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>
// CHECK-LABEL: tile.kernel @computed_a
// CHECK: tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<3x64x64xf16, 3 : i32>
// FLIGHT-LABEL: tile.kernel @computed_a
// FLIGHT: tile.shared_alloc <{{.*}}panel = 64}> : memref<4x64x64xf16, 3 : i32>
// FLIGHT-NOT: tile.dot_wait
// FLIGHT: tile.return
tile.kernel @computed_a(%pb: !tile.ptr<f16>, %pc: !tile.ptr<f32>, %k: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %res = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
    %ai = tile.splat %i : tensor<64x64xi32, #a>
    %a = arith.sitofp %ai : tensor<64x64xi32, #a> to tensor<64x64xf16, #a>
    %bp = tile.splat %pb : tensor<64x64x!tile.ptr<f16>, #b>
    %boff = tile.splat %i : tensor<64x64xi32, #b>
    %bptr = tile.addptr %bp, %boff : tensor<64x64x!tile.ptr<f16>, #b>, tensor<64x64xi32, #b>
    %bv = tile.load %bptr : tensor<64x64x!tile.ptr<f16>, #b>
    %cb = tile.convert_layout %bv : tensor<64x64xf16, #b> -> tensor<64x64xf16, #bo>
    %d = tile.dot %a, %cb, %acc : tensor<64x64xf16, #a> * tensor<64x64xf16, #bo> -> tensor<64x64xf32, #mma>
    scf.yield %d : tensor<64x64xf32, #mma>
  }
  %cp = tile.splat %pc : tensor<64x64x!tile.ptr<f32>, #mma>
  tile.store %cp, %res : tensor<64x64x!tile.ptr<f32>, #mma>
  tile.return
}

// -----

// A dot outside loops (after a pipelined loop, as a last block would be): the
// loaded B is copied once into a one-stage buffer stored for wgmma, after
// the barrier of the loop before (none of its own: only address arithmetic
// since), where the load was; the copy is waited for and read where the dot
// is (after the load of A here), a barrier after the dot (its bytes may be
// scratch next). A masked load keeps its mask; without wgmma nothing
// changes outside loops. The second dot's B (unmasked: an all-true mask)
// follows a reduction (which may use scratch), so its copy waits at a
// barrier first.
#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [2, 1]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>
// CHECK-LABEL: tile.kernel @lone_dot
// CHECK: scf.for
// CHECK: tile.async_wait pending = 0
// CHECK-NOT: tile.async_wait
// CHECK: %[[BUF:.*]] = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<1x64x64xf16, 3 : i32>
// CHECK-NOT: tile.async_wait
// CHECK: tile.async_copy %{{.*}}, mask %[[MASK:.*]] into %[[BUF]][%{{.*}}]
// CHECK-NEXT: tile.async_commit
// CHECK-NEXT: tile.splat
// CHECK-NEXT: tile.load
// CHECK-NEXT: tile.convert_layout
// CHECK-NEXT: tile.async_wait pending = 0
// CHECK-NEXT: %[[V:.*]] = tile.shared_load %[[BUF]][%{{.*}}] : memref<1x64x64xf16, 3 : i32> -> tensor<64x64xf16, #{{.*}}>
// CHECK-NEXT: %[[D:.*]] = tile.dot %{{.*}}, %[[V]]
// CHECK-NEXT: tile.async_wait pending = 0
// CHECK: tile.reduce max
// CHECK: tile.async_wait pending = 0
// CHECK-NEXT: %[[BUF2:.*]] = tile.shared_alloc
// CHECK-NEXT: %[[TRUE:.*]] = arith.constant dense<true>
// CHECK-NEXT: tile.async_copy %{{.*}}, mask %[[TRUE]] into %[[BUF2]]
// SYNC-LABEL: tile.kernel @lone_dot
// SYNC: scf.for
// SYNC-NOT: tile.shared_alloc
// SYNC: tile.return
tile.kernel @lone_dot(%pp: !tile.ptr<f16>, %pv: !tile.ptr<f16>, %pc: !tile.ptr<f32>, %k: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %res = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
    %vp = tile.splat %pv : tensor<64x64x!tile.ptr<f16>, #b>
    %voff = tile.splat %i : tensor<64x64xi32, #b>
    %vptr = tile.addptr %vp, %voff : tensor<64x64x!tile.ptr<f16>, #b>, tensor<64x64xi32, #b>
    %vv = tile.load %vptr : tensor<64x64x!tile.ptr<f16>, #b>
    %cv = tile.convert_layout %vv : tensor<64x64xf16, #b> -> tensor<64x64xf16, #bo>
    %pt = tile.splat %pp : tensor<64x64x!tile.ptr<f16>, #mma>
    %p = tile.load %pt : tensor<64x64x!tile.ptr<f16>, #mma>
    %pa = tile.convert_layout %p : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #a>
    %d = tile.dot %pa, %cv, %acc : tensor<64x64xf16, #a> * tensor<64x64xf16, #bo> -> tensor<64x64xf32, #mma>
    scf.yield %d : tensor<64x64xf32, #mma>
  }
  %vp = tile.splat %pv : tensor<64x64x!tile.ptr<f16>, #b>
  %voff = tile.splat %k : tensor<64x64xi32, #b>
  %vptr = tile.addptr %vp, %voff : tensor<64x64x!tile.ptr<f16>, #b>, tensor<64x64xi32, #b>
  %vmask = arith.cmpi slt, %voff, %voff : tensor<64x64xi32, #b>
  %vv = tile.load %vptr, mask %vmask : tensor<64x64x!tile.ptr<f16>, #b>
  %cv = tile.convert_layout %vv : tensor<64x64xf16, #b> -> tensor<64x64xf16, #bo>
  %pt = tile.splat %pp : tensor<64x64x!tile.ptr<f16>, #mma>
  %p = tile.load %pt : tensor<64x64x!tile.ptr<f16>, #mma>
  %pa = tile.convert_layout %p : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #a>
  %last = tile.dot %pa, %cv, %res : tensor<64x64xf16, #a> * tensor<64x64xf16, #bo> -> tensor<64x64xf32, #mma>
  %m = tile.reduce max %last, axis = 1 : tensor<64x64xf32, #mma> -> tensor<64xf32, #tile.slice<{dim = 1, parent = #mma}>>
  %vv2 = tile.load %vptr : tensor<64x64x!tile.ptr<f16>, #b>
  %cv2 = tile.convert_layout %vv2 : tensor<64x64xf16, #b> -> tensor<64x64xf16, #bo>
  %last2 = tile.dot %pa, %cv2, %last : tensor<64x64xf16, #a> * tensor<64x64xf16, #bo> -> tensor<64x64xf32, #mma>
  %cp = tile.splat %pc : tensor<64x64x!tile.ptr<f32>, #mma>
  tile.store %cp, %last2 : tensor<64x64x!tile.ptr<f32>, #mma>
  %mp = tile.splat %pc : tensor<64x!tile.ptr<f32>, #tile.slice<{dim = 1, parent = #mma}>>
  tile.store %mp, %m : tensor<64x!tile.ptr<f32>, #tile.slice<{dim = 1, parent = #mma}>>
  tile.return
}

// -----

// A 16-bit A loaded before the loop whose dot reads it every iteration
// (attention's Q), 128 elements per thread (128 x 128 on 4 warps): copied
// once into a one-stage buffer stored for wgmma, read where the dot is
// (inside the loop) through descriptors; the loop's own barrier after it
// ends the MMAs' reads. With 64 elements per thread (64 x 128) it stays in
// registers.
#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [2, 1]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>
// CHECK-LABEL: tile.kernel @invariant_a
// CHECK: %[[Q:.*]] = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<1x128x128xf16, 3 : i32>
// CHECK: tile.async_copy %{{.*}}, mask %{{.*}} into %[[Q]]
// CHECK-NEXT: tile.async_commit
// CHECK-NEXT: tile.async_wait pending = 0
// CHECK: scf.for
// CHECK: %[[QA:.*]] = tile.shared_load %[[Q]][%{{.*}}] : memref<1x128x128xf16, 3 : i32>
// CHECK-NEXT: tile.dot %[[QA]],
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: tile.async_wait pending = 0
// CHECK-NOT: tile.async_wait
// CHECK: tile.return
// CHECK-LABEL: tile.kernel @invariant_a_small
// CHECK-NOT: memref<1x
// CHECK: tile.return
tile.kernel @invariant_a(%pq: !tile.ptr<f16>, %pk: !tile.ptr<f16>, %pc: !tile.ptr<f32>, %k: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
  %qp = tile.splat %pq : tensor<128x128x!tile.ptr<f16>, #b>
  %q = tile.load %qp : tensor<128x128x!tile.ptr<f16>, #b>
  %res = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mma>) : i32 {
    %kp = tile.splat %pk : tensor<128x64x!tile.ptr<f16>, #b>
    %koff = tile.splat %i : tensor<128x64xi32, #b>
    %kptr = tile.addptr %kp, %koff : tensor<128x64x!tile.ptr<f16>, #b>, tensor<128x64xi32, #b>
    %kv = tile.load %kptr : tensor<128x64x!tile.ptr<f16>, #b>
    %ck = tile.convert_layout %kv : tensor<128x64xf16, #b> -> tensor<128x64xf16, #bo>
    %qa = tile.convert_layout %q : tensor<128x128xf16, #b> -> tensor<128x128xf16, #a>
    %d = tile.dot %qa, %ck, %acc : tensor<128x128xf16, #a> * tensor<128x64xf16, #bo> -> tensor<128x64xf32, #mma>
    scf.yield %d : tensor<128x64xf32, #mma>
  }
  %cp = tile.splat %pc : tensor<128x64x!tile.ptr<f32>, #mma>
  tile.store %cp, %res : tensor<128x64x!tile.ptr<f32>, #mma>
  tile.return
}

tile.kernel @invariant_a_small(%pq: !tile.ptr<f16>, %pk: !tile.ptr<f16>, %pc: !tile.ptr<f32>, %k: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %qp = tile.splat %pq : tensor<64x128x!tile.ptr<f16>, #b>
  %q = tile.load %qp : tensor<64x128x!tile.ptr<f16>, #b>
  %res = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
    %kp = tile.splat %pk : tensor<128x64x!tile.ptr<f16>, #b>
    %koff = tile.splat %i : tensor<128x64xi32, #b>
    %kptr = tile.addptr %kp, %koff : tensor<128x64x!tile.ptr<f16>, #b>, tensor<128x64xi32, #b>
    %kv = tile.load %kptr : tensor<128x64x!tile.ptr<f16>, #b>
    %ck = tile.convert_layout %kv : tensor<128x64xf16, #b> -> tensor<128x64xf16, #bo>
    %qa = tile.convert_layout %q : tensor<64x128xf16, #b> -> tensor<64x128xf16, #a>
    %d = tile.dot %qa, %ck, %acc : tensor<64x128xf16, #a> * tensor<128x64xf16, #bo> -> tensor<64x64xf32, #mma>
    scf.yield %d : tensor<64x64xf32, #mma>
  }
  %cp = tile.splat %pc : tensor<64x64x!tile.ptr<f32>, #mma>
  tile.store %cp, %res : tensor<64x64x!tile.ptr<f32>, #mma>
  tile.return
}

// -----

// tf32 with A loaded M-contiguous and B loaded N-contiguous (TN): wgmma
// reads a 32-bit B only K-major, so B's stage is stored K-major (order
// [0, 1]) through registers: loaded (zeros where masked off) in a layout
// of four k per thread at one n, lanes along N, its addresses and mask
// computed again in it, and stored with `shared_store`: at once in the
// prologue; in the loop one iteration after its load, the registers
// carried by the loop (a fourth tile loaded before it) and stored before
// the next load. A's stage is
// stored M-major for wgmma (read into registers) and copied as loaded.
#t = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#n = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [2, 1]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>
// CHECK: #[[E:blocked[0-9]*]] = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [0, 1]}>
// CHECK-LABEL: tile.kernel @tf32_tn
// CHECK-DAG: %[[A:.*]] = tile.shared_alloc <{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1], panel = 32}> : memref<3x128x32xf32, 3 : i32>
// CHECK-DAG: %[[B:.*]] = tile.shared_alloc <{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1], panel = 32}> : memref<3x32x128xf32, 3 : i32>
// CHECK: tile.async_copy %{{.*}}, mask %{{.*}} into %[[A]][%{{.*}}] : tensor<128x32x!tile.ptr<f32>, #[[T:[^,]*]]>
// CHECK: %[[V0:.*]] = tile.load %{{.*}}, mask %{{.*}}, other %{{.*}} : tensor<32x128x!tile.ptr<f32>, #[[E]]>
// CHECK-NEXT: tile.shared_store %[[V0]] into %[[B]][%{{.*}}] : tensor<32x128xf32, #[[E]]>
// CHECK: tile.async_copy %{{.*}} into %[[A]]
// CHECK: tile.load
// CHECK-NEXT: tile.shared_store
// CHECK: %[[H:.*]] = tile.load %{{.*}} : tensor<32x128x!tile.ptr<f32>, #[[E]]>
// CHECK-NOT: tile.shared_store
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[ARG:.*]] = %[[H]])
// CHECK: tile.shared_load %[[A]]
// CHECK: tile.shared_load %[[B]]
// CHECK: tile.shared_store %[[ARG]] into %[[B]]
// CHECK: %[[V:.*]] = tile.load %{{.*}}, mask %{{.*}}, other %{{.*}} : tensor<32x128x!tile.ptr<f32>, #[[E]]>
// CHECK: tile.async_copy %{{.*}} into %[[A]]
// CHECK: tile.dot
// CHECK-NEXT: scf.yield %{{.*}}, %[[V]]
// FLIGHT-LABEL: tile.kernel @tf32_tn
// FLIGHT: scf.for
// FLIGHT: tile.dot
// FLIGHT-NEXT: %[[W:.*]] = tile.dot_wait %{{.*}} pending = 1
// FLIGHT-NEXT: scf.yield %[[W]], %{{.*}}
// SYNC-LABEL: tile.kernel @tf32_tn
// SYNC-NOT: panel
// SYNC-NOT: tile.shared_store
// SYNC: scf.for
tile.kernel @tf32_tn(%pa: !tile.ptr<f32>, %pb: !tile.ptr<f32>, %pc: !tile.ptr<f32>, %k: i32, %n: i32, %ld: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %zero = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
  %res = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %zero) -> (tensor<128x128xf32, #mma>) : i32 {
    %ap = tile.splat %pa : tensor<128x32x!tile.ptr<f32>, #t>
    %aoff = tile.splat %i : tensor<128x32xi32, #t>
    %aptr = tile.addptr %ap, %aoff : tensor<128x32x!tile.ptr<f32>, #t>, tensor<128x32xi32, #t>
    %kr = tile.make_range 0, 32 : tensor<32xi32, #tile.slice<{dim = 1, parent = #n}>>
    %ks = tile.splat %i : tensor<32xi32, #tile.slice<{dim = 1, parent = #n}>>
    %kk = arith.addi %kr, %ks : tensor<32xi32, #tile.slice<{dim = 1, parent = #n}>>
    %k2 = tile.expand_dims %kk, axis = 1 : tensor<32xi32, #tile.slice<{dim = 1, parent = #n}>> -> tensor<32x1xi32, #n>
    %lds = tile.splat %ld : tensor<32x1xi32, #n>
    %krow = arith.muli %k2, %lds : tensor<32x1xi32, #n>
    %nr = tile.make_range 0, 128 : tensor<128xi32, #tile.slice<{dim = 0, parent = #n}>>
    %n2 = tile.expand_dims %nr, axis = 0 : tensor<128xi32, #tile.slice<{dim = 0, parent = #n}>> -> tensor<1x128xi32, #n>
    %kb = tile.broadcast %krow : tensor<32x1xi32, #n> -> tensor<32x128xi32, #n>
    %nb = tile.broadcast %n2 : tensor<1x128xi32, #n> -> tensor<32x128xi32, #n>
    %boff = arith.addi %kb, %nb : tensor<32x128xi32, #n>
    %bp = tile.splat %pb : tensor<32x128x!tile.ptr<f32>, #n>
    %bptr = tile.addptr %bp, %boff : tensor<32x128x!tile.ptr<f32>, #n>, tensor<32x128xi32, #n>
    %nsplat = tile.splat %n : tensor<1x128xi32, #n>
    %nin = arith.cmpi slt, %n2, %nsplat : tensor<1x128xi32, #n>
    %bmask = tile.broadcast %nin : tensor<1x128xi1, #n> -> tensor<32x128xi1, #n>
    %av = tile.load %aptr : tensor<128x32x!tile.ptr<f32>, #t>
    %bv = tile.load %bptr, mask %bmask : tensor<32x128x!tile.ptr<f32>, #n>
    %ca = tile.convert_layout %av : tensor<128x32xf32, #t> -> tensor<128x32xf32, #a>
    %cb = tile.convert_layout %bv : tensor<32x128xf32, #n> -> tensor<32x128xf32, #bo>
    %d = tile.dot %ca, %cb, %acc precision = tf32 : tensor<128x32xf32, #a> * tensor<32x128xf32, #bo> -> tensor<128x128xf32, #mma>
    scf.yield %d : tensor<128x128xf32, #mma>
  }
  %cp = tile.splat %pc : tensor<128x128x!tile.ptr<f32>, #mma>
  tile.store %cp, %res : tensor<128x128x!tile.ptr<f32>, #mma>
  tile.return
}

// -----

// One B read by two dots (the two halves of the rows, each its own A and
// accumulator; before CSE each dot has a conversion of its own): the
// conversions merge, B is staged once, stored for wgmma, and each dot reads
// the stage through a shared_load of its own. Both dots' results are
// yielded, so neither stays in flight across iterations.
#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [2, 1]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>
// CHECK-LABEL: tile.kernel @shared_b
// CHECK-COUNT-3: tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}>
// CHECK-NOT: tile.shared_alloc
// CHECK: scf.for
// CHECK: %[[B1:.*]] = tile.shared_load %[[BBUF:.*]][%[[S:.*]]] : memref<3x64x128xf16, 3 : i32> -> tensor<64x128xf16, #{{.*}}>
// CHECK-NEXT: %[[B2:.*]] = tile.shared_load %[[BBUF]][%[[S]]] : memref<3x64x128xf16, 3 : i32> -> tensor<64x128xf16, #{{.*}}>
// CHECK-NOT: tile.convert_layout
// CHECK: tile.dot %{{.*}}, %[[B1]],
// CHECK: tile.dot %{{.*}}, %[[B2]],
// CHECK-NOT: tile.dot_wait
// SYNC-LABEL: tile.kernel @shared_b
// SYNC-COUNT-3: tile.shared_alloc
// SYNC-NOT: tile.shared_alloc
tile.kernel @shared_b(%pa: !tile.ptr<f16>, %pb: !tile.ptr<f16>, %k: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<64x128xf32, #mma>
  %res:2 = scf.for %i = %c0 to %k step %c64 iter_args(%acc1 = %zero, %acc2 = %zero) -> (tensor<64x128xf32, #mma>, tensor<64x128xf32, #mma>) : i32 {
    %ap = tile.splat %pa : tensor<64x64x!tile.ptr<f16>, #b>
    %aoff = tile.splat %i : tensor<64x64xi32, #b>
    %aptr = tile.addptr %ap, %aoff : tensor<64x64x!tile.ptr<f16>, #b>, tensor<64x64xi32, #b>
    %a2off = arith.addi %aoff, %aoff : tensor<64x64xi32, #b>
    %a2ptr = tile.addptr %ap, %a2off : tensor<64x64x!tile.ptr<f16>, #b>, tensor<64x64xi32, #b>
    %bp = tile.splat %pb : tensor<64x128x!tile.ptr<f16>, #b>
    %boff = tile.splat %i : tensor<64x128xi32, #b>
    %bptr = tile.addptr %bp, %boff : tensor<64x128x!tile.ptr<f16>, #b>, tensor<64x128xi32, #b>
    %a1v = tile.load %aptr : tensor<64x64x!tile.ptr<f16>, #b>
    %a2v = tile.load %a2ptr : tensor<64x64x!tile.ptr<f16>, #b>
    %bv = tile.load %bptr : tensor<64x128x!tile.ptr<f16>, #b>
    %ca1 = tile.convert_layout %a1v : tensor<64x64xf16, #b> -> tensor<64x64xf16, #a>
    %cb1 = tile.convert_layout %bv : tensor<64x128xf16, #b> -> tensor<64x128xf16, #bo>
    %d1 = tile.dot %ca1, %cb1, %acc1 : tensor<64x64xf16, #a> * tensor<64x128xf16, #bo> -> tensor<64x128xf32, #mma>
    %ca2 = tile.convert_layout %a2v : tensor<64x64xf16, #b> -> tensor<64x64xf16, #a>
    %cb2 = tile.convert_layout %bv : tensor<64x128xf16, #b> -> tensor<64x128xf16, #bo>
    %d2 = tile.dot %ca2, %cb2, %acc2 : tensor<64x64xf16, #a> * tensor<64x128xf16, #bo> -> tensor<64x128xf32, #mma>
    scf.yield %d1, %d2 : tensor<64x128xf32, #mma>, tensor<64x128xf32, #mma>
  }
  tile.return
}

// -----

// A loop around a loop (a persistent grid's loop over tiles): only the inner
// loop is pipelined, and the outer loop's body is staged as a kernel's body
// is: B of the dot after the inner loop, loaded before it, is copied into a
// one-stage buffer where it was loaded (after a barrier: the tile before read
// those bytes) and waited for where the dot is, so that the copy lands while
// the inner loop runs.
#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [2, 1]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>
// CHECK-LABEL: tile.kernel @tile_loop
// CHECK: scf.for %[[T:.*]] =
// CHECK-NOT: scf.for
// CHECK: tile.async_wait pending = 0
// CHECK-NEXT: %[[BUF:.*]] = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<1x64x64xf16, 3 : i32>
// CHECK-NEXT: arith.constant dense<true>
// CHECK-NEXT: tile.async_copy %{{.*}} into %[[BUF]]
// CHECK-NEXT: tile.async_commit
// CHECK: scf.for
// CHECK: tile.async_copy
// CHECK: tile.dot
// CHECK: scf.yield
// CHECK: tile.async_wait pending = 0
// CHECK-NEXT: arith.truncf
// CHECK-NEXT: tile.convert_layout
// CHECK-NEXT: tile.async_wait pending = 0
// CHECK-NEXT: %[[V:.*]] = tile.shared_load %[[BUF]][%{{.*}}] : memref<1x64x64xf16, 3 : i32> -> tensor<64x64xf16, #{{.*}}>
// CHECK-NEXT: tile.dot %{{.*}}, %[[V]]
// CHECK-NEXT: tile.async_wait pending = 0
// CHECK: tile.store
// SYNC-LABEL: tile.kernel @tile_loop
tile.kernel @tile_loop(%pp: !tile.ptr<f16>, %pv: !tile.ptr<f16>, %pc: !tile.ptr<f32>, %k: i32, %tiles: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  scf.for %t = %c0 to %tiles step %c1 : i32 {
    %lp = tile.splat %pv : tensor<64x64x!tile.ptr<f16>, #b>
    %loff = tile.splat %t : tensor<64x64xi32, #b>
    %lptr = tile.addptr %lp, %loff : tensor<64x64x!tile.ptr<f16>, #b>, tensor<64x64xi32, #b>
    %lv = tile.load %lptr : tensor<64x64x!tile.ptr<f16>, #b>
    %lcv = tile.convert_layout %lv : tensor<64x64xf16, #b> -> tensor<64x64xf16, #bo>
    %res = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %vp = tile.splat %pv : tensor<64x64x!tile.ptr<f16>, #b>
      %voff = tile.splat %i : tensor<64x64xi32, #b>
      %vptr = tile.addptr %vp, %voff : tensor<64x64x!tile.ptr<f16>, #b>, tensor<64x64xi32, #b>
      %vv = tile.load %vptr : tensor<64x64x!tile.ptr<f16>, #b>
      %cv = tile.convert_layout %vv : tensor<64x64xf16, #b> -> tensor<64x64xf16, #bo>
      %pt = tile.splat %pp : tensor<64x64x!tile.ptr<f16>, #mma>
      %p = tile.load %pt : tensor<64x64x!tile.ptr<f16>, #mma>
      %pa = tile.convert_layout %p : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #a>
      %d = tile.dot %pa, %cv, %acc : tensor<64x64xf16, #a> * tensor<64x64xf16, #bo> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    %p = arith.truncf %res : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
    %pa = tile.convert_layout %p : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #a>
    %last = tile.dot %pa, %lcv, %res : tensor<64x64xf16, #a> * tensor<64x64xf16, #bo> -> tensor<64x64xf32, #mma>
    %cp = tile.splat %pc : tensor<64x64x!tile.ptr<f32>, #mma>
    tile.store %cp, %last : tensor<64x64x!tile.ptr<f32>, #mma>
  }
  tile.return
}
