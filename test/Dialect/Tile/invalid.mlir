// RUN: tile-opt %s -split-input-file -verify-diagnostics

tile.kernel @range_empty() {
  // expected-error @+1 {{'tile.make_range' op end (0) must be greater than start (4)}}
  %r = tile.make_range 4, 0 : tensor<4xi32>
  tile.return
}

// -----

tile.kernel @range_size() {
  // expected-error @+1 {{'tile.make_range' op result must be a 1-D tile of 8 elements}}
  %r = tile.make_range 0, 8 : tensor<16xi32>
  tile.return
}

// -----

tile.kernel @program_id_axis() {
  // expected-error @+1 {{'tile.program_id' op attribute 'axis' failed to satisfy constraint}}
  %p = tile.program_id 3
  tile.return
}

// -----

tile.kernel @broadcast_dims(%x: f32) {
  %t = tile.splat %x : tensor<4x2xf32>
  // expected-error @+1 {{'tile.broadcast' op dimension 1 of size 2 cannot broadcast to 8}}
  %b = tile.broadcast %t : tensor<4x2xf32> -> tensor<4x8xf32>
  tile.return
}

// -----

tile.kernel @broadcast_rank_mismatch(%x: f32) {
  %t = tile.splat %x : tensor<4xf32>
  // expected-error @+1 {{'tile.broadcast' op source rank 1 differs from result rank 2}}
  %b = tile.broadcast %t : tensor<4xf32> -> tensor<4x4xf32>
  tile.return
}

// -----

tile.kernel @expand_dims_axis(%x: f32) {
  %t = tile.splat %x : tensor<4xf32>
  // expected-error @+1 {{'tile.expand_dims' op axis 2 out of range [0, 1]}}
  %e = tile.expand_dims %t, axis = 2 : tensor<4xf32> -> tensor<4x1xf32>
  tile.return
}

// -----

tile.kernel @expand_dims_shape(%x: f32) {
  %t = tile.splat %x : tensor<4xf32>
  // expected-error @+1 {{'tile.expand_dims' op result shape must be [1, 4]}}
  %e = tile.expand_dims %t, axis = 0 : tensor<4xf32> -> tensor<4x1xf32>
  tile.return
}

// -----

tile.kernel @splat_type(%x: f32) {
  // expected-error @+1 {{'tile.splat' op failed to verify that result element type matches the scalar}}
  %t = "tile.splat"(%x) : (f32) -> tensor<4xi32>
  tile.return
}

// -----

tile.kernel @trans_rank(%x: f32) {
  %t = tile.splat %x : tensor<4xf32>
  // expected-error @+1 {{'tile.trans' op expects a 2-D tile, got rank 1}}
  %r = tile.trans %t : tensor<4xf32> -> tensor<4xf32>
  tile.return
}

// -----

tile.kernel @trans_shape(%x: f32) {
  %t = tile.splat %x : tensor<4x2xf32>
  // expected-error @+1 {{'tile.trans' op result shape must be [2, 4]}}
  %r = tile.trans %t : tensor<4x2xf32> -> tensor<4x2xf32>
  tile.return
}

// -----

tile.kernel @reshape_count(%x: f32) {
  %t = tile.splat %x : tensor<4x2xf32>
  // expected-error @+1 {{'tile.reshape' op result must have as many elements as the source (8), got 16}}
  %r = tile.reshape %t : tensor<4x2xf32> -> tensor<16xf32>
  tile.return
}

// -----

tile.kernel @permute_order(%x: f32) {
  %t = tile.splat %x : tensor<4x2x8xf32>
  // expected-error @+1 {{'tile.permute' op order must name each of the 3 dimensions once}}
  %r = tile.permute %t, order = [0, 2, 2] : tensor<4x2x8xf32> -> tensor<4x8x8xf32>
  tile.return
}

// -----

tile.kernel @permute_rank(%x: f32) {
  %t = tile.splat %x : tensor<4x2xf32>
  // expected-error @+1 {{'tile.permute' op order must name each of the 2 dimensions once}}
  %r = tile.permute %t, order = [0] : tensor<4x2xf32> -> tensor<4xf32>
  tile.return
}

// -----

