//===- MathFunctions.h - erf, tanh, sin, cos, pow without libdevice -*- C++
//-*-//
//
// The transcendental builtins PTX has no instruction for, built from fma
// polynomials, the approximate ex2 unit and SoftMath's f64 exp/log, so that
// kernels need no libdevice. Accuracy bounds are stated in docs/language.md
// and measured by unittests/GPU/MathTest.cpp; the constants come from
// scripts/math_coefficients.py.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_LIB_CONVERSION_TILETOGPU_MATHFUNCTIONS_H
#define TILE_LIB_CONVERSION_TILETOGPU_MATHFUNCTIONS_H

#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace tile {

/// erf of an f32.
mlir::Value emitErfF32(mlir::ImplicitLocOpBuilder &b, mlir::Value x);

/// tanh of an f32 or an f64.
mlir::Value emitTanh(mlir::ImplicitLocOpBuilder &b, mlir::Value x);

/// sin (or cos when `cosine`) of an f64, reduced by pi/2 in three parts.
mlir::Value emitSinCosF64(mlir::ImplicitLocOpBuilder &b, mlir::Value x,
                          bool cosine);

/// C's pow(x, y) of two f64s, as exp2(y log2|x|) with C's special cases.
mlir::Value emitPowF64(mlir::ImplicitLocOpBuilder &b, mlir::Value x,
                       mlir::Value y);

} // namespace tile

#endif // TILE_LIB_CONVERSION_TILETOGPU_MATHFUNCTIONS_H
