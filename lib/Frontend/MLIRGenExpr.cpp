//===- MLIRGenExpr.cpp - operators, conversions and broadcasting ----------===//
#include "MLIRGenImpl.h"

#include "tile/Support/Float8.h"

#include <cmath>

using namespace mlir;
using namespace tile;
using namespace tile::ast;

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

Type MLIRGenImpl::mlirType(Type elem, ArrayRef<int64_t> shape) {
  elem = signlessType(elem);
  if (shape.empty())
    return elem;
  return RankedTensorType::get(shape, elem);
}

TValue MLIRGenImpl::makeIntConst(int64_t v, Type type, bool weak) {
  TValue t;
  t.elemType = type;
  t.weak = weak;
  if (type.isInteger(1))
    v = v != 0;
  t.intConst = v;
  return t;
}

TValue MLIRGenImpl::makeFloatConst(double v, Type type, bool weak) {
  TValue t;
  t.elemType = type;
  t.weak = weak;
  t.floatConst = v;
  return t;
}

TValue MLIRGenImpl::makeRuntime(Value value) {
  TValue t;
  t.value = value;
  if (auto tensor = dyn_cast<RankedTensorType>(value.getType())) {
    t.elemType = tensor.getElementType();
    t.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
  } else {
    t.elemType = value.getType();
  }
  return t;
}

TValue MLIRGenImpl::makeRuntime(Value value, Type elemType) {
  TValue t = makeRuntime(value);
  assert(signlessType(elemType) == t.elemType && "the IR type differs");
  t.elemType = elemType;
  return t;
}

TValue MLIRGenImpl::materialize(TValue v, SrcLoc at) {
  if (v.value || v.isVoid())
    return v;
  Type type = mlirType(v.elemType, v.shape);
  TypedAttr scalar;
  if (isa<FloatType>(v.elemType))
    scalar = builder.getFloatAttr(
        v.elemType, v.floatConst ? *v.floatConst : double(*v.intConst));
  else
    scalar = builder.getIntegerAttr(signlessType(v.elemType),
                                    v.intConst ? *v.intConst : 0);
  TypedAttr attr = scalar;
  if (v.isTile())
    attr = SplatElementsAttr::get(cast<ShapedType>(type), scalar);
  v.value = arith::ConstantOp::create(builder, loc(at), type, attr);
  return v;
}

LogicalResult MLIRGenImpl::checkTileShape(ArrayRef<int64_t> shape, SrcLoc at) {
  int64_t elements = 1;
  for (int64_t d : shape) {
    if (!isPowerOfTwo(d))
      return error(at) << "tile dimension " << d << " is not a power of two";
    elements *= d;
    if (elements > kMaxTileElements)
      return error(at) << "tile of shape " << formatShape(shape)
                       << " exceeds the limit of " << kMaxTileElements
                       << " elements";
  }
  return success();
}

