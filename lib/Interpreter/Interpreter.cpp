//===- Interpreter.cpp - run tile kernels on the CPU ----------------------===//
//
// A direct interpreter of tile IR: values are host arrays (one element per
// tile element), ops are evaluated in program order, scf regions are run as
// loops and branches. Float results are rounded to their type after every
// op, integers wrap to their width, so results match a GPU up to the order of
// floating-point sums.
//
//===----------------------------------------------------------------------===//
#include "tile/Interpreter/Interpreter.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace tile;
using namespace tile::interp;

//===----------------------------------------------------------------------===//
// Scalar kinds and host buffers
//===----------------------------------------------------------------------===//

FailureOr<ScalarKind> interp::scalarKindOf(Type type) {
  if (type.isInteger(1))
    return ScalarKind::I1;
  if (type.isInteger(8))
    return ScalarKind::I8;
  if (type.isInteger(16))
    return ScalarKind::I16;
  if (type.isInteger(32))
    return ScalarKind::I32;
  if (type.isInteger(64))
    return ScalarKind::I64;
  if (type.isF16())
    return ScalarKind::F16;
  if (type.isBF16())
    return ScalarKind::BF16;
  if (type.isF32())
    return ScalarKind::F32;
  if (type.isF64())
    return ScalarKind::F64;
  return failure();
}

bool interp::isFloatKind(ScalarKind kind) {
  return kind == ScalarKind::F16 || kind == ScalarKind::BF16 ||
         kind == ScalarKind::F32 || kind == ScalarKind::F64;
}

const char *interp::scalarKindName(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::I1:
    return "i1";
  case ScalarKind::I8:
    return "i8";
  case ScalarKind::I16:
    return "i16";
  case ScalarKind::I32:
    return "i32";
  case ScalarKind::I64:
    return "i64";
  case ScalarKind::F16:
    return "f16";
  case ScalarKind::BF16:
    return "bf16";
  case ScalarKind::F32:
    return "f32";
  case ScalarKind::F64:
    return "f64";
  }
  return "?";
}

static unsigned intWidth(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::I1:
    return 1;
  case ScalarKind::I8:
    return 8;
  case ScalarKind::I16:
    return 16;
  case ScalarKind::I32:
    return 32;
  default:
    return 64;
  }
}

/// Wraps `v` to a signed integer of `width` bits (i1 is 0 or 1).
static int64_t wrapInt(int64_t v, unsigned width) {
  if (width == 1)
    return v & 1;
  if (width >= 64)
    return v;
  return llvm::SignExtend64(static_cast<uint64_t>(v), width);
}

double interp::roundToFloatKind(double v, ScalarKind kind) {
  switch (kind) {
  case ScalarKind::F64:
    return v;
  case ScalarKind::F32:
    return static_cast<double>(static_cast<float>(v));
  case ScalarKind::F16:
  case ScalarKind::BF16: {
    llvm::APFloat f(v);
    bool lost;
    f.convert(kind == ScalarKind::F16 ? llvm::APFloat::IEEEhalf()
                                      : llvm::APFloat::BFloat(),
              llvm::APFloat::rmNearestTiesToEven, &lost);
    f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
              &lost);
    return f.convertToDouble();
  }
  default:
    return v;
  }
}

HostBuffer::HostBuffer(ScalarKind kind, size_t size) : elemKind(kind) {
  if (isFloatKind(kind))
    floats.assign(size, 0.0);
  else
    ints.assign(size, 0);
}

double HostBuffer::getFloat(size_t i) const {
  return isFloat() ? floats[i] : static_cast<double>(ints[i]);
}

int64_t HostBuffer::getInt(size_t i) const {
  return isFloat() ? static_cast<int64_t>(floats[i]) : ints[i];
}

void HostBuffer::setFloat(size_t i, double v) {
  if (isFloat())
    floats[i] = roundToFloatKind(v, elemKind);
  else
    ints[i] = wrapInt(static_cast<int64_t>(v), intWidth(elemKind));
}

void HostBuffer::setInt(size_t i, int64_t v) {
  if (isFloat())
    floats[i] = roundToFloatKind(static_cast<double>(v), elemKind);
  else
    ints[i] = wrapInt(v, intWidth(elemKind));
}

void HostBuffer::fill(double v) {
  for (size_t i = 0; i < size(); ++i)
    setFloat(i, v);
}