tile.kernel @permute_shape(%x: f32) {
  %t = tile.splat %x : tensor<4x2x8xf32>
  // expected-error @+1 {{'tile.permute' op result shape must be [8, 4, 2]}}
  %r = tile.permute %t, order = [2, 0, 1] : tensor<4x2x8xf32> -> tensor<8x2x4xf32>
  tile.return
}

// -----

tile.kernel @join_shape(%x: f32) {
  %t = tile.splat %x : tensor<4xf32>
  // expected-error @+1 {{'tile.join' op result shape must be [4, 2]}}
  %r = tile.join %t, %t : tensor<4xf32> -> tensor<2x4xf32>
  tile.return
}

// -----

tile.kernel @split_last(%x: f32) {
  %t = tile.splat %x : tensor<4x4xf32>
  // expected-error @+1 {{'tile.split' op expects a last dimension of 2, got 4}}
  %a, %b = tile.split %t : tensor<4x4xf32> -> tensor<4x2xf32>
  tile.return
}

// -----

tile.kernel @split_results(%x: f32) {
  %t = tile.splat %x : tensor<4x2xf32>
  // expected-error @+1 {{'tile.split' op results must be the source without its last dimension}}
  %a, %b = tile.split %t : tensor<4x2xf32> -> tensor<2xf32>
  tile.return
}

// -----

tile.kernel @addptr_shape(%p: !tile.ptr<f32>) {
  %ps = tile.splat %p : tensor<4x!tile.ptr<f32>>
  %o = tile.make_range 0, 8 : tensor<8xi32>
  // expected-error @+1 {{'tile.addptr' op offset shape [8] differs from pointer shape [4]}}
  %q = "tile.addptr"(%ps, %o) : (tensor<4x!tile.ptr<f32>>, tensor<8xi32>) -> tensor<4x!tile.ptr<f32>>
  tile.return
}

// -----

tile.kernel @addptr_mixed(%p: !tile.ptr<f32>) {
  %o = tile.make_range 0, 8 : tensor<8xi32>
  // expected-error @+1 {{'tile.addptr' op pointer and offset must both be scalars or both tiles}}
  %q = "tile.addptr"(%p, %o) : (!tile.ptr<f32>, tensor<8xi32>) -> !tile.ptr<f32>
  tile.return
}

// -----

tile.kernel @load_other_without_mask(%p: !tile.ptr<f32>, %x: f32) {
  // expected-error @+1 {{'tile.load' op 'other' requires a mask}}
  %v = "tile.load"(%p, %x) {operandSegmentSizes = array<i32: 1, 0, 1>} : (!tile.ptr<f32>, f32) -> f32
  tile.return
}

// -----

tile.kernel @load_not_pointer(%x: f32) {
  // expected-error @+1 {{'ptr' must be tile pointer or ranked tensor of tile pointer values, but got 'f32'}}
  %v = tile.load %x : f32
  tile.return
}

// -----

tile.kernel @dot_inner(%x: f32) {
  %a = tile.splat %x : tensor<16x8xf32>
  %b = tile.splat %x : tensor<16x16xf32>
  %c = tile.splat %x : tensor<16x16xf32>
  // expected-error @+1 {{'tile.dot' op inner dimensions differ: a is [16, 8], b is [16, 16]}}
  %d = tile.dot %a, %b, %c : tensor<16x8xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  tile.return
}

// -----

tile.kernel @dot_acc_shape(%x: f32) {
  %a = tile.splat %x : tensor<16x16xf32>
  %c = tile.splat %x : tensor<16x32xf32>
  // expected-error @+1 {{'tile.dot' op accumulator shape must be [16, 16]}}
  %d = tile.dot %a, %a, %c : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x32xf32>
  tile.return
}

// -----

tile.kernel @dot_tf32_f16(%x: f16, %y: f32) {
  %a = tile.splat %x : tensor<16x16xf16>
  %c = tile.splat %y : tensor<16x16xf32>
  // expected-error @+1 {{'tile.dot' op tf32 precision requires f32 inputs}}
  %d = tile.dot %a, %a, %c precision = tf32 : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  tile.return
}

// -----

