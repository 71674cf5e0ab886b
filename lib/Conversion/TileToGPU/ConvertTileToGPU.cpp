//===- ConvertTileToGPU.cpp - the convert-tile-to-gpu pass ----------------===//
#include "LoweringContext.h"

#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace tile {
#define GEN_PASS_DEF_CONVERTTILETOGPU
#define GEN_PASS_DEF_TILETENSORMAPPARAMS
#include "tile/Conversion/Passes.h.inc"
} // namespace tile

using namespace mlir;
using namespace tile;

std::string tile::sharedBufferName(StringRef kernelName) {
  return ("__tile_shared_" + kernelName).str();
}

int64_t tile::kernelSharedBytes(ModuleOp module, StringRef kernelName) {
  std::string name = sharedBufferName(kernelName);
  int64_t bytes = 0;
  module->walk([&](LLVM::GlobalOp global) {
    if (global.getSymName() == name)
      if (auto attr = global->getAttrOfType<IntegerAttr>(
              TileDialect::SharedBytesAttrHelper::getNameStr()))
        bytes = attr.getInt();
  });
  return bytes;
}

int64_t tile::kernelThreads(ModuleOp module, StringRef kernelName) {
  int64_t threads = 0;
  module->walk([&](Operation *op) {
    auto symbol = dyn_cast<SymbolOpInterface>(op);
    if (!symbol || symbol.getName() != kernelName)
      return;
    // gpu.func's own attribute, or the llvm.func's after gpu-to-nvvm.
    DenseI32ArrayAttr size =
        isa<gpu::GPUFuncOp>(op)
            ? cast<gpu::GPUFuncOp>(op).getKnownBlockSizeAttr()
            : op->getAttrOfType<DenseI32ArrayAttr>(
                  gpu::GPUDialect::KnownBlockSizeAttrHelper::getNameStr());
    if (size)
      threads = size[0];
  });
  return threads;
}

std::vector<TensorMapInfo> tile::kernelTensorMaps(ModuleOp module,
                                                  StringRef kernelName) {
  std::vector<TensorMapInfo> maps;
  module->walk([&](Operation *op) {
    auto symbol = dyn_cast<SymbolOpInterface>(op);
    auto list = op->getAttrOfType<ArrayAttr>(kTensorMapsAttrName);
    if (!symbol || !list || symbol.getName() != kernelName)
      return;
    maps.clear();
    for (auto field : list.getAsRange<StringAttr>()) {
      // The list is formatTensorMap's: a field it cannot parse back would
      // leave the kernel's parameters without their maps.
      std::optional<TensorMapInfo> map = parseTensorMap(field.getValue());
      if (!map)
        llvm::report_fatal_error("tile: unreadable tensor map '" +
                                 field.getValue() + "'");
      maps.push_back(std::move(*map));
    }
  });
  return maps;
}

