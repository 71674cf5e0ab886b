//===- MLIRGenMath.cpp - math builtins of the .tile language --------------===//
//
// Elementwise functions of numbers: exp, log, sqrt, abs, erf, tanh, sin,
// cos, floor, ceil, sigmoid, isnan, isinf, pow, fma, clamp. Integers are
// computed as f32 (floor, ceil and abs keep them); f16 and bf16 results are
// rounded once from an f32 or f64 computation, in the interpreter as on the
// GPU (docs/language.md states each function's accuracy).
//
//===----------------------------------------------------------------------===//
#include "BuiltinArgs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace tile;
using namespace tile::ast;

namespace {

enum class MathBuiltin {
  Exp,
  Exp2,
  Log,
  Log2,
  Sqrt,
  Rsqrt,
  Abs,
  Erf,
  Tanh,
  Sin,
  Cos,
  Floor,
  Ceil,
  Sigmoid,
  IsNan,
  IsInf,
  Pow,
  Fma,
  Clamp,
  None
};

MathBuiltin mathBuiltinFromName(StringRef name) {
  return llvm::StringSwitch<MathBuiltin>(name)
      .Case("exp", MathBuiltin::Exp)
      .Case("exp2", MathBuiltin::Exp2)
      .Case("log", MathBuiltin::Log)
      .Case("log2", MathBuiltin::Log2)
      .Case("sqrt", MathBuiltin::Sqrt)
      .Case("rsqrt", MathBuiltin::Rsqrt)
      .Case("abs", MathBuiltin::Abs)
      .Case("erf", MathBuiltin::Erf)
      .Case("tanh", MathBuiltin::Tanh)
      .Case("sin", MathBuiltin::Sin)
      .Case("cos", MathBuiltin::Cos)
      .Case("floor", MathBuiltin::Floor)
      .Case("ceil", MathBuiltin::Ceil)
      .Case("sigmoid", MathBuiltin::Sigmoid)
      .Case("isnan", MathBuiltin::IsNan)
      .Case("isinf", MathBuiltin::IsInf)
      .Case("pow", MathBuiltin::Pow)
      .Case("fma", MathBuiltin::Fma)
      .Case("clamp", MathBuiltin::Clamp)
      .Default(MathBuiltin::None);
}

/// The math op of a one-argument function on floats.
StringRef unaryOpName(MathBuiltin kind) {
  switch (kind) {
  case MathBuiltin::Exp:
    return math::ExpOp::getOperationName();
  case MathBuiltin::Exp2:
    return math::Exp2Op::getOperationName();
  case MathBuiltin::Log:
    return math::LogOp::getOperationName();
  case MathBuiltin::Log2:
    return math::Log2Op::getOperationName();
  case MathBuiltin::Sqrt:
    return math::SqrtOp::getOperationName();
  case MathBuiltin::Rsqrt:
    return math::RsqrtOp::getOperationName();
  case MathBuiltin::Abs:
    return math::AbsFOp::getOperationName();
  case MathBuiltin::Erf:
    return math::ErfOp::getOperationName();
  case MathBuiltin::Tanh:
    return math::TanhOp::getOperationName();
  case MathBuiltin::Sin:
    return math::SinOp::getOperationName();
  case MathBuiltin::Cos:
    return math::CosOp::getOperationName();
  case MathBuiltin::Floor:
    return math::FloorOp::getOperationName();
  case MathBuiltin::Ceil:
    return math::CeilOp::getOperationName();
  default:
    llvm_unreachable("not a one-argument math op");
  }
}

} // namespace