tile.kernel @dot_acc_type(%x: bf16, %y: f16) {
  %a = tile.splat %x : tensor<16x16xbf16>
  %c = tile.splat %y : tensor<16x16xf16>
  // expected-error @+1 {{'tile.dot' op accumulator type 'f16' is not supported for 'bf16' inputs}}
  %d = tile.dot %a, %a, %c : tensor<16x16xbf16> * tensor<16x16xbf16> -> tensor<16x16xf16>
  tile.return
}

// -----

tile.kernel @dot_int(%x: i32, %y: f32) {
  %a = tile.splat %x : tensor<16x16xi32>
  %c = tile.splat %y : tensor<16x16xf32>
  // expected-error @+1 {{'tile.dot' op operands must be floating-point or i8, got 'i32'}}
  %d = "tile.dot"(%a, %a, %c) : (tensor<16x16xi32>, tensor<16x16xi32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  tile.return
}

// -----

tile.kernel @dot_i8_float_acc(%x: i8, %y: f32) {
  %a = tile.splat %x : tensor<16x32xi8>
  %b = tile.splat %x : tensor<32x16xi8>
  %c = tile.splat %y : tensor<16x16xf32>
  // expected-error @+1 {{'tile.dot' op accumulator type 'f32' is not supported for 'i8' inputs}}
  %d = tile.dot %a, %b, %c : tensor<16x32xi8> * tensor<32x16xi8> -> tensor<16x16xf32>
  tile.return
}

// -----

tile.kernel @reduce_axis(%x: f32) {
  %t = tile.splat %x : tensor<4xf32>
  // expected-error @+1 {{'tile.reduce' op axis 1 out of range for rank 1}}
  %r = tile.reduce sum %t, axis = 1 : tensor<4xf32> -> f32
  tile.return
}

// -----

tile.kernel @reduce_shape(%x: f32) {
  %t = tile.splat %x : tensor<4x8xf32>
  // expected-error @+1 {{'tile.reduce' op result shape must be [4]}}
  %r = tile.reduce sum %t, axis = 1 : tensor<4x8xf32> -> tensor<8xf32>
  tile.return
}

// -----

tile.kernel @reduce_scalar_result(%x: f32) {
  %t = tile.splat %x : tensor<4xf32>
  // expected-error @+1 {{'tile.reduce' op result shape must be scalar}}
  %r = tile.reduce max %t, axis = 0 : tensor<4xf32> -> tensor<1xf32>
  tile.return
}

// -----

tile.kernel @reduce_type(%x: f32) {
  %t = tile.splat %x : tensor<4xf32>
  // expected-error @+1 {{'tile.reduce' op result element type must be 'f32'}}
  %r = tile.reduce max %t, axis = 0 : tensor<4xf32> -> f16
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op kernels return no values}}
tile.kernel @with_result() -> i32 {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op parameter 0 must be a scalar or !tile.ptr, got 'tensor<4xf32>'}}
tile.kernel @tile_param(%t: tensor<4xf32>) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op constant 'BLOCK' must be an integer or float attribute}}
tile.kernel @bad_constant() attributes {constants = {BLOCK = "big"}} {
  tile.return
}

// -----

// expected-error @+1 {{pointee must be an integer or float scalar, got 'tensor<4xf32>'}}
tile.kernel @bad_pointer(%p: !tile.ptr<tensor<4xf32>>) {
  tile.return
}

// -----

