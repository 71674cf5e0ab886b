//===- Pipeline.cpp - the tile compilation pipeline -----------------------===//
#include "tile/Pipeline/Pipeline.h"

#include "tile/Analysis/AxisInfo.h"
#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void tile::buildTilePipeline(OpPassManager &pm, const PipelineOptions &) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void tile::buildLayoutPipeline(OpPassManager &pm,
                               const PipelineOptions &options) {
  buildTilePipeline(pm, options);
  pm.addPass(createTileDecomposeBatchedDot());
  TileCoalesceOptions coalesce;
  coalesce.numWarps = options.numWarps;
  pm.addPass(createTileCoalesce(coalesce));
  TileAccelerateDotOptions accelerate;
  accelerate.wgmma = options.wgmma;
  pm.addPass(createTileAccelerateDot(accelerate));
  pm.addPass(createTileRemoveLayoutConversions());
  TileFuseOptions fuse;
  fuse.storeThroughShared = options.wgmma;
  pm.addPass(createTileFuse(fuse));
  pm.addPass(createTileRemoveLayoutConversions());
  TilePromoteSharedOptions promote;
  promote.numStages = options.numStages;
  promote.maxSharedBytes = options.maxSharedBytes;
  promote.wgmma = options.wgmma;
  promote.tma = options.wgmma && options.tma;
  promote.warpSpecialize = promote.tma && options.warpSpecialize;
  pm.addPass(createTilePromoteShared(promote));
  if (options.numStages > 1)
    pm.addPass(createTilePrefetchLoads());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createLoopInvariantCodeMotionPass());
  pm.addPass(createCSEPass());
  if (options.wgmma && options.deferDotWaits)
    pm.addPass(createTileDeferDotWaits());
}

void tile::buildGPUPipeline(OpPassManager &pm, const PipelineOptions &options) {
  buildLayoutPipeline(pm, options);
  ConvertTileToGPUOptions convert;
  convert.maxSharedBytes = options.maxSharedBytes;
  pm.addPass(createConvertTileToGPU(convert));
  // Bottom-up: on the per-thread code the conversion emits, the default
  // top-down walk reached the same IR about 15x slower (130 of tilec's
  // 320 ms for a 128x256x64 sm_90a matmul; docs/compiler.md).
  pm.addPass(createCanonicalizerPass(
      GreedyRewriteConfig().setUseTopDownTraversal(false)));
  pm.addPass(createCSEPass());
}

void tile::buildNVVMPipeline(OpPassManager &pm,
                             const PipelineOptions &options) {
  buildGPUPipeline(pm, options);
  pm.addPass(createSCFToControlFlowPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps());
  pm.addNestedPass<gpu::GPUModuleOp>(tile::createTileTensorMapParams());
  // NVVM ops without an LLVM intrinsic (wgmma.mma_async) become their PTX.
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertNVVMToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void tile::registerTilePipeline() {
  struct Options : PassPipelineOptions<Options> {
    Option<unsigned> numWarps{*this, "num-warps",
                              llvm::cl::desc("Warps per program instance"),
                              llvm::cl::init(4)};
    Option<unsigned> numStages{
        *this, "num-stages",
        llvm::cl::desc("Shared-memory stages of pipelined dot operands"),
        llvm::cl::init(3)};
    Option<int64_t> maxSharedBytes{
        *this, "max-shared-bytes",
        llvm::cl::desc("Shared memory one program instance may use"),
        llvm::cl::init(kSm90MaxSharedBytes)};
    Option<bool> wgmma{
        *this, "wgmma",
        llvm::cl::desc("Compute fitting dots with sm_90a warpgroup MMAs"),
        llvm::cl::init(false)};
    Option<bool> tma{*this, "tma",
                     llvm::cl::desc("With wgmma, fill the stages of whole-tile "
                                    "loads with the Tensor Memory Accelerator"),
                     llvm::cl::init(true)};
    Option<bool> warpSpecialize{
        *this, "warp-specialize",
        llvm::cl::desc("With tma, a producer warpgroup for pipelines that "
                       "transpose an operand into shared memory or feed "
                       "several dots on two warpgroups"),
        llvm::cl::init(true)};
  };
  auto convert = [](const Options &o) {
    PipelineOptions options;
    options.numWarps = o.numWarps;
    options.numStages = o.numStages;
    options.maxSharedBytes = o.maxSharedBytes;
    options.wgmma = o.wgmma;
    options.tma = o.tma;
    options.warpSpecialize = o.warpSpecialize;
    return options;
  };
  PassPipelineRegistration<Options>(
      "tile-pipeline", "The tile compilation pipeline, as tilec runs it",
      [=](OpPassManager &pm, const Options &o) {
        buildTilePipeline(pm, convert(o));
      });
  PassPipelineRegistration<Options>(
      "tile-to-gpu-pipeline",
      "The tile pipeline, layouts and convert-tile-to-gpu (tilec --emit=gpu)",
      [=](OpPassManager &pm, const Options &o) {
        buildGPUPipeline(pm, convert(o));
      });
  PassPipelineRegistration<Options>(
      "tile-to-nvvm-pipeline",
      "Everything up to the LLVM and NVVM dialects (before LLVM IR)",
      [=](OpPassManager &pm, const Options &o) {
        buildNVVMPipeline(pm, convert(o));
      });
}
