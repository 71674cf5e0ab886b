//===- SoftMath.h - fmod and f64 exp/log from arith and scf ops -*- C++ -*-===//
//
// What PTX has no instruction for and convert-gpu-to-nvvm would turn into
// libdevice calls (`__nv_fmodf`, `__nv_exp`), which need the CUDA toolkit at
// link time: built here from integer and f64 arithmetic, one thread's scalar
// at a time.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_LIB_CONVERSION_TILETOGPU_SOFTMATH_H
#define TILE_LIB_CONVERSION_TILETOGPU_SOFTMATH_H

#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace tile {

/// C's fmod(x, y) of two floats of one type (f16, bf16, f32, f64): exact,
/// with the sign of `x`; NaN when y is 0 or x infinite.
mlir::Value emitExactRemainder(mlir::ImplicitLocOpBuilder &b, mlir::Value x,
                               mlir::Value y);

/// exp, exp2, log or log2 (`name`) of an f64, within 2 ulp of the exact
/// result; exp2 of an integer and log2 of a power of two are exact.
mlir::Value emitF64Math(mlir::ImplicitLocOpBuilder &b, llvm::StringRef name,
                        mlir::Value x);

/// Horner's scheme c[0] + x (c[1] + x (c[2] + ...)) with fma, in the type of
/// `x` (f32 or f64).
mlir::Value emitPolynomial(mlir::ImplicitLocOpBuilder &b, mlir::Value x,
                           llvm::ArrayRef<double> coefficients);

} // namespace tile

#endif // TILE_LIB_CONVERSION_TILETOGPU_SOFTMATH_H
