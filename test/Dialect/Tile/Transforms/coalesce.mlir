// RUN: tile-opt %s --tile-coalesce --split-input-file | FileCheck %s
// RUN: tile-opt %s --tile-coalesce=num-warps=8 --split-input-file | FileCheck %s --check-prefix=W8

// Contiguous f32 accesses through 16-byte-aligned pointers: 4 f32 (16 bytes)
// per thread, a warp's 32 threads on consecutive addresses.
// CHECK: #[[B:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tile.kernel @softmax_like
// CHECK-SAME: attributes {tile.num_warps = 4 : i32}
// CHECK: arith.constant dense<0xFF800000> : tensor<1024xf32, #[[B]]>
// CHECK: tile.make_range 0, 1024 : tensor<1024xi32, #[[B]]>
// CHECK: tile.load %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[B]]>
// CHECK: tile.reduce max %{{.*}} : tensor<1024xf32, #[[B]]> -> f32
// CHECK: tile.store %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[B]]>
// W8: #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// W8: tile.num_warps = 8 : i32
tile.kernel @softmax_like(%out: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %inp: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %stride: i32 {tile.divisibility = 16 : i32}, %n: i32) {
  %neginf = arith.constant dense<0xFF800000> : tensor<1024xf32>
  %row = tile.program_id 0
  %cols = tile.make_range 0, 1024 : tensor<1024xi32>
  %ns = tile.splat %n : tensor<1024xi32>
  %mask = arith.cmpi slt, %cols, %ns : tensor<1024xi32>
  %off = arith.muli %row, %stride : i32
  %base = tile.addptr %inp, %off : !tile.ptr<f32>, i32
  %bs = tile.splat %base : tensor<1024x!tile.ptr<f32>>
  %ptrs = tile.addptr %bs, %cols : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %x = tile.load %ptrs, mask %mask, other %neginf : tensor<1024x!tile.ptr<f32>>
  %m = tile.reduce max %x, axis = 0 : tensor<1024xf32> -> f32
  %obase = tile.addptr %out, %off : !tile.ptr<f32>, i32
  %os = tile.splat %obase : tensor<1024x!tile.ptr<f32>>
  %optrs = tile.addptr %os, %cols : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %optrs, %x, mask %mask : tensor<1024x!tile.ptr<f32>>
  tile.return
}

// -----

// Nothing known about the pointer's alignment: one element per thread.
// CHECK: #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tile.kernel @unaligned
tile.kernel @unaligned(%p: !tile.ptr<f32>) {
  %r = tile.make_range 0, 1024 : tensor<1024xi32>
  %ps = tile.splat %p : tensor<1024x!tile.ptr<f32>>
  %ptrs = tile.addptr %ps, %r : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %v = tile.load %ptrs : tensor<1024x!tile.ptr<f32>>
  tile.store %ptrs, %v : tensor<1024x!tile.ptr<f32>>
  tile.return
}

// -----

// Strided access (every other element): contiguity 1, no vectors.
// CHECK: #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tile.kernel @strided
tile.kernel @strided(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0, 1024 : tensor<1024xi32>
  %two = arith.constant dense<2> : tensor<1024xi32>
  %r2 = arith.muli %r, %two : tensor<1024xi32>
  %ps = tile.splat %p : tensor<1024x!tile.ptr<f32>>
  %ptrs = tile.addptr %ps, %r2 : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %v = tile.load %ptrs : tensor<1024x!tile.ptr<f32>>
  tile.store %ptrs, %v : tensor<1024x!tile.ptr<f32>>
  tile.return
}

// -----

