//===- MLIRGenHelpers.cpp - helper calls and combine functions -----------===//
//
// Calls of `fn` helpers, inlined where they are called, and helpers used
// as combine functions: `reduce(x, axis, f)` and `scan(x, axis, f)`,
// Triton's `reduce` and `associative_scan`: `f` is a helper taking two
// scalars of the tile's element type and returning one. Its body is inlined
// once, into the combiner region of tile.generic_reduce / tile.generic_scan,
// with the region's two block arguments as its parameters; the lowerings apply
// the region wherever they combine two elements.
//
//===----------------------------------------------------------------------===//
#include "BuiltinArgs.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/ScopeExit.h"

using namespace mlir;
using namespace tile;
using namespace tile::ast;

//===----------------------------------------------------------------------===//
// Helper calls
//===----------------------------------------------------------------------===//

FailureOr<TValue> MLIRGenImpl::genHelperCall(const CallExpr &call,
                                             const ast::Function &fn,
                                             SmallVector<TValue> *values) {
  if (!call.keywords.empty())
    return error(call.keywords.front().loc)
           << "helper '" << fn.name << "' takes no keyword arguments";
  if (call.args.size() != fn.params.size())
    return error(call.getLoc())
           << "'" << fn.name << "' expects " << fn.params.size()
           << " argument(s), got " << call.args.size();
  if (failed(checkInlinable(fn, call.getLoc())))
    return failure();
  SmallVector<TValue> args;
  // Arguments that name a type (directly or through a parameter).
  SmallVector<Type> typeArgs;
  for (auto [arg, param] : llvm::zip(call.args, fn.params)) {
    Type typeArg;
    if (auto *name = dyn_cast<NameExpr>(arg.get())) {
      Binding *bound = lookup(name->name);
      typeArg =
          bound ? bound->typeName : scalarTypeFromName(&context, name->name);
    }
    if (typeArg && param.type)
      return error(arg->getLoc())
             << "a type name is passed to parameter '" << param.name << "' of '"
             << fn.name << "', which is declared as a value";
    typeArgs.push_back(typeArg);
    if (typeArg) {
      args.emplace_back();
      continue;
    }
    FailureOr<TValue> v = genValueExpr(*arg, "an argument");
    if (failed(v))
      return failure();
    args.push_back(*v);
  }
  return inlineHelper(fn, args, typeArgs, call.getLoc(), values);
}

LogicalResult MLIRGenImpl::checkInlinable(const ast::Function &fn, SrcLoc at) {
  for (const Frame &f : frames)
    if (f.fn == &fn)
      return error(at) << "recursive call of '" << fn.name
                       << "' (helpers are inlined, so they cannot recurse)";
  if (frames.size() > 64)
    return error(at) << "helper calls nested too deeply";
  return success();
}

FailureOr<TValue> MLIRGenImpl::inlineHelper(const ast::Function &fn,
                                            ArrayRef<TValue> args,
                                            ArrayRef<Type> typeArgs, SrcLoc at,
                                            SmallVector<TValue> *values) {
  frames.emplace_back();
  frame().fn = &fn;
  frame().scopes.emplace_back();
  llvm::scope_exit popFrame([&] { frames.pop_back(); });
  for (auto [param, arg, typeArg] : llvm::zip(fn.params, args, typeArgs)) {
    if (typeArg) {
      Binding binding;
      binding.typeName = typeArg;
      if (failed(declare(param.loc, param.name, binding)))
        return failure();
      continue;
    }
    TValue value = arg;
    if (param.type) {
      FailureOr<TValue> checked = checkDeclaredType(
          value, *param.type,
          "parameter '" + param.name + "' of '" + fn.name + "'");
      if (failed(checked))
        return failure();
      value = *checked;
    }
    if (failed(declare(param.loc, param.name, Binding{value})))
      return failure();
  }
  if (failed(genStmts(pointers(fn.body))))
    return failure();
  if (frame().returnedValues) {
    if (!values)
      return error(at) << "'" << fn.name << "' returns "
                       << frame().returnedValues->size()
                       << " values; bind them with 'let (a, b, ...) = "
                       << fn.name << "(...)'";
    *values = std::move(*frame().returnedValues);
    return TValue();
  }
  if (values)
    return error(at) << "'" << fn.name << "' returns one value, not several";
  if (!frame().returned)
    return TValue();
  return *frame().returned;
}

//===----------------------------------------------------------------------===//
// Combine functions
//===----------------------------------------------------------------------===//

namespace {

/// The name of `op` as a source-level diagnostic shows it.
std::string describe(Operation *op) {
  if (isa<LoadOp>(op))
    return "'load'";
  if (isa<StoreOp>(op))
    return "'store'";
  if (isa<AtomicRMWOp, AtomicCASOp>(op))
    return "an atomic";
  if (isa<PrintOp>(op))
    return "'print'";
  if (isa<DeviceAssertOp>(op))
    return "'device_assert'";
  return "'" + op->getName().getStringRef().str() + "'";
}

} // namespace

