//===- Pipeline.h - the tile compilation pipeline ---------------*- C++ -*-===//
//
// One set of functions builds the pass pipeline from tile IR to each output
// stage; `tilec` and the runtime run them and `tile-opt` registers them
// (`tile-pipeline`, `tile-to-gpu-pipeline`, `tile-to-nvvm-pipeline`), so the
// CLI, the runtime and the lit tests run the same passes.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_PIPELINE_PIPELINE_H
#define TILE_PIPELINE_PIPELINE_H

#include "tile/Support/Limits.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <string>

namespace tile {

/// Options of the compilation pipeline.
struct PipelineOptions {
  /// Warps per program instance (a power of two).
  unsigned numWarps = 4;
  /// Shared-memory stages of software-pipelined dot operands (< 2: none).
  unsigned numStages = 3;
  /// Shared memory one program instance may use (the target's opt-in limit;
  /// tilec and the runtime pass the arch's).
  int64_t maxSharedBytes = kSm90MaxSharedBytes;
  /// Compute the dots that fit with sm_90a warpgroup MMAs (`wgmma`) from
  /// shared memory instead of `mma.sync` (tilec and the runtime set it for
  /// sm_90a).
  bool wgmma = false;
  /// With wgmma, fill the stages of loads of whole tensor tiles with the
  /// Tensor Memory Accelerator instead of cp.async (tile-promote-shared's
  /// `tma`; kernels then take tensor maps, see KernelSignature.h).
  bool tma = true;
  /// With tma, fill the stages of a pipeline whose tf32 B is transposed on
  /// its way into shared memory, or whose TMA copies feed two or more dots
  /// on 8 warps (attention), from a producer warpgroup of its own
  /// (tile-promote-shared's `warp-specialize`; the kernel then runs 4 more
  /// warps than asked for).
  bool warpSpecialize = true;
  /// With wgmma, wait for a dot's warpgroup MMAs where its result is first
  /// read rather than right after issuing them (tile-defer-dot-waits).
  bool deferDotWaits = true;
};

/// Adds the passes that run on frontend-generated tile IR to `pm`:
/// canonicalization and CSE of the tile program (no layouts yet).
void buildTilePipeline(mlir::OpPassManager &pm, const PipelineOptions &options);

/// Adds the layout passes after the tile pipeline: tile-coalesce,
/// tile-accelerate-dot, tile-fuse, tile-promote-shared and the clean-ups
/// between them (tile-remove-layout-conversions, canonicalize, LICM, CSE).
void buildLayoutPipeline(mlir::OpPassManager &pm,
                         const PipelineOptions &options);

/// Adds convert-tile-to-gpu after the layout pipeline: kernels become
/// gpu.func ops in a gpu.module.
void buildGPUPipeline(mlir::OpPassManager &pm, const PipelineOptions &options);

/// Adds the upstream lowering of the gpu.module to the LLVM and NVVM
/// dialects after the GPU pipeline.
void buildNVVMPipeline(mlir::OpPassManager &pm, const PipelineOptions &options);

/// Registers the pipelines with the global pass pipeline registry.
void registerTilePipeline();

} // namespace tile

#endif // TILE_PIPELINE_PIPELINE_H
