// RUN: tile-opt %s --split-input-file --tile-prefetch-loads | FileCheck %s

#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#r = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>

// A row sum over chunks (a GEMV's shape): the chunk's pointers and mask come
// from the induction variable, so the first chunk is loaded before the loop
// (masked off when the loop runs none) and each iteration loads the next
// chunk first, carrying it (past the end, and where %i + 32 wraps, it loads
// its own chunk again: a select of the index, no mask of its own); the body
// reads the carried chunk.
// CHECK-LABEL: tile.kernel @row_sum
// CHECK-SAME: (%[[P:.*]]: !tile.ptr<f32>, %[[N:.*]]: i32)
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %[[C0:.*]], %[[N]] : i32
// CHECK: %[[OFF0:.*]] = tile.splat %[[C0]] : tensor<64x32xi32, #blocked>
// CHECK: %[[IN0:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<64x32xi32, #blocked>
// CHECK: %[[RUNS_T:.*]] = tile.splat %[[RUNS]] : tensor<64x32xi1, #blocked>
// CHECK: %[[M0:.*]] = arith.andi %[[IN0]], %[[RUNS_T]]
// CHECK: %[[FIRST:.*]] = tile.load %{{.*}}, mask %[[M0]], other %{{.*}}
// CHECK: scf.for %[[I:.*]] = %[[C0]] to %[[N]] step %[[C32:.*]] iter_args(%[[ACC:.*]] = %{{.*}}, %[[CUR:.*]] = %[[FIRST]])
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[I]], %[[C32]] : i32
// CHECK-NEXT: %[[NOWRAP:.*]] = arith.cmpi slt, %[[I]], %[[NEXT]] : i32
// CHECK-NEXT: %[[INSIDE:.*]] = arith.cmpi slt, %[[NEXT]], %[[N]] : i32
// CHECK-NEXT: %[[VALID:.*]] = arith.andi %[[INSIDE]], %[[NOWRAP]] : i1
// CHECK-NEXT: %[[AT:.*]] = arith.select %[[VALID]], %[[NEXT]], %[[I]] : i32
// CHECK-NEXT: %[[OFF:.*]] = tile.splat %[[AT]] : tensor<64x32xi32, #blocked>
// CHECK-NEXT: %[[PTR:.*]] = tile.addptr %{{.*}}, %[[OFF]]
// CHECK-NEXT: %[[M:.*]] = arith.cmpi slt, %[[OFF]], %{{.*}} : tensor<64x32xi32, #blocked>
// CHECK-NEXT: %[[AHEAD:.*]] = tile.load %[[PTR]], mask %[[M]], other
// CHECK-NOT: tile.load
// CHECK: %[[SUM:.*]] = arith.addf %[[ACC]], %[[CUR]]
// CHECK-NEXT: scf.yield %[[SUM]], %[[AHEAD]]
tile.kernel @row_sum(%p: !tile.ptr<f32>, %n: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %zero = arith.constant dense<0.0> : tensor<64x32xf32, #b>
  %base = tile.splat %p : tensor<64x32x!tile.ptr<f32>, #b>
  %lim = tile.splat %n : tensor<64x32xi32, #b>
  %res = scf.for %i = %c0 to %n step %c32 iter_args(%acc = %zero) -> (tensor<64x32xf32, #b>) : i32 {
    %off = tile.splat %i : tensor<64x32xi32, #b>
    %ptr = tile.addptr %base, %off : tensor<64x32x!tile.ptr<f32>, #b>, tensor<64x32xi32, #b>
    %in = arith.cmpi slt, %off, %lim : tensor<64x32xi32, #b>
    %v = tile.load %ptr, mask %in, other %zero : tensor<64x32x!tile.ptr<f32>, #b>
    %s = arith.addf %acc, %v : tensor<64x32xf32, #b>
    scf.yield %s : tensor<64x32xf32, #b>
  }
  tile.return
}

// -----

