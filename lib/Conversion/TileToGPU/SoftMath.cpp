//===- SoftMath.cpp - fmod and f64 exp/log from arith and scf ops ---------===//
//
// - Remainder: long division of the significands, one bit per unit of the
//   exponents' difference (as musl's fmod), in 64-bit integers. Narrower
//   floats are widened to f64 first, which is exact, and the result is exact
//   in every format, so it rounds back exactly. The loop runs the exponent
//   difference of x and y times: 0 for |x| < |y|, at most 2098.
// - exp/exp2: x = k ln 2 + r with |r| <= ln 2 / 2 (ln 2 in two parts, fdlibm's
//   split), exp(r) by its Taylor polynomial of degree 13 (truncation below
//   2^-58), times 2^k as two powers of two so that subnormal results round
//   once.
// - log/log2: x = 2^e m with m in [sqrt(2)/2, sqrt(2)), f = m - 1,
//   s = f / (2 + f) and log(1 + f) = f - f^2/2 + s (f^2/2 + R(s^2)) with R the
//   atanh series (fdlibm's arrangement, Taylor coefficients to s^22).
// Intrinsics are called by name, as in LowerElementwise.cpp, so that
// convert-gpu-to-nvvm does not turn them into libdevice calls.
//
//===----------------------------------------------------------------------===//
#include "SoftMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace tile;

namespace {
/// Scalar f64/i64 arithmetic with short names, for the formulas below.
struct Arith64 {
  ImplicitLocOpBuilder &b;
  Type f64 = b.getF64Type();
  Type i64 = b.getI64Type();

  Value f(double v) {
    return arith::ConstantOp::create(b, b.getF64FloatAttr(v));
  }
  Value i(int64_t v) {
    return arith::ConstantOp::create(b, b.getI64IntegerAttr(v));
  }
  Value bits(Value x) { return arith::BitcastOp::create(b, i64, x); }
  Value fromBits(Value x) { return arith::BitcastOp::create(b, f64, x); }
  Value add(Value x, Value y) {
    return isa<FloatType>(x.getType()) ? Value(arith::AddFOp::create(b, x, y))
                                       : Value(arith::AddIOp::create(b, x, y));
  }
  Value sub(Value x, Value y) {
    return isa<FloatType>(x.getType()) ? Value(arith::SubFOp::create(b, x, y))
                                       : Value(arith::SubIOp::create(b, x, y));
  }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, x, y); }
  Value band(Value x, Value y) { return arith::AndIOp::create(b, x, y); }
  Value bor(Value x, Value y) { return arith::OrIOp::create(b, x, y); }
  Value shl(Value x, Value y) { return arith::ShLIOp::create(b, x, y); }
  Value lshr(Value x, Value y) { return arith::ShRUIOp::create(b, x, y); }
  Value ashr(Value x, Value y) { return arith::ShRSIOp::create(b, x, y); }
  Value icmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, p, x, y);
  }
  Value fcmp(arith::CmpFPredicate p, Value x, Value y) {
    return arith::CmpFOp::create(b, p, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, c, x, y);
  }
  Value fma(Value x, Value y, Value z) {
    return call("llvm.fma.f64", {x, y, z});
  }
  Value rint(Value x) { return call("llvm.rint.f64", {x}); }
  Value ctlz(Value x) {
    Value no = arith::ConstantOp::create(b, b.getBoolAttr(false));
    return call("llvm.ctlz.i64", {x, no});
  }
  Value call(StringRef name, ValueRange args) {
    return LLVM::CallIntrinsicOp::create(
               b, args[0].getType(), b.getStringAttr(name), args,
               LLVM::FastmathFlagsAttr::get(b.getContext(), {}))
        .getResult(0);
  }
  Value polynomial(Value x, ArrayRef<double> c) {
    return emitPolynomial(b, x, c);
  }
};
} // namespace

constexpr int64_t kSignBit = int64_t(1) << 63;
constexpr int64_t kImplicitBit = int64_t(1) << 52;
constexpr int64_t kMantissaMask = kImplicitBit - 1;