// 2-D f16 tile with rows of 32 contiguous elements and a row stride divisible
// by 16: 8 f16 (16 bytes) per thread along the rows; 1-D tiles feeding
// expand_dims go through slice layouts, a 2-D reduction's result (builtin or
// generic) comes out in a slice layout and is converted for the 1-D store.
// CHECK-DAG: #[[B1:.*]] = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[B2:.*]] = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[S1:.*]] = #tile.slice<{dim = 1, parent = #[[B2]]}>
// CHECK-DAG: #[[S0:.*]] = #tile.slice<{dim = 0, parent = #[[B2]]}>
// CHECK-LABEL: tile.kernel @tile2d
// CHECK: %[[RM:.*]] = tile.make_range 0, 128 : tensor<128xi32, #[[B1]]>
// CHECK: %[[RK:.*]] = tile.make_range 0, 32 : tensor<32xi32, #[[B1]]>
// CHECK: %[[C1:.*]] = tile.convert_layout %[[RM]] : tensor<128xi32, #[[B1]]> -> tensor<128xi32, #[[S1]]>
// CHECK: tile.expand_dims %[[C1]], axis = 1 : tensor<128xi32, #[[S1]]> -> tensor<128x1xi32, #[[B2]]>
// CHECK: %[[C0:.*]] = tile.convert_layout %[[RK]] : tensor<32xi32, #[[B1]]> -> tensor<32xi32, #[[S0]]>
// CHECK: tile.expand_dims %[[C0]], axis = 0 : tensor<32xi32, #[[S0]]> -> tensor<1x32xi32, #[[B2]]>
// CHECK: tile.load %{{.*}} : tensor<128x32x!tile.ptr<f16>, #[[B2]]>
// CHECK: %[[SUM:.*]] = tile.reduce sum %{{.*}}, axis = 1 : tensor<128x32xf32, #[[B2]]> -> tensor<128xf32, #[[S1]]>
// CHECK: %[[SUMB:.*]] = tile.convert_layout %[[SUM]] : tensor<128xf32, #[[S1]]> -> tensor<128xf32, #[[B1]]>
// CHECK: tile.store %{{.*}}, %[[SUMB]] : tensor<128x!tile.ptr<f32>, #[[B1]]>
// CHECK: %[[MAX:.*]] = tile.generic_reduce %{{.*}}, axis = 1 : tensor<128x32xf32, #[[B2]]> -> tensor<128xf32, #[[S1]]> {
// CHECK: %[[MAXB:.*]] = tile.convert_layout %[[MAX]] : tensor<128xf32, #[[S1]]> -> tensor<128xf32, #[[B1]]>
// CHECK: tile.store %{{.*}}, %[[MAXB]] : tensor<128x!tile.ptr<f32>, #[[B1]]>
tile.kernel @tile2d(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %lda: i32 {tile.divisibility = 16 : i32}, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %rm = tile.make_range 0, 128 : tensor<128xi32>
  %rk = tile.make_range 0, 32 : tensor<32xi32>
  %col = tile.expand_dims %rm, axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
  %ldas = tile.splat %lda : tensor<128x1xi32>
  %rowoff = arith.muli %col, %ldas : tensor<128x1xi32>
  %row = tile.expand_dims %rk, axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %rb = tile.broadcast %rowoff : tensor<128x1xi32> -> tensor<128x32xi32>
  %cb = tile.broadcast %row : tensor<1x32xi32> -> tensor<128x32xi32>
  %offs = arith.addi %rb, %cb : tensor<128x32xi32>
  %as = tile.splat %a : tensor<128x32x!tile.ptr<f16>>
  %ptrs = tile.addptr %as, %offs : tensor<128x32x!tile.ptr<f16>>, tensor<128x32xi32>
  %v = tile.load %ptrs : tensor<128x32x!tile.ptr<f16>>
  %f = arith.extf %v : tensor<128x32xf16> to tensor<128x32xf32>
  %s = tile.reduce sum %f, axis = 1 : tensor<128x32xf32> -> tensor<128xf32>
  %os = tile.splat %out : tensor<128x!tile.ptr<f32>>
  %optrs = tile.addptr %os, %rm : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  tile.store %optrs, %s : tensor<128x!tile.ptr<f32>>
  %g = tile.generic_reduce %f, axis = 1 : tensor<128x32xf32> -> tensor<128xf32> {
  ^bb0(%x: f32, %y: f32):
    %mx = arith.maximumf %x, %y : f32
    tile.combine_yield %mx : f32
  }
  tile.store %optrs, %g : tensor<128x!tile.ptr<f32>>
  tile.return
}

// -----

