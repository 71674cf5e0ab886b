//===- MathFunctions.cpp - erf, tanh, sin, cos, pow without libdevice -----===//
//
// - erf (f32): x + x R(x^2) below 1, 1 - 2^Q(|x| - 2.5) from 1 to 4 with Q a
//   fit of log2(erfc) (so that the approximate ex2 unit's relative error
//   lands on the small erfc, not on erf), 1 beyond.
// - tanh: below 0.6 x + x^3 P(x^2), P a degree-4 fit (f32) or the Taylor
//   series to x^41 (f64); above 1 - 2 / (e^2|x| + 1), which cancels little
//   there (the result is > 0.53).
// - sin, cos (f64; f32 and narrower are widened): k = rint(x 2/pi), the
//   remainder x - k pi/2 by three fma with pi/2 in three doubles, Taylor
//   polynomials on [-pi/4, pi/4], the quadrant k mod 4 picking sin or cos and
//   the sign. Every double-rounded step is an fma; the reduction is exact
//   enough while k pi/2's third part is below the result's ulp (|x| < 2^30
//   in f32 terms, see docs/language.md).
// - pow (f64, for f32 and narrower): exp2(y log2|x|) by SoftMath's f64
//   functions, whose error is far below an f32 ulp for every finite result,
//   then C's rules for signs, zeros, infinities and NaN.
// Intrinsics are called by name so that convert-gpu-to-nvvm leaves them as
// PTX instructions instead of libdevice calls.
//
//===----------------------------------------------------------------------===//
#include "MathFunctions.h"

#include "SoftMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <limits>

using namespace mlir;
using namespace tile;

// From scripts/math_coefficients.py, lowest degree first.
static constexpr double kErfSmall[] = {
    1.283791661e-01, -3.761261106e-01, 1.128346100e-01, -2.684955671e-02,
    5.181253888e-03, -7.953780587e-04, 7.680844283e-05};
static constexpr double kErfLarge[] = {
    -1.126285362e+01, -7.722285748e+00, -1.361750364e+00, -1.566544734e-02,
    3.120377427e-03,  -6.119441823e-04, 1.116036510e-04,  -1.291954686e-05,
    7.047160580e-06,  1.059246188e-06};
static constexpr double kTanh[] = {1,
                                   -0.33333333333333331,
                                   0.13333333333333333,
                                   -0.053968253968253971,
                                   0.021869488536155203,
                                   -0.0088632355299021973,
                                   0.0035921280365724811,
                                   -0.0014558343870513183,
                                   0.00059002744094558595,
                                   -0.00023912911424355248,
                                   9.6915379569294509e-05,
                                   -3.9278323883316833e-05,
                                   1.5918905069328964e-05,
                                   -6.4516892156554306e-06,
                                   2.6147711512907546e-06,
                                   -1.0597268320104654e-06,
                                   4.2949110782738057e-07,
                                   -1.7406618963571648e-07,
                                   7.0546369464009681e-08,
                                   -2.859136662305254e-08,
                                   1.1587644432798853e-08};
static constexpr double kTanhF32[] = {-3.333330154e-01, 1.333197802e-01,
                                      -5.378798768e-02, 2.080881596e-02,
                                      -5.909062922e-03};
static constexpr double kSin[] = {1,
                                  -0.16666666666666666,
                                  0.0083333333333333332,
                                  -0.00019841269841269841,
                                  2.7557319223985893e-06,
                                  -2.505210838544172e-08,
                                  1.6059043836821613e-10,
                                  -7.6471637318198164e-13,
                                  2.8114572543455206e-15};
static constexpr double kCos[] = {1,
                                  -0.5,
                                  0.041666666666666664,
                                  -0.0013888888888888889,
                                  2.4801587301587302e-05,
                                  -2.7557319223985888e-07,
                                  2.08767569878681e-09,
                                  -1.1470745597729725e-11,
                                  4.7794773323873853e-14,
                                  -1.5619206968586225e-16};
