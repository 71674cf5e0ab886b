// RUN: tile-opt %s --convert-tile-to-gpu --split-input-file --verify-diagnostics

// expected-error @+1 {{kernel has no 'tile.num_warps': run tile-coalesce before convert-tile-to-gpu}}
tile.kernel @no_layouts(%p: !tile.ptr<f32>) {
  tile.return
}

// -----

tile.kernel @unlaid(%p: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  // expected-error @+1 {{tile without a layout: run tile-coalesce before convert-tile-to-gpu}}
  %r = tile.make_range 0, 16 : tensor<16xi32>
  tile.return
}

// -----

#p3 = #tile.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
#s = #tile.slice<{dim = 0, parent = #p3}>
tile.kernel @copy_sliced(%p: !tile.ptr<f32>, %st: i32, %m: i1) attributes {tile.num_warps = 4 : i32} {
  %buf = tile.shared_alloc <{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}> : memref<2x16x16xf32, 3>
  %ptrs = tile.splat %p : tensor<16x16x!tile.ptr<f32>, #s>
  %mask = tile.splat %m : tensor<16x16xi1, #s>
  // expected-error @+1 {{async_copy needs a 2-D blocked tile of pointers}}
  tile.async_copy %ptrs, mask %mask into %buf[%st] : tensor<16x16x!tile.ptr<f32>, #s>, tensor<16x16xi1, #s>, memref<2x16x16xf32, 3>
  tile.return
}

// -----

#p3 = #tile.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
#s = #tile.slice<{dim = 0, parent = #p3}>
tile.kernel @reduce_sliced(%p: !tile.ptr<f32>, %v: f32) attributes {tile.num_warps = 4 : i32} {
  %t = tile.splat %v : tensor<16x16xf32, #s>
  // expected-error @+1 {{reducing a sliced tile is not supported by convert-tile-to-gpu}}
  %r = tile.reduce sum %t, axis = 0 : tensor<16x16xf32, #s> -> tensor<16xf32, #tile.slice<{dim = 0, parent = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
  tile.return
}

// -----

#b2 = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#b1 = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.kernel @reduce_unsliced_result(%v: i32) attributes {tile.num_warps = 4 : i32} {
  %t = tile.splat %v : tensor<8x16xi32, #b2>
  // expected-error @+1 {{a reduction's result must have the slice layout of its source along the axis (as tile-coalesce gives it)}}
  %r = tile.generic_reduce %t, axis = 1 : tensor<8x16xi32, #b2> -> tensor<8xi32, #b1> {
  ^bb0(%a: i32, %b: i32):
    %o = arith.ori %a, %b : i32
    tile.combine_yield %o : i32
  }
  tile.return
}

// -----

#p3 = #tile.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
#s = #tile.slice<{dim = 0, parent = #p3}>
tile.kernel @trans_sliced(%v: f32) attributes {tile.num_warps = 4 : i32} {
  %t = tile.splat %v : tensor<16x16xf32, #s>
  // expected-error @+1 {{transpose of a sliced tile is not supported by convert-tile-to-gpu}}
  %r = tile.trans %t : tensor<16x16xf32, #s> -> tensor<16x16xf32, #s>
  tile.return
}

// -----

#a = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
tile.kernel @broadcast_layouts(%v: f32) attributes {tile.num_warps = 4 : i32} {
  %t = tile.splat %v : tensor<1x16xf32, #a>
  // expected-error @+1 {{broadcast between different layouts is not supported by convert-tile-to-gpu}}
  %r = tile.broadcast %t : tensor<1x16xf32, #a> -> tensor<16x16xf32, #b>
  tile.return
}

// -----

#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.kernel @iota_constant() attributes {tile.num_warps = 4 : i32} {
  // expected-error @+1 {{a non-uniform tile constant is not supported by convert-tile-to-gpu}}
  %c = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32, #b>
  tile.return
}

// -----

#p3 = #tile.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
#s = #tile.slice<{dim = 0, parent = #p3}>
tile.kernel @dot_sliced(%v: f32) attributes {tile.num_warps = 4 : i32} {
  %t = tile.splat %v : tensor<16x16xf32, #s>
  // expected-error @+1 {{dot needs a 2-D blocked accumulator layout}}
  %d = tile.dot %t, %t, %t : tensor<16x16xf32, #s> * tensor<16x16xf32, #s> -> tensor<16x16xf32, #s>
  tile.return
}

// -----

#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#p3 = #tile.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
#s = #tile.slice<{dim = 0, parent = #p3}>
tile.kernel @operand_from_slice(%v: f16) attributes {tile.num_warps = 4 : i32} {
  %t = tile.splat %v : tensor<64x32xf16, #s>
  // expected-error @+1 {{a dot operand must be converted from a 2-D blocked tile}}
  %a = tile.convert_layout %t : tensor<64x32xf16, #s> -> tensor<64x32xf16, #a>
  tile.return
}

