//===- MLIRGenBuiltins.cpp - builtin functions of the .tile language ------===//
#include "BuiltinArgs.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace mlir;
using namespace tile;
using namespace tile::ast;

namespace {

/// Builtins by name, with what each takes (for arity diagnostics).
enum class Builtin {
  ProgramId,
  NumPrograms,
  Range,
  Zeros,
  Full,
  Dot,
  Sum,
  Prod,
  Max,
  Min,
  ArgMax,
  ArgMin,
  CumSum,
  CumProd,
  Maximum,
  Minimum,
  Where,
  Cast,
  Cdiv,
  Trans,
  StaticAssert,
  Print,
  DeviceAssert,
  Bitcast,
  MultipleOf,
  MaxContiguous,
  None
};

Builtin builtinFromName(StringRef name) {
  return llvm::StringSwitch<Builtin>(name)
      .Case("program_id", Builtin::ProgramId)
      .Case("num_programs", Builtin::NumPrograms)
      .Case("range", Builtin::Range)
      .Case("zeros", Builtin::Zeros)
      .Case("full", Builtin::Full)
      .Case("dot", Builtin::Dot)
      .Case("sum", Builtin::Sum)
      .Case("prod", Builtin::Prod)
      .Case("max", Builtin::Max)
      .Case("min", Builtin::Min)
      .Case("argmax", Builtin::ArgMax)
      .Case("argmin", Builtin::ArgMin)
      .Case("cumsum", Builtin::CumSum)
      .Case("cumprod", Builtin::CumProd)
      .Case("maximum", Builtin::Maximum)
      .Case("minimum", Builtin::Minimum)
      .Case("where", Builtin::Where)
      .Case("cast", Builtin::Cast)
      .Case("cdiv", Builtin::Cdiv)
      .Case("trans", Builtin::Trans)
      .Case("static_assert", Builtin::StaticAssert)
      .Case("print", Builtin::Print)
      .Case("device_assert", Builtin::DeviceAssert)
      .Case("bitcast", Builtin::Bitcast)
      .Case("multiple_of", Builtin::MultipleOf)
      .Case("max_contiguous", Builtin::MaxContiguous)
      .Default(Builtin::None);
}

/// Ceil division of integers, rounding toward +infinity.
int64_t ceilDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if (a % b != 0 && ((a < 0) == (b < 0)))
    ++q;
  return q;
}

} // namespace