#r = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Before the loop, an unmasked tile load takes the loop's bounds as its
// whole mask, and a scalar load an i1 mask; in the loop both stay unmasked
// (past the end they read this iteration's addresses). An unsigned loop
// compares unsigned.
// CHECK-LABEL: tile.kernel @unmasked
// CHECK: %[[RUNS:.*]] = arith.cmpi ult
// CHECK: tile.splat %[[RUNS]] : tensor<256xi1, #blocked>
// CHECK: tile.load
// CHECK: %[[S0:.*]] = tile.load %{{.*}}, mask %[[RUNS]] : !tile.ptr<f32>
// CHECK: scf.for unsigned %[[I:[a-z0-9_]+]] =
// CHECK: %[[NOWRAP:.*]] = arith.cmpi ult
// CHECK: %[[INSIDE:.*]] = arith.cmpi ult
// CHECK: %[[VALID:.*]] = arith.andi %[[INSIDE]], %[[NOWRAP]] : i1
// CHECK: %[[AT:.*]] = arith.select %[[VALID]], %{{.*}}, %[[I]] : i32
// CHECK: tile.load %{{.*}} : tensor<256x!tile.ptr<f32>, #blocked>
// CHECK: %[[SP:.*]] = tile.addptr %{{.*}}, %[[AT]] : !tile.ptr<f32>, i32
// CHECK-NEXT: tile.load %[[SP]] : !tile.ptr<f32>
tile.kernel @unmasked(%p: !tile.ptr<f32>, %q: !tile.ptr<f32>, %n: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c256 = arith.constant 256 : i32
  %zero = arith.constant dense<0.0> : tensor<256xf32, #r>
  %r = tile.make_range 0, 256 : tensor<256xi32, #r>
  %base = tile.splat %p : tensor<256x!tile.ptr<f32>, #r>
  %res = scf.for unsigned %i = %c0 to %n step %c256 iter_args(%acc = %zero) -> (tensor<256xf32, #r>) : i32 {
    %off = tile.splat %i : tensor<256xi32, #r>
    %idx = arith.addi %off, %r : tensor<256xi32, #r>
    %ptr = tile.addptr %base, %idx : tensor<256x!tile.ptr<f32>, #r>, tensor<256xi32, #r>
    %v = tile.load %ptr : tensor<256x!tile.ptr<f32>, #r>
    %sp = tile.addptr %q, %i : !tile.ptr<f32>, i32
    %sv = tile.load %sp : !tile.ptr<f32>
    %w = tile.splat %sv : tensor<256xf32, #r>
    %x = arith.mulf %v, %w : tensor<256xf32, #r>
    %s = arith.addf %acc, %x : tensor<256xf32, #r>
    scf.yield %s : tensor<256xf32, #r>
  }
  tile.return
}

// -----

#r = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Left as they are: a loop that stores (the store of one iteration could be
// what the next loads), and a load whose pointers advance by a value the
// loop computes from another carried value.
// CHECK-LABEL: tile.kernel @left_alone
// CHECK: scf.for
// CHECK-NOT: iter_args
// CHECK: tile.load
// CHECK: tile.store
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<256x!tile.ptr<f32>, #blocked>, tensor<256xi32, #blocked>)
// CHECK: tile.load
tile.kernel @left_alone(%p: !tile.ptr<f32>, %n: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c256 = arith.constant 256 : i32
  %r = tile.make_range 0, 256 : tensor<256xi32, #r>
  %base = tile.splat %p : tensor<256x!tile.ptr<f32>, #r>
  scf.for %i = %c0 to %n step %c256 : i32 {
    %off = tile.splat %i : tensor<256xi32, #r>
    %idx = arith.addi %off, %r : tensor<256xi32, #r>
    %ptr = tile.addptr %base, %idx : tensor<256x!tile.ptr<f32>, #r>, tensor<256xi32, #r>
    %v = tile.load %ptr : tensor<256x!tile.ptr<f32>, #r>
    %x = arith.addf %v, %v : tensor<256xf32, #r>
    tile.store %ptr, %x : tensor<256x!tile.ptr<f32>, #r>
  }
  %fin:2 = scf.for %i = %c0 to %n step %c256 iter_args(%ptr = %base, %stride = %r) -> (tensor<256x!tile.ptr<f32>, #r>, tensor<256xi32, #r>) : i32 {
    %v = tile.load %ptr : tensor<256x!tile.ptr<f32>, #r>
    %next = tile.addptr %ptr, %stride : tensor<256x!tile.ptr<f32>, #r>, tensor<256xi32, #r>
    %bits = arith.fptosi %v : tensor<256xf32, #r> to tensor<256xi32, #r>
    scf.yield %next, %bits : tensor<256x!tile.ptr<f32>, #r>, tensor<256xi32, #r>
  }
  tile.return
}

// -----