// -----

// 16 rows on 2 warps along M: fewer than one m16 instruction per warp.
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>
tile.kernel @mma_mismatch(%v: f16, %w: f32) attributes {tile.num_warps = 4 : i32} {
  %x = tile.splat %v : tensor<16x16xf16, #mma>
  %ca = tile.convert_layout %x : tensor<16x16xf16, #mma> -> tensor<16x16xf16, #a>
  %cb = tile.convert_layout %x : tensor<16x16xf16, #mma> -> tensor<16x16xf16, #bo>
  %c = tile.splat %w : tensor<16x16xf32, #mma>
  // expected-error @+1 {{the mma layout does not tile the result}}
  %d = tile.dot %ca, %cb, %c : tensor<16x16xf16, #a> * tensor<16x16xf16, #bo> -> tensor<16x16xf32, #mma>
  tile.return
}

// -----

#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
tile.kernel @splat_operand(%x: f16) attributes {tile.num_warps = 4 : i32} {
  // expected-error @+1 {{a splat into a dot-operand layout is not supported; splat in a blocked layout and convert}}
  %a = tile.splat %x : tensor<64x32xf16, #a>
  tile.return
}

// -----

#p3 = #tile.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
#s = #tile.slice<{dim = 0, parent = #p3}>
tile.kernel @scan_sliced(%p: !tile.ptr<f32>, %v: f32) attributes {tile.num_warps = 4 : i32} {
  %t = tile.splat %v : tensor<16x16xf32, #s>
  // expected-error @+1 {{scanning a sliced tile is not supported by convert-tile-to-gpu}}
  %r = tile.scan sum %t, axis = 1 : tensor<16x16xf32, #s>
  tile.return
}

// -----

// A warpgroup accumulator's rows: a thread's two row chunks are not
// consecutive along the rows, so a scan along them is refused (tile-fuse
// never gives a scan this layout; along the columns it is a plain layout).
#wg = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [2, 1]}>
tile.kernel @scan_warp_reps(%p: !tile.ptr<f32>, %v: f32) attributes {tile.num_warps = 4 : i32} {
  %t = tile.splat %v : tensor<64x8xf32, #wg>
  %c = tile.scan sum %t, axis = 1 : tensor<64x8xf32, #wg>
  // expected-error @+1 {{scanning along a dimension whose warps repeat their tile (repsPerWarp) is not supported by convert-tile-to-gpu}}
  %r = tile.scan sum %t, axis = 0 : tensor<64x8xf32, #wg>
  tile.return
}

// -----

// Stages stored for wgmma feeding a dot whose warps are not all along M.
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>
tile.kernel @wgmma_square_warps(%s: i32) attributes {tile.num_warps = 4 : i32} {
  %abuf = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<2x64x64xf16, 3>
  %bbuf = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<2x64x64xf16, 3>
  %acc = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a = tile.shared_load %abuf[%s] : memref<2x64x64xf16, 3> -> tensor<64x64xf16, #a>
  %b = tile.shared_load %bbuf[%s] : memref<2x64x64xf16, 3> -> tensor<64x64xf16, #bo>
  // expected-error @+1 {{the dot's layout does not fit warpgroup MMAs}}
  %d = tile.dot %a, %b, %acc : tensor<64x64xf16, #a> * tensor<64x64xf16, #bo> -> tensor<64x64xf32, #mma>
  tile.return
}

// -----

// An accumulator whose warps hold rows 8w + [0, 8) (no repsPerWarp): not
// the rows m64 instructions give them.
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>
tile.kernel @wgmma_interleaved_rows(%s: i32) attributes {tile.num_warps = 4 : i32} {
  %abuf = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<2x64x64xf16, 3>
  %bbuf = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<2x64x64xf16, 3>
  %acc = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a = tile.shared_load %abuf[%s] : memref<2x64x64xf16, 3> -> tensor<64x64xf16, #a>
  %b = tile.shared_load %bbuf[%s] : memref<2x64x64xf16, 3> -> tensor<64x64xf16, #bo>
  // expected-error @+1 {{the dot's layout does not fit warpgroup MMAs}}
  %d = tile.dot %a, %b, %acc : tensor<64x64xf16, #a> * tensor<64x64xf16, #bo> -> tensor<64x64xf32, #mma>
  tile.return
}

// -----