std::optional<FailureOr<TValue>>
MLIRGenImpl::genCombineBuiltin(const CallExpr &call) {
  bool isScan = call.callee == "scan";
  if (!isScan && call.callee != "reduce")
    return std::nullopt;
  SrcLoc at = call.getLoc();
  Location l = loc(at);
  CallArgs args(*this, call);
  auto fail = [] { return FailureOr<TValue>(failure()); };
  if (failed(args.check(3, {"x", "axis", "combine_fn"})))
    return fail();

  // The combine function: a helper, named.
  const Expr *fnExpr = args.get(2);
  auto *fnName = dyn_cast<NameExpr>(fnExpr);
  auto helper = fnName ? helpers.find(fnName->name) : helpers.end();
  if (helper == helpers.end())
    return FailureOr<TValue>(
        error(fnExpr->getLoc())
        << "argument 'combine_fn' of '" << call.callee
        << "' must name a helper function ('fn f(a, b) { return ...; }')");
  const ast::Function &fn = *helper->second;
  if (fn.params.size() != 2)
    return FailureOr<TValue>(error(fnExpr->getLoc())
                             << "combine function '" << fn.name
                             << "' must take two parameters, it takes "
                             << fn.params.size());
  if (failed(checkInlinable(fn, at)))
    return fail();

  FailureOr<std::pair<TValue, int64_t>> tileAndAxis = args.tileAndAxis();
  if (failed(tileAndAxis))
    return fail();
  int64_t axis = tileAndAxis->second;
  TValue src = materialize(tileAndAxis->first, at);
  Type elem = src.elemType;

  Operation *op;
  Region *combiner;
  if (isScan) {
    auto scan =
        GenericScanOp::create(builder, l, src.value.getType(), src.value,
                              builder.getI32IntegerAttr(axis));
    op = scan;
    combiner = &scan.getCombiner();
  } else {
    SmallVector<int64_t> shape(src.shape.begin(), src.shape.end());
    shape.erase(shape.begin() + axis);
    auto reduce =
        GenericReduceOp::create(builder, l, mlirType(elem, shape), src.value,
                                builder.getI32IntegerAttr(axis));
    op = reduce;
    combiner = &reduce.getCombiner();
  }
  auto discard = [&] {
    op->erase();
    return FailureOr<TValue>(failure());
  };

  // The helper's body, inlined into the combiner with its parameters bound
  // to the block's two scalars.
  {
    OpBuilder::InsertionGuard guard(builder);
    Type irElem = signlessType(elem);
    mlir::Block *body =
        builder.createBlock(combiner, {}, {irElem, irElem}, {l, l});
    SmallVector<TValue> params = {makeRuntime(body->getArgument(0), elem),
                                  makeRuntime(body->getArgument(1), elem)};
    SmallVector<Type> typeArgs(2, Type());
    FailureOr<TValue> result = inlineHelper(fn, params, typeArgs, at, nullptr);
    if (failed(result))
      return discard();
    if (result->isVoid() || result->isTile()) {
      error(at) << "combine function '" << fn.name << "' must return one "
                << formatType(elem, {}) << " scalar, it returns "
                << (result->isVoid() ? std::string("nothing")
                                     : typeName(*result));
      return discard();
    }
    if (result->elemType != elem && !result->weak) {
      error(at) << "combine function '" << fn.name << "' returns "
                << typeName(*result) << " for " << formatType(elem, {})
                << " elements; it must return their type";
      return discard();
    }
    FailureOr<TValue> combined = convert(*result, elem, at);
    if (failed(combined))
      return discard();
    CombineYieldOp::create(builder, l, materialize(*combined, at).value);
  }

  // Scalars only and no memory effects: the lowerings combine in registers,
  // any number of times, in an unspecified grouping.
  Operation *offending = nullptr;
  bool makesTile = false;
  combiner->walk([&](Operation *inner) {
    if (offending)
      return;
    for (Value v : inner->getResults())
      makesTile |= isa<ShapedType>(v.getType());
    if (makesTile || !isMemoryEffectFree(inner))
      offending = inner;
  });
  if (offending) {
    Location where = offending->getLoc();
    auto diag = emitError(where)
                << "combine function '" << fn.name << "' "
                << (makesTile ? "computes a tile, but it combines scalars"
                              : "uses " + describe(offending) +
                                    ", but it may only compute");
    diag.attachNote(l) << "used by '" << call.callee << "' here";
    return discard();
  }
  return FailureOr<TValue>(makeRuntime(op->getResult(0), elem));
}

bool tile::isCombineBuiltinName(StringRef name) {
  return name == "reduce" || name == "scan";
}
