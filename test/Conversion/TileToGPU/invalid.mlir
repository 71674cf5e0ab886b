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
  %buf = tile.shared_alloc : memref<2x16x16xf32, 3>
  %ptrs = tile.splat %p : tensor<16x16x!tile.ptr<f32>, #s>
  %mask = tile.splat %m : tensor<16x16xi1, #s>
  // expected-error @+1 {{async_copy needs a 2-D blocked tile of pointers}}
  tile.async_copy %ptrs, mask %mask into %buf[%st] : tensor<16x16x!tile.ptr<f32>, #s>, tensor<16x16xi1, #s>, memref<2x16x16xf32, 3>
  tile.return
}
