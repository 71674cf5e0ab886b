//===- ExplainLayout.h - the thread holding each element -------*- C++ -*-===//
//
// `tilec --explain-layout=NAME`: for the tile a kernel binds to NAME, every
// layout the compiler gives it (after the layout passes) drawn as a grid of
// the thread and register that hold each element, as text or as SVG.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_DRIVER_EXPLAINLAYOUT_H
#define TILE_DRIVER_EXPLAINLAYOUT_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tile {

/// How the picture is written.
enum class LayoutPicture { Text, SVG };

/// Draws the layouts of the tile named `name` (a `let` or `var` of the
/// source) in `kernel` (empty: the module's only kernel) of a module compiled
/// to Stage::Layouts. Returns "" on success, else the error message.
std::string explainLayout(mlir::ModuleOp module, llvm::StringRef kernel,
                          llvm::StringRef name, LayoutPicture picture,
                          llvm::raw_ostream &os);

} // namespace tile

#endif // TILE_DRIVER_EXPLAINLAYOUT_H
