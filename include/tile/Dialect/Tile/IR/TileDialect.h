//===- TileDialect.h - tile dialect -----------------------------*- C++ -*-===//
//
// The `tile` dialect: block-level programs over tiles (ranked tensors of
// scalars and `!tile.ptr` pointers), in Triton's programming model.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_DIALECT_TILE_IR_TILEDIALECT_H
#define TILE_DIALECT_TILE_IR_TILEDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tile/Dialect/Tile/IR/TileDialect.h.inc"
#include "tile/Dialect/Tile/IR/TileEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileAttrs.h.inc"

namespace tile {
/// For a pointer or tensor of pointers, the pointee type with the same shape
/// (and encoding); any other type is returned unchanged.
mlir::Type getPointeeLikeType(mlir::Type ptrLike);
/// The i1 type with the shape (and encoding) of `type`.
mlir::Type getI1LikeType(mlir::Type type);
/// The name a kernel parameter has in signatures: its source name, or
/// `argN` for a parameter without one.
std::string getParamName(mlir::BlockArgument arg);
/// A kernel parameter's type in the source: its `tile.source_type` where
/// the IR's differs (`u32`, `ptr<u8>`), else its IR type.
mlir::Type getParamSourceType(mlir::BlockArgument arg);
/// Whether `type` is an 8-bit float (f8E4M3FN, f8E5M2): stored, loaded and
/// converted, not computed with; its bits (i8) in GPU registers and memory.
inline bool isFloat8(mlir::Type type) {
  return llvm::isa<mlir::Float8E4M3FNType, mlir::Float8E5M2Type>(type);
}
} // namespace tile

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.h.inc"

namespace tile {
/// The axis a reduction (reduce or generic_reduce) removes; none for other
/// ops.
std::optional<unsigned> getReducedAxis(mlir::Operation *op);
} // namespace tile

#endif // TILE_DIALECT_TILE_IR_TILEDIALECT_H