// A load that only feeds a dot is copied into shared memory, so its layout
// sets only which thread copies what: rows of 64 f32 (256 bytes) spread
// over 16 lanes would leave each thread 16 rows (16 row addresses through
// a K loop), so its lanes cover one 128-byte line per row (8 x 16 bytes)
// and all warps take rows: 8 rows per thread, each reached twice at a
// constant offset. The same tile loaded for an add keeps the kernel's
// layout (16 lanes along the row).
// CHECK-DAG: #[[K:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[LINE:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tile.kernel @dot_operand_rows
// CHECK: %[[P:.*]] = tile.convert_layout %{{.*}} : tensor<128x64x!tile.ptr<f32>, #[[K]]> -> tensor<128x64x!tile.ptr<f32>, #[[LINE]]>
// CHECK: %[[A:.*]] = tile.load %[[P]] : tensor<128x64x!tile.ptr<f32>, #[[LINE]]>
// CHECK: tile.convert_layout %[[A]] : tensor<128x64xf32, #[[LINE]]> -> tensor<128x64xf32, #[[K]]>
// CHECK: tile.dot
// CHECK: tile.load %{{.*}} : tensor<128x64x!tile.ptr<f32>, #[[K]]>
// CHECK: tile.store %{{.*}} : tensor<128x64x!tile.ptr<f32>, #[[K]]>
tile.kernel @dot_operand_rows(%a: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %lda: i32 {tile.divisibility = 16 : i32}, %x: f32, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %rm = tile.make_range 0, 128 : tensor<128xi32>
  %rk = tile.make_range 0, 64 : tensor<64xi32>
  %col = tile.expand_dims %rm, axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
  %ldas = tile.splat %lda : tensor<128x1xi32>
  %rowoff = arith.muli %col, %ldas : tensor<128x1xi32>
  %row = tile.expand_dims %rk, axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %rb = tile.broadcast %rowoff : tensor<128x1xi32> -> tensor<128x64xi32>
  %cb = tile.broadcast %row : tensor<1x64xi32> -> tensor<128x64xi32>
  %offs = arith.addi %rb, %cb : tensor<128x64xi32>
  %as = tile.splat %a : tensor<128x64x!tile.ptr<f32>>
  %ptrs = tile.addptr %as, %offs : tensor<128x64x!tile.ptr<f32>>, tensor<128x64xi32>
  %av = tile.load %ptrs : tensor<128x64x!tile.ptr<f32>>
  %bv = tile.splat %x : tensor<64x64xf32>
  %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  %d = tile.dot %av, %bv, %zero : tensor<128x64xf32> * tensor<64x64xf32> -> tensor<128x64xf32>
  %v = tile.load %ptrs : tensor<128x64x!tile.ptr<f32>>
  %s = arith.addf %d, %v : tensor<128x64xf32>
  %os = tile.splat %out : tensor<128x64x!tile.ptr<f32>>
  %optrs = tile.addptr %os, %offs : tensor<128x64x!tile.ptr<f32>>, tensor<128x64xi32>
  tile.store %optrs, %s : tensor<128x64x!tile.ptr<f32>>
  tile.return
}

// -----

// Where the cap changes nothing (rows of 32 f32 already take 8 lanes, so
// the load's own layout has as many rows per thread), a dot operand's load
// stays in the kernel's layout, as before the cap (the tuned f32 FMA
// kernels' copies are unchanged).
// CHECK: #[[K2:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tile.kernel @dot_operand_line_rows
// CHECK-NOT: tile.convert_layout {{.*}}x!tile.ptr<f32>
// CHECK: tile.load %{{.*}} : tensor<256x32x!tile.ptr<f32>, #[[K2]]>
tile.kernel @dot_operand_line_rows(%a: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %lda: i32 {tile.divisibility = 16 : i32}, %x: f32, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %rm = tile.make_range 0, 256 : tensor<256xi32>
  %rk = tile.make_range 0, 32 : tensor<32xi32>
  %rn = tile.make_range 0, 64 : tensor<64xi32>
  %col = tile.expand_dims %rm, axis = 1 : tensor<256xi32> -> tensor<256x1xi32>
  %ldas = tile.splat %lda : tensor<256x1xi32>
  %rowoff = arith.muli %col, %ldas : tensor<256x1xi32>
  %ncol = tile.expand_dims %rn, axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %orb = tile.broadcast %rowoff : tensor<256x1xi32> -> tensor<256x64xi32>
  %ocb = tile.broadcast %ncol : tensor<1x64xi32> -> tensor<256x64xi32>
  %ooffs = arith.addi %orb, %ocb : tensor<256x64xi32>
  %os = tile.splat %out : tensor<256x64x!tile.ptr<f32>>
  %optrs = tile.addptr %os, %ooffs : tensor<256x64x!tile.ptr<f32>>, tensor<256x64xi32>
  %res = tile.load %optrs : tensor<256x64x!tile.ptr<f32>>
  %row = tile.expand_dims %rk, axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %rb = tile.broadcast %rowoff : tensor<256x1xi32> -> tensor<256x32xi32>
  %cb = tile.broadcast %row : tensor<1x32xi32> -> tensor<256x32xi32>
  %offs = arith.addi %rb, %cb : tensor<256x32xi32>
  %as = tile.splat %a : tensor<256x32x!tile.ptr<f32>>
  %ptrs = tile.addptr %as, %offs : tensor<256x32x!tile.ptr<f32>>, tensor<256x32xi32>
  %av = tile.load %ptrs : tensor<256x32x!tile.ptr<f32>>
  %bv = tile.splat %x : tensor<32x64xf32>
  %zero = arith.constant dense<0.0> : tensor<256x64xf32>
  %d = tile.dot %av, %bv, %zero : tensor<256x32xf32> * tensor<32x64xf32> -> tensor<256x64xf32>
  %sum = arith.addf %d, %res : tensor<256x64xf32>
  tile.store %optrs, %sum : tensor<256x64x!tile.ptr<f32>>
  tile.return
}