namespace {

struct ConvertTileToGPU : tile::impl::ConvertTileToGPUBase<ConvertTileToGPU> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<KernelOp> kernels(module.getOps<KernelOp>());
    if (kernels.empty())
      return;
    ModuleAxisInfo axisInfo(module);
    LoweringPatternSet patterns;
    populateElementwiseLowerings(patterns);
    populateMemoryLowerings(patterns);
    populateCommunicationLowerings(patterns);
    populateFmaDotLowerings(patterns);
    populateMmaLowerings(patterns);
    populateWgmmaLowerings(patterns);
    populateTmaLowerings(patterns);
    MLIRContext *ctx = &getContext();
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(ctx));
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    auto gpuModule =
        gpu::GPUModuleOp::create(b, module.getLoc(), kGPUModuleName);
    for (KernelOp kernel : kernels) {
      if (failed(lowerKernel(kernel, gpuModule, axisInfo, patterns)))
        return signalPassFailure();
    }
    for (KernelOp kernel : kernels)
      kernel.erase();
  }

  LogicalResult lowerKernel(KernelOp kernel, gpu::GPUModuleOp gpuModule,
                            const ModuleAxisInfo &axisInfo,
                            const LoweringPatternSet &patterns) {
    MLIRContext *ctx = &getContext();
    auto numWarps = kernel->getAttrOfType<IntegerAttr>(
        TileDialect::NumWarpsAttrHelper::getNameStr());
    if (!numWarps)
      return kernel.emitError("kernel has no '")
             << TileDialect::NumWarpsAttrHelper::getNameStr()
             << "': run tile-coalesce before convert-tile-to-gpu";
    // Tiles too large for a thread's registers, refused before they are
    // lowered element by element.
    WalkResult tooLarge = kernel.walk([&](Operation *op) {
      for (Value v : op->getResults()) {
        FailureOr<Distribution> dist = Distribution::get(v.getType());
        if (failed(dist) || dist->getNumSlots() <= kMaxElementsPerThread)
          continue;
        // Ops that passes create (zero accumulators) may have no location.
        Operation *at = isa<UnknownLoc>(op->getLoc()) ? kernel : op;
        at->emitError("a tile of ")
            << cast<RankedTensorType>(v.getType()).getNumElements()
            << " elements gives each of the " << 32 * numWarps.getInt()
            << " threads " << dist->getNumSlots() << " of them; at most "
            << kMaxElementsPerThread
            << " are supported (use more warps or a smaller tile)";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (tooLarge.wasInterrupted())
      return failure();
    SmallVector<Type> argTypes;
    for (Type t : kernel.getArgumentTypes())
      argTypes.push_back(
          isa<PointerType>(t) ? LLVM::LLVMPointerType::get(ctx, 1) : t);
    OpBuilder b = OpBuilder::atBlockEnd(gpuModule.getBody());
    auto func = gpu::GPUFuncOp::create(b, kernel.getLoc(), kernel.getSymName(),
                                       FunctionType::get(ctx, argTypes, {}));
    func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), UnitAttr::get(ctx));
    // A producer's warps (tile.producer) follow the kernel's own.
    int32_t threads = 32 * numWarps.getInt();
    bool hasProducer = false;
    kernel.walk([&](ProducerOp producer) {
      threads += 32 * producer.getWarps() * producer.getGroups();
      hasProducer = true;
    });
    func.setKnownBlockSizeAttr(DenseI32ArrayAttr::get(ctx, {threads, 1, 1}));
    // setmaxnreg needs the register count at entry, which ptxas knows when
    // one program instance fills an SM (else it ignores them: C7508).
    if (hasProducer)
      func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                    b.getI32IntegerAttr(1));
    LoweringContext lowering(kernel, func, axisInfo, patterns);
    if (failed(lowering.run()))
      return failure();
    if (!lowering.getTensorMaps().empty()) {
      SmallVector<Attribute> fields;
      for (const TensorMapInfo &map : lowering.getTensorMaps())
        fields.push_back(StringAttr::get(ctx, formatTensorMap(map)));
      func->setAttr(kTensorMapsAttrName, ArrayAttr::get(ctx, fields));
    }
    int64_t shared = lowering.getSharedBytes();
    if (shared > maxSharedBytes)
      return kernel.emitError("kernel needs ")
             << shared << " bytes of shared memory, more than the "
             << maxSharedBytes.getValue()
             << " one program instance may use (smaller tiles, or fewer "
                "pipeline stages with --num-stages, need less)";
    if (shared > 0) {
      // Dynamic shared memory: an unsized extern array (a static one is
      // limited to 48 KiB); the launch passes its size.
      b.setInsertionPoint(func);
      auto arrayType = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), 0);
      // wgmma stages start at 1024-byte multiples of a 1024-aligned base.
      bool wgmmaStages = false;
      kernel.walk([&](SharedAllocOp alloc) {
        wgmmaStages |= alloc.getEncoding().getPanel() != 0;
      });
      auto global = LLVM::GlobalOp::create(
          b, kernel.getLoc(), arrayType, /*isConstant=*/false,
          LLVM::Linkage::External, sharedBufferName(kernel.getSymName()),
          Attribute(), /*alignment=*/wgmmaStages ? 1024 : 16, /*addrSpace=*/3);
      global->setAttr(TileDialect::SharedBytesAttrHelper::getNameStr(),
                      b.getI64IntegerAttr(shared));
      // Dynamic shared memory hides from ptxas that one program instance
      // fills an SM; it then budgets registers for several (168 at 128
      // threads) and spilled FMA kernels (f32 128x64x64 tiles). Kernels on
      // warpgroup MMAs keep its default: told, it spilled two tf32 ones
      // that fit without (bench/NOTES.md v41, v42).
      if (!wgmmaStages && 2 * shared > maxSharedBytes)
        func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                      b.getI32IntegerAttr(1));
    }
    return success();
  }
};

} // namespace

namespace {

struct TileTensorMapParams
    : tile::impl::TileTensorMapParamsBase<TileTensorMapParams> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    WalkResult result = getOperation().walk([&](LLVM::LLVMFuncOp func) {
      auto list = func->getAttrOfType<ArrayAttr>(kTensorMapsAttrName);
      if (!list)
        return WalkResult::advance();
      unsigned count = list.size(), params = func.getNumArguments();
      if (count > params) {
        func.emitError("kernel lists ")
            << count << " tensor maps but has " << params << " parameters";
        return WalkResult::interrupt();
      }
      // A CUtensorMap: 128 opaque bytes, 64-byte aligned.
      auto bytes = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), 128);
      for (unsigned i = params - count; i < params; ++i) {
        func.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                        TypeAttr::get(bytes));
        func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                        IntegerAttr::get(IntegerType::get(ctx, 64), 64));
        func.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                        UnitAttr::get(ctx));
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
