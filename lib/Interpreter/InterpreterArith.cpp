//===- InterpreterArith.cpp - arith and math ops in the interpreter -------===//
#include "InterpreterImpl.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace tile;
using namespace tile::interp;
using namespace tile::interp::detail;

//===----------------------------------------------------------------------===//
// arith and math
//===----------------------------------------------------------------------===//

/// Applies `f` to each element of the operands (same shapes) into `result`.
template <typename T, typename F>
static void mapElements(std::vector<T> &out, size_t n, F f) {
  for (size_t i = 0; i < n; ++i)
    out[i] = f(i);
}

static bool compareInt(arith::CmpIPredicate p, int64_t a, int64_t b,
                       unsigned width) {
  uint64_t ua = toUnsigned(a, width), ub = toUnsigned(b, width);
  switch (p) {
  case arith::CmpIPredicate::eq:
    return a == b;
  case arith::CmpIPredicate::ne:
    return a != b;
  case arith::CmpIPredicate::slt:
    return a < b;
  case arith::CmpIPredicate::sle:
    return a <= b;
  case arith::CmpIPredicate::sgt:
    return a > b;
  case arith::CmpIPredicate::sge:
    return a >= b;
  case arith::CmpIPredicate::ult:
    return ua < ub;
  case arith::CmpIPredicate::ule:
    return ua <= ub;
  case arith::CmpIPredicate::ugt:
    return ua > ub;
  case arith::CmpIPredicate::uge:
    return ua >= ub;
  }
  return false;
}

static bool compareFloat(arith::CmpFPredicate p, double a, double b) {
  bool unordered = std::isnan(a) || std::isnan(b);
  switch (p) {
  case arith::CmpFPredicate::AlwaysFalse:
    return false;
  case arith::CmpFPredicate::OEQ:
    return !unordered && a == b;
  case arith::CmpFPredicate::OGT:
    return !unordered && a > b;
  case arith::CmpFPredicate::OGE:
    return !unordered && a >= b;
  case arith::CmpFPredicate::OLT:
    return !unordered && a < b;
  case arith::CmpFPredicate::OLE:
    return !unordered && a <= b;
  case arith::CmpFPredicate::ONE:
    return !unordered && a != b;
  case arith::CmpFPredicate::ORD:
    return !unordered;
  case arith::CmpFPredicate::UEQ:
    return unordered || a == b;
  case arith::CmpFPredicate::UGT:
    return unordered || a > b;
  case arith::CmpFPredicate::UGE:
    return unordered || a >= b;
  case arith::CmpFPredicate::ULT:
    return unordered || a < b;
  case arith::CmpFPredicate::ULE:
    return unordered || a <= b;
  case arith::CmpFPredicate::UNE:
    return unordered || a != b;
  case arith::CmpFPredicate::UNO:
    return unordered;
  case arith::CmpFPredicate::AlwaysTrue:
    return true;
  }
  return false;
}

/// Signed division helpers defined for every input; runArith reports a zero
/// divisor before calling them, and INT64_MIN / -1 wraps to INT64_MIN (its
/// remainder is 0).
static int64_t divSI(int64_t a, int64_t b) {
  if (b == 0)
    return 0;
  if (a == INT64_MIN && b == -1)
    return INT64_MIN;
  return a / b;
}
static int64_t remSI(int64_t a, int64_t b) {
  if (b == 0 || (a == INT64_MIN && b == -1))
    return 0;
  return a % b;
}
static int64_t ceilDivSI(int64_t a, int64_t b) {
  if (b == 0)
    return 0;
  int64_t q = divSI(a, b);
  if (remSI(a, b) != 0 && ((a < 0) == (b < 0)))
    ++q;
  return q;
}

/// Constant attribute to a value of type `t`.
static FailureOr<RtValue> constantValue(Attribute attr, Type t) {
  RtValue v = makeValue(t);
  size_t n = v.size();
  auto setElement = [&](size_t i, Attribute a) -> LogicalResult {
    if (auto f = dyn_cast<FloatAttr>(a))
      v.floats[i] = f.getValueAsDouble();
    else if (auto b = dyn_cast<IntegerAttr>(a))
      v.ints[i] = b.getType().isInteger(1) ? b.getValue().getZExtValue()
                                           : b.getValue().getSExtValue();
    else
      return failure();
    return success();
  };
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (dense.isSplat()) {
      Attribute splat = dense.getSplatValue<Attribute>();
      for (size_t i = 0; i < n; ++i)
        if (failed(setElement(i, splat)))
          return failure();
      return v;
    }
    size_t i = 0;
    for (Attribute a : dense.getValues<Attribute>())
      if (failed(setElement(i++, a)))
        return failure();
    return v;
  }
  if (failed(setElement(0, attr)))
    return failure();
  return v;
}