tile.kernel @dot_rank(%x: f32) {
  %a = tile.splat %x : tensor<16xf32>
  %c = tile.splat %x : tensor<16x16xf32>
  // expected-error @+1 {{'tile.dot' op operands must be 2-D tiles, or 3-D (batched) ones}}
  %d = "tile.dot"(%a, %a, %c) : (tensor<16xf32>, tensor<16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  tile.return
}

// -----

tile.kernel @dot_batches(%x: f32) {
  %a = tile.splat %x : tensor<2x16x16xf32>
  %b = tile.splat %x : tensor<4x16x16xf32>
  %c = tile.splat %x : tensor<2x16x16xf32>
  // expected-error @+1 {{'tile.dot' op batch dimensions differ: a is [2, 16, 16], b is [4, 16, 16]}}
  %d = tile.dot %a, %b, %c : tensor<2x16x16xf32> * tensor<4x16x16xf32> -> tensor<2x16x16xf32>
  tile.return
}

// -----

tile.kernel @dot_batched_acc(%x: f32) {
  %a = tile.splat %x : tensor<2x16x8xf32>
  %b = tile.splat %x : tensor<2x8x32xf32>
  %c = tile.splat %x : tensor<2x16x16xf32>
  // expected-error @+1 {{'tile.dot' op accumulator shape must be [2, 16, 32]}}
  %d = tile.dot %a, %b, %c : tensor<2x16x8xf32> * tensor<2x8x32xf32> -> tensor<2x16x16xf32>
  tile.return
}

// -----

tile.kernel @dot_mixed(%x: f32, %h: f16) {
  %a = tile.splat %x : tensor<16x16xf32>
  %b = tile.splat %h : tensor<16x16xf16>
  // expected-error @+1 {{'tile.dot' op a and b element types differ: 'f32' vs 'f16'}}
  %d = tile.dot %a, %b, %a : tensor<16x16xf32> * tensor<16x16xf16> -> tensor<16x16xf32>
  tile.return
}

// -----

tile.kernel @reduce_pointers(%p: !tile.ptr<f32>) {
  %t = tile.splat %p : tensor<4x!tile.ptr<f32>>
  // expected-error @+1 {{'tile.reduce' op cannot reduce a tile of pointers}}
  %r = tile.reduce sum %t, axis = 0 : tensor<4x!tile.ptr<f32>> -> !tile.ptr<f32>
  tile.return
}

// -----

tile.kernel @argmax_type(%x: f32) {
  %t = tile.splat %x : tensor<4xf32>
  // expected-error @+1 {{'tile.reduce' op result element type must be 'i32'}}
  %r = tile.reduce argmax %t, axis = 0 : tensor<4xf32> -> f32
  tile.return
}

// -----

tile.kernel @scan_kind(%x: f32) {
  %t = tile.splat %x : tensor<4xf32>
  // expected-error @+1 {{'tile.scan' op scans sum or prod, not max}}
  %r = tile.scan max %t, axis = 0 : tensor<4xf32>
  tile.return
}

// -----

tile.kernel @scan_axis(%x: f32) {
  %t = tile.splat %x : tensor<4xf32>
  // expected-error @+1 {{'tile.scan' op axis 1 out of range for rank 1}}
  %r = tile.scan sum %t, axis = 1 : tensor<4xf32>
  tile.return
}

// -----

tile.kernel @scan_bool(%x: i1) {
  %t = tile.splat %x : tensor<4xi1>
  // expected-error @+1 {{'tile.scan' op scans numbers, not 'i1'}}
  %r = tile.scan sum %t, axis = 0 : tensor<4xi1>
  tile.return
}

// -----

tile.kernel @generic_reduce_axis(%x: f32) {
  %t = tile.splat %x : tensor<4xf32>
  // expected-error @+1 {{'tile.generic_reduce' op axis 1 out of range for rank 1}}
  %r = tile.generic_reduce %t, axis = 1 : tensor<4xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    tile.combine_yield %a : f32
  }
  tile.return
}

// -----

tile.kernel @generic_reduce_shape(%x: f32) {
  %t = tile.splat %x : tensor<4x8xf32>
  // expected-error @+1 {{'tile.generic_reduce' op result shape must be [4]}}
  %r = tile.generic_reduce %t, axis = 1 : tensor<4x8xf32> -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    tile.combine_yield %a : f32
  }
  tile.return
}

// -----

tile.kernel @generic_reduce_result_type(%x: f32) {
  %t = tile.splat %x : tensor<4xf32>
  // expected-error @+1 {{'tile.generic_reduce' op result element type must be 'f32'}}
  %r = tile.generic_reduce %t, axis = 0 : tensor<4xf32> -> i32 {
  ^bb0(%a: f32, %b: f32):
    tile.combine_yield %a : f32
  }
  tile.return
}

// -----

tile.kernel @combiner_arguments(%x: f32) {
  %t = tile.splat %x : tensor<4xf32>
  // expected-error @+1 {{'tile.generic_scan' op combiner must take two 'f32' values}}
  %r = tile.generic_scan %t, axis = 0 : tensor<4xf32> {
  ^bb0(%a: f32, %b: f16):
    tile.combine_yield %a : f32
  }
  tile.return
}

