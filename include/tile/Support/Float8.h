//===- Float8.h - rounding to the 8-bit float types -------------*- C++ -*-===//
//
// The language's rule for converting to f8e4m3 (OCP E4M3FN: no infinities)
// and f8e5m2: a double is rounded to f32 first (the GPU converts from f32),
// then to nearest, ties to even; values beyond the largest finite one,
// infinities included, saturate to it (PTX cvt's .satfinite); NaN stays NaN.
// The frontend folds constants with it and the interpreter rounds with it.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_SUPPORT_FLOAT8_H
#define TILE_SUPPORT_FLOAT8_H

#include "llvm/ADT/APFloat.h"

#include <cmath>

namespace tile {

/// The semantics of f8e5m2 (`e5m2`) or f8e4m3.
inline const llvm::fltSemantics &float8Semantics(bool e5m2) {
  return e5m2 ? llvm::APFloat::Float8E5M2() : llvm::APFloat::Float8E4M3FN();
}

/// The bits of `v` converted to f8e5m2 (`e5m2`) or f8e4m3.
inline uint8_t float8Bits(double v, bool e5m2) {
  const llvm::fltSemantics &sem = float8Semantics(e5m2);
  float f = static_cast<float>(v);
  if (std::isnan(f))
    return llvm::APFloat::getNaN(sem).bitcastToAPInt().getZExtValue();
  llvm::APFloat x(f);
  bool lost;
  x.convert(sem, llvm::APFloat::rmNearestTiesToEven, &lost);
  if (x.isNaN() || x.isInfinity())
    x = llvm::APFloat::getLargest(sem, std::signbit(f));
  return static_cast<uint8_t>(x.bitcastToAPInt().getZExtValue());
}

/// The value of the f8e5m2 (`e5m2`) or f8e4m3 bits `bits`.
inline double float8Value(uint8_t bits, bool e5m2) {
  llvm::APFloat x(float8Semantics(e5m2), llvm::APInt(8, bits));
  bool lost;
  x.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
            &lost);
  return x.convertToDouble();
}

/// `v` rounded to f8e5m2 (`e5m2`) or f8e4m3, as a double.
inline double roundToFloat8(double v, bool e5m2) {
  return float8Value(float8Bits(v, e5m2), e5m2);
}

} // namespace tile

#endif // TILE_SUPPORT_FLOAT8_H