// -----

// f16 rows aligned only to the element (no divisibility fact for %lda) are
// copied element by element: one element a lane along the row would leave
// each thread 32 rows of a 128 x 32 tile (32 row addresses through a K
// loop), so a dot operand's copy takes runs of elements a thread along the
// row instead, the shortest that leaves at most 8 rows: 4 f16, 8 rows.
// CHECK-DAG: #[[ELEM:.*]] = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[RUNS:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tile.kernel @dot_operand_element_runs
// CHECK: tile.load %{{.*}} : tensor<128x32x!tile.ptr<f16>, #[[RUNS]]>
// CHECK: tile.dot
// CHECK: tile.load %{{.*}} : tensor<128x32x!tile.ptr<f16>, #[[ELEM]]>
tile.kernel @dot_operand_element_runs(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %lda: i32, %x: f16, %out: !tile.ptr<f16> {tile.divisibility = 16 : i32}) {
  %rm = tile.make_range 0, 128 : tensor<128xi32>
  %rk = tile.make_range 0, 32 : tensor<32xi32>
  %col = tile.expand_dims %rm, axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
  %ldas = tile.splat %lda : tensor<128x1xi32>
  %rowoff = arith.muli %col, %ldas : tensor<128x1xi32>
  %row = tile.expand_dims %rk, axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %rb = tile.broadcast %rowoff : tensor<128x1xi32> -> tensor<128x32xi32>
  %cb = tile.broadcast %row : tensor<1x32xi32> -> tensor<128x32xi32>
  %offs = arith.addi %rb, %cb : tensor<128x32xi32>
  %as = tile.splat %a : tensor<128x32x!tile.ptr<f16>>
  %ptrs = tile.addptr %as, %offs : tensor<128x32x!tile.ptr<f16>>, tensor<128x32xi32>
  %av = tile.load %ptrs : tensor<128x32x!tile.ptr<f16>>
  %bv = tile.splat %x : tensor<32x32xf16>
  %zero = arith.constant dense<0.0> : tensor<128x32xf32>
  %d = tile.dot %av, %bv, %zero : tensor<128x32xf16> * tensor<32x32xf16> -> tensor<128x32xf32>
  %v = tile.load %ptrs : tensor<128x32x!tile.ptr<f16>>
  %h = arith.truncf %d : tensor<128x32xf32> to tensor<128x32xf16>
  %s = arith.addf %h, %v : tensor<128x32xf16>
  %os = tile.splat %out : tensor<128x32x!tile.ptr<f16>>
  %optrs = tile.addptr %os, %offs : tensor<128x32x!tile.ptr<f16>>, tensor<128x32xi32>
  tile.store %optrs, %s : tensor<128x32x!tile.ptr<f16>>
  tile.return
}

// -----

