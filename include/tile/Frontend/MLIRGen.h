//===- MLIRGen.h - .tile source to tile dialect -----------------*- C++ -*-===//
#ifndef TILE_FRONTEND_MLIRGEN_H
#define TILE_FRONTEND_MLIRGEN_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <map>
#include <string>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace tile {
namespace ast {
struct Module;
} // namespace ast

/// Overrides of `const` parameters (`tilec -D NAME=VALUE`), by name, with
/// the value as written.
using ConstOverrides = std::map<std::string, std::string>;

/// Generates tile IR for every kernel of `module`; helpers are inlined at
/// their calls. Errors are emitted on the context's diagnostic engine with
/// `filename:line:col` locations; returns null on error.
mlir::OwningOpRef<mlir::ModuleOp> mlirGen(mlir::MLIRContext &context,
                                          const ast::Module &module,
                                          llvm::StringRef filename,
                                          const ConstOverrides &overrides);

/// Parses the main buffer of `sourceMgr` as .tile source and generates
/// verified tile IR. Loads the dialects it needs into `context`.
mlir::OwningOpRef<mlir::ModuleOp>
compileTileSource(llvm::SourceMgr &sourceMgr, mlir::MLIRContext &context,
                  const ConstOverrides &overrides);

} // namespace tile

#endif // TILE_FRONTEND_MLIRGEN_H