static constexpr double kPiOver2[] = {1.5707963267948966, 6.123233995736766e-17,
                                      -1.4973849048591698e-33};
static constexpr double k2OverPi = 0.6366197723675814;
static constexpr double kLog2E = 1.4426950408889634;

namespace {
/// Scalar arithmetic on floats of one type (f32 or f64), short names.
struct FloatOps {
  ImplicitLocOpBuilder &b;
  Type type;

  Value c(double v) {
    return arith::ConstantOp::create(b, b.getFloatAttr(type, v));
  }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, x, y); }
  Value neg(Value x) { return arith::NegFOp::create(b, x); }
  Value cmp(arith::CmpFPredicate p, Value x, Value y) {
    return arith::CmpFOp::create(b, p, x, y);
  }
  Value select(Value cond, Value x, Value y) {
    return arith::SelectOp::create(b, cond, x, y);
  }
  Value call(StringRef name, ValueRange args,
             LLVM::FastmathFlags flags = LLVM::FastmathFlags::none) {
    std::string full = (name + (type.isF64() ? ".f64" : ".f32")).str();
    return LLVM::CallIntrinsicOp::create(
               b, type, b.getStringAttr(full), args,
               LLVM::FastmathFlagsAttr::get(b.getContext(), flags))
        .getResult(0);
  }
  Value fma(Value x, Value y, Value z) { return call("llvm.fma", {x, y, z}); }
  Value abs(Value x) { return call("llvm.fabs", {x}); }
  Value floor(Value x) { return call("llvm.floor", {x}); }
  Value copysign(Value magnitude, Value sign) {
    return call("llvm.copysign", {magnitude, sign});
  }
  Value polynomial(Value x, ArrayRef<double> coefficients) {
    return emitPolynomial(b, x, coefficients);
  }
};
} // namespace

using P = arith::CmpFPredicate;

Value tile::emitErfF32(ImplicitLocOpBuilder &b, Value x) {
  FloatOps f{b, x.getType()};
  Value t = f.abs(x);
  Value small = f.fma(x, f.polynomial(f.mul(x, x), kErfSmall), x);
  // Beyond 4, erfc < 2^-26 and erf rounds to 1: the fit at 4 gives that.
  Value clamped = f.select(f.cmp(P::OLT, t, f.c(4.0)), t, f.c(4.0));
  Value q = f.polynomial(f.sub(clamped, f.c(2.5)), kErfLarge);
  Value erfc = f.call("llvm.exp2", {q}, LLVM::FastmathFlags::afn);
  Value large = f.copysign(f.sub(f.c(1.0), erfc), x);
  // Ordered: NaN takes the small branch, which keeps it.
  return f.select(f.cmp(P::OGE, t, f.c(1.0)), large, small);
}

Value tile::emitTanh(ImplicitLocOpBuilder &b, Value x) {
  FloatOps f{b, x.getType()};
  bool isF64 = f.type.isF64();
  ArrayRef<double> cubic =
      isF64 ? ArrayRef<double>(kTanh).drop_front() : ArrayRef(kTanhF32);
  Value t = f.abs(x);
  Value s = f.mul(x, x);
  Value small = f.fma(f.mul(x, s), f.polynomial(s, cubic), x);
  Value twice = f.add(t, t);
  Value e = isF64 ? emitF64Math(b, "exp", twice)
                  : f.call("llvm.exp2", {f.mul(twice, f.c(kLog2E))},
                           LLVM::FastmathFlags::afn);
  // e = inf (|x| > 44 in f32) gives exactly 1. In f32 the division is
  // div.approx (2 ulp on a quotient below 0.47, under 1 ulp of the result):
  // div.rn's slow path made f16 GELU compute-bound.
  Value quotient =
      isF64 ? f.div(f.c(2.0), f.add(e, f.c(1.0)))
            : Value(arith::DivFOp::create(b, f.c(2.0), f.add(e, f.c(1.0)),
                                          arith::FastMathFlags::afn));
  Value large = f.copysign(f.sub(f.c(1.0), quotient), x);
  return f.select(f.cmp(P::OGE, t, f.c(0.6)), large, small);
}