// f32 rows aligned only to the element are copied 4 bytes at a time
// (cp.async's smallest copy). Along the K of an f32 dot on FMA units such a
// copy takes runs of 4 f32 (16 bytes), 8 rows a thread instead of 32
// (4095³ f32 NT: 29.1 -> 38.8 TFLOP/s); for a tf32 dot it keeps one element
// a lane along the row (runs ran tf32 5-20% slower: a warp's copies over
// 4x the lines).
// CHECK-DAG: #[[RUNS32:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tile.kernel @fma_dot_word_runs
// CHECK: tile.load %{{.*}} : tensor<128x32x!tile.ptr<f32>, #[[RUNS32]]>
// CHECK: tile.dot
tile.kernel @fma_dot_word_runs(%a: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %lda: i32, %x: f32, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %rm = tile.make_range 0, 128 : tensor<128xi32>
  %rk = tile.make_range 0, 32 : tensor<32xi32>
  %col = tile.expand_dims %rm, axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
  %ldas = tile.splat %lda : tensor<128x1xi32>
  %rowoff = arith.muli %col, %ldas : tensor<128x1xi32>
  %row = tile.expand_dims %rk, axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %rb = tile.broadcast %rowoff : tensor<128x1xi32> -> tensor<128x32xi32>
  %cb = tile.broadcast %row : tensor<1x32xi32> -> tensor<128x32xi32>
  %offs = arith.addi %rb, %cb : tensor<128x32xi32>
  %as = tile.splat %a : tensor<128x32x!tile.ptr<f32>>
  %ptrs = tile.addptr %as, %offs : tensor<128x32x!tile.ptr<f32>>, tensor<128x32xi32>
  %av = tile.load %ptrs : tensor<128x32x!tile.ptr<f32>>
  %bv = tile.splat %x : tensor<32x32xf32>
  %zero = arith.constant dense<0.0> : tensor<128x32xf32>
  %d = tile.dot %av, %bv, %zero : tensor<128x32xf32> * tensor<32x32xf32> -> tensor<128x32xf32>
  %os = tile.splat %out : tensor<128x32x!tile.ptr<f32>>
  %optrs = tile.addptr %os, %offs : tensor<128x32x!tile.ptr<f32>>, tensor<128x32xi32>
  tile.store %optrs, %d : tensor<128x32x!tile.ptr<f32>>
  tile.return
}


// -----

// CHECK-DAG: #[[LANES32:.*]] = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tile.kernel @tf32_dot_word_copies
// CHECK: tile.load %{{.*}} : tensor<128x32x!tile.ptr<f32>, #[[LANES32]]>
// CHECK: tile.dot
tile.kernel @tf32_dot_word_copies(%a: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %lda: i32, %x: f32, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %rm = tile.make_range 0, 128 : tensor<128xi32>
  %rk = tile.make_range 0, 32 : tensor<32xi32>
  %col = tile.expand_dims %rm, axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
  %ldas = tile.splat %lda : tensor<128x1xi32>
  %rowoff = arith.muli %col, %ldas : tensor<128x1xi32>
  %row = tile.expand_dims %rk, axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %rb = tile.broadcast %rowoff : tensor<128x1xi32> -> tensor<128x32xi32>
  %cb = tile.broadcast %row : tensor<1x32xi32> -> tensor<128x32xi32>
  %offs = arith.addi %rb, %cb : tensor<128x32xi32>
  %as = tile.splat %a : tensor<128x32x!tile.ptr<f32>>
  %ptrs = tile.addptr %as, %offs : tensor<128x32x!tile.ptr<f32>>, tensor<128x32xi32>
  %av = tile.load %ptrs : tensor<128x32x!tile.ptr<f32>>
  %bv = tile.splat %x : tensor<32x32xf32>
  %zero = arith.constant dense<0.0> : tensor<128x32xf32>
  %d = tile.dot %av, %bv, %zero precision = tf32 : tensor<128x32xf32> * tensor<32x32xf32> -> tensor<128x32xf32>
  %os = tile.splat %out : tensor<128x32x!tile.ptr<f32>>
  %optrs = tile.addptr %os, %offs : tensor<128x32x!tile.ptr<f32>>, tensor<128x32xi32>
  tile.store %optrs, %d : tensor<128x32x!tile.ptr<f32>>
  tile.return
}

// -----

// Rank-0 tensors (reachable through upstream arith ops) get no layout; the
// pass must not index an empty dimension order.
// CHECK-LABEL: tile.kernel @rank0
// CHECK: tile.load %{{.*}} : tensor<!tile.ptr<f32>>
tile.kernel @rank0(%p: !tile.ptr<f32>) {
  %t = tile.splat %p : tensor<!tile.ptr<f32>>
  %v = tile.load %t : tensor<!tile.ptr<f32>>
  tile.return
}