std::optional<FailureOr<TValue>>
MLIRGenImpl::genMathBuiltin(const CallExpr &call) {
  MathBuiltin kind = mathBuiltinFromName(call.callee);
  if (kind == MathBuiltin::None)
    return genRandomBuiltin(call);
  SrcLoc at = call.getLoc();
  Location l = loc(at);
  CallArgs args(*this, call);
  auto fail = [] { return FailureOr<TValue>(failure()); };
  std::string what = "'" + call.callee + "'";
  auto isNumber = [](const TValue &v) {
    return !isa<PointerType>(v.elemType) && !v.elemType.isInteger(1);
  };
  // erf and pow have no f64 implementation on the GPU yet.
  auto noF64 = [&](const TValue &v) -> LogicalResult {
    if (!v.elemType.isF64())
      return success();
    return error(at) << what
                     << " of f64 is not supported (f16, bf16 and f32 are)";
  };
  Type f32 = builder.getF32Type();

  switch (kind) {
  case MathBuiltin::IsNan:
  case MathBuiltin::IsInf: {
    if (failed(args.check(1, {"x"})))
      return fail();
    FailureOr<TValue> x = args.value(0);
    if (failed(x))
      return fail();
    if (!isa<FloatType>(x->elemType))
      return FailureOr<TValue>(error(at) << what << " needs floats, got "
                                         << typeName(*x));
    Value v = materialize(*x, at).value;
    Value r;
    if (kind == MathBuiltin::IsNan) {
      r = arith::CmpFOp::create(builder, l, arith::CmpFPredicate::UNO, v, v);
    } else {
      Value inf =
          materialize(makeFloatConst(std::numeric_limits<double>::infinity(),
                                     x->elemType),
                      at)
              .value;
      if (x->isTile())
        inf = broadcastTo(makeRuntime(inf), x->shape, at)->value;
      r = arith::CmpFOp::create(builder, l, arith::CmpFPredicate::OEQ,
                                math::AbsFOp::create(builder, l, v), inf);
    }
    return FailureOr<TValue>(makeRuntime(r));
  }

  case MathBuiltin::Pow:
  case MathBuiltin::Fma:
  case MathBuiltin::Clamp: {
    bool isPow = kind == MathBuiltin::Pow;
    SmallVector<StringRef> names =
        isPow                      ? SmallVector<StringRef>{"x", "y"}
        : kind == MathBuiltin::Fma ? SmallVector<StringRef>{"a", "b", "c"}
                                   : SmallVector<StringRef>{"x", "lo", "hi"};
    if (failed(args.check(names.size(), names)))
      return fail();
    SmallVector<TValue, 3> v;
    for (size_t i = 0; i < names.size(); ++i) {
      FailureOr<TValue> arg = args.value(i);
      if (failed(arg))
        return fail();
      v.push_back(*arg);
    }
    // All to one type and shape: the first absorbs each other operand, then
    // each takes the result.
    for (size_t i = 1; i < v.size(); ++i)
      if (failed(unify(v[0], v[i], at, what)))
        return fail();
    for (size_t i = 1; i < v.size(); ++i)
      if (failed(unify(v[0], v[i], at, what)))
        return fail();
    if (!isNumber(v[0]))
      return FailureOr<TValue>(error(at) << what << " needs numbers, got "
                                         << typeName(v[0]));
    if (kind == MathBuiltin::Fma && !isa<FloatType>(v[0].elemType))
      return FailureOr<TValue>(error(at) << what << " needs floats, got "
                                         << typeName(v[0]));
    if (isPow && isa<IntegerType>(v[0].elemType))
      for (TValue &operand : v)
        operand = *convert(operand, f32, at);
    if (isPow && failed(noF64(v[0])))
      return fail();
    SmallVector<Value, 3> values;
    for (TValue &operand : v)
      values.push_back(materialize(operand, at).value);
    Value r;
    if (isPow) {
      r = math::PowFOp::create(builder, l, values[0], values[1]);
    } else if (kind == MathBuiltin::Fma) {
      r = math::FmaOp::create(builder, l, values[0], values[1], values[2]);
    } else if (isa<FloatType>(v[0].elemType)) {
      r = arith::MinimumFOp::create(
          builder, l,
          arith::MaximumFOp::create(builder, l, values[0], values[1]),
          values[2]);
    } else if (v[0].elemType.isUnsignedInteger()) {
      r = arith::MinUIOp::create(
          builder, l, arith::MaxUIOp::create(builder, l, values[0], values[1]),
          values[2]);
    } else {
      r = arith::MinSIOp::create(
          builder, l, arith::MaxSIOp::create(builder, l, values[0], values[1]),
          values[2]);
    }
    return FailureOr<TValue>(makeRuntime(r, v[0].elemType));
  }

  default:
    break;
  }

  // One number in, one out.
  if (failed(args.check(1, {"x"})))
    return fail();
  FailureOr<TValue> x = args.value(0);
  if (failed(x))
    return fail();
  if (!isNumber(*x))
    return FailureOr<TValue>(error(at)
                             << what << " needs numbers, got " << typeName(*x));
  if (isa<IntegerType>(x->elemType)) {
    // Unsigned integers are their own absolute values.
    if (kind == MathBuiltin::Floor || kind == MathBuiltin::Ceil ||
        (kind == MathBuiltin::Abs && x->elemType.isUnsignedInteger()))
      return x;
    if (kind == MathBuiltin::Abs) {
      if (x->isConst()) {
        x->intConst = std::abs(*x->intConst);
        return x;
      }
      return FailureOr<TValue>(
          makeRuntime(math::AbsIOp::create(builder, l, x->value)));
    }
    x = convert(*x, f32, at);
    if (failed(x))
      return fail();
  }
  if (kind == MathBuiltin::Erf && failed(noF64(*x)))
    return fail();
  Value v = materialize(*x, at).value;
  if (kind == MathBuiltin::Sigmoid) {
    // 1 / (1 + exp(-x)), in f32 for f16 and bf16 so that it rounds once.
    Type elem = x->elemType;
    TValue wide = *x;
    if (elem.getIntOrFloatBitWidth() < 32)
      wide = *convert(wide, f32, at);
    Value w = materialize(wide, at).value;
    Value e =
        math::ExpOp::create(builder, l, arith::NegFOp::create(builder, l, w));
    TValue one = makeFloatConst(1.0, wide.elemType, /*weak=*/true);
    FailureOr<TValue> denominator =
        genBinaryOp(Tok::Plus, one, makeRuntime(e), at);
    if (failed(denominator))
      return fail();
    FailureOr<TValue> r = genBinaryOp(Tok::Slash, one, *denominator, at);
    if (failed(r))
      return fail();
    return convert(*r, elem, at);
  }
  OperationState state(l, unaryOpName(kind), v, v.getType());
  return FailureOr<TValue>(makeRuntime(builder.create(state)->getResult(0)));
}

bool tile::isMathBuiltinName(StringRef name) {
  return mathBuiltinFromName(name) != MathBuiltin::None;
}