//===----------------------------------------------------------------------===//
// Runtime values
//===----------------------------------------------------------------------===//

namespace {

/// An element of a pointer tile: an element offset into a kernel argument's
/// buffer.
struct Ptr {
  int32_t buffer = -1;
  int64_t offset = 0;
};

/// A scalar or tile value; exactly one of the vectors is used, by type.
struct RtValue {
  SmallVector<int64_t, 2> shape;
  std::vector<int64_t> ints;
  std::vector<double> floats;
  std::vector<Ptr> ptrs;

  size_t size() const {
    return std::max({ints.size(), floats.size(), ptrs.size()});
  }
};

enum class ElemClass { Int, Float, Ptr };

Type elementType(Type t) { return getElementTypeOrSelf(t); }

ElemClass classOf(Type t) {
  Type e = elementType(t);
  if (isa<PointerType>(e))
    return ElemClass::Ptr;
  return isa<FloatType>(e) ? ElemClass::Float : ElemClass::Int;
}

SmallVector<int64_t, 2> shapeOf(Type t) {
  if (auto tensor = dyn_cast<RankedTensorType>(t))
    return SmallVector<int64_t, 2>(tensor.getShape());
  return {};
}

int64_t numElements(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// A value of type `t` with every element default-initialized.
RtValue makeValue(Type t) {
  RtValue v;
  v.shape = shapeOf(t);
  size_t n = numElements(v.shape);
  switch (classOf(t)) {
  case ElemClass::Int:
    v.ints.assign(n, 0);
    break;
  case ElemClass::Float:
    v.floats.assign(n, 0.0);
    break;
  case ElemClass::Ptr:
    v.ptrs.assign(n, Ptr());
    break;
  }
  return v;
}

/// Rounds or wraps a computed element to the element type of `t`.
struct ElemType {
  explicit ElemType(Type t) {
    Type e = elementType(t);
    if (auto i = dyn_cast<IntegerType>(e))
      width = i.getWidth();
    else if (isa<FloatType>(e))
      kind = *scalarKindOf(e);
  }
  int64_t wrap(int64_t v) const { return wrapInt(v, width); }
  double round(double v) const { return roundToFloatKind(v, kind); }
  unsigned width = 64;
  ScalarKind kind = ScalarKind::F64;
};

class Interpreter {
public:
  Interpreter(KernelOp kernel, ArrayRef<HostBuffer *> buffers)
      : kernel(kernel), buffers(buffers) {}

  LogicalResult runProgram(std::array<int64_t, 3> pid,
                           std::array<int64_t, 3> grid,
                           ArrayRef<RtValue> args) {
    this->pid = pid;
    this->grid = grid;
    values.clear();
    Block &entry = kernel.getBody().front();
    for (auto [arg, value] : llvm::zip(entry.getArguments(), args))
      values[arg] = value;
    return runBlock(entry, nullptr);
  }

private:
  LogicalResult runBlock(Block &block, SmallVectorImpl<RtValue> *yielded);
  LogicalResult runOp(Operation &op);
  LogicalResult runFor(scf::ForOp op);
  LogicalResult runIf(scf::IfOp op);
  LogicalResult runArith(Operation &op);
  LogicalResult runTileOp(Operation &op);
  LogicalResult runMemory(Operation &op);
  LogicalResult runDot(DotOp op);
  LogicalResult runReduce(ReduceOp op);

  const RtValue &get(Value v) { return values[v]; }
  void set(Value v, RtValue r) { values[v] = std::move(r); }

  KernelOp kernel;
  ArrayRef<HostBuffer *> buffers;
  std::array<int64_t, 3> pid{}, grid{};
  DenseMap<Value, RtValue> values;
};

} // namespace

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

LogicalResult Interpreter::runBlock(Block &block,
                                    SmallVectorImpl<RtValue> *yielded) {
  for (Operation &op : block) {
    if (auto yield = dyn_cast<scf::YieldOp>(op)) {
      if (yielded)
        for (Value v : yield.getOperands())
          yielded->push_back(get(v));
      return success();
    }
    if (isa<ReturnOp>(op))
      return success();
    if (failed(runOp(op)))
      return failure();
  }
  return success();
}

LogicalResult Interpreter::runFor(scf::ForOp op) {
  int64_t lb = get(op.getLowerBound()).ints[0];
  int64_t ub = get(op.getUpperBound()).ints[0];
  int64_t step = get(op.getStep()).ints[0];
  if (step <= 0)
    return op.emitError("loop step must be positive, got ") << step;
  SmallVector<RtValue> carried;
  for (Value init : op.getInitArgs())
    carried.push_back(get(init));
  ElemType ivType(op.getInductionVar().getType());
  for (int64_t i = lb; i < ub; i = ivType.wrap(i + step)) {
    RtValue iv = makeValue(op.getInductionVar().getType());
    iv.ints[0] = i;
    set(op.getInductionVar(), iv);
    for (auto [arg, value] : llvm::zip(op.getRegionIterArgs(), carried))
      set(arg, value);
    SmallVector<RtValue> next;
    if (failed(runBlock(*op.getBody(), &next)))
      return failure();
    carried = std::move(next);
    if (i > ub - step) // Next step would pass ub (and might overflow).
      break;
  }
  for (auto [result, value] : llvm::zip(op.getResults(), carried))
    set(result, value);
  return success();
}

LogicalResult Interpreter::runIf(scf::IfOp op) {
  bool cond = get(op.getCondition()).ints[0] != 0;
  Region &region = cond ? op.getThenRegion() : op.getElseRegion();
  SmallVector<RtValue> results;
  if (!region.empty() && failed(runBlock(region.front(), &results)))
    return failure();
  for (auto [result, value] : llvm::zip(op.getResults(), results))
    set(result, value);
  return success();
}

LogicalResult Interpreter::runOp(Operation &op) {
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return runFor(forOp);
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return runIf(ifOp);
  if (isa<TileDialect>(op.getDialect()))
    return runTileOp(op);
  if (isa<arith::ArithDialect, math::MathDialect>(op.getDialect()))
    return runArith(op);
  return op.emitError("the interpreter does not support '")
         << op.getName() << "'";
}

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
  uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  if (width < 64) {
    uint64_t mask = (uint64_t(1) << width) - 1;
    ua &= mask;
    ub &= mask;
  }
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

/// Signed division helpers that are defined for every input (x / 0 gives 0,
/// as a GPU gives some value rather than trapping).
static int64_t divSI(int64_t a, int64_t b) {
  if (b == 0 || (a == INT64_MIN && b == -1))
    return 0;
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
  if (a % b != 0 && ((a < 0) == (b < 0)))
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

LogicalResult Interpreter::runArith(Operation &op) {
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    FailureOr<RtValue> v = constantValue(c.getValue(), c.getType());
    if (failed(v))
      return op.emitError("the interpreter does not support this constant");
    set(c.getResult(), *v);
    return success();
  }
  if (op.getNumResults() != 1)
    return op.emitError("the interpreter does not support '")
           << op.getName() << "'";
  Value result = op.getResult(0);
  RtValue out = makeValue(result.getType());
  size_t n = out.size();
  ElemType rt(result.getType());
  auto in = [&](unsigned i) -> const RtValue & { return get(op.getOperand(i)); };

  // Binary integer and float ops.
  auto intBinary = [&](auto f) {
    const RtValue &a = in(0), &b = in(1);
    mapElements(out.ints, n,
                [&](size_t i) { return rt.wrap(f(a.ints[i], b.ints[i])); });
  };
  auto floatBinary = [&](auto f) {
    const RtValue &a = in(0), &b = in(1);
    mapElements(out.floats, n,
                [&](size_t i) { return rt.round(f(a.floats[i], b.floats[i])); });
  };
  auto floatUnary = [&](auto f) {
    const RtValue &a = in(0);
    mapElements(out.floats, n, [&](size_t i) { return rt.round(f(a.floats[i])); });
  };

  bool handled = true;
  TypeSwitch<Operation *>(&op)
      .Case<arith::AddIOp>([&](auto) { intBinary([](int64_t a, int64_t b) { return int64_t(uint64_t(a) + uint64_t(b)); }); })
      .Case<arith::SubIOp>([&](auto) { intBinary([](int64_t a, int64_t b) { return int64_t(uint64_t(a) - uint64_t(b)); }); })
      .Case<arith::MulIOp>([&](auto) { intBinary([](int64_t a, int64_t b) { return int64_t(uint64_t(a) * uint64_t(b)); }); })
      .Case<arith::DivSIOp>([&](auto) { intBinary(divSI); })
      .Case<arith::RemSIOp>([&](auto) { intBinary(remSI); })
      .Case<arith::CeilDivSIOp>([&](auto) { intBinary(ceilDivSI); })
      .Case<arith::AndIOp>([&](auto) { intBinary([](int64_t a, int64_t b) { return a & b; }); })
      .Case<arith::OrIOp>([&](auto) { intBinary([](int64_t a, int64_t b) { return a | b; }); })
      .Case<arith::XOrIOp>([&](auto) { intBinary([](int64_t a, int64_t b) { return a ^ b; }); })
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
      .Case<arith::MaxSIOp>([&](auto) { intBinary([](int64_t a, int64_t b) { return std::max(a, b); }); })
      .Case<arith::MinSIOp>([&](auto) { intBinary([](int64_t a, int64_t b) { return std::min(a, b); }); })
      .Case<arith::AddFOp>([&](auto) { floatBinary([](double a, double b) { return a + b; }); })
      .Case<arith::SubFOp>([&](auto) { floatBinary([](double a, double b) { return a - b; }); })
      .Case<arith::MulFOp>([&](auto) { floatBinary([](double a, double b) { return a * b; }); })
      .Case<arith::DivFOp>([&](auto) { floatBinary([](double a, double b) { return a / b; }); })
      .Case<arith::RemFOp>([&](auto) { floatBinary([](double a, double b) { return std::fmod(a, b); }); })
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
      .Case<arith::MaxNumFOp>([&](auto) { floatBinary([](double a, double b) { return std::fmax(a, b); }); })
      .Case<arith::MinNumFOp>([&](auto) { floatBinary([](double a, double b) { return std::fmin(a, b); }); })
      .Case<arith::NegFOp>([&](auto) { floatUnary([](double a) { return -a; }); })
      .Case<math::ExpOp>([&](auto) { floatUnary([](double a) { return std::exp(a); }); })
      .Case<math::Exp2Op>([&](auto) { floatUnary([](double a) { return std::exp2(a); }); })
      .Case<math::LogOp>([&](auto) { floatUnary([](double a) { return std::log(a); }); })
      .Case<math::Log2Op>([&](auto) { floatUnary([](double a) { return std::log2(a); }); })
      .Case<math::SqrtOp>([&](auto) { floatUnary([](double a) { return std::sqrt(a); }); })
      .Case<math::RsqrtOp>([&](auto) { floatUnary([](double a) { return 1.0 / std::sqrt(a); }); })
      .Case<math::AbsFOp>([&](auto) { floatUnary([](double a) { return std::fabs(a); }); })
      .Case<math::AbsIOp>([&](auto) {
        const RtValue &a = in(0);
        mapElements(out.ints, n, [&](size_t i) { return rt.wrap(a.ints[i] < 0 ? -a.ints[i] : a.ints[i]); });
      })
      .Case<arith::CmpIOp>([&](arith::CmpIOp cmp) {
        const RtValue &a = in(0), &b = in(1);
        unsigned width = ElemType(cmp.getLhs().getType()).width;
        mapElements(out.ints, n, [&](size_t i) {
          return int64_t(compareInt(cmp.getPredicate(), a.ints[i], b.ints[i], width));
        });
      })
      .Case<arith::CmpFOp>([&](arith::CmpFOp cmp) {
        const RtValue &a = in(0), &b = in(1);
        mapElements(out.ints, n, [&](size_t i) {
          return int64_t(compareFloat(cmp.getPredicate(), a.floats[i], b.floats[i]));
        });
      })
      .Case<arith::SelectOp>([&](arith::SelectOp sel) {
        const RtValue &c = in(0), &a = in(1), &b = in(2);
        bool scalarCond = c.size() == 1 && n != 1;
        auto pick = [&](size_t i) { return c.ints[scalarCond ? 0 : i] != 0; };
        if (!out.ints.empty())
          mapElements(out.ints, n, [&](size_t i) { return pick(i) ? a.ints[i] : b.ints[i]; });
        else if (!out.floats.empty())
          mapElements(out.floats, n, [&](size_t i) { return pick(i) ? a.floats[i] : b.floats[i]; });
        else
          mapElements(out.ptrs, n, [&](size_t i) { return pick(i) ? a.ptrs[i] : b.ptrs[i]; });
      })
      .Case<arith::ExtSIOp, arith::TruncIOp>([&](auto) {
        const RtValue &a = in(0);
        mapElements(out.ints, n, [&](size_t i) { return rt.wrap(a.ints[i]); });
      })
      .Case<arith::ExtUIOp>([&](arith::ExtUIOp ext) {
        const RtValue &a = in(0);
        unsigned width = ElemType(ext.getIn().getType()).width;
        mapElements(out.ints, n, [&](size_t i) {
          uint64_t v = uint64_t(a.ints[i]);
          if (width < 64)
            v &= (uint64_t(1) << width) - 1;
          return rt.wrap(int64_t(v));
        });
      })
      .Case<arith::ExtFOp, arith::TruncFOp>([&](auto) { floatUnary([](double a) { return a; }); })
      .Case<arith::SIToFPOp>([&](auto) {
        const RtValue &a = in(0);
        mapElements(out.floats, n, [&](size_t i) { return rt.round(double(a.ints[i])); });
      })
      .Case<arith::UIToFPOp>([&](arith::UIToFPOp conv) {
        const RtValue &a = in(0);
        unsigned width = ElemType(conv.getIn().getType()).width;
        mapElements(out.floats, n, [&](size_t i) {
          uint64_t v = uint64_t(a.ints[i]);
          if (width < 64)
            v &= (uint64_t(1) << width) - 1;
          return rt.round(double(v));
        });
      })
      .Case<arith::FPToSIOp>([&](auto) {
        const RtValue &a = in(0);
        mapElements(out.ints, n, [&](size_t i) {
          double x = a.floats[i];
          // Saturate like the GPU's cvt.rzi; NaN converts to 0.
          if (std::isnan(x))
            return int64_t(0);
          double lo = -std::ldexp(1.0, rt.width - 1), hi = -lo - 1;
          return rt.wrap(int64_t(std::max(lo, std::min(hi, std::trunc(x)))));
        });
      })
      .Default([&](Operation *) { handled = false; });
  if (!handled)
    return op.emitError("the interpreter does not support '")
           << op.getName() << "'";
  set(result, std::move(out));
  return success();
}

//===----------------------------------------------------------------------===//
// tile ops
//===----------------------------------------------------------------------===//

/// Strides of a row-major shape.
static SmallVector<int64_t, 4> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t, 4> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

/// Copies element `from` of `src` to element `to` of `dst` (same class).
static void copyElement(const RtValue &src, size_t from, RtValue &dst,
                        size_t to) {
  if (!dst.ints.empty())
    dst.ints[to] = src.ints[from];
  else if (!dst.floats.empty())
    dst.floats[to] = src.floats[from];
  else
    dst.ptrs[to] = src.ptrs[from];
}

LogicalResult Interpreter::runTileOp(Operation &op) {
  if (isa<LoadOp, StoreOp>(op))
    return runMemory(op);
  if (auto dot = dyn_cast<DotOp>(op))
    return runDot(dot);
  if (auto reduce = dyn_cast<ReduceOp>(op))
    return runReduce(reduce);
  if (op.getNumResults() != 1)
    return op.emitError("the interpreter does not support '")
           << op.getName() << "'";
  Value result = op.getResult(0);
  RtValue out = makeValue(result.getType());
  size_t n = out.size();
  bool handled = true;
  TypeSwitch<Operation *>(&op)
      .Case<ProgramIdOp>([&](ProgramIdOp p) { out.ints[0] = pid[p.getAxis()]; })
      .Case<NumProgramsOp>([&](NumProgramsOp p) { out.ints[0] = grid[p.getAxis()]; })
      .Case<MakeRangeOp>([&](MakeRangeOp r) {
        for (size_t i = 0; i < n; ++i)
          out.ints[i] = int64_t(r.getStart()) + int64_t(i);
      })
      .Case<SplatOp>([&](SplatOp s) {
        const RtValue &src = get(s.getSrc());
        for (size_t i = 0; i < n; ++i)
          copyElement(src, 0, out, i);
      })
      .Case<ExpandDimsOp, ConvertLayoutOp>([&](Operation *o) {
        // Same elements in the same row-major order.
        SmallVector<int64_t, 2> shape = out.shape;
        out = get(o->getOperand(0));
        out.shape = shape;
      })
      .Case<BroadcastOp>([&](BroadcastOp b) {
        const RtValue &src = get(b.getSrc());
        auto srcStrides = stridesOf(src.shape);
        auto dstStrides = stridesOf(out.shape);
        for (size_t i = 0; i < n; ++i) {
          size_t from = 0;
          for (size_t d = 0; d < out.shape.size(); ++d) {
            int64_t idx = (int64_t(i) / dstStrides[d]) % out.shape[d];
            if (src.shape[d] != 1)
              from += idx * srcStrides[d];
          }
          copyElement(src, from, out, i);
        }
      })
      .Case<TransOp>([&](TransOp t) {
        const RtValue &src = get(t.getSrc());
        int64_t rows = src.shape[0], cols = src.shape[1];
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t c = 0; c < cols; ++c)
            copyElement(src, r * cols + c, out, c * rows + r);
      })
      .Case<AddPtrOp>([&](AddPtrOp a) {
        const RtValue &p = get(a.getPtr()), &o = get(a.getOffset());
        for (size_t i = 0; i < n; ++i)
          out.ptrs[i] = {p.ptrs[i].buffer, p.ptrs[i].offset + o.ints[i]};
      })
      .Default([&](Operation *) { handled = false; });
  if (!handled)
    return op.emitError("the interpreter does not support '")
           << op.getName() << "'";
  set(result, std::move(out));
  return success();
}