/// fmod of two f64 values.
static Value remainderF64(Arith64 &a, Value x, Value y) {
  using P = arith::CmpIPredicate;
  Value ux = a.bits(x), uy = a.bits(y);
  Value sign = a.band(ux, a.i(kSignBit));
  Value ax = a.band(ux, a.i(~kSignBit)), ay = a.band(uy, a.i(~kSignBit));
  Value infBits = a.i(0x7ffLL << 52);
  // y == 0, y NaN, x infinite or NaN: NaN.
  Value invalid =
      a.bor(a.icmp(P::eq, ay, a.i(0)),
            a.bor(a.icmp(P::sgt, ay, infBits), a.icmp(P::sge, ax, infBits)));
  Value smaller = a.icmp(P::slt, ax, ay);
  Value signedZero = a.fromBits(sign);

  // Significands with the leading one at bit 52 and their exponents;
  // subnormals are shifted up (their exponent field is 0, their exponent 1).
  auto normalize = [&](Value abs) -> std::pair<Value, Value> {
    Value field = a.lshr(abs, a.i(52));
    Value subnormal = a.icmp(P::eq, field, a.i(0));
    Value shift = a.sub(a.ctlz(abs), a.i(11));
    Value significand =
        a.select(subnormal, a.shl(abs, shift),
                 a.bor(a.band(abs, a.i(kMantissaMask)), a.i(kImplicitBit)));
    Value exponent = a.select(subnormal, a.sub(a.i(1), shift), field);
    return {significand, exponent};
  };
  // Plain values, not structured bindings: lambdas capture them.
  Value mx, ex, my, ey;
  std::tie(mx, ex) = normalize(ax);
  std::tie(my, ey) = normalize(ay);

  // Subtract y's significand wherever it fits, one bit of x at a time.
  Value steps = a.select(a.bor(invalid, smaller), a.i(0), a.sub(ex, ey));
  auto subtractIfFits = [&](OpBuilder &, Value m) {
    Value d = a.sub(m, my);
    return a.select(a.icmp(P::sge, d, a.i(0)), d, m);
  };
  auto loop = scf::ForOp::create(
      a.b, a.i(0), steps, a.i(1), ValueRange{mx},
      [&](OpBuilder &nested, Location loc, Value, ValueRange args) {
        OpBuilder::InsertionGuard guard(a.b);
        a.b.setInsertionPoint(nested.getInsertionBlock(),
                              nested.getInsertionPoint());
        Value m = subtractIfFits(nested, args[0]);
        scf::YieldOp::create(a.b, a.shl(m, a.i(1)));
      });
  Value m = subtractIfFits(a.b, loop.getResult(0));
  Value zero = a.icmp(P::eq, m, a.i(0));

  // Renormalize (the remainder is below y, so its exponent is at most ey).
  Value shift = a.sub(a.ctlz(m), a.i(11));
  m = a.shl(m, shift);
  Value e = a.sub(ey, shift);
  Value normal = a.bor(a.sub(m, a.i(kImplicitBit)), a.shl(e, a.i(52)));
  Value subnormalShift = arith::MinSIOp::create(a.b, a.sub(a.i(1), e), a.i(63));
  Value subnormal = a.lshr(m, subnormalShift);
  Value result = a.fromBits(
      a.bor(a.select(a.icmp(P::sgt, e, a.i(0)), normal, subnormal), sign));

  Value nan = a.f(std::numeric_limits<double>::quiet_NaN());
  result = a.select(zero, signedZero, result);
  result = a.select(a.icmp(P::eq, ax, ay), signedZero, result);
  result = a.select(smaller, x, result);
  return a.select(invalid, nan, result);
}

Value tile::emitExactRemainder(ImplicitLocOpBuilder &b, Value x, Value y) {
  Arith64 a{b};
  Type type = x.getType();
  if (type.isF64())
    return remainderF64(a, x, y);
  // Through f32, which every narrower type converts to in one instruction.
  Type f32 = b.getF32Type();
  auto widen = [&](Value v) -> Value {
    if (!type.isF32())
      v = arith::ExtFOp::create(b, f32, v);
    return arith::ExtFOp::create(b, a.f64, v);
  };
  Value r =
      arith::TruncFOp::create(b, f32, remainderF64(a, widen(x), widen(y)));
  return type.isF32() ? r : Value(arith::TruncFOp::create(b, type, r));
}

/// exp(r) 2^k for |r| <= ln 2 / 2 and an integral f64 k in [-1100, 1100].
static Value scaledExp(Arith64 &a, Value r, Value k) {
  SmallVector<double> taylor = {1.0};
  for (int n = 1; n <= 13; ++n)
    taylor.push_back(taylor.back() / n);
  Value p = a.polynomial(r, taylor);
  Value ki = arith::FPToSIOp::create(a.b, a.i64, k);
  Value k1 = a.ashr(ki, a.i(1));
  Value k2 = a.sub(ki, k1);
  auto power = [&](Value e) {
    return a.fromBits(a.shl(a.add(e, a.i(1023)), a.i(52)));
  };
  return a.mul(a.mul(p, power(k1)), power(k2));
}

/// Clamps an integral f64 to [-1100, 1100]; NaN becomes 0.
static Value clampExponent(Arith64 &a, Value k) {
  using P = arith::CmpFPredicate;
  k = a.select(a.fcmp(P::OGT, k, a.f(1100)), a.f(1100), k);
  k = a.select(a.fcmp(P::OLT, k, a.f(-1100)), a.f(-1100), k);
  return a.select(a.fcmp(P::UNO, k, k), a.f(0), k);
}

