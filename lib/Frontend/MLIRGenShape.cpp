//===- MLIRGenShape.cpp - reshape, permute, join and split ----------------===//
//
// Builtins that move a tile's elements to other positions without changing
// them: `reshape(x, shape)` (row-major order kept), `permute(x, dims)`
// (dimensions reordered, `trans` in general), `join(a, b)` (a new last
// dimension of 2) and its inverse `split(x)`, which gives two values
// (`let (a, b) = split(x);`). Numbers only: tiles of pointers are computed
// from offsets, which these builtins move just as well.
//
//===----------------------------------------------------------------------===//
#include "BuiltinArgs.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace tile;
using namespace tile::ast;

namespace {

enum class ShapeBuiltin { Reshape, Permute, Join, Split, None };

ShapeBuiltin shapeBuiltinFromName(StringRef name) {
  return llvm::StringSwitch<ShapeBuiltin>(name)
      .Case("reshape", ShapeBuiltin::Reshape)
      .Case("permute", ShapeBuiltin::Permute)
      .Case("join", ShapeBuiltin::Join)
      .Case("split", ShapeBuiltin::Split)
      .Default(ShapeBuiltin::None);
}

/// Argument `i` of `call` (reshape, permute, join or split), which must
/// hold numbers.
FailureOr<TValue> movableArg(MLIRGenImpl &gen, CallArgs &args,
                             const CallExpr &call, size_t i) {
  FailureOr<TValue> v = args.value(i);
  if (failed(v))
    return failure();
  if (v->isVoid() || isa<PointerType>(v->elemType))
    return gen.error(call.getLoc())
           << "'" << call.callee << "' moves numbers, got " << gen.typeName(*v);
  return v;
}

} // namespace

std::optional<FailureOr<TValue>>
MLIRGenImpl::genShapeBuiltin(const CallExpr &call) {
  ShapeBuiltin kind = shapeBuiltinFromName(call.callee);
  if (kind == ShapeBuiltin::None)
    return genCombineBuiltin(call);
  SrcLoc at = call.getLoc();
  Location l = loc(at);
  CallArgs args(*this, call);
  auto fail = [] { return FailureOr<TValue>(failure()); };

  switch (kind) {
  case ShapeBuiltin::Reshape: {
    if (failed(args.check(2, {"x", "shape"})))
      return fail();
    FailureOr<TValue> x = movableArg(*this, args, call, 0);
    if (failed(x))
      return fail();
    FailureOr<SmallVector<int64_t>> shape = args.shape(1);
    if (failed(shape))
      return fail();
    int64_t have = 1, want = 1;
    for (int64_t d : x->shape)
      have *= d;
    for (int64_t d : *shape)
      want *= d;
    if (!x->isTile() || have != want) {
      std::string dims;
      for (int64_t d : *shape)
        dims += (dims.empty() ? "" : ", ") + std::to_string(d);
      return FailureOr<TValue>(error(at) << "'reshape' to [" << dims
                                         << "] needs a tile of " << want
                                         << " elements, got " << typeName(*x));
    }
    TValue v = materialize(*x, at);
    return FailureOr<TValue>(makeRuntime(
        ReshapeOp::create(builder, l, mlirType(v.elemType, *shape), v.value),
        v.elemType));
  }

  case ShapeBuiltin::Permute: {
    if (failed(args.check(2, {"x", "dims"})))
      return fail();
    FailureOr<TValue> x = movableArg(*this, args, call, 0);
    if (failed(x))
      return fail();
    const Expr *dimsExpr = args.get(1);
    auto *list = dyn_cast<ListExpr>(dimsExpr);
    if (!list)
      return FailureOr<TValue>(error(dimsExpr->getLoc())
                               << "'permute' takes its dimensions as a list "
                                  "such as [1, 0]");
    size_t rank = x->shape.size();
    SmallVector<int32_t> order;
    SmallVector<int64_t> shape;
    SmallVector<bool> seen(rank, false);
    for (const ExprPtr &e : list->elements) {
      FailureOr<int64_t> d = genConstInt(*e, "a dimension");
      if (failed(d))
        return fail();
      if (*d < 0 || *d >= int64_t(rank) || seen[*d])
        return FailureOr<TValue>(error(e->getLoc())
                                 << "'permute' needs each dimension of "
                                 << typeName(*x) << " once, got " << *d
                                 << (*d >= 0 && *d < int64_t(rank)
                                         ? " twice"
                                         : ", which it does not have"));
      seen[*d] = true;
      order.push_back(int32_t(*d));
      shape.push_back(x->shape[*d]);
    }
    if (order.size() != rank || rank == 0)
      return FailureOr<TValue>(error(dimsExpr->getLoc())
                               << "'permute' needs each dimension of "
                               << typeName(*x) << " once, got " << order.size()
                               << " dimensions");
    TValue v = materialize(*x, at);
    return FailureOr<TValue>(makeRuntime(
        PermuteOp::create(builder, l, mlirType(v.elemType, shape), v.value,
                          builder.getDenseI32ArrayAttr(order)),
        v.elemType));
  }

  case ShapeBuiltin::Join: {
    if (failed(args.check(2, {"a", "b"})))
      return fail();
    FailureOr<TValue> a = movableArg(*this, args, call, 0);
    if (failed(a))
      return fail();
    FailureOr<TValue> b = movableArg(*this, args, call, 1);
    if (failed(b) || failed(unify(*a, *b, at, "'join'")))
      return fail();
    SmallVector<int64_t> shape(a->shape.begin(), a->shape.end());
    shape.push_back(2);
    if (failed(checkTileShape(shape, at)))
      return fail();
    TValue va = materialize(*a, at), vb = materialize(*b, at);
    return FailureOr<TValue>(
        makeRuntime(JoinOp::create(builder, l, mlirType(va.elemType, shape),
                                   va.value, vb.value),
                    va.elemType));
  }

  case ShapeBuiltin::Split:
    return FailureOr<TValue>(error(at) << "'split' gives two values: write "
                                          "'let (a, b) = split(x);'");
  case ShapeBuiltin::None:
    break;
  }
  llvm_unreachable("handled above");
}

FailureOr<SmallVector<TValue>> MLIRGenImpl::genSplit(const CallExpr &call) {
  SrcLoc at = call.getLoc();
  CallArgs args(*this, call);
  if (failed(args.check(1, {"x"})))
    return failure();
  FailureOr<TValue> x = movableArg(*this, args, call, 0);
  if (failed(x))
    return failure();
  if (!x->isTile() || x->shape.back() != 2)
    return error(at) << "'split' needs a tile whose last dimension is 2, got "
                     << typeName(*x);
  TValue v = materialize(*x, at);
  Type half = mlirType(v.elemType, ArrayRef<int64_t>(v.shape).drop_back());
  auto split = SplitOp::create(builder, loc(at), half, half, v.value);
  return SmallVector<TValue>{makeRuntime(split.getLhs(), v.elemType),
                             makeRuntime(split.getRhs(), v.elemType)};
}

bool tile::isShapeBuiltinName(StringRef name) {
  return shapeBuiltinFromName(name) != ShapeBuiltin::None;
}
