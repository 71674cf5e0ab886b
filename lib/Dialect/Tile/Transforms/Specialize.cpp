//===- Specialize.cpp - facts about kernel arguments ----------------------===//
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/StringSet.h"

namespace tile {
#define GEN_PASS_DEF_TILESPECIALIZE
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile

using namespace mlir;
using namespace tile;

namespace {
struct Specialize : tile::impl::TileSpecializeBase<Specialize> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // NAME (divisible by 16) or NAME:D (by D, a power of two up to 16).
    llvm::StringMap<int64_t> divisors;
    for (StringRef entry : divisible) {
      auto [name, divisor] = entry.split(':');
      int64_t d = 16;
      if (!divisor.empty() &&
          (divisor.getAsInteger(10, d) || d < 2 || d > 16 || (d & (d - 1)))) {
        module.emitError("divisible '")
            << entry << "': the divisor must be 2, 4, 8 or 16";
        return signalPassFailure();
      }
      divisors[name] = d;
    }
    llvm::StringSet<> seen;
    Builder b(module.getContext());
    for (KernelOp kernel : module.getOps<KernelOp>()) {
      for (BlockArgument arg : kernel.getBody().getArguments()) {
        auto name = dyn_cast<NameLoc>(arg.getLoc());
        if (!name)
          continue;
        StringRef argName = name.getName().strref();
        seen.insert(argName);
        bool isPointer = isa<PointerType>(arg.getType());
        int64_t divisor = pointersDivisible && isPointer ? 16 : 1;
        divisor = std::max(divisor, divisors.lookup(argName));
        if (divisor > 1)
          kernel.setArgAttr(arg.getArgNumber(),
                            TileDialect::DivisibilityAttrHelper::getNameStr(),
                            b.getI32IntegerAttr(divisor));
        if (!llvm::is_contained(equalToOne, argName))
          continue;
        auto intType = dyn_cast<IntegerType>(arg.getType());
        if (!intType) {
          kernel.emitError("equal-to-one parameter '")
              << argName << "' is not an integer";
          return signalPassFailure();
        }
        kernel.setArgAttr(arg.getArgNumber(),
                          TileDialect::EqualToOneAttrHelper::getNameStr(),
                          b.getUnitAttr());
        OpBuilder ob = OpBuilder::atBlockBegin(&kernel.getBody().front());
        arg.replaceAllUsesWith(
            arith::ConstantIntOp::create(ob, arg.getLoc(), intType, 1));
      }
    }
    for (auto *names : {&divisible, &equalToOne})
      for (StringRef entry : *names)
        if (StringRef n = entry.split(':').first; !seen.contains(n)) {
          module.emitError("no kernel has a parameter named '") << n << "'";
          return signalPassFailure();
        }
  }
};
} // namespace