/// exp (base e) or exp2 of an f64.
static Value expF64(Arith64 &a, Value x, bool base2) {
  using P = arith::CmpFPredicate;
  constexpr double kLn2Hi = 6.93147180369123816490e-01;
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  Value r, k;
  if (base2) {
    k = clampExponent(a, a.rint(x));
    r = a.mul(a.sub(x, k), a.f(M_LN2)); // x - k is exact
  } else {
    k = clampExponent(a, a.rint(a.mul(x, a.f(M_LOG2E))));
    Value minusK = arith::NegFOp::create(a.b, k);
    r = a.fma(minusK, a.f(kLn2Lo), a.fma(minusK, a.f(kLn2Hi), x));
  }
  Value result = scaledExp(a, r, k);
  // Beyond these the result is +inf or 0 (and k was clamped).
  double overflow = base2 ? 1024.0 : 709.782712893384;
  double underflow = base2 ? -1075.0 : -745.1332191019412;
  result = a.select(a.fcmp(P::OGE, x, a.f(overflow)),
                    a.f(std::numeric_limits<double>::infinity()), result);
  result = a.select(a.fcmp(P::OLT, x, a.f(underflow)), a.f(0.0), result);
  return a.select(a.fcmp(P::UNO, x, x), x, result);
}

/// log (base e) or log2 of an f64.
static Value logF64(Arith64 &a, Value x, bool base2) {
  using FP = arith::CmpFPredicate;
  // Subnormals are scaled into the normal range first.
  Value tiny = a.fcmp(FP::OLT, x, a.f(0x1p-1022));
  Value scaled = a.select(tiny, a.mul(x, a.f(0x1p54)), x);
  Value hx = a.bits(scaled);
  Value e = a.sub(a.lshr(hx, a.i(52)), a.i(1023));
  e = a.select(tiny, a.sub(e, a.i(54)), e);
  Value m =
      a.fromBits(a.bor(a.band(hx, a.i(kMantissaMask)), a.i(1023LL << 52)));
  Value high = a.fcmp(FP::OGT, m, a.f(M_SQRT2));
  m = a.select(high, a.mul(m, a.f(0.5)), m);
  e = a.select(high, a.add(e, a.i(1)), e);

  Value f = a.sub(m, a.f(1.0));
  Value s = a.div(f, a.add(a.f(2.0), f));
  Value z = a.mul(s, s);
  SmallVector<double> atanh; // 2/3, 2/5, ..., 2/23
  for (int n = 1; n <= 11; ++n)
    atanh.push_back(2.0 / (2 * n + 1));
  Value r = a.mul(z, a.polynomial(z, atanh));
  Value halfSquare = a.mul(a.mul(f, f), a.f(0.5));
  // log(1 + f), accurate relative to itself.
  Value log1p = a.sub(f, a.sub(halfSquare, a.mul(s, a.add(halfSquare, r))));
  Value ef = arith::SIToFPOp::create(a.b, a.f64, e);
  Value result;
  if (base2) {
    result = a.add(ef, a.mul(log1p, a.f(M_LOG2E)));
  } else {
    constexpr double kLn2Hi = 6.93147180369123816490e-01;
    constexpr double kLn2Lo = 1.90821492927058770002e-10;
    result =
        a.add(a.mul(ef, a.f(kLn2Hi)), a.add(log1p, a.mul(ef, a.f(kLn2Lo))));
  }
  double inf = std::numeric_limits<double>::infinity();
  result = a.select(a.fcmp(FP::OEQ, x, a.f(inf)), x, result);
  result = a.select(a.fcmp(FP::OEQ, x, a.f(0.0)), a.f(-inf), result);
  Value invalid = a.bor(a.fcmp(FP::OLT, x, a.f(0.0)), a.fcmp(FP::UNO, x, x));
  return a.select(invalid, a.f(std::numeric_limits<double>::quiet_NaN()),
                  result);
}

Value tile::emitF64Math(ImplicitLocOpBuilder &b, StringRef name, Value x) {
  Arith64 a{b};
  if (name == "exp" || name == "exp2")
    return expF64(a, x, name == "exp2");
  assert((name == "log" || name == "log2") && "no soft f64 function");
  return logF64(a, x, name == "log2");
}

Value tile::emitPolynomial(ImplicitLocOpBuilder &b, Value x,
                           ArrayRef<double> coefficients) {
  Type type = x.getType();
  StringRef fma = type.isF64() ? "llvm.fma.f64" : "llvm.fma.f32";
  auto constant = [&](double v) -> Value {
    return arith::ConstantOp::create(b, b.getFloatAttr(type, v));
  };
  Value acc = constant(coefficients.back());
  for (double coefficient : llvm::reverse(coefficients.drop_back()))
    acc = LLVM::CallIntrinsicOp::create(
              b, type, b.getStringAttr(fma),
              ValueRange{acc, x, constant(coefficient)},
              LLVM::FastmathFlagsAttr::get(b.getContext(), {}))
              .getResult(0);
  return acc;
}
