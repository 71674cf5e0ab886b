//===- Passes.td - conversions out of the tile dialect -----*- tablegen -*-===//
#ifndef TILE_CONVERSION_PASSES_TD
#define TILE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTileToGPU : Pass<"convert-tile-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Distribute laid-out tiles to the threads of a GPU block";
  let description = [{
    Lowers every `tile.kernel` whose tiles carry layouts (run `tile-coalesce`
    first) to a `gpu.func` kernel in a `gpu.module`. Each tile becomes the
    scalar values its layout gives one thread; loads and stores move as many
    contiguous elements at once as the axis analysis proves safe (one
    predicate per group when the mask is constant over it); reductions
    combine within a thread, across a warp with `gpu.shuffle xor` and across
    warps through shared memory; layout conversions, transposes and `dot`
    operands go through shared memory. Transcendental math on f32 uses the
    GPU's approximate instructions (`ex2.approx`, `lg2.approx`,
    `rsqrt.approx`), as Triton does; f16/bf16 math computes in f32.

    Shared memory is the kernel's dynamic shared memory: one
    `.extern .shared` array per kernel whose global carries the bytes the
    kernel needs as `tile.shared_bytes`; the launch asks for that many. A
    kernel that needs more than `max-shared-bytes` is an error.
  }];
  let options = [
    Option<"maxSharedBytes", "max-shared-bytes", "int64_t",
           /*default=*/"::tile::kSm90MaxSharedBytes",
           "Shared memory one program instance may use (sm_90: 227 KiB, "
           "sm_80: 163 KiB)">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::LLVM::LLVMDialect",
                           "::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect", "::mlir::NVVM::NVVMDialect"];
}

def TileTensorMapParams
    : Pass<"tile-tensor-map-params", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Make the tensor-map parameters of lowered kernels 128-byte "
                "grid constants";
  let description = [{
    convert-tile-to-gpu appends one parameter per tensor map a kernel's
    `tile.tma_copy` ops read (a pointer, listed in the kernel's
    `tile.tensor_maps` attribute in the signature record's `tmap=` form).
    After the gpu.func has become an llvm.func (convert-gpu-to-nvvm, which
    drops `llvm.byval`), this pass gives those last parameters the
    attributes of a CUDA `__grid_constant__ const CUtensorMap`: passed by
    value (`llvm.byval` of 128 bytes, 64-byte aligned) and
    `nvvm.grid_constant`, so that the kernel uses the parameter's own
    address as the tensor map's. Kernels without the attribute are left
    alone; a kernel with fewer parameters than tensor maps is an error.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

#endif // TILE_CONVERSION_PASSES_TD
