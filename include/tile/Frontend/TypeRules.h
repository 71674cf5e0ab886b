//===- TypeRules.h - typing rules of the .tile language ---------*- C++ -*-===//
//
// Pure functions for broadcasting and type promotion, shared by MLIRGen and
// tested on their own.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_FRONTEND_TYPERULES_H
#define TILE_FRONTEND_TYPERULES_H

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace tile {

/// Numpy-style broadcast of two shapes: aligned at the right, each pair of
/// dimensions equal or one of them 1. Returns nullopt when incompatible.
std::optional<llvm::SmallVector<int64_t>>
broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b);

/// The common type of two scalar element types under the promotion rules:
/// int with int gives the wider (of one width, the unsigned; an unsigned
/// type at least as wide as the signed one wins, as in C); float with float
/// gives the wider (f16 with bf16 gives f32); int with float gives the
/// float. Null for pointers.
mlir::Type promoteTypes(mlir::Type a, mlir::Type b);

/// The type the IR uses for a language type: unsigned integers (`u32`,
/// MLIR's `ui32`) become signless (`i32`), as in pointers to them; the ops
/// carry the signedness (divui, cmpi ult, extui, ...).
mlir::Type signlessType(mlir::Type type);

/// The type named by a scalar type keyword (`i32`, `bf16`, ...), or null.
mlir::Type scalarTypeFromName(mlir::MLIRContext *context, llvm::StringRef name);

/// The source spelling of a scalar or pointer type: `f8e4m3`, `ptr<f16>`.
std::string scalarTypeName(mlir::Type type);

/// Formats a tile shape for diagnostics: `[64, 32]`.
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// Formats a value type for diagnostics: `i32`, `ptr<f16>`, `f32[64, 32]`.
std::string formatType(mlir::Type elementType, llvm::ArrayRef<int64_t> shape);

/// Whether `n` is a positive power of two.
inline bool isPowerOfTwo(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

} // namespace tile

#endif // TILE_FRONTEND_TYPERULES_H