// -----

tile.kernel @combiner_yield(%x: f32) {
  %t = tile.splat %x : tensor<4xf32>
  // expected-error @+1 {{'tile.generic_scan' op combiner must yield one 'f32'}}
  %r = tile.generic_scan %t, axis = 0 : tensor<4xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.fptosi %a : f32 to i32
    tile.combine_yield %c : i32
  }
  tile.return
}

// -----

tile.kernel @combiner_pointers(%p: !tile.ptr<f32>) {
  %t = tile.splat %p : tensor<4x!tile.ptr<f32>>
  // expected-error @+1 {{'tile.generic_scan' op combines numbers, not '!tile.ptr<f32>'}}
  %r = tile.generic_scan %t, axis = 0 : tensor<4x!tile.ptr<f32>> {
  ^bb0(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>):
    tile.combine_yield %a : !tile.ptr<f32>
  }
  tile.return
}

// -----

tile.kernel @combiner_tile(%x: f32) {
  %t = tile.splat %x : tensor<4xf32>
  %r = tile.generic_reduce %t, axis = 0 : tensor<4xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    // expected-error @+1 {{'tile.splat' op computes a tile inside a combiner, which computes on scalars}}
    %s = tile.splat %a : tensor<2xf32>
    tile.combine_yield %a : f32
  }
  tile.return
}

// -----

tile.kernel @combiner_effects(%x: f32) {
  %t = tile.splat %x : tensor<4xf32>
  %r = tile.generic_reduce %t, axis = 0 : tensor<4xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    // expected-error @+1 {{'tile.print' op has memory effects inside a combiner}}
    tile.print "a", %a : f32
    tile.combine_yield %a : f32
  }
  tile.return
}

// -----

tile.kernel @atomic_or_float(%p: !tile.ptr<f32>, %x: f32) {
  // expected-error @+1 {{'tile.atomic_rmw' op atomic or does not support 'f32'}}
  %r = tile.atomic_rmw or %p, %x sem = relaxed scope = gpu : !tile.ptr<f32>
  tile.return
}

// -----

tile.kernel @atomic_cas_float(%p: !tile.ptr<f32>, %x: f32) {
  // expected-error @+1 {{'tile.atomic_cas' op atomic compare-and-swap needs i32 or i64, not 'f32'}}
  %r = tile.atomic_cas %p, %x, %x sem = acq_rel scope = gpu : !tile.ptr<f32>
  tile.return
}

// -----

tile.kernel @hint_rank(%x: i32) {
  %t = tile.splat %x : tensor<4xi32>
  // expected-error @+1 {{'tile.hint' op needs one multiple_of and one max_contiguous value per dimension (1)}}
  %h = tile.hint %t multiple_of [1, 1] max_contiguous [1] : tensor<4xi32>
  tile.return
}

// -----

tile.kernel @hint_pow2(%x: i32) {
  // expected-error @+1 {{'tile.hint' op multiple_of values must be powers of two, got 6}}
  %h = tile.hint %x multiple_of [6] max_contiguous [1] : i32
  tile.return
}

// -----

tile.kernel @hint_contiguous(%x: i32) {
  %t = tile.splat %x : tensor<4xi32>
  // expected-error @+1 {{'tile.hint' op max_contiguous along dimension 0 must be in [1, 4], got 8}}
  %h = tile.hint %t multiple_of [1] max_contiguous [8] : tensor<4xi32>
  tile.return
}

// -----

tile.kernel @dot_wait_not_accumulator(%x: f16) {
  %t = tile.splat %x : tensor<4xf16>
  // expected-error @+1 {{'tile.dot_wait' op waits for warpgroup MMA accumulators, which are f32 or i32, or their 16-bit A in registers; got 'tensor<4xf16>'}}
  %w = tile.dot_wait %t pending = 0 : tensor<4xf16>
  tile.return
}

// -----

tile.kernel @barriers_in_global_memory() {
  // expected-error @+1 {{'tile.barrier_alloc' op needs a static memref in memory space 3, got 'memref<3xi64, 1 : i32>'}}
  %b = tile.barrier_alloc arrivals = 2 : memref<3xi64, 1 : i32>
  tile.return
}

