//===- RunCommand.h - `tilec --run`: a kernel on generated inputs -*- C++ -*-===//
#ifndef TILE_INTERPRETER_RUNCOMMAND_H
#define TILE_INTERPRETER_RUNCOMMAND_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tile::interp {

/// What `tilec --run` was asked to do.
struct RunOptions {
  /// Kernel to run; empty means the module's only kernel.
  std::string kernel;
  /// Grid as `X[,Y[,Z]]`.
  std::string grid = "1";
  /// `NAME=VALUE` per parameter: a number for a scalar, a buffer spec
  /// (`rand:N`, `zeros:N`, `iota:N`, `fill:V:N`, `file:PATH` of a .npy or
  /// raw little-endian .bin) for a pointer.
  std::vector<std::string> args;
  /// Where to write every buffer after the run (NAME.npy; NAME.bin for bf16,
  /// which NumPy has no type for); empty: nowhere.
  std::string dumpDir;
  /// Buffers to print; empty: all.
  std::vector<std::string> show;
  /// Seed of `rand:` buffers.
  unsigned seed = 0;
  /// Print every element instead of a summary.
  bool printAll = false;
};

/// Builds the arguments, runs the kernel on the interpreter and prints each
/// buffer (a summary or every element) to `os`. Errors are emitted as
/// diagnostics.
mlir::LogicalResult runCommand(mlir::ModuleOp module, const RunOptions &options,
                               llvm::raw_ostream &os);

} // namespace tile::interp

#endif // TILE_INTERPRETER_RUNCOMMAND_H
