// RUN: tile-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(tile-tensor-map-params))' --verify-diagnostics | FileCheck %s

// The last parameters of a kernel that lists tensor maps become 128-byte
// grid constants (a CUDA `__grid_constant__ const CUtensorMap`); the
// others and kernels without the list are left alone.
// CHECK-LABEL: llvm.func @two_maps
// CHECK-SAME: (%arg0: !llvm.ptr<1>, %arg1: i32, %arg2: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %arg3: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant})
// CHECK-LABEL: llvm.func @no_maps
// CHECK-SAME: (%arg0: !llvm.ptr)
// CHECK-NOT: grid_constant
gpu.module @kernels {
  llvm.func @two_maps(%a: !llvm.ptr<1>, %k: i32, %m0: !llvm.ptr, %m1: !llvm.ptr) attributes {nvvm.kernel, tile.tensor_maps = ["tmap=a:f16:k,8:k:64x8:128", "tmap=a:f16:k,8:k:64x64:128"]} {
    llvm.return
  }
  llvm.func @no_maps(%m: !llvm.ptr) attributes {nvvm.kernel} {
    llvm.return
  }
}

// -----

gpu.module @kernels {
  // expected-error @+1 {{kernel lists 2 tensor maps but has 1 parameters}}
  llvm.func @too_few(%m0: !llvm.ptr) attributes {nvvm.kernel, tile.tensor_maps = ["tmap=a:f16:k,8:k:64x8:128", "tmap=a:f16:k,8:k:64x64:128"]} {
    llvm.return
  }
}