/// The IEEE format of float type `t`.
static const llvm::fltSemantics &floatSemantics(Type t) {
  return cast<FloatType>(t).getFloatSemantics();
}

LogicalResult Interpreter::runArith(Operation &op) {
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    FailureOr<RtValue> v = constantValue(c.getValue(), c.getType());
    if (failed(v))
      return op.emitError("the interpreter does not support this constant");
    set(c.getResult(), *v);
    return success();
  }
  if (op.getNumResults() != 1)
    return unsupported(op);
  Value result = op.getResult(0);
  RtValue out = makeValue(result.getType());
  size_t n = out.size();
  ElemType rt(result.getType());
  auto in = [&](unsigned i) -> const RtValue & {
    return get(op.getOperand(i));
  };

  // Binary integer and float ops.
  auto intBinary = [&](auto f) {
    const RtValue &a = in(0), &b = in(1);
    mapElements(out.ints, n,
                [&](size_t i) { return rt.wrap(f(a.ints[i], b.ints[i])); });
  };
  auto floatBinary = [&](auto f) {
    const RtValue &a = in(0), &b = in(1);
    mapElements(out.floats, n, [&](size_t i) {
      return rt.round(f(a.floats[i], b.floats[i]));
    });
  };
  auto floatUnary = [&](auto f) {
    const RtValue &a = in(0);
    mapElements(out.floats, n,
                [&](size_t i) { return rt.round(f(a.floats[i])); });
  };

  // Integer division by zero is an error (the GPU would give an undefined
  // value), reported at the op with the element.
  if (isa<arith::DivSIOp, arith::RemSIOp, arith::CeilDivSIOp, arith::DivUIOp,
          arith::RemUIOp, arith::FloorDivSIOp, arith::CeilDivUIOp>(op)) {
    const RtValue &divisor = in(1);
    for (size_t i = 0; i < divisor.ints.size(); ++i)
      if (divisor.ints[i] == 0) {
        InFlightDiagnostic diag = op.emitError("integer division by zero");
        if (divisor.ints.size() > 1)
          diag << " (element " << i << " of the divisor)";
        return diag;
      }
  }
  bool handled = true;
  TypeSwitch<Operation *>(&op)
      .Case<arith::AddIOp>([&](auto) {
        intBinary([](int64_t a, int64_t b) {
          return int64_t(uint64_t(a) + uint64_t(b));
        });
      })
      .Case<arith::SubIOp>([&](auto) {
        intBinary([](int64_t a, int64_t b) {
          return int64_t(uint64_t(a) - uint64_t(b));
        });
      })
      .Case<arith::MulIOp>([&](auto) {
        intBinary([](int64_t a, int64_t b) {
          return int64_t(uint64_t(a) * uint64_t(b));
        });
      })
      .Case<arith::DivSIOp>([&](auto) { intBinary(divSI); })
      .Case<arith::RemSIOp>([&](auto) { intBinary(remSI); })
      .Case<arith::CeilDivSIOp>([&](auto) { intBinary(ceilDivSI); })
      .Case<arith::AndIOp>(
          [&](auto) { intBinary([](int64_t a, int64_t b) { return a & b; }); })
      .Case<arith::OrIOp>(
          [&](auto) { intBinary([](int64_t a, int64_t b) { return a | b; }); })
      .Case<arith::XOrIOp>(
          [&](auto) { intBinary([](int64_t a, int64_t b) { return a ^ b; }); })
      .Case<arith::ShLIOp>([&](auto) {
        intBinary([&](int64_t a, int64_t b) {
          return b < 0 || b >= int64_t(rt.width) ? int64_t(0)
                                                 : int64_t(uint64_t(a) << b);
        });
      })
      .Case<arith::ShRSIOp>([&](auto) {
        intBinary([&](int64_t a, int64_t b) {
          return b < 0 || b >= int64_t(rt.width) ? (a < 0 ? -1 : 0) : a >> b;
        });
      })
      // Unsigned forms, which canonicalization forms from signed ones on
      // values it knows are non-negative: on the bits of the width.
      .Case<arith::ShRUIOp>([&](auto) {
        intBinary([&](int64_t a, int64_t b) {
          return b < 0 || b >= int64_t(rt.width)
                     ? int64_t(0)
                     : int64_t(toUnsigned(a, rt.width) >> b);
        });
      })
      .Case<arith::DivUIOp>([&](auto) {
        intBinary([&](int64_t a, int64_t b) {
          return int64_t(toUnsigned(a, rt.width) / toUnsigned(b, rt.width));
        });
      })
      .Case<arith::RemUIOp>([&](auto) {
        intBinary([&](int64_t a, int64_t b) {
          return int64_t(toUnsigned(a, rt.width) % toUnsigned(b, rt.width));
        });
      })
      .Case<arith::CeilDivUIOp>([&](auto) {
        intBinary([&](int64_t a, int64_t b) {
          uint64_t x = toUnsigned(a, rt.width), y = toUnsigned(b, rt.width);
          return int64_t(x / y + (x % y != 0));
        });
      })
      .Case<arith::MaxUIOp>([&](auto) {
        intBinary([&](int64_t a, int64_t b) {
          return toUnsigned(a, rt.width) >= toUnsigned(b, rt.width) ? a : b;
        });
      })
      .Case<arith::MinUIOp>([&](auto) {
        intBinary([&](int64_t a, int64_t b) {
          return toUnsigned(a, rt.width) <= toUnsigned(b, rt.width) ? a : b;
        });
      })
      .Case<arith::MaxSIOp>([&](auto) {
        intBinary([](int64_t a, int64_t b) { return std::max(a, b); });
      })
      .Case<arith::MinSIOp>([&](auto) {
        intBinary([](int64_t a, int64_t b) { return std::min(a, b); });
      })
      .Case<arith::AddFOp>(
          [&](auto) { floatBinary([](double a, double b) { return a + b; }); })
      .Case<arith::SubFOp>(
          [&](auto) { floatBinary([](double a, double b) { return a - b; }); })
      .Case<arith::MulFOp>(
          [&](auto) { floatBinary([](double a, double b) { return a * b; }); })
      .Case<arith::DivFOp>(
          [&](auto) { floatBinary([](double a, double b) { return a / b; }); })
      .Case<arith::RemFOp>([&](auto) {
        floatBinary([](double a, double b) { return std::fmod(a, b); });
      })
      .Case<arith::MaximumFOp>([&](auto) {
        floatBinary([](double a, double b) {
          return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b);
        });
      })
      .Case<arith::MinimumFOp>([&](auto) {
        floatBinary([](double a, double b) {
          return std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b);
        });
      })
      .Case<arith::MaxNumFOp>([&](auto) {
        floatBinary([](double a, double b) { return std::fmax(a, b); });
      })
      .Case<arith::MinNumFOp>([&](auto) {
        floatBinary([](double a, double b) { return std::fmin(a, b); });
      })
      .Case<arith::NegFOp>(
          [&](auto) { floatUnary([](double a) { return -a; }); })
      .Case<math::ExpOp>(
          [&](auto) { floatUnary([](double a) { return std::exp(a); }); })
      .Case<math::Exp2Op>(
          [&](auto) { floatUnary([](double a) { return std::exp2(a); }); })
      .Case<math::LogOp>(
          [&](auto) { floatUnary([](double a) { return std::log(a); }); })
      .Case<math::Log2Op>(
          [&](auto) { floatUnary([](double a) { return std::log2(a); }); })
      .Case<math::SqrtOp>(
          [&](auto) { floatUnary([](double a) { return std::sqrt(a); }); })
      .Case<math::RsqrtOp>([&](auto) {
        floatUnary([](double a) { return 1.0 / std::sqrt(a); });
      })
      .Case<math::AbsFOp>(
          [&](auto) { floatUnary([](double a) { return std::fabs(a); }); })
      .Case<math::FloorOp>(
          [&](auto) { floatUnary([](double a) { return std::floor(a); }); })
      .Case<math::CeilOp>(
          [&](auto) { floatUnary([](double a) { return std::ceil(a); }); })
      .Case<math::ErfOp>(
          [&](auto) { floatUnary([](double a) { return std::erf(a); }); })
      .Case<math::TanhOp>(
          [&](auto) { floatUnary([](double a) { return std::tanh(a); }); })
      .Case<math::SinOp>(
          [&](auto) { floatUnary([](double a) { return std::sin(a); }); })
      .Case<math::CosOp>(
          [&](auto) { floatUnary([](double a) { return std::cos(a); }); })
      .Case<math::PowFOp>([&](auto) {
        floatBinary([](double a, double b) { return std::pow(a, b); });
      })
      .Case<math::FmaOp>([&](auto) {
        // One rounding in f64 and f32; f16 and bf16 as an f32 fma rounded
        // to the type, as on the GPU.
        const RtValue &a = in(0), &b = in(1), &c = in(2);
        bool isF64 = rt.kind == ScalarKind::F64;
        mapElements(out.floats, n, [&](size_t i) {
          double r =
              isF64 ? std::fma(a.floats[i], b.floats[i], c.floats[i])
                    : double(std::fmaf(float(a.floats[i]), float(b.floats[i]),
                                       float(c.floats[i])));
          return rt.round(r);
        });
      })
      .Case<math::AbsIOp>([&](auto) {
        const RtValue &a = in(0);
        // Negated as unsigned: abs(INT64_MIN) wraps to itself, as on the GPU.
        mapElements(out.ints, n, [&](size_t i) {
          return rt.wrap(a.ints[i] < 0 ? int64_t(0 - uint64_t(a.ints[i]))
                                       : a.ints[i]);
        });
      })
      .Case<arith::CmpIOp>([&](arith::CmpIOp cmp) {
        const RtValue &a = in(0), &b = in(1);
        unsigned width = ElemType(cmp.getLhs().getType()).width;
        mapElements(out.ints, n, [&](size_t i) {
          return int64_t(
              compareInt(cmp.getPredicate(), a.ints[i], b.ints[i], width));
        });
      })
      .Case<arith::CmpFOp>([&](arith::CmpFOp cmp) {
        const RtValue &a = in(0), &b = in(1);
        mapElements(out.ints, n, [&](size_t i) {
          return int64_t(
              compareFloat(cmp.getPredicate(), a.floats[i], b.floats[i]));
        });
      })
      .Case<arith::SelectOp>([&](arith::SelectOp sel) {
        const RtValue &c = in(0), &a = in(1), &b = in(2);
        bool scalarCond = c.size() == 1 && n != 1;
        auto pick = [&](size_t i) { return c.ints[scalarCond ? 0 : i] != 0; };
        if (!out.ints.empty())
          mapElements(out.ints, n, [&](size_t i) {
            return pick(i) ? a.ints[i] : b.ints[i];
          });
        else if (!out.floats.empty())
          mapElements(out.floats, n, [&](size_t i) {
            return pick(i) ? a.floats[i] : b.floats[i];
          });
        else
          mapElements(out.ptrs, n, [&](size_t i) {
            return pick(i) ? a.ptrs[i] : b.ptrs[i];
          });
      })
      .Case<arith::ExtSIOp, arith::TruncIOp>([&](auto) {
        const RtValue &a = in(0);
        mapElements(out.ints, n, [&](size_t i) { return rt.wrap(a.ints[i]); });
      })
      .Case<arith::ExtUIOp>([&](arith::ExtUIOp ext) {
        const RtValue &a = in(0);
        unsigned width = ElemType(ext.getIn().getType()).width;
        mapElements(out.ints, n, [&](size_t i) {
          return rt.wrap(int64_t(toUnsigned(a.ints[i], width)));
        });
      })
      .Case<arith::ExtFOp, arith::TruncFOp>(
          [&](auto) { floatUnary([](double a) { return a; }); })
      .Case<arith::SIToFPOp>([&](auto) {
        const RtValue &a = in(0);
        mapElements(out.floats, n,
                    [&](size_t i) { return rt.round(double(a.ints[i])); });
      })
      .Case<arith::UIToFPOp>([&](arith::UIToFPOp conv) {
        const RtValue &a = in(0);
        unsigned width = ElemType(conv.getIn().getType()).width;
        mapElements(out.floats, n, [&](size_t i) {
          return rt.round(double(toUnsigned(a.ints[i], width)));
        });
      })
      .Case<arith::FPToSIOp>([&](auto) {
        const RtValue &a = in(0);
        mapElements(out.ints, n, [&](size_t i) {
          return rt.wrap(saturatingFloatToInt(a.floats[i], rt.width));
        });
      })
      .Case<arith::FPToUIOp>([&](auto) {
        const RtValue &a = in(0);
        mapElements(out.ints, n, [&](size_t i) {
          return rt.wrap(saturatingFloatToUnsigned(a.floats[i], rt.width));
        });
      })
      .Case<arith::BitcastOp>([&](arith::BitcastOp cast) {
        const RtValue &a = in(0);
        const llvm::fltSemantics &sem =
            floatSemantics(isa<FloatType>(elementType(cast.getType()))
                               ? elementType(cast.getType())
                               : elementType(cast.getIn().getType()));
        unsigned width = llvm::APFloat::getSizeInBits(sem);
        if (!out.floats.empty())
          mapElements(out.floats, n, [&](size_t i) {
            llvm::APFloat f(sem, llvm::APInt(width, uint64_t(a.ints[i])));
            bool lost;
            f.convert(llvm::APFloat::IEEEdouble(),
                      llvm::APFloat::rmNearestTiesToEven, &lost);
            return f.convertToDouble();
          });
        else
          mapElements(out.ints, n, [&](size_t i) {
            // The value is exact in its own type: it was rounded to it.
            llvm::APFloat f(a.floats[i]);
            bool lost;
            f.convert(sem, llvm::APFloat::rmNearestTiesToEven, &lost);
            return rt.wrap(int64_t(f.bitcastToAPInt().getZExtValue()));
          });
      })
      .Default([&](Operation *) { handled = false; });
  if (!handled)
    return unsupported(op);
  set(result, std::move(out));
  return success();
}