std::optional<FailureOr<TValue>> MLIRGenImpl::genBuiltin(const CallExpr &call) {
  Builtin kind = builtinFromName(call.callee);
  if (kind == Builtin::None)
    return genMemoryBuiltin(call);
  SrcLoc at = call.getLoc();
  Location l = loc(at);
  CallArgs args(*this, call);
  auto fail = [] { return FailureOr<TValue>(failure()); };

  switch (kind) {
  case Builtin::ProgramId:
  case Builtin::NumPrograms: {
    if (failed(args.check(1, {"axis"})))
      return fail();
    FailureOr<int64_t> axis = genConstInt(*args.get(0), "the axis");
    if (failed(axis))
      return fail();
    if (*axis < 0 || *axis > 2)
      return FailureOr<TValue>(error(args.get(0)->getLoc())
                               << "grid axis must be 0, 1 or 2, got " << *axis);
    auto axisAttr = builder.getI32IntegerAttr(*axis);
    Value v = kind == Builtin::ProgramId
                  ? Value(ProgramIdOp::create(builder, l, builder.getI32Type(),
                                              axisAttr))
                  : Value(NumProgramsOp::create(
                        builder, l, builder.getI32Type(), axisAttr));
    return FailureOr<TValue>(makeRuntime(v));
  }

  case Builtin::Range: {
    if (failed(args.check(2, {"lo", "hi"})))
      return fail();
    FailureOr<int64_t> lo = genConstInt(*args.get(0), "range's lower bound");
    if (failed(lo))
      return fail();
    FailureOr<int64_t> hi = genConstInt(*args.get(1), "range's upper bound");
    if (failed(hi))
      return fail();
    if (*hi <= *lo)
      return FailureOr<TValue>(error(at) << "range(" << *lo << ", " << *hi
                                         << ") is empty");
    if (*lo < INT32_MIN || *hi > INT32_MAX)
      return FailureOr<TValue>(error(at) << "range bounds must fit in i32");
    if (failed(checkTileShape({*hi - *lo}, at)))
      return fail();
    Type type = RankedTensorType::get({*hi - *lo}, builder.getI32Type());
    return FailureOr<TValue>(makeRuntime(
        MakeRangeOp::create(builder, l, type, builder.getI32IntegerAttr(*lo),
                            builder.getI32IntegerAttr(*hi))));
  }

  case Builtin::Zeros:
  case Builtin::Full: {
    bool isFull = kind == Builtin::Full;
    SmallVector<StringRef> names = {"shape", "value", "type"};
    if (!isFull)
      names = {"shape", "type"};
    if (failed(args.check(names.size(), names)))
      return fail();
    FailureOr<SmallVector<int64_t>> shape = args.shape(0);
    if (failed(shape))
      return fail();
    FailureOr<Type> type = args.type(names.size() - 1);
    if (failed(type))
      return fail();
    TValue v = makeIntConst(0, builder.getI32Type(), /*weak=*/true);
    if (isFull) {
      FailureOr<TValue> given = args.value(1);
      if (failed(given))
        return fail();
      if (given->isTile())
        return FailureOr<TValue>(error(args.get(1)->getLoc())
                                 << "the value of 'full' must be a scalar, got "
                                 << typeName(*given));
      v = *given;
    }
    FailureOr<TValue> c = convert(v, *type, at);
    if (failed(c))
      return fail();
    return broadcastTo(materialize(*c, at), *shape, at);
  }

  case Builtin::Dot: {
    if (failed(args.check(2, {"a", "b", "acc", "precision"})))
      return fail();
    FailureOr<TValue> a = args.value(0);
    if (failed(a))
      return fail();
    FailureOr<TValue> b = args.value(1);
    if (failed(b))
      return fail();
    size_t rank = a->shape.size();
    if ((rank != 2 && rank != 3) || b->shape.size() != rank)
      return FailureOr<TValue>(error(at)
                               << "dot needs 2-D tiles (or 3-D ones, batched), "
                                  "got "
                               << typeName(*a) << " and " << typeName(*b));
    // A batched dot: [B, M, K] and [B, K, N], one product per batch index.
    SmallVector<int64_t, 4> batch(a->shape.begin(), a->shape.end() - 2);
    if (rank == 3 && b->shape[0] != batch[0])
      return FailureOr<TValue>(error(at)
                               << "dot's batch dimensions differ: "
                               << typeName(*a) << " and " << typeName(*b));
    if (!(isa<FloatType>(a->elemType) || a->elemType.isSignlessInteger(8)) ||
        a->elemType != b->elemType)
      return FailureOr<TValue>(
          error(at)
          << "dot needs floating-point or i8 tiles of one element type, got "
          << typeName(*a) << " and " << typeName(*b));
    int64_t m = a->shape[rank - 2], k = a->shape[rank - 1],
            n = b->shape[rank - 1];
    SmallVector<int64_t, 4> accShape(batch);
    accShape.append({m, n});
    if (b->shape[rank - 2] != k)
      return FailureOr<TValue>(error(at)
                               << "dot's inner dimensions differ: "
                               << typeName(*a) << " and " << typeName(*b));
    Type in = a->elemType;
    bool integer = in.isSignlessInteger(8);
    TValue acc;
    if (const Expr *accExpr = args.get(2)) {
      FailureOr<TValue> given = args.value(2);
      if (failed(given))
        return fail();
      acc = *given;
      if (acc.shape != accShape || isa<FloatType>(acc.elemType) == integer)
        return FailureOr<TValue>(error(accExpr->getLoc())
                                 << "dot's accumulator must be "
                                 << (integer ? "an i32" : "a float")
                                 << " tile of shape " << formatShape(accShape)
                                 << ", got " << typeName(acc));
      Type t = acc.elemType;
      bool ok = integer      ? t.isSignlessInteger(32)
                : in.isF64() ? t.isF64()
                : in.isF32() ? t.isF32()
                : in.isF16() ? (t.isF32() || t.isF16())
                             : t.isF32();
      if (!ok)
        return FailureOr<TValue>(error(accExpr->getLoc())
                                 << "accumulator type " << formatType(t, {})
                                 << " is not supported for "
                                 << formatType(in, {}) << " inputs");
    } else if (integer) {
      acc = makeIntConst(0, builder.getI32Type());
      acc.shape = accShape;
    } else {
      acc = makeFloatConst(0.0, in.isF64() ? builder.getF64Type()
                                           : builder.getF32Type());
      acc.shape = accShape;
    }
    InputPrecision precision = InputPrecision::ieee;
    if (const Expr *p = args.get(3, "precision")) {
      auto *name = dyn_cast<NameExpr>(p);
      if (!name || (name->name != "ieee" && name->name != "tf32"))
        return FailureOr<TValue>(error(p->getLoc())
                                 << "precision must be 'ieee' or 'tf32'");
      if (name->name == "tf32") {
        if (!in.isF32())
          return FailureOr<TValue>(error(p->getLoc())
                                   << "precision tf32 needs f32 inputs, got "
                                   << formatType(in, {}));
        precision = InputPrecision::tf32;
      }
    }
    Value av = materialize(*a, at).value, bv = materialize(*b, at).value;
    Value cv = materialize(acc, at).value;
    return FailureOr<TValue>(makeRuntime(
        DotOp::create(builder, l, cv.getType(), av, bv, cv,
                      InputPrecisionAttr::get(&context, precision))));
  }

  case Builtin::Sum:
  case Builtin::Prod:
  case Builtin::Max:
  case Builtin::Min:
  case Builtin::ArgMax:
  case Builtin::ArgMin:
  case Builtin::CumSum:
  case Builtin::CumProd: {
    if (failed(args.check(1, {"x", "axis"})))
      return fail();
    FailureOr<std::pair<TValue, int64_t>> tileAndAxis = args.tileAndAxis();
    if (failed(tileAndAxis))
      return fail();
    auto [src, axis] = *tileAndAxis;
    if (src.elemType.isInteger(1)) {
      FailureOr<TValue> widened = convert(src, builder.getI32Type(), at);
      if (failed(widened))
        return fail();
      src = *widened;
    }
    src = materialize(src, at);
    if (kind == Builtin::CumSum || kind == Builtin::CumProd) {
      ReduceKind scanKind =
          kind == Builtin::CumSum ? ReduceKind::sum : ReduceKind::prod;
      return FailureOr<TValue>(makeRuntime(
          ScanOp::create(builder, l, src.value.getType(),
                         ReduceKindAttr::get(&context, scanKind), src.value,
                         builder.getI32IntegerAttr(axis)),
          src.elemType));
    }
    SmallVector<int64_t> shape(src.shape.begin(), src.shape.end());
    shape.erase(shape.begin() + axis);
    ReduceKind reduceKind = kind == Builtin::Sum      ? ReduceKind::sum
                            : kind == Builtin::Prod   ? ReduceKind::prod
                            : kind == Builtin::Max    ? ReduceKind::max
                            : kind == Builtin::Min    ? ReduceKind::min
                            : kind == Builtin::ArgMax ? ReduceKind::argmax
                                                      : ReduceKind::argmin;
    bool isArg = kind == Builtin::ArgMax || kind == Builtin::ArgMin;
    Type resultElem = isArg ? Type(builder.getI32Type()) : src.elemType;
    // The reductions order integers as signed: unsigned values compare
    // as such once their top bit is flipped (and flipped back after).
    bool flip = src.elemType.isUnsignedInteger() &&
                (isArg || kind == Builtin::Max || kind == Builtin::Min);
    auto flipTopBit = [&](Value v) -> Value {
      unsigned width = src.elemType.getIntOrFloatBitWidth();
      TValue bit = makeIntConst(
          static_cast<int64_t>(uint64_t(1) << (width - 1)), src.elemType);
      if (auto shaped = dyn_cast<RankedTensorType>(v.getType()))
        bit.shape.assign(shaped.getShape().begin(), shaped.getShape().end());
      return arith::XOrIOp::create(builder, l, v, materialize(bit, at).value);
    };
    Value input = flip ? flipTopBit(src.value) : src.value;
    Value reduced = ReduceOp::create(builder, l, mlirType(resultElem, shape),
                                     ReduceKindAttr::get(&context, reduceKind),
                                     input, builder.getI32IntegerAttr(axis));
    if (flip && !isArg)
      reduced = flipTopBit(reduced);
    return FailureOr<TValue>(makeRuntime(reduced, resultElem));
  }

  case Builtin::Maximum:
  case Builtin::Minimum:
  case Builtin::Cdiv: {
    if (failed(args.check(2, {"a", "b"})))
      return fail();
    FailureOr<TValue> a = args.value(0);
    if (failed(a))
      return fail();
    FailureOr<TValue> b = args.value(1);
    if (failed(b))
      return fail();
    std::string what = "'" + call.callee + "'";
    if (failed(unify(*a, *b, at, what)))
      return fail();
    Type elem = a->elemType;
    if (elem.isInteger(1))
      return FailureOr<TValue>(error(at) << what << " needs numbers, got "
                                         << typeName(*a));
    bool isMax = kind == Builtin::Maximum;
    if (kind == Builtin::Cdiv) {
      if (!isa<IntegerType>(elem))
        return FailureOr<TValue>(error(at) << "'cdiv' needs integers, got "
                                           << typeName(*a));
      bool isUnsigned = elem.isUnsignedInteger();
      if (a->isConst() && b->isConst()) {
        if (*b->intConst == 0)
          return FailureOr<TValue>(error(at) << "division by zero in a "
                                                "constant expression");
        TValue r = *a;
        if (isUnsigned) {
          uint64_t x = *a->intConst, y = *b->intConst;
          r.intConst = static_cast<int64_t>(x / y + (x % y != 0));
        } else {
          r.intConst = ceilDiv(*a->intConst, *b->intConst);
        }
        return FailureOr<TValue>(r);
      }
      Value av = materialize(*a, at).value, bv = materialize(*b, at).value;
      return FailureOr<TValue>(makeRuntime(
          isUnsigned ? Value(arith::CeilDivUIOp::create(builder, l, av, bv))
                     : Value(arith::CeilDivSIOp::create(builder, l, av, bv)),
          elem));
    }
    bool isUnsigned = elem.isUnsignedInteger();
    if (a->isConst() && b->isConst()) {
      TValue r = *a;
      if (r.floatConst)
        r.floatConst = isMax ? std::fmax(*a->floatConst, *b->floatConst)
                             : std::fmin(*a->floatConst, *b->floatConst);
      else if (isUnsigned)
        r.intConst = static_cast<int64_t>(
            isMax ? std::max<uint64_t>(*a->intConst, *b->intConst)
                  : std::min<uint64_t>(*a->intConst, *b->intConst));
      else
        r.intConst = isMax ? std::max(*a->intConst, *b->intConst)
                           : std::min(*a->intConst, *b->intConst);
      return FailureOr<TValue>(r);
    }
    Value av = materialize(*a, at).value, bv = materialize(*b, at).value;
    Value r;
    if (isa<FloatType>(elem))
      r = isMax ? Value(arith::MaximumFOp::create(builder, l, av, bv))
                : Value(arith::MinimumFOp::create(builder, l, av, bv));
    else if (isUnsigned)
      r = isMax ? Value(arith::MaxUIOp::create(builder, l, av, bv))
                : Value(arith::MinUIOp::create(builder, l, av, bv));
    else
      r = isMax ? Value(arith::MaxSIOp::create(builder, l, av, bv))
                : Value(arith::MinSIOp::create(builder, l, av, bv));
    return FailureOr<TValue>(makeRuntime(r, elem));
  }

  case Builtin::Where: {
    if (failed(args.check(3, {"cond", "a", "b"})))
      return fail();
    std::string what =
        call.isConditional ? "the conditional expression's" : "where's";
    FailureOr<TValue> c = args.value(0);
    if (failed(c))
      return fail();
    if (!c->elemType.isInteger(1))
      return FailureOr<TValue>(error(args.get(0)->getLoc())
                               << what << " condition must be i1 (bool), got "
                               << typeName(*c));
    FailureOr<TValue> a = args.value(1);
    if (failed(a))
      return fail();
    FailureOr<TValue> b = args.value(2);
    if (failed(b))
      return fail();
    std::string name = call.isConditional ? "'... if ... else ...'" : "'where'";
    if (isa<PointerType>(a->elemType) || isa<PointerType>(b->elemType)) {
      // Pointers select as they are: both sides of one pointer type.
      std::optional<SmallVector<int64_t>> both =
          broadcastShapes(a->shape, b->shape);
      if (a->elemType != b->elemType || !both)
        return FailureOr<TValue>(error(at)
                                 << name << " needs pointers of one type "
                                 << "and broadcastable shapes, got "
                                 << typeName(*a) << " and " << typeName(*b));
      FailureOr<TValue> pa = broadcastTo(*a, *both, at);
      FailureOr<TValue> pb = broadcastTo(*b, *both, at);
      if (failed(pa) || failed(pb))
        return fail();
      a = pa;
      b = pb;
    } else if (failed(unify(*a, *b, at, name))) {
      return fail();
    }
    // A constant condition picks a side at compile time (constants stay
    // constants: `let BK = 32 if D == 128 else 64;` can size tiles).
    if (c->isConst() && !c->isTile())
      return FailureOr<TValue>(*c->intConst ? *a : *b);
    std::optional<SmallVector<int64_t>> shape =
        broadcastShapes(c->shape, a->shape);
    if (!shape)
      return FailureOr<TValue>(error(at)
                               << what << " condition " << typeName(*c)
                               << " does not broadcast with " << typeName(*a));
    FailureOr<TValue> cb = broadcastTo(materialize(*c, at), *shape, at);
    FailureOr<TValue> ab = broadcastTo(materialize(*a, at), *shape, at);
    FailureOr<TValue> bb = broadcastTo(materialize(*b, at), *shape, at);
    if (failed(cb) || failed(ab) || failed(bb))
      return fail();
    return FailureOr<TValue>(makeRuntime(
        arith::SelectOp::create(builder, l, cb->value, ab->value, bb->value),
        ab->elemType));
  }

  case Builtin::StaticAssert: {
    if (failed(args.check(1, {"cond", "msg"})))
      return fail();
    FailureOr<TValue> c = args.value(0);
    if (failed(c))
      return fail();
    if (!c->isConst() || c->isTile() || !c->elemType.isInteger(1))
      return FailureOr<TValue>(
          error(args.get(0)->getLoc())
          << "static_assert needs an i1 (bool) condition known at compile "
             "time (from constants), got "
          << (c->isConst() ? typeName(*c) : "a runtime " + typeName(*c)));
    FailureOr<std::string> message = args.text(1, "static_assert's message");
    if (failed(message))
      return fail();
    if (!*c->intConst)
      return FailureOr<TValue>(error(at)
                               << "static assertion failed"
                               << (message->empty() ? "" : ": ") << *message);
    return FailureOr<TValue>(TValue());
  }

  case Builtin::Print: {
    // print(prefix, value, more values...): one print op per value; with
    // several, each line names its operand after the prefix.
    SmallVector<std::string> extra;
    for (size_t i = 2; i < call.args.size(); ++i)
      extra.push_back("value" + std::to_string(i));
    SmallVector<StringRef> names = {"prefix", "value"};
    names.append(extra.begin(), extra.end());
    if (failed(args.check(2, names)))
      return fail();
    FailureOr<std::string> prefix = args.text(0, "print's prefix");
    if (failed(prefix))
      return fail();
    SmallVector<std::pair<Value, bool>> values;
    for (size_t i = 1; i < names.size(); ++i) {
      FailureOr<TValue> v = args.value(i);
      if (failed(v))
        return fail();
      if (!v->elemType.isIntOrFloat())
        return FailureOr<TValue>(error(args.get(i)->getLoc())
                                 << "print takes numbers or tiles of "
                                    "numbers, got "
                                 << typeName(*v));
      values.push_back(
          {materialize(*v, at).value, v->elemType.isUnsignedInteger()});
    }
    for (auto [i, value] : llvm::enumerate(values)) {
      std::string text = *prefix;
      if (values.size() > 1)
        text += "(operand " + std::to_string(i) + ") ";
      PrintOp::create(builder, l, builder.getStringAttr(text), value.first,
                      value.second);
    }
    return FailureOr<TValue>(TValue());
  }

  case Builtin::DeviceAssert: {
    if (failed(args.check(1, {"cond", "msg"})))
      return fail();
    FailureOr<TValue> c = args.value(0);
    if (failed(c))
      return fail();
    if (!c->elemType.isInteger(1))
      return FailureOr<TValue>(error(args.get(0)->getLoc())
                               << "device_assert needs an i1 (bool) "
                                  "condition or tile of them, got "
                               << typeName(*c));
    FailureOr<std::string> message =
        args.text(1, "device_assert's message", "device_assert");
    if (failed(message))
      return fail();
    DeviceAssertOp::create(builder, l, materialize(*c, at).value,
                           builder.getStringAttr(*message));
    return FailureOr<TValue>(TValue());
  }

  case Builtin::Bitcast: {
    if (failed(args.check(2, {"x", "type"})))
      return fail();
    FailureOr<TValue> x = args.value(0);
    if (failed(x))
      return fail();
    FailureOr<Type> type = args.type(1);
    if (failed(type))
      return fail();
    Type from = x->elemType;
    if (isa<PointerType>(from) || from.isInteger(1) || type->isInteger(1) ||
        from.getIntOrFloatBitWidth() != type->getIntOrFloatBitWidth())
      return FailureOr<TValue>(
          error(at) << "bitcast needs numbers of one width (not "
                       "i1), got "
                    << typeName(*x) << " to " << formatType(*type, {}));
    if (x->weak)
      return FailureOr<TValue>(error(args.get(0)->getLoc())
                               << "bitcast of an untyped literal; give it a "
                                  "type with cast(..., T) first");
    TValue v = materialize(*x, at);
    if (signlessType(from) == signlessType(*type)) {
      // One IR type (i32 and u32): only the language's type changes.
      v.elemType = *type;
      return FailureOr<TValue>(v);
    }
    return FailureOr<TValue>(makeRuntime(
        arith::BitcastOp::create(builder, l, mlirType(*type, v.shape), v.value),
        *type));
  }

  case Builtin::MultipleOf:
  case Builtin::MaxContiguous: {
    bool isMultiple = kind == Builtin::MultipleOf;
    if (failed(args.check(2, {"x", "n"})))
      return fail();
    FailureOr<TValue> x = args.value(0);
    if (failed(x))
      return fail();
    if (!isa<IntegerType>(x->elemType) || x->elemType.isInteger(1))
      return FailureOr<TValue>(error(at) << "'" << call.callee
                                         << "' states facts about integers, "
                                            "got "
                                         << typeName(*x));
    size_t rank = std::max<size_t>(1, x->shape.size());
    // One value per dimension: a list, or one integer (multiple_of: every
    // dimension; max_contiguous: a 1-D tile's).
    SmallVector<int64_t> values;
    const Expr *n = args.get(1);
    if (auto *list = dyn_cast<ListExpr>(n)) {
      for (const ExprPtr &e : list->elements) {
        FailureOr<int64_t> v = genConstInt(*e, "a hint value");
        if (failed(v))
          return fail();
        values.push_back(*v);
      }
    } else {
      FailureOr<int64_t> v = genConstInt(*n, "a hint value");
      if (failed(v))
        return fail();
      values.assign(isMultiple ? rank : 1, *v);
    }
    if (values.size() != rank)
      return FailureOr<TValue>(
          error(n->getLoc())
          << "'" << call.callee << "' of " << typeName(*x) << " needs " << rank
          << " value(s), one per dimension, got " << values.size());
    for (auto [d, v] : llvm::enumerate(values)) {
      int64_t limit = x->shape.empty() ? 1 : x->shape[d];
      if (isMultiple ? (v < 1 || (v & (v - 1)) != 0 || v > (int64_t(1) << 30))
                     : (v < 1 || v > limit))
        return FailureOr<TValue>(
            error(n->getLoc())
            << "'" << call.callee << "' value " << v << " is not "
            << (isMultiple ? "a power of two up to 2^30"
                           : "between 1 and the dimension's size " +
                                 std::to_string(limit)));
    }
    SmallVector<int64_t> multiple(rank, 1), contiguous(rank, 1);
    (isMultiple ? multiple : contiguous) = values;
    TValue v = materialize(*x, at);
    return FailureOr<TValue>(
        makeRuntime(HintOp::create(builder, l, v.value.getType(), v.value,
                                   builder.getDenseI64ArrayAttr(multiple),
                                   builder.getDenseI64ArrayAttr(contiguous)),
                    v.elemType));
  }

  case Builtin::Cast: {
    if (failed(args.check(2, {"x", "type"})))
      return fail();
    FailureOr<TValue> x = args.value(0);
    if (failed(x))
      return fail();
    FailureOr<Type> type = args.type(1);
    if (failed(type))
      return fail();
    return convert(*x, *type, at);
  }

  case Builtin::Trans: {
    if (failed(args.check(1, {"x"})))
      return fail();
    FailureOr<TValue> x = args.value(0);
    if (failed(x))
      return fail();
    if (x->shape.size() != 2)
      return FailureOr<TValue>(error(at) << "'trans' needs a 2-D tile, got "
                                         << typeName(*x));
    TValue v = materialize(*x, at);
    Type type = mlirType(v.elemType, {v.shape[1], v.shape[0]});
    return FailureOr<TValue>(
        makeRuntime(TransOp::create(builder, l, type, v.value), v.elemType));
  }

  case Builtin::None:
    break;
  }
  return std::nullopt;
}

bool tile::isBuiltinName(StringRef name) {
  return builtinFromName(name) != Builtin::None || isMemoryBuiltinName(name) ||
         isMathBuiltinName(name) || isRandomBuiltinName(name) ||
         isShapeBuiltinName(name) || isCombineBuiltinName(name);
}