/// "parameter 'x'" (from the argument's NameLoc), or "parameter #i".
static std::string parameterName(KernelOp kernel, unsigned i) {
  Location loc = kernel.getBody().getArgument(i).getLoc();
  if (auto name = dyn_cast<NameLoc>(loc))
    return ("parameter '" + name.getName().getValue() + "'").str();
  return "parameter #" + std::to_string(i);
}

LogicalResult Interpreter::runMemory(Operation &op) {
  auto load = dyn_cast<LoadOp>(op);
  Value ptrValue = load ? load.getPtr() : cast<StoreOp>(op).getPtr();
  Value maskValue = load ? load.getMask() : cast<StoreOp>(op).getMask();
  const RtValue &ptrs = get(ptrValue);
  const RtValue *mask = maskValue ? &get(maskValue) : nullptr;
  size_t n = ptrs.size();
  RtValue out;
  const RtValue *other = nullptr, *stored = nullptr;
  if (load) {
    out = makeValue(load.getType());
    if (load.getOther())
      other = &get(load.getOther());
  } else {
    stored = &get(cast<StoreOp>(op).getValue());
  }
  for (size_t i = 0; i < n; ++i) {
    bool active = !mask || mask->ints[i] != 0;
    if (!active) {
      if (other)
        copyElement(*other, i, out, i);
      continue;
    }
    Ptr p = ptrs.ptrs[i];
    if (p.buffer < 0 || p.buffer >= static_cast<int32_t>(buffers.size()))
      return op.emitError("invalid pointer");
    HostBuffer &buffer = *buffers[p.buffer];
    if (p.offset < 0 || p.offset >= static_cast<int64_t>(buffer.size())) {
      return op.emitError() << "out-of-bounds " << (load ? "load" : "store")
                            << ": element " << p.offset << " of the "
                            << buffer.size() << "-element buffer of "
                            << parameterName(kernel, p.buffer)
                            << " in program (" << pid[0] << ", "
                            << pid[1] << ", " << pid[2] << ")"
                            << (mask ? "" : "; the access has no mask");
    }
    if (load) {
      if (!out.floats.empty())
        out.floats[i] = ElemType(load.getType()).round(buffer.getFloat(p.offset));
      else
        out.ints[i] = buffer.getInt(p.offset);
    } else if (!stored->floats.empty()) {
      buffer.setFloat(p.offset, stored->floats[i]);
    } else {
      buffer.setInt(p.offset, stored->ints[i]);
    }
  }
  if (load)
    set(load.getResult(), std::move(out));
  return success();
}