// An A stage stored for ldmatrix (no panels) beside a B stored for wgmma.
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [2, 1]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>
tile.kernel @wgmma_a_without_panels(%s: i32) attributes {tile.num_warps = 4 : i32} {
  %abuf = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}> : memref<2x64x64xf16, 3>
  %bbuf = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<2x64x64xf16, 3>
  %acc = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a = tile.shared_load %abuf[%s] : memref<2x64x64xf16, 3> -> tensor<64x64xf16, #a>
  %b = tile.shared_load %bbuf[%s] : memref<2x64x64xf16, 3> -> tensor<64x64xf16, #bo>
  // expected-error @+1 {{the A stage is not stored for warpgroup MMAs}}
  %d = tile.dot %a, %b, %acc : tensor<64x64xf16, #a> * tensor<64x64xf16, #bo> -> tensor<64x64xf32, #mma>
  tile.return
}

// -----

// The runtime encodes a tensor map from kernel arguments or constants
// only; a bound computed in the kernel cannot be one.
tile.kernel @tma_computed_bound(%p: !tile.ptr<f16>, %n: i32, %i: i32, %pred: i1) attributes {tile.num_warps = 4 : i32} {
  %s = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<2x64x64xf16, 3 : i32>
  %b = tile.barrier_alloc arrivals = 1 : memref<2xi64, 3 : i32>
  %half = arith.divui %n, %i : i32
  // expected-error @+1 {{tma_copy needs its base, bounds and stride to be kernel arguments or constants, and f16, bf16 or f32 elements}}
  tile.tma_copy %p[%i, %i] bounds[%half, %n] stride %n into %s[%i] barriers %b if %pred : <f16>, memref<2x64x64xf16, 3 : i32>, memref<2xi64, 3 : i32>
  tile.return
}

// -----

// print reads the elements of blocked (and slice) layouts only.
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
tile.kernel @print_operand(%x: f16) attributes {tile.num_warps = 4 : i32} {
  %a = tile.splat %x : tensor<64x64xf16, #mma>
  %b = tile.convert_layout %a : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #a>
  // expected-error @+1 {{print of a tile in this layout is not supported}}
  tile.print "a ", %b : tensor<64x64xf16, #a>
  tile.return
}

// -----

#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
tile.kernel @assert_operand(%x: i1) attributes {tile.num_warps = 4 : i32} {
  %a = tile.splat %x : tensor<64x64xi1, #mma>
  %b = tile.convert_layout %a : tensor<64x64xi1, #mma> -> tensor<64x64xi1, #a>
  // expected-error @+1 {{device_assert of a tile in this layout is not supported}}
  tile.device_assert %b, "b" : tensor<64x64xi1, #a>
  tile.return
}

// -----

// The kernel's own name would shadow CUDA's assert function.
tile.kernel @__assertfail(%n: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c = arith.cmpi sgt, %n, %c0 : i32
  // expected-error @+1 {{device_assert cannot be used in a kernel named __assertfail (CUDA's device-side assert function)}}
  tile.device_assert %c, "positive" : i1
  tile.return
}

// -----

// An i8 A stored MN-major (K x M) with B stored for wgmma.
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [2, 1]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>
tile.kernel @wgmma_i8_mn_major(%s: i32) attributes {tile.num_warps = 4 : i32} {
  %abuf = tile.shared_alloc <{vec = 16, perPhase = 2, maxPhase = 4, order = [0, 1], panel = 64}> : memref<2x64x64xi8, 3>
  %bbuf = tile.shared_alloc <{vec = 16, perPhase = 2, maxPhase = 4, order = [0, 1], panel = 64}> : memref<2x64x64xi8, 3>
  %acc = arith.constant dense<0> : tensor<64x64xi32, #mma>
  %a = tile.shared_load %abuf[%s] : memref<2x64x64xi8, 3> -> tensor<64x64xi8, #a>
  %b = tile.shared_load %bbuf[%s] : memref<2x64x64xi8, 3> -> tensor<64x64xi8, #bo>
  // expected-error @+1 {{warpgroup MMAs read 8-bit operands and tf32 B only from K-major stages}}
  %d = tile.dot %a, %b, %acc : tensor<64x64xi8, #a> * tensor<64x64xi8, #bo> -> tensor<64x64xi32, #mma>
  tile.return
}

// -----

// A constant (or arithmetic) in a dot-operand layout has no distribution:
// dot operands come from a conversion or a stage (found by tile-fuzz-ir).
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [2, 1]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
tile.kernel @constant_operand(%p: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  // expected-error @+1 {{'arith.constant' with a result in a dot-operand layout is not supported by convert-tile-to-gpu (dot operands come from convert_layout or shared_load)}}
  %a = arith.constant dense<1.0> : tensor<64x64xf16, #a>
  tile.return
}