// -----

tile.kernel @barriers_without_arrivals() {
  // expected-error @+1 {{'tile.barrier_alloc' op needs at least one arrival per phase, got 0}}
  %b = tile.barrier_alloc arrivals = 0 : memref<3xi64, 3 : i32>
  tile.return
}

// -----

tile.kernel @producer_of_two_warps() {
  // expected-error @+1 {{'tile.producer' op runs on whole warpgroups: warps times groups must be a positive multiple of 4, got 2 x 1}}
  tile.producer warps = 2 {
  }
  tile.return
}

// -----

tile.kernel @producer_in_a_loop(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    // expected-error @+1 {{'tile.producer' op must be in a kernel's body}}
    tile.producer warps = 4 {
    }
  }
  tile.return
}

// -----

tile.kernel @producer_reads_kernel_tile(%p: !tile.ptr<f32>) {
  %r = tile.make_range 0, 128 : tensor<128xi32>
  // expected-error @+1 {{'tile.producer' op uses a tile defined outside its body}}
  tile.producer warps = 4 {
  ^bb0(%g: i32):
    %q = tile.splat %p : tensor<128x!tile.ptr<f32>>
    %a = "tile.addptr"(%q, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  }
  tile.return
}

// -----

tile.kernel @tma_copy_3d(%p: !tile.ptr<f16>, %i: i32, %pred: i1) {
  %s = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<2x64x64xf16, 3 : i32>
  %b = tile.barrier_alloc arrivals = 1 : memref<2xi64, 3 : i32>
  // expected-error @+1 {{'tile.tma_copy' op copies 2-D tiles: expected 2 starts and 2 bounds, got 3 and 2}}
  tile.tma_copy %p[%i, %i, %i] bounds[%i, %i] stride %i into %s[%i] barriers %b if %pred : <f16>, memref<2x64x64xf16, 3 : i32>, memref<2xi64, 3 : i32>
  tile.return
}

// -----

tile.kernel @tma_copy_element_type(%p: !tile.ptr<f32>, %i: i32, %pred: i1) {
  %s = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<2x64x64xf16, 3 : i32>
  %b = tile.barrier_alloc arrivals = 1 : memref<2xi64, 3 : i32>
  // expected-error @+1 {{'tile.tma_copy' op buffer of 'f16' filled from a pointer to 'f32'}}
  tile.tma_copy %p[%i, %i] bounds[%i, %i] stride %i into %s[%i] barriers %b if %pred : <f32>, memref<2x64x64xf16, 3 : i32>, memref<2xi64, 3 : i32>
  tile.return
}

// -----

tile.kernel @tma_copy_unswizzled_stage(%p: !tile.ptr<f16>, %i: i32, %pred: i1) {
  %s = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}> : memref<2x64x64xf16, 3 : i32>
  %b = tile.barrier_alloc arrivals = 1 : memref<2xi64, 3 : i32>
  // expected-error @+1 {{'tile.tma_copy' op fills stages stored with the hardware's swizzle (a tile.shared_alloc with panels)}}
  tile.tma_copy %p[%i, %i] bounds[%i, %i] stride %i into %s[%i] barriers %b if %pred : <f16>, memref<2x64x64xf16, 3 : i32>, memref<2xi64, 3 : i32>
  tile.return
}

// -----

tile.kernel @producer_without_groups() {
  // expected-error @+1 {{'tile.producer' op needs at least one group, got 0}}
  tile.producer warps = 4 groups = 0 {
  ^bb0(%g: i32):
  }
  tile.return
}

// -----

tile.kernel @producer_with_odd_registers() {
  // expected-error @+1 {{'tile.producer' op keeps a multiple of 8 from 24 to 256 registers, got 60}}
  tile.producer warps = 4 registers = 60 {
  ^bb0(%g: i32):
  }
  tile.return
}

// -----

tile.kernel @producer_without_group_index() {
  // expected-error @+1 {{'tile.producer' op body takes the group's index (one i32 argument)}}
  tile.producer warps = 4 {
  }
  tile.return
}
