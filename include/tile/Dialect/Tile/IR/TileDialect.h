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
} // namespace tile

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.h.inc"

#endif // TILE_DIALECT_TILE_IR_TILEDIALECT_H