LogicalResult Interpreter::runDot(DotOp op) {
  const RtValue &a = get(op.getA()), &b = get(op.getB());
  RtValue out = get(op.getAcc());
  int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
  ElemType acc(op.getType());
  bool tf32 = op.getPrecision() == InputPrecision::tf32;
  // tf32 keeps 10 mantissa bits of each input.
  auto input = [&](double x) {
    if (!tf32)
      return x;
    llvm::APFloat f(static_cast<float>(x));
    llvm::APInt bits = f.bitcastToAPInt();
    uint32_t u = static_cast<uint32_t>(bits.getZExtValue());
    u = (u + 0x1000u) & ~0x1FFFu; // round to nearest at bit 13
    float r;
    std::memcpy(&r, &u, sizeof(r));
    return static_cast<double>(r);
  };
  // Products are exact in double; the sum is kept in the accumulator's type.
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = out.floats[i * n + j];
      for (int64_t kk = 0; kk < k; ++kk)
        sum = acc.round(sum + input(a.floats[i * k + kk]) *
                                  input(b.floats[kk * n + j]));
      out.floats[i * n + j] = sum;
    }
  set(op.getResult(), std::move(out));
  return success();
}

LogicalResult Interpreter::runReduce(ReduceOp op) {
  const RtValue &src = get(op.getSrc());
  RtValue out = makeValue(op.getType());
  int64_t axis = op.getAxis();
  int64_t len = src.shape[axis];
  int64_t inner = 1;
  for (size_t d = axis + 1; d < src.shape.size(); ++d)
    inner *= src.shape[d];
  ElemType rt(op.getType());
  ReduceKind kind = op.getKind();
  for (size_t o = 0; o < out.size(); ++o) {
    int64_t outer = int64_t(o) / inner, in = int64_t(o) % inner;
    auto at = [&](int64_t r) { return (outer * len + r) * inner + in; };
    if (!out.floats.empty()) {
      double acc = src.floats[at(0)];
      for (int64_t r = 1; r < len; ++r) {
        double x = src.floats[at(r)];
        if (kind == ReduceKind::sum)
          acc = rt.round(acc + x);
        else if (std::isnan(acc) || std::isnan(x))
          acc = NAN;
        else
          acc = kind == ReduceKind::max ? std::max(acc, x) : std::min(acc, x);
      }
      out.floats[o] = acc;
    } else {
      int64_t acc = src.ints[at(0)];
      for (int64_t r = 1; r < len; ++r) {
        int64_t x = src.ints[at(r)];
        acc = kind == ReduceKind::sum ? rt.wrap(int64_t(uint64_t(acc) + uint64_t(x)))
              : kind == ReduceKind::max ? std::max(acc, x)
                                        : std::min(acc, x);
      }
      out.ints[o] = acc;
    }
  }
  set(op.getResult(), std::move(out));
  return success();
}