Value tile::emitSinCosF64(ImplicitLocOpBuilder &b, Value x, bool cosine) {
  FloatOps f{b, x.getType()};
  Value k = f.call("llvm.rint", {f.mul(x, f.c(k2OverPi))});
  Value minusK = f.neg(k);
  Value r = x;
  for (double part : kPiOver2)
    r = f.fma(minusK, f.c(part), r);
  // cos(x) = sin(x + pi/2): one quadrant on.
  if (cosine)
    k = f.add(k, f.c(1.0));
  // The quadrant k mod 4 in [0, 4), exact for every integer k.
  Value quadrant = f.sub(k, f.mul(f.c(4.0), f.floor(f.mul(k, f.c(0.25)))));
  Value z = f.mul(r, r);
  Value sinR =
      f.fma(f.mul(r, z), f.polynomial(z, ArrayRef(kSin).drop_front()), r);
  Value cosR = f.polynomial(z, kCos);
  Value halfQuadrant = f.mul(quadrant, f.c(0.5));
  Value odd =
      f.cmp(P::ONE, f.floor(halfQuadrant), halfQuadrant); // quadrant 1 or 3
  Value v = f.select(odd, cosR, sinR);
  Value result = f.select(f.cmp(P::OGE, quadrant, f.c(2.0)), f.neg(v), v);
  if (cosine)
    return result;
  // sin(-0) = -0, which the reduction's +0 remainder would lose.
  return f.select(f.cmp(P::OEQ, x, f.c(0.0)), x, result);
}

Value tile::emitPowF64(ImplicitLocOpBuilder &b, Value x, Value y) {
  FloatOps f{b, x.getType()};
  constexpr double inf = std::numeric_limits<double>::infinity();
  Value ax = f.abs(x);
  Value r = emitF64Math(b, "exp2", f.mul(y, emitF64Math(b, "log2", ax)));
  auto both = [&](Value p, Value q) -> Value {
    return arith::AndIOp::create(b, p, q);
  };
  auto either = [&](Value p, Value q) -> Value {
    return arith::OrIOp::create(b, p, q);
  };
  // Odd integer y (infinities count as even): a negative x (-0 included)
  // keeps its sign.
  Value yInteger = f.cmp(P::OEQ, f.floor(y), y);
  Value halfY = f.mul(y, f.c(0.5));
  Value yOdd = both(yInteger, f.cmp(P::ONE, f.floor(halfY), halfY));
  Value signBit = arith::CmpIOp::create(
      b, arith::CmpIPredicate::slt,
      arith::BitcastOp::create(b, b.getI64Type(), x),
      arith::ConstantOp::create(b, b.getI64IntegerAttr(0)));
  r = f.select(both(signBit, yOdd), f.neg(r), r);
  // A finite negative x to a non-integer power has no real value.
  Value negativeFinite =
      both(f.cmp(P::OLT, x, f.c(0.0)), f.cmp(P::OGT, x, f.c(-inf)));
  Value invalid =
      both(negativeFinite,
           arith::XOrIOp::create(
               b, yInteger, arith::ConstantOp::create(b, b.getBoolAttr(true))));
  r = f.select(invalid, f.c(std::numeric_limits<double>::quiet_NaN()), r);
  // pow(x, +-0) = 1 and pow(1, y) = 1 even for NaN; pow(-1, +-inf) = 1.
  Value one = either(
      either(f.cmp(P::OEQ, y, f.c(0.0)), f.cmp(P::OEQ, x, f.c(1.0))),
      both(f.cmp(P::OEQ, x, f.c(-1.0)), f.cmp(P::OEQ, f.abs(y), f.c(inf))));
  return f.select(one, f.c(1.0), r);
}