FailureOr<int64_t> MLIRGenImpl::genConstInt(const Expr &expr, StringRef what) {
  FailureOr<TValue> v = genExpr(expr);
  if (failed(v))
    return failure();
  if (!v->intConst || v->value || v->isTile() || v->elemType.isInteger(1))
    return error(expr.getLoc())
           << what << " must be a compile-time integer constant";
  return *v->intConst;
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

/// Wraps `v` to the range of an integer type of `width` bits (two's
/// complement).
static int64_t wrapToWidth(int64_t v, unsigned width) {
  if (width >= 64)
    return v;
  if (width == 1)
    return v & 1;
  return llvm::SignExtend64(static_cast<uint64_t>(v), width);
}

/// Wraps `v` to the range of integer type `type`: two's complement for
/// signed types, modulo 2^width for unsigned ones (a `u64` keeps its bits).
static int64_t wrapToType(int64_t v, Type type) {
  unsigned width = type.getIntOrFloatBitWidth();
  if (type.isUnsignedInteger() && width < 64)
    return static_cast<int64_t>(static_cast<uint64_t>(v) &
                                llvm::maskTrailingOnes<uint64_t>(width));
  return wrapToWidth(v, width);
}

/// The value of integer constant `v` of type `type` as a double.
static double intConstToDouble(int64_t v, Type type) {
  return type.isUnsignedInteger() ? double(static_cast<uint64_t>(v))
                                  : double(v);
}

FailureOr<TValue> MLIRGenImpl::convert(TValue v, Type to, SrcLoc at) {
  if (v.elemType == to) {
    v.weak = false;
    return v;
  }
  if (isa<PointerType>(to) || isa<PointerType>(v.elemType))
    return error(at) << "cannot convert " << typeName(v) << " to "
                     << formatType(to, v.shape);
  if (v.isConst()) {
    TValue c = v;
    c.elemType = to;
    c.weak = false;
    if (auto intTy = dyn_cast<IntegerType>(to)) {
      if (v.floatConst) {
        double f = *v.floatConst;
        if (intTy.getWidth() == 1)
          c.intConst = f != 0.0;
        else if (!std::isfinite(f) || std::fabs(f) >= 9.2e18)
          return error(at) << "float constant " << f << " does not fit in "
                           << formatType(to, {});
        else
          c.intConst = wrapToType(static_cast<int64_t>(f), intTy);
        c.floatConst.reset();
      } else {
        c.intConst = wrapToType(*v.intConst, intTy);
      }
    } else {
      if (v.intConst)
        c.floatConst = intConstToDouble(*v.intConst, v.elemType);
      c.intConst.reset();
      if (isFloat8(to))
        c.floatConst = roundToFloat8(*c.floatConst, isa<Float8E5M2Type>(to));
    }
    return c;
  }
  // 8-bit floats convert to and from f32 only; other types go through it.
  Type f32 = builder.getF32Type();
  if ((isFloat8(v.elemType) && to != f32) ||
      (isFloat8(to) && v.elemType != f32)) {
    FailureOr<TValue> wide = convert(v, f32, at);
    if (failed(wide))
      return failure();
    return convert(*wide, to, at);
  }
  Location l = loc(at);
  Value x = v.value;
  Type target = mlirType(to, v.shape);
  Type from = v.elemType;
  if (auto toInt = dyn_cast<IntegerType>(to)) {
    if (auto fromInt = dyn_cast<IntegerType>(from)) {
      if (fromInt.getWidth() == 1)
        x = arith::ExtUIOp::create(builder, l, target, x);
      else if (toInt.getWidth() == 1) {
        Value zero = materialize(makeIntConst(0, from), at).value;
        if (v.isTile())
          zero = tile::SplatOp::create(builder, l, x.getType(), zero);
        x = arith::CmpIOp::create(builder, l, arith::CmpIPredicate::ne, x,
                                  zero);
      } else if (toInt.getWidth() == fromInt.getWidth()) {
        // Only the signedness changes: the same bits.
      } else if (toInt.getWidth() > fromInt.getWidth()) {
        if (fromInt.isUnsigned())
          x = arith::ExtUIOp::create(builder, l, target, x);
        else
          x = arith::ExtSIOp::create(builder, l, target, x);
      } else {
        x = arith::TruncIOp::create(builder, l, target, x);
      }
    } else if (toInt.getWidth() == 1) {
      Value zero = materialize(makeFloatConst(0.0, from), at).value;
      if (v.isTile())
        zero = tile::SplatOp::create(builder, l, x.getType(), zero);
      x = arith::CmpFOp::create(builder, l, arith::CmpFPredicate::UNE, x, zero);
    } else if (toInt.isUnsigned()) {
      x = arith::FPToUIOp::create(builder, l, target, x);
    } else {
      x = arith::FPToSIOp::create(builder, l, target, x);
    }
  } else {
    auto toFloat = cast<FloatType>(to);
    if (auto fromInt = dyn_cast<IntegerType>(from)) {
      if (fromInt.getWidth() == 1 || fromInt.isUnsigned())
        x = arith::UIToFPOp::create(builder, l, target, x);
      else
        x = arith::SIToFPOp::create(builder, l, target, x);
    } else {
      auto fromFloat = cast<FloatType>(from);
      if (fromFloat.getWidth() == toFloat.getWidth()) {
        // f16 <-> bf16 goes through f32.
        Type f32 = mlirType(builder.getF32Type(), v.shape);
        x = arith::ExtFOp::create(builder, l, f32, x);
        x = arith::TruncFOp::create(builder, l, target, x);
      } else if (toFloat.getWidth() > fromFloat.getWidth())
        x = arith::ExtFOp::create(builder, l, target, x);
      else
        x = arith::TruncFOp::create(builder, l, target, x);
    }
  }
  return makeRuntime(x, to);
}

/// Whether `op` only moves, selects or converts the values it takes: the
/// ops that 8-bit floats may flow through.
static bool movesOrConverts(Operation *op) {
  return isa<LoadOp, StoreOp, SplatOp, BroadcastOp, ExpandDimsOp, TransOp,
             ReshapeOp, PermuteOp, JoinOp, SplitOp, arith::ExtFOp,
             arith::TruncFOp, arith::SelectOp, arith::ConstantOp,
             arith::BitcastOp, scf::ForOp, scf::IfOp, scf::WhileOp,
             scf::YieldOp, scf::ConditionOp>(op) ||
         // A dot multiplies 8-bit floats (sums in f32).
         isa<DotOp>(op);
}

LogicalResult MLIRGenImpl::checkFloat8Uses(KernelOp kernel) {
  WalkResult result = kernel.walk([&](Operation *op) {
    if (movesOrConverts(op))
      return WalkResult::advance();
    for (Type t : llvm::concat<const Type>(op->getOperandTypes(),
                                           op->getResultTypes())) {
      Type elem = getElementTypeOrSelf(t);
      if (!isFloat8(elem))
        continue;
      op->emitError("cannot compute with ")
          << scalarTypeName(elem)
          << " values: 8-bit floats are loaded, stored, selected, "
             "converted and multiplied by dot (cast them to f16 or f32 "
             "first)";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

FailureOr<TValue> MLIRGenImpl::broadcastTo(TValue v, ArrayRef<int64_t> shape,
                                           SrcLoc at) {
  if (v.shape == shape)
    return v;
  if (!broadcastShapes(v.shape, shape) ||
      *broadcastShapes(v.shape, shape) != SmallVector<int64_t>(shape))
    return error(at) << "cannot broadcast " << typeName(v) << " to shape "
                     << formatType(v.elemType, shape);
  if (v.isConst()) {
    v.shape.assign(shape.begin(), shape.end());
    return v;
  }
  Location l = loc(at);
  if (!v.isTile()) {
    Value splat =
        tile::SplatOp::create(builder, l, mlirType(v.elemType, shape), v.value);
    return makeRuntime(splat, v.elemType);
  }
  Value x = v.value;
  SmallVector<int64_t> cur(v.shape.begin(), v.shape.end());
  while (cur.size() < shape.size()) {
    cur.insert(cur.begin(), 1);
    x = ExpandDimsOp::create(builder, l, mlirType(v.elemType, cur), x, 0);
  }
  if (ArrayRef<int64_t>(cur) != shape)
    x = BroadcastOp::create(builder, l, mlirType(v.elemType, shape), x);
  return makeRuntime(x, v.elemType);
}

FailureOr<Type> MLIRGenImpl::commonType(const TValue &a, const TValue &b,
                                        SrcLoc at, StringRef what) {
  // Operands come from genValueExpr, which rejects "no value".
  if (isa<PointerType>(a.elemType) || isa<PointerType>(b.elemType))
    return error(at) << what << " is not defined for " << typeName(a) << " and "
                     << typeName(b);
  bool af = isa<FloatType>(a.elemType), bf = isa<FloatType>(b.elemType);
  if (a.weak && b.weak) {
    if (af || bf)
      return af ? a.elemType : b.elemType;
    return promoteTypes(a.elemType, b.elemType);
  }
  if (a.weak || b.weak) {
    const TValue &strong = a.weak ? b : a;
    const TValue &weak = a.weak ? a : b;
    if (isa<FloatType>(strong.elemType))
      return strong.elemType;
    if (isa<FloatType>(weak.elemType))
      return weak.elemType; // int tile with a float literal: f32
    if (strong.elemType.isInteger(1) && !weak.elemType.isInteger(1))
      return weak.elemType;
    return strong.elemType;
  }
  return promoteTypes(a.elemType, b.elemType);
}

LogicalResult MLIRGenImpl::unify(TValue &a, TValue &b, SrcLoc at,
                                 StringRef what) {
  FailureOr<Type> type = commonType(a, b, at, what);
  if (failed(type))
    return failure();
  std::optional<SmallVector<int64_t>> shape = broadcastShapes(a.shape, b.shape);
  if (!shape)
    return error(at) << "shapes of " << what
                     << " do not broadcast: " << typeName(a) << " and "
                     << typeName(b);
  bool bothWeak = a.weak && b.weak;
  for (TValue *v : {&a, &b}) {
    FailureOr<TValue> c = convert(*v, *type, at);
    if (failed(c))
      return failure();
    c = broadcastTo(*c, *shape, at);
    if (failed(c))
      return failure();
    *v = *c;
    v->weak = bothWeak;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

FailureOr<TValue> MLIRGenImpl::genValueExpr(const Expr &expr, StringRef what) {
  FailureOr<TValue> v = genExpr(expr);
  if (failed(v))
    return failure();
  if (v->isVoid())
    return error(expr.getLoc()) << what << " has no value";
  return v;
}

FailureOr<TValue> MLIRGenImpl::genExpr(const Expr &expr) {
  switch (expr.getKind()) {
  case Expr::Kind::Int: {
    int64_t v = cast<IntExpr>(expr).value;
    bool fits32 = v <= std::numeric_limits<int32_t>::max();
    return makeIntConst(v, fits32 ? builder.getI32Type() : builder.getI64Type(),
                        /*weak=*/true);
  }
  case Expr::Kind::Float:
    return makeFloatConst(cast<FloatExpr>(expr).value, builder.getF32Type(),
                          /*weak=*/true);
  case Expr::Kind::Bool:
    return makeIntConst(cast<BoolExpr>(expr).value, builder.getI1Type());
  case Expr::Kind::Name: {
    const auto &name = cast<NameExpr>(expr).name;
    if (Binding *b = lookup(name)) {
      if (b->typeName)
        return error(expr.getLoc()) << "'" << name << "' names the type "
                                    << formatType(b->typeName, {})
                                    << " and cannot be used as a value";
      return b->value;
    }
    if (scalarTypeFromName(&context, name))
      return error(expr.getLoc())
             << "type '" << name << "' cannot be used as a value";
    if (helpers.count(name) || kernels.count(name))
      return error(expr.getLoc())
             << "'" << name << "' is a function; call it with '" << name
             << "(...)'";
    return error(expr.getLoc()) << "unknown name '" << name << "'";
  }
  case Expr::Kind::Unary:
    return genUnary(cast<UnaryExpr>(expr));
  case Expr::Kind::Binary:
    return genBinary(cast<BinaryExpr>(expr));
  case Expr::Kind::Call:
    return genCall(cast<CallExpr>(expr));
  case Expr::Kind::Subscript:
    return genSubscript(cast<SubscriptExpr>(expr));
  case Expr::Kind::List:
    return error(expr.getLoc())
           << "a list is only allowed as a shape argument (zeros, full)";
  case Expr::Kind::Tuple:
    return error(expr.getLoc())
           << "a tuple is only allowed as a helper's returned value or on the "
              "right of 'let (a, b) =' or '(a, b) ='";
  case Expr::Kind::String:
    return error(expr.getLoc())
           << "a string is only allowed as the message of static_assert or "
              "device_assert, or the prefix of print";
  }
  return failure();
}

FailureOr<TValue> MLIRGenImpl::genCall(const CallExpr &call) {
  if (std::optional<FailureOr<TValue>> result = genBuiltin(call))
    return *result;
  auto it = helpers.find(call.callee);
  if (it != helpers.end())
    return genHelperCall(call, *it->second);
  if (kernels.count(call.callee))
    return error(call.getLoc()) << "cannot call kernel '" << call.callee
                                << "'; only 'fn' helpers can be called";
  return error(call.getLoc()) << "unknown function '" << call.callee << "'";
}

FailureOr<TValue> MLIRGenImpl::genSubscript(const SubscriptExpr &expr) {
  FailureOr<TValue> base = genValueExpr(*expr.base, "the subscripted value");
  if (failed(base))
    return failure();
  size_t slices = llvm::count(expr.indices, SubscriptExpr::Index::Slice);
  if (slices != base->shape.size())
    return error(expr.getLoc())
           << "subscript has " << slices << " ':' but the value has rank "
           << base->shape.size() << " (" << typeName(*base) << ")";
  SmallVector<int64_t> shape;
  size_t dim = 0;
  for (SubscriptExpr::Index index : expr.indices)
    shape.push_back(index == SubscriptExpr::Index::Slice ? base->shape[dim++]
                                                         : 1);
  if (base->isConst()) {
    base->shape.assign(shape.begin(), shape.end());
    return *base;
  }
  if (!base->isTile())
    return broadcastTo(*base, shape, expr.getLoc());
  Value x = base->value;
  SmallVector<int64_t> cur(base->shape.begin(), base->shape.end());
  for (auto [axis, index] : llvm::enumerate(expr.indices)) {
    if (index != SubscriptExpr::Index::NewAxis)
      continue;
    cur.insert(cur.begin() + axis, 1);
    x = ExpandDimsOp::create(builder, loc(expr.getLoc()),
                             mlirType(base->elemType, cur), x, axis);
  }
  return makeRuntime(x, base->elemType);
}

FailureOr<TValue> MLIRGenImpl::genUnary(const UnaryExpr &expr) {
  FailureOr<TValue> operand = genValueExpr(*expr.operand, "the operand");
  if (failed(operand))
    return failure();
  TValue v = *operand;
  Type elem = v.elemType;
  StringRef spelling = tokSpelling(expr.op);
  if (isa<PointerType>(elem))
    return error(expr.getLoc())
           << "operator " << spelling << " is not defined for " << typeName(v);
  bool isBool = elem.isInteger(1);
  if (expr.op == Tok::Bang && !isBool)
    return error(expr.getLoc())
           << "operator '!' needs an i1 (bool) operand, got " << typeName(v)
           << "; use '~' for bitwise not";
  if (expr.op == Tok::Tilde && !isa<IntegerType>(elem))
    return error(expr.getLoc())
           << "operator '~' needs an integer operand, got " << typeName(v);
  if (expr.op == Tok::Minus && isBool)
    return error(expr.getLoc()) << "cannot negate an i1 (bool) value";
  if (v.isConst()) {
    if (v.floatConst) {
      v.floatConst = -*v.floatConst;
    } else if (expr.op == Tok::Minus) {
      v.intConst = wrapToType(
          static_cast<int64_t>(-static_cast<uint64_t>(*v.intConst)), elem);
    } else { // '!' and '~' flip every bit.
      v.intConst = wrapToType(~*v.intConst, elem);
    }
    return v;
  }
  Location l = loc(expr.getLoc());
  if (expr.op == Tok::Minus && isa<FloatType>(elem))
    return makeRuntime(arith::NegFOp::create(builder, l, v.value));
  TValue other = makeIntConst(expr.op == Tok::Minus ? 0 : -1, elem);
  other.shape = v.shape;
  Value c = materialize(other, expr.getLoc()).value;
  if (expr.op == Tok::Minus)
    return makeRuntime(arith::SubIOp::create(builder, l, c, v.value), elem);
  return makeRuntime(arith::XOrIOp::create(builder, l, v.value, c), elem);
}

FailureOr<TValue> MLIRGenImpl::genBinary(const BinaryExpr &expr) {
  FailureOr<TValue> lhs = genValueExpr(*expr.lhs, "the left operand");
  if (failed(lhs))
    return failure();
  FailureOr<TValue> rhs = genValueExpr(*expr.rhs, "the right operand");
  if (failed(rhs))
    return failure();
  return genBinaryOp(expr.op, *lhs, *rhs, expr.getLoc());
}

namespace {
enum class OpClass { Arith, Compare, Bitwise, Shift, Logical };
OpClass classify(Tok op) {
  switch (op) {
  case Tok::EqEq:
  case Tok::NotEq:
  case Tok::Lt:
  case Tok::Le:
  case Tok::Gt:
  case Tok::Ge:
    return OpClass::Compare;
  case Tok::Amp:
  case Tok::Pipe:
  case Tok::Caret:
    return OpClass::Bitwise;
  case Tok::Shl:
  case Tok::Shr:
    return OpClass::Shift;
  case Tok::AndAnd:
  case Tok::OrOr:
    return OpClass::Logical;
  default:
    return OpClass::Arith;
  }
}

/// Folds a comparison; nullopt if `op` is not one.
template <typename T> std::optional<bool> foldCompare(Tok op, T a, T b) {
  switch (op) {
  case Tok::EqEq:
    return a == b;
  case Tok::NotEq:
    return a != b;
  case Tok::Lt:
    return a < b;
  case Tok::Le:
    return a <= b;
  case Tok::Gt:
    return a > b;
  case Tok::Ge:
    return a >= b;
  default:
    return std::nullopt;
  }
}

/// Folds an unsigned integer operation on the values' bits; nullopt if it
/// cannot be folded (x / 0) or is no unsigned operation.
std::optional<uint64_t> foldUnsigned(Tok op, uint64_t a, uint64_t b) {
  if (std::optional<bool> c = foldCompare(op, a, b))
    return *c;
  switch (op) {
  case Tok::Slash:
    return b == 0 ? std::nullopt : std::optional<uint64_t>(a / b);
  case Tok::Percent:
    return b == 0 ? std::nullopt : std::optional<uint64_t>(a % b);
  case Tok::Shr:
    return b > 63 ? 0 : a >> b;
  default:
    return std::nullopt;
  }
}

/// Folds an integer operation; nullopt if it cannot be folded (x / 0).
/// With `isUnsigned`, comparisons, division and right shifts read the
/// values as unsigned.
std::optional<int64_t> foldInt(Tok op, int64_t a, int64_t b, bool isUnsigned) {
  if (isUnsigned && (classify(op) == OpClass::Compare || op == Tok::Slash ||
                     op == Tok::Percent || op == Tok::Shr)) {
    std::optional<uint64_t> r = foldUnsigned(op, a, b);
    return r ? std::optional<int64_t>(static_cast<int64_t>(*r)) : std::nullopt;
  }
  if (std::optional<bool> c = foldCompare(op, a, b))
    return *c;
  switch (op) {
  case Tok::Plus:
    return static_cast<int64_t>(static_cast<uint64_t>(a) +
                                static_cast<uint64_t>(b));
  case Tok::Minus:
    return static_cast<int64_t>(static_cast<uint64_t>(a) -
                                static_cast<uint64_t>(b));
  case Tok::Star:
    return static_cast<int64_t>(static_cast<uint64_t>(a) *
                                static_cast<uint64_t>(b));
  case Tok::Slash:
    if (b == 0 || (a == INT64_MIN && b == -1))
      return std::nullopt;
    return a / b;
  case Tok::Percent:
    if (b == 0 || (a == INT64_MIN && b == -1))
      return std::nullopt;
    return a % b;
  case Tok::Shl:
    return b < 0 || b > 63
               ? 0
               : static_cast<int64_t>(static_cast<uint64_t>(a) << b);
  case Tok::Shr:
    return b < 0 || b > 63 ? (a < 0 ? -1 : 0) : a >> b;
  case Tok::Amp:
  case Tok::AndAnd:
    return a & b;
  case Tok::Pipe:
  case Tok::OrOr:
    return a | b;
  case Tok::Caret:
    return a ^ b;
  default:
    return std::nullopt;
  }
}

std::optional<double> foldFloat(Tok op, double a, double b) {
  if (std::optional<bool> c = foldCompare(op, a, b))
    return *c;
  switch (op) {
  case Tok::Plus:
    return a + b;
  case Tok::Minus:
    return a - b;
  case Tok::Star:
    return a * b;
  case Tok::Slash:
    return a / b;
  case Tok::Percent:
    return std::fmod(a, b);
  default:
    return std::nullopt;
  }
}

/// Position of a comparison token in the predicate tables below.
unsigned comparisonIndex(Tok op) {
  static const Tok order[] = {Tok::EqEq, Tok::NotEq, Tok::Lt, Tok::Le, Tok::Gt};
  return llvm::find(order, op) - std::begin(order);
}

arith::CmpIPredicate intPredicate(Tok op, bool isUnsigned) {
  using P = arith::CmpIPredicate;
  static const P table[] = {P::eq, P::ne, P::slt, P::sle, P::sgt, P::sge};
  static const P unsignedTable[] = {P::eq,  P::ne,  P::ult,
                                    P::ule, P::ugt, P::uge};
  return (isUnsigned ? unsignedTable : table)[comparisonIndex(op)];
}

arith::CmpFPredicate floatPredicate(Tok op) {
  using P = arith::CmpFPredicate;
  static const P table[] = {P::OEQ, P::UNE, P::OLT, P::OLE, P::OGT, P::OGE};
  return table[comparisonIndex(op)];
}
} // namespace

FailureOr<TValue> MLIRGenImpl::genBinaryOp(Tok op, TValue lhs, TValue rhs,
                                           SrcLoc at) {
  std::string what = ("operator " + tokSpelling(op)).str();
  // Pointer arithmetic: ptr + int, int + ptr.
  bool lptr = isa_and_nonnull<PointerType>(lhs.elemType);
  bool rptr = isa_and_nonnull<PointerType>(rhs.elemType);
  if (lptr || rptr) {
    TValue &ptr = lptr ? lhs : rhs, &offset = lptr ? rhs : lhs;
    if (op != Tok::Plus || (lptr && rptr) ||
        !isa<IntegerType>(offset.elemType) || offset.elemType.isInteger(1))
      return error(at) << what << " is not defined for " << typeName(lhs)
                       << " and " << typeName(rhs)
                       << " (pointers support only 'ptr + integer')";
    std::optional<SmallVector<int64_t>> shape =
        broadcastShapes(ptr.shape, offset.shape);
    if (!shape)
      return error(at) << "shapes of " << what
                       << " do not broadcast: " << typeName(lhs) << " and "
                       << typeName(rhs);
    if (offset.weak)
      offset = *convert(offset, builder.getI32Type(), at);
    // Offsets are signed in the IR: an unsigned one is widened first (u8
    // and u16 to i32, u32 to i64) so that it keeps its value.
    if (offset.elemType.isUnsignedInteger()) {
      unsigned width = offset.elemType.getIntOrFloatBitWidth();
      FailureOr<TValue> wide =
          convert(offset, builder.getIntegerType(width < 32 ? 32 : 64), at);
      if (failed(wide))
        return failure();
      offset = *wide;
    }
    FailureOr<TValue> p = broadcastTo(ptr, *shape, at);
    FailureOr<TValue> o = broadcastTo(offset, *shape, at);
    if (failed(p) || failed(o))
      return failure();
    Value pv = materialize(*p, at).value, ov = materialize(*o, at).value;
    return makeRuntime(AddPtrOp::create(builder, loc(at), pv.getType(), pv, ov),
                       p->elemType);
  }

  OpClass cls = classify(op);
  if (failed(unify(lhs, rhs, at, what)))
    return failure();
  Type elem = lhs.elemType;
  bool isFloat = isa<FloatType>(elem);
  bool isBool = elem.isInteger(1);
  bool isUnsigned = elem.isUnsignedInteger();
  if (cls == OpClass::Logical && !isBool)
    return error(at) << what << " needs i1 (bool) operands, got "
                     << typeName(lhs) << "; use '&' / '|' for bitwise ops";
  if ((cls == OpClass::Bitwise || cls == OpClass::Shift) && isFloat)
    return error(at) << what << " needs integer operands, got "
                     << typeName(lhs);
  if (cls == OpClass::Shift && isBool)
    return error(at) << what << " is not defined for i1 (bool)";
  if (cls == OpClass::Arith && isBool)
    return error(at) << what << " is not defined for i1 (bool) operands";

  Type resultElem = cls == OpClass::Compare ? builder.getI1Type() : elem;
  // Constant folding (shapes and bounds must be computable at compile time).
  if (lhs.isConst() && rhs.isConst()) {
    TValue r;
    if (isFloat) {
      std::optional<double> f = foldFloat(op, *lhs.floatConst, *rhs.floatConst);
      if (f) {
        r = cls == OpClass::Compare ? makeIntConst(*f != 0.0, resultElem)
                                    : makeFloatConst(*f, resultElem, lhs.weak);
        r.shape = lhs.shape;
        return r;
      }
    } else {
      std::optional<int64_t> i =
          foldInt(op, *lhs.intConst, *rhs.intConst, isUnsigned);
      if (!i && (op == Tok::Slash || op == Tok::Percent) && *rhs.intConst == 0)
        return error(at) << "division by zero in a constant expression";
      if (i) {
        if (cls == OpClass::Arith && wrapToType(*i, resultElem) != *i)
          return error(at) << "constant expression overflows "
                           << formatType(resultElem, {});
        r = makeIntConst(*i, resultElem,
                         cls == OpClass::Compare ? false : lhs.weak);
        r.shape = lhs.shape;
        return r;
      }
    }
  }

  Value a = materialize(lhs, at).value, b = materialize(rhs, at).value;
  Location l = loc(at);
  Value result;
  switch (op) {
  case Tok::Plus:
    result = isFloat ? Value(arith::AddFOp::create(builder, l, a, b))
                     : Value(arith::AddIOp::create(builder, l, a, b));
    break;
  case Tok::Minus:
    result = isFloat ? Value(arith::SubFOp::create(builder, l, a, b))
                     : Value(arith::SubIOp::create(builder, l, a, b));
    break;
  case Tok::Star:
    result = isFloat ? Value(arith::MulFOp::create(builder, l, a, b))
                     : Value(arith::MulIOp::create(builder, l, a, b));
    break;
  case Tok::Slash:
    result = isFloat      ? Value(arith::DivFOp::create(builder, l, a, b))
             : isUnsigned ? Value(arith::DivUIOp::create(builder, l, a, b))
                          : Value(arith::DivSIOp::create(builder, l, a, b));
    break;
  case Tok::Percent:
    result = isFloat      ? Value(arith::RemFOp::create(builder, l, a, b))
             : isUnsigned ? Value(arith::RemUIOp::create(builder, l, a, b))
                          : Value(arith::RemSIOp::create(builder, l, a, b));
    break;
  case Tok::Shl:
    result = arith::ShLIOp::create(builder, l, a, b);
    break;
  case Tok::Shr:
    result = isUnsigned ? Value(arith::ShRUIOp::create(builder, l, a, b))
                        : Value(arith::ShRSIOp::create(builder, l, a, b));
    break;
  case Tok::Amp:
  case Tok::AndAnd:
    result = arith::AndIOp::create(builder, l, a, b);
    break;
  case Tok::Pipe:
  case Tok::OrOr:
    result = arith::OrIOp::create(builder, l, a, b);
    break;
  case Tok::Caret:
    result = arith::XOrIOp::create(builder, l, a, b);
    break;
  default:
    result =
        isFloat
            ? Value(arith::CmpFOp::create(builder, l, floatPredicate(op), a, b))
            : Value(arith::CmpIOp::create(builder, l,
                                          intPredicate(op, isUnsigned), a, b));
    break;
  }
  return makeRuntime(result, resultElem);
}
