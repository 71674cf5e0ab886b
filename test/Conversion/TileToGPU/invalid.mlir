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
