// RUN: tile-opt %s --split-input-file --verify-diagnostics --tile-specialize="divisible=n pointers-divisible equal-to-one=stride" | FileCheck %s

// Every pointer and the named integer are divisible by 16; the equal-to-one
// integer is marked and its uses become the constant 1.
// CHECK-LABEL: tile.kernel @k(
// CHECK-SAME: %{{.*}}: !tile.ptr<f32> {tile.divisibility = 16 : i32}
// CHECK-SAME: %{{.*}}: i32 {tile.divisibility = 16 : i32}
// CHECK-SAME: %{{.*}}: i32 {tile.equal_to_one}
// CHECK-SAME: %{{[^:]*}}: i32)
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: arith.muli %{{.*}}, %[[ONE]] : i32
tile.kernel @k(%p: !tile.ptr<f32> loc("p"), %n: i32 loc("n"), %stride: i32 loc("stride"), %m: i32 loc("m")) {
  %0 = arith.muli %m, %stride : i32
  %1 = tile.addptr %p, %0 : !tile.ptr<f32>, i32
  %2 = arith.sitofp %n : i32 to f32
  tile.store %1, %2 : !tile.ptr<f32>
  tile.return
}

// -----

// expected-error @below {{no kernel has a parameter named 'stride'}}
module {
  tile.kernel @k(%p: !tile.ptr<f32> loc("p"), %n: i32 loc("n")) {
    tile.return
  }
}

// -----

module {
  // expected-error @below {{equal-to-one parameter 'stride' is not an integer}}
  tile.kernel @k(%n: i32 loc("n"), %stride: f32 loc("stride")) {
    tile.return
  }
}