#r = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Pointers the loop advances itself (`p = p + 256`, as Triton's kernels
// write them): the first load reads the initial pointers, and each
// iteration loads from its pointers advanced as the yield advances them,
// masked off past the end.
// CHECK-LABEL: tile.kernel @advancing
// CHECK-SAME: (%[[P:.*]]: !tile.ptr<f32>,
// CHECK: %[[BASE:.*]] = tile.splat %[[P]]
// CHECK: %[[STEP:.*]] = tile.splat %{{.*}} : tensor<256xi32, #blocked>
// CHECK: %[[FIRST:.*]] = tile.load %[[BASE]], mask
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[PTR:.*]] = %[[BASE]], %[[CUR:.*]] = %[[FIRST]])
// CHECK: %[[VALID:.*]] = arith.andi
// CHECK: %[[AHEAD_PTR:.*]] = tile.addptr %[[PTR]], %[[STEP]]
// CHECK-NEXT: %[[OFF:.*]] = tile.splat %[[VALID]] : tensor<256xi1, #blocked>
// CHECK-NEXT: %[[AHEAD:.*]] = tile.load %[[AHEAD_PTR]], mask %[[OFF]]
// CHECK-DAG: %[[NEXT:.*]] = tile.addptr %[[PTR]], %[[STEP]]
// CHECK-DAG: %[[SUM:.*]] = arith.addf %[[ACC]], %[[CUR]]
// CHECK: scf.yield %[[SUM]], %[[NEXT]], %[[AHEAD]]
tile.kernel @advancing(%p: !tile.ptr<f32>, %n: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c256 = arith.constant 256 : i32
  %zero = arith.constant dense<0.0> : tensor<256xf32, #r>
  %base = tile.splat %p : tensor<256x!tile.ptr<f32>, #r>
  %step = tile.splat %c256 : tensor<256xi32, #r>
  %fin:2 = scf.for %i = %c0 to %n step %c256 iter_args(%acc = %zero, %ptr = %base) -> (tensor<256xf32, #r>, tensor<256x!tile.ptr<f32>, #r>) : i32 {
    %v = tile.load %ptr : tensor<256x!tile.ptr<f32>, #r>
    %s = arith.addf %acc, %v : tensor<256xf32, #r>
    %next = tile.addptr %ptr, %step : tensor<256x!tile.ptr<f32>, #r>, tensor<256xi32, #r>
    scf.yield %s, %next : tensor<256xf32, #r>, tensor<256x!tile.ptr<f32>, #r>
  }
  tile.return
}

// -----

#big = #tile.blocked<{sizePerThread = [32], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Two 4096-element f32 tiles are 128 bytes a thread each: both fit in the
// 256 bytes; a third is loaded where the loop has it.
// CHECK-LABEL: tile.kernel @budget
// CHECK-COUNT-2: tile.load
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<4096xf32, #blocked>, tensor<4096xf32, #blocked>, tensor<4096xf32, #blocked>)
// CHECK-COUNT-3: tile.load
// CHECK-NOT: tile.load
// CHECK: scf.yield
tile.kernel @budget(%p: !tile.ptr<f32>, %n: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c4096 = arith.constant 4096 : i32
  %zero = arith.constant dense<0.0> : tensor<4096xf32, #big>
  %r = tile.make_range 0, 4096 : tensor<4096xi32, #big>
  %base = tile.splat %p : tensor<4096x!tile.ptr<f32>, #big>
  %res = scf.for %i = %c0 to %n step %c4096 iter_args(%acc = %zero) -> (tensor<4096xf32, #big>) : i32 {
    %off = tile.splat %i : tensor<4096xi32, #big>
    %idx = arith.addi %off, %r : tensor<4096xi32, #big>
    %p1 = tile.addptr %base, %idx : tensor<4096x!tile.ptr<f32>, #big>, tensor<4096xi32, #big>
    %p2 = tile.addptr %p1, %off : tensor<4096x!tile.ptr<f32>, #big>, tensor<4096xi32, #big>
    %p3 = tile.addptr %p2, %off : tensor<4096x!tile.ptr<f32>, #big>, tensor<4096xi32, #big>
    %v1 = tile.load %p1 : tensor<4096x!tile.ptr<f32>, #big>
    %v2 = tile.load %p2 : tensor<4096x!tile.ptr<f32>, #big>
    %v3 = tile.load %p3 : tensor<4096x!tile.ptr<f32>, #big>
    %s1 = arith.addf %acc, %v1 : tensor<4096xf32, #big>
    %s2 = arith.addf %s1, %v2 : tensor<4096xf32, #big>
    %s3 = arith.addf %s2, %v3 : tensor<4096xf32, #big>
    scf.yield %s3 : tensor<4096xf32, #big>
  }
  tile.return
}

// -----

#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>

// A loop with a dot is tile-promote-shared's: its loads stay.
// CHECK-LABEL: tile.kernel @with_dot
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<32x32xf32, #mma>)
// CHECK: tile.load
// CHECK: tile.dot
tile.kernel @with_dot(%p: !tile.ptr<f16>, %n: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant dense<0.0> : tensor<32x32xf32, #mma>
  %bv = arith.constant dense<1.0> : tensor<16x32xf16, #bo>
  %base = tile.splat %p : tensor<32x16x!tile.ptr<f16>, #a>
  %res = scf.for %i = %c0 to %n step %c16 iter_args(%acc = %zero) -> (tensor<32x32xf32, #mma>) : i32 {
    %off = tile.splat %i : tensor<32x16xi32, #a>
    %ptr = tile.addptr %base, %off : tensor<32x16x!tile.ptr<f16>, #a>, tensor<32x16xi32, #a>
    %av = tile.load %ptr : tensor<32x16x!tile.ptr<f16>, #a>
    %d = tile.dot %av, %bv, %acc : tensor<32x16xf16, #a> * tensor<16x32xf16, #bo> -> tensor<32x32xf32, #mma>
    scf.yield %d : tensor<32x32xf32, #mma>
  }
  tile.return
}
