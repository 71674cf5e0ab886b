// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{threadsPerWarp must multiply to 32, got 16}}
#b = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
tile.kernel @k(%x: tensor<4xf32, #b>) { tile.return }

// -----

// expected-error @+1 {{sizePerThread, threadsPerWarp, warpsPerCTA and order must have one entry per dimension}}
#b = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.kernel @k(%x: tensor<4xf32, #b>) { tile.return }

// -----

// expected-error @+1 {{order must be a permutation of [0, 2)}}
#b = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 0]}>
tile.kernel @k(%x: tensor<4x4xf32, #b>) { tile.return }

// -----

// expected-error @+1 {{layout sizes must be powers of two, got 3}}
#b = #tile.blocked<{sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.kernel @k(%x: tensor<4xf32, #b>) { tile.return }

// -----

// expected-error @+1 {{repsPerWarp must have one entry per dimension}}
#b = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [2]}>
tile.kernel @k(%x: tensor<64x8xf32, #b>) { tile.return }

// -----

// One spelling per layout: all-ones repetitions are the plain layout.
// expected-error @+1 {{repsPerWarp is omitted when every entry is 1}}
#b = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [1, 1]}>
tile.kernel @k(%x: tensor<64x8xf32, #b>) { tile.return }

// -----

// expected-error @+1 {{layout sizes must be powers of two, got 3}}
#b = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [3, 1]}>
tile.kernel @k(%x: tensor<64x8xf32, #b>) { tile.return }

// -----

#b = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @+1 {{a slice of a rank-1 layout would be a scalar}}
#s = #tile.slice<{dim = 0, parent = #b}>
tile.kernel @k(%x: tensor<4xf32, #s>) { tile.return }

// -----

#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{slice dimension 2 out of range for a rank-2 parent}}
#s = #tile.slice<{dim = 2, parent = #b}>
tile.kernel @k(%x: tensor<4xf32, #s>) { tile.return }

// -----

#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
// expected-error @+1 {{dot operand index must be 0 or 1, got 2}}
#op = #tile.dot_operand<{opIdx = 2, parent = #mma}>
tile.kernel @k(%x: tensor<32x16xf16, #op>) { tile.return }

// -----

#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{a dot operand's parent must be an mma accumulator layout}}
#op = #tile.dot_operand<{opIdx = 0, parent = #b}>
tile.kernel @k(%x: tensor<32x16xf16, #op>) { tile.return }

// -----

#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#b = #tile.dot_operand<{opIdx = 0, parent = #mma}>
tile.kernel @k(%s: f16, %t: f32) {
  %x = tile.splat %s : tensor<32x16xf16, #a>
  %y = tile.splat %s : tensor<16x16xf16, #b>
  %c = tile.splat %t : tensor<32x16xf32, #mma>
  // expected-error @+1 {{'tile.dot' op tensor-core operands must have the layouts #tile.dot_operand<{opIdx = 0|1}> of the result's mma layout}}
  %d = tile.dot %x, %y, %c : tensor<32x16xf16, #a> * tensor<16x16xf16, #b> -> tensor<32x16xf32, #mma>
  tile.return
}

// -----

tile.kernel @k() {
  // expected-error @+1 {{'tile.shared_alloc' op needs a static memref of 8-, 16- or 32-bit elements in memory space 3, got 'memref<2x16x16xf16>'}}
  %buf = "tile.shared_alloc"() {encoding = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>} : () -> memref<2x16x16xf16>
  tile.return
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tile.kernel @k(%p: !tile.ptr<f16>, %s: i32, %m: i1) {
  %buf = tile.shared_alloc <{vec = 8, perPhase = 4, maxPhase = 2, order = [1, 0]}> : memref<2x16x16xf16, 3>
  %ptrs = tile.splat %p : tensor<16x32x!tile.ptr<f16>, #b>
  %mask = tile.splat %m : tensor<16x32xi1, #b>
  // expected-error @+1 {{'tile.async_copy' op tile [16, 32] of 'f16' is not one stage of the buffer 'memref<2x16x16xf16, 3>'}}
  tile.async_copy %ptrs, mask %mask into %buf[%s] : tensor<16x32x!tile.ptr<f16>, #b>, tensor<16x32xi1, #b>, memref<2x16x16xf16, 3>
  tile.return
}

// -----

#s = #tile.slice<{dim = 1, parent = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>
tile.kernel @k(%x: f16, %s: i32) {
  %buf = tile.shared_alloc <{vec = 8, perPhase = 4, maxPhase = 2, order = [1, 0]}> : memref<2x16x16xf16, 3>
  %v = tile.splat %x : tensor<16xf16, #s>
  // expected-error @+1 {{'tile.shared_store' op stores a 2-D blocked tile, got 'tensor<16xf16, #tile.slice<{dim = 1, parent = <{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>'}}
  tile.shared_store %v into %buf[%s] : tensor<16xf16, #s>, memref<2x16x16xf16, 3>
  tile.return
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tile.kernel @k(%x: f32, %s: i32) {
  %buf = tile.shared_alloc <{vec = 8, perPhase = 4, maxPhase = 2, order = [1, 0]}> : memref<2x16x16xf16, 3>
  %v = tile.splat %x : tensor<16x16xf32, #b>
  // expected-error @+1 {{'tile.shared_store' op tile [16, 16] of 'f32' is not one stage of the buffer 'memref<2x16x16xf16, 3>'}}
  tile.shared_store %v into %buf[%s] : tensor<16x16xf32, #b>, memref<2x16x16xf16, 3>
  tile.return
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tile.kernel @k(%p: !tile.ptr<f16>, %s: i32, %m: i1) {
  %buf = tile.shared_alloc <{vec = 8, perPhase = 4, maxPhase = 2, order = [1, 0]}> : memref<2x16x16xf16, 3>
  %ptrs = tile.splat %p : tensor<16x16x!tile.ptr<f16>, #b>
  %mask = tile.splat %m : tensor<16x32xi1, #b>
  // expected-error @+1 {{'tile.async_copy' op mask shape [16, 32] differs from the pointers' [16, 16]}}
  tile.async_copy %ptrs, mask %mask into %buf[%s] : tensor<16x16x!tile.ptr<f16>, #b>, tensor<16x32xi1, #b>, memref<2x16x16xf16, 3>
  tile.return
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tile.kernel @k(%s: i32) {
  %buf = tile.shared_alloc <{vec = 8, perPhase = 4, maxPhase = 2, order = [1, 0]}> : memref<2x16x16xf16, 3>
  // expected-error @+1 {{'tile.shared_load' op result must have a #tile.dot_operand or 2-D #tile.blocked layout}}
  %t = tile.shared_load %buf[%s] : memref<2x16x16xf16, 3> -> tensor<16x16xf16>
  tile.return
}

// -----

tile.kernel @k() {
  // expected-error @+1 {{'tile.shared_alloc' op result #0 must be 3D memref of integer or floating-point values, but got 'memref<16x16xf16, 3>'}}
  %buf = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}> : memref<16x16xf16, 3>
  tile.return
}

// -----

tile.kernel @k() {
  // expected-error @+1 {{vec, perPhase and maxPhase must be powers of two, got 3}}
  %buf = tile.shared_alloc <{vec = 8, perPhase = 3, maxPhase = 1, order = [1, 0]}> : memref<2x16x16xf16, 3>
  tile.return
}

// -----

tile.kernel @k() {
  // expected-error @+1 {{a shared tile is 2-D: order must be [1, 0] or [0, 1]}}
  %buf = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 1, order = [2, 0, 1]}> : memref<2x16x16xf16, 3>
  tile.return
}

// -----

tile.kernel @k() {
  // expected-error @+1 {{a panel is one swizzle atom: vec * maxPhase = 64 elements, got 32}}
  %buf = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 32}> : memref<2x64x128xf16, 3>
  tile.return
}


// -----

// Stored rows are always in order (the wgmma accumulator is in the
// instructions' row order): nothing follows `panel`.
tile.kernel @k() {
  // expected-error @+1 {{expected '}'}}
  %buf = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64, rowWarps = 8}> : memref<2x64x128xf16, 3>
  tile.return
}
