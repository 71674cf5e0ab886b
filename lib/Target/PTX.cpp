//===- PTX.cpp - LLVM IR and PTX from the lowered module ------------------===//
#include "tile/Target/PTX.h"

#include "tile/Conversion/Passes.h"

#include "PtxasWorkarounds.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Scalar/DCE.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/InstSimplifyPass.h"
#include "llvm/Transforms/Scalar/SeparateConstOffsetFromGEP.h"

#include <mutex>

using namespace mlir;

extern "C" void LLVMInitializeNVPTXTargetInfo();
extern "C" void LLVMInitializeNVPTXTarget();
extern "C" void LLVMInitializeNVPTXTargetMC();
extern "C" void LLVMInitializeNVPTXAsmPrinter();

void tile::registerPTXTranslations(DialectRegistry &registry) {
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
}

namespace {

constexpr const char *kTriple = "nvptx64-nvidia-cuda";

std::unique_ptr<llvm::TargetMachine> createTargetMachine(llvm::StringRef arch,
                                                         unsigned ptxVersion,
                                                         std::string &error) {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
  llvm::Triple triple(kTriple);
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
      triple, arch, "+ptx" + std::to_string(ptxVersion), llvm::TargetOptions(),
      std::nullopt));
}

/// Translates and optimizes the gpu.module of `module`.
std::unique_ptr<llvm::Module>
buildLLVMModule(ModuleOp module, llvm::StringRef arch,
                llvm::LLVMContext &llvmContext,
                std::unique_ptr<llvm::TargetMachine> &tm) {
  if (!tile::isSupportedArch(arch)) {
    module.emitError("unsupported GPU architecture '")
        << arch << "' (supported: " << tile::supportedArchList() << ")";
    return nullptr;
  }
  auto gpuModules = llvm::to_vector(module.getOps<gpu::GPUModuleOp>());
  if (gpuModules.size() != 1) {
    module.emitError("expected one gpu.module to compile, found ")
        << gpuModules.size();
    return nullptr;
  }
  std::string error;
  // PTX ISA 8.0 (CUDA 12.0) is the first with sm_90a; every driver that runs
  // sm_90 code JIT-compiles it. A module whose instructions need a later
  // version (mma.sync of 8-bit floats: 8.4) says so.
  unsigned ptxVersion = 80;
  if (auto min = gpuModules.front()->getAttrOfType<IntegerAttr>(
          tile::kMinPtxVersionAttrName))
    ptxVersion = std::max<unsigned>(ptxVersion, min.getInt());
  tm = createTargetMachine(arch, ptxVersion, error);
  if (!tm) {
    module.emitError("cannot create the NVPTX target: ") << error;
    return nullptr;
  }
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(gpuModules.front(), llvmContext, "tile");
  if (!llvmModule) {
    module.emitError("translation to LLVM IR failed");
    return nullptr;
  }
  llvmModule->setTargetTriple(llvm::Triple(kTriple));
  llvmModule->setDataLayout(tm->createDataLayout());

  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(tm.get());
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  // Warpgroup MMAs take and return their accumulators as one struct (NVVM's
  // op), so the translated IR builds a 128-field struct from the loop's phis
  // only to take it apart for the inline PTX. IPSCCP, early in O3, revisits
  // that insertvalue chain field by field whenever a phi changes (50 ms of a
  // 160 ms compile); folding the round trip first leaves the same PTX.
  llvm::FunctionPassManager foldAggregates;
  foldAggregates.addPass(llvm::InstSimplifyPass());
  foldAggregates.addPass(llvm::DCEPass());
  llvm::ModulePassManager mpm;
  mpm.addPass(
      llvm::createModuleToFunctionPassAdaptor(std::move(foldAggregates)));
  mpm.addPass(pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3));
  // The NVPTX backend splits the constant offsets out of GEP indices and then
  // runs straight-line strength reduction before any CSE: an unrolled tile of
  // addresses (`p + sext(x | c)` for every c) becomes N identical `p + sext(x)`
  // GEPs, and LLVM 22's SLSR compares every pair of them (quadratic, 100-400
  // ms on a 128x128 epilogue). Splitting and CSE-ing here leaves it one GEP
  // per base; the backend's split then finds nothing left (the tuned
  // kernels' PTX is byte-identical).
  llvm::FunctionPassManager splitOffsets;
  splitOffsets.addPass(llvm::SeparateConstOffsetFromGEPPass());
  splitOffsets.addPass(llvm::EarlyCSEPass());
  mpm.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(splitOffsets)));
  mpm.run(*llvmModule, mam);
  // ptxas workarounds (PtxasWorkarounds.h), after the optimizer, which would
  // undo them.
  bool rewritten = false;
  for (llvm::Function &function : *llvmModule) {
    rewritten |= tile::settleConstantGuards(function);
    rewritten |= tile::promoteNarrowIntegers(function);
    rewritten |= tile::guardIntegerAbs(function);
    rewritten |= tile::clearSignForHalfAbs(function);
    rewritten |= tile::hideNegations(function);
  }
  std::string broken;
  llvm::raw_string_ostream brokenStream(broken);
  if (rewritten && llvm::verifyModule(*llvmModule, &brokenStream)) {
    module.emitError("internal error: invalid LLVM IR after the ptxas "
                     "workarounds: ")
        << broken;
    return nullptr;
  }
  return llvmModule;
}

} // namespace

LogicalResult tile::emitLLVMIR(ModuleOp module, llvm::StringRef arch,
                               llvm::raw_ostream &os) {
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::TargetMachine> tm;
  std::unique_ptr<llvm::Module> llvmModule =
      buildLLVMModule(module, arch, llvmContext, tm);
  if (!llvmModule)
    return failure();
  llvmModule->print(os, nullptr);
  return success();
}

LogicalResult tile::emitPTX(ModuleOp module, llvm::StringRef arch,
                            std::string &ptx) {
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::TargetMachine> tm;
  std::unique_ptr<llvm::Module> llvmModule =
      buildLLVMModule(module, arch, llvmContext, tm);
  if (!llvmModule)
    return failure();
  llvm::SmallString<0> buffer;
  llvm::raw_svector_ostream os(buffer);
  llvm::legacy::PassManager codegen;
  if (tm->addPassesToEmitFile(codegen, os, nullptr,
                              llvm::CodeGenFileType::AssemblyFile)) {
    module.emitError("the NVPTX backend cannot emit PTX");
    return failure();
  }
  codegen.run(*llvmModule);
  ptx.assign(buffer.begin(), buffer.end());
  return success();
}