//===----------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------===//

LogicalResult interp::runKernel(KernelOp kernel, std::array<int64_t, 3> grid,
                                ArrayRef<KernelArg> args) {
  ArrayRef<Type> params = kernel.getArgumentTypes();
  if (args.size() != params.size())
    return kernel.emitError() << "kernel '" << kernel.getSymName()
                              << "' takes " << params.size()
                              << " argument(s), got " << args.size();
  for (int64_t g : grid)
    if (g < 1)
      return kernel.emitError("every grid dimension must be at least 1");
  SmallVector<RtValue> values;
  SmallVector<HostBuffer *> buffers(params.size(), nullptr);
  for (auto [i, type, arg] : llvm::enumerate(params, args)) {
    RtValue v = makeValue(type);
    if (auto ptr = dyn_cast<PointerType>(type)) {
      if (arg.kind != KernelArg::Kind::Buffer || !arg.buffer)
        return kernel.emitError() << "argument " << i << " must be a buffer";
      FailureOr<ScalarKind> kind = scalarKindOf(ptr.getPointeeType());
      if (failed(kind) || *kind != arg.buffer->kind())
        return kernel.emitError()
               << "argument " << i << " is a buffer of "
               << scalarKindName(arg.buffer->kind()) << " but the parameter is "
               << type;
      buffers[i] = arg.buffer;
      v.ptrs[0] = Ptr{static_cast<int32_t>(i), 0};
    } else if (isa<FloatType>(type)) {
      if (arg.kind == KernelArg::Kind::Buffer)
        return kernel.emitError() << "argument " << i << " must be a scalar";
      v.floats[0] = ElemType(type).round(arg.kind == KernelArg::Kind::Float
                                             ? arg.floatValue
                                             : double(arg.intValue));
    } else {
      if (arg.kind != KernelArg::Kind::Int)
        return kernel.emitError() << "argument " << i << " must be an integer";
      v.ints[0] = ElemType(type).wrap(arg.intValue);
    }
    values.push_back(std::move(v));
  }
  Interpreter interpreter(kernel, buffers);
  for (int64_t z = 0; z < grid[2]; ++z)
    for (int64_t y = 0; y < grid[1]; ++y)
      for (int64_t x = 0; x < grid[0]; ++x)
        if (failed(interpreter.runProgram({x, y, z}, grid, values)))
          return failure();
  return success();
}
