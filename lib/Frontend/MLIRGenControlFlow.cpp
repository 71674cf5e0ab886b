//===- MLIRGenControlFlow.cpp - loops, branches and returns -------------===//
//
// `for`, `while` and `if` as scf ops carrying the mutable names their bodies
// assign (iteration arguments and results), and `return`, with the analysis
// of where returns may stand (a helper's only as its last statement, none
// inside loops; a kernel's early exits move what follows into the branch).
//
//===----------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace tile;
using namespace tile::ast;

//===----------------------------------------------------------------------===//
// Return analysis
//===----------------------------------------------------------------------===//

/// The body of a `for` or `while` loop; null for other statements.
static const ast::Block *loopBody(const Stmt &stmt) {
  if (auto *loop = dyn_cast<ForStmt>(&stmt))
    return &loop->body;
  if (auto *loop = dyn_cast<WhileStmt>(&stmt))
    return &loop->body;
  return nullptr;
}

bool tile::containsReturn(const Stmt &stmt) {
  if (isa<ReturnStmt>(stmt))
    return true;
  auto any = [](const ast::Block &block) {
    return llvm::any_of(block,
                        [](const StmtPtr &s) { return containsReturn(*s); });
  };
  if (const ast::Block *body = loopBody(stmt))
    return any(*body);
  if (auto *branch = dyn_cast<IfStmt>(&stmt))
    return any(branch->thenBody) ||
           (branch->elseBody && any(*branch->elseBody));
  return false;
}

SmallVector<const Stmt *> tile::pointers(const ast::Block &block) {
  SmallVector<const Stmt *> result;
  for (const StmtPtr &s : block)
    result.push_back(s.get());
  return result;
}

bool tile::alwaysReturns(ArrayRef<const Stmt *> stmts) {
  if (stmts.empty())
    return false;
  const Stmt *last = stmts.back();
  if (isa<ReturnStmt>(last))
    return true;
  if (auto *branch = dyn_cast<IfStmt>(last))
    return branch->elseBody && alwaysReturns(pointers(branch->thenBody)) &&
           alwaysReturns(pointers(*branch->elseBody));
  return false;
}

const Stmt *tile::findReturn(const Stmt &stmt) {
  if (isa<ReturnStmt>(stmt))
    return &stmt;
  auto first = [](const ast::Block &block) -> const Stmt * {
    for (const StmtPtr &s : block)
      if (const Stmt *r = findReturn(*s))
        return r;
    return nullptr;
  };
  if (const ast::Block *body = loopBody(stmt))
    return first(*body);
  if (auto *branch = dyn_cast<IfStmt>(&stmt)) {
    if (const Stmt *r = first(branch->thenBody))
      return r;
    if (branch->elseBody)
      return first(*branch->elseBody);
  }
  return nullptr;
}

/// Names assigned (`x = ...`) anywhere within `stmts`, in first-seen order.
static void collectAssigned(ArrayRef<const Stmt *> stmts,
                            llvm::SetVector<StringRef> &names) {
  for (const Stmt *s : stmts) {
    if (auto *assign = dyn_cast<AssignStmt>(s)) {
      if (assign->names.empty())
        names.insert(assign->name);
      for (const NameRef &ref : assign->names)
        names.insert(ref.name);
    } else if (const ast::Block *body = loopBody(*s))
      collectAssigned(pointers(*body), names);
    else if (auto *branch = dyn_cast<IfStmt>(s)) {
      collectAssigned(pointers(branch->thenBody), names);
      if (branch->elseBody)
        collectAssigned(pointers(*branch->elseBody), names);
    }
  }
}

/// The current values of `names` in scope, as SSA values.
static SmallVector<Value> currentValues(MLIRGenImpl &gen,
                                        ArrayRef<StringRef> names) {
  SmallVector<Value> values;
  for (StringRef name : names)
    values.push_back(gen.lookup(name)->value.value);
  return values;
}

/// Mutable names of the enclosing scopes that `stmts` assign.
static SmallVector<StringRef> carriedNames(MLIRGenImpl &gen,
                                           ArrayRef<const Stmt *> stmts) {
  llvm::SetVector<StringRef> assigned;
  collectAssigned(stmts, assigned);
  SmallVector<StringRef> carried;
  for (StringRef name : assigned)
    if (Binding *b = gen.lookup(name); b && b->isMutable)
      carried.push_back(name);
  return carried;
}

//===----------------------------------------------------------------------===//
// Loops, branches and returns
//===----------------------------------------------------------------------===//

LogicalResult MLIRGenImpl::genFor(const ForStmt &loop) {
  if (const Stmt *ret = findReturn(loop))
    return error(ret->getLoc()) << "'return' inside a loop is not supported";
  FailureOr<TValue> lo = genValueExpr(*loop.lo, "the loop's lower bound");
  if (failed(lo))
    return failure();
  FailureOr<TValue> hi = genValueExpr(*loop.hi, "the loop's upper bound");
  if (failed(hi))
    return failure();
  FailureOr<TValue> step =
      loop.step
          ? genValueExpr(*loop.step, "the loop's step")
          : FailureOr<TValue>(makeIntConst(1, builder.getI32Type(), true));
  if (failed(step))
    return failure();
  for (TValue *bound : {&*lo, &*hi, &*step})
    if (bound->isTile() || !isa<IntegerType>(bound->elemType) ||
        bound->elemType.isInteger(1))
      return error(loop.getLoc())
             << "loop bounds must be integer scalars, got " << typeName(*bound);
  if (step->intConst && *step->intConst == 0)
    return error(loop.step->getLoc()) << "loop step must not be zero";
  // A constant negative step counts down: `range(hi, lo, -1)` runs
  // hi, hi - 1, ..., lo + 1 (a runtime step must be positive).
  std::optional<int64_t> downBy;
  if (step->intConst && *step->intConst < 0)
    downBy = -*step->intConst;
  // Bounds share one integer type.
  FailureOr<Type> type = commonType(*lo, *hi, loop.getLoc(), "loop bounds");
  if (failed(type))
    return failure();
  TValue typed[3] = {*lo, *hi, *step};
  Type indexType = *type;
  if (!step->weak)
    indexType = promoteTypes(indexType, step->elemType);
  SmallVector<Value> bounds;
  for (TValue &v : typed) {
    FailureOr<TValue> c = convert(v, indexType, loop.getLoc());
    if (failed(c))
      return failure();
    bounds.push_back(materialize(*c, loop.getLoc()).value);
  }

  Location at = loc(loop.getLoc());
  Value start = bounds[0];
  if (downBy) {
    // Iteration k runs start - k * downBy; there are ceil((lo - hi) /
    // downBy) of them (none when lo <= hi).
    auto constant = [&](int64_t v) -> Value {
      return arith::ConstantOp::create(
          builder, at, builder.getIntegerAttr(signlessType(indexType), v));
    };
    Value span = arith::SubIOp::create(builder, at, bounds[0], bounds[1]);
    Value rounded =
        arith::AddIOp::create(builder, at, span, constant(*downBy - 1));
    Value count = indexType.isUnsignedInteger()
                      ? Value(arith::DivUIOp::create(builder, at, rounded,
                                                     constant(*downBy)))
                      : Value(arith::DivSIOp::create(builder, at, rounded,
                                                     constant(*downBy)));
    // An unsigned count of a loop that does not run (lo <= hi) is huge:
    // no iterations then.
    if (indexType.isUnsignedInteger())
      count = arith::SelectOp::create(
          builder, at,
          arith::CmpIOp::create(builder, at, arith::CmpIPredicate::ugt,
                                bounds[0], bounds[1]),
          count, constant(0));
    bounds = {constant(0), count, constant(1)};
  }
  SmallVector<StringRef> carried = carriedNames(*this, pointers(loop.body));
  SmallVector<Value> inits = currentValues(*this, carried);
  auto forOp =
      scf::ForOp::create(builder, at, bounds[0], bounds[1], bounds[2], inits);
  // Unsigned bounds compare as unsigned.
  forOp.setUnsignedCmp(indexType.isUnsignedInteger());
  OpBuilder::InsertionGuard guard(builder);
  mlir::Block *body = forOp.getBody();
  if (!body->empty())
    body->back().erase(); // Drop the implicit yield; we add our own.
  builder.setInsertionPointToEnd(body);
  for (auto [name, arg] : llvm::zip(carried, forOp.getRegionIterArgs()))
    lookup(name)->value.value = arg;
  frame().scopes.emplace_back();
  ++frame().loopDepth;
  Value iv = forOp.getInductionVar();
  if (downBy)
    iv = arith::SubIOp::create(
        builder, at, start,
        arith::MulIOp::create(
            builder, at, iv,
            arith::ConstantOp::create(
                builder, at,
                builder.getIntegerAttr(signlessType(indexType), *downBy))));
  LogicalResult bodyResult = declare(
      loop.varLoc, loop.var, Binding{makeRuntime(iv, indexType), false, true});
  if (succeeded(bodyResult))
    bodyResult = genStmts(pointers(loop.body));
  --frame().loopDepth;
  frame().scopes.pop_back();
  if (failed(bodyResult))
    return failure();
  scf::YieldOp::create(builder, loc(loop.getLoc()),
                       currentValues(*this, carried));
  for (auto [name, result] : llvm::zip(carried, forOp.getResults()))
    lookup(name)->value.value = result;
  return success();
}

LogicalResult MLIRGenImpl::genIf(const IfStmt &stmt,
                                 ArrayRef<const Stmt *> rest) {
  FailureOr<TValue> cond = genValueExpr(*stmt.cond, "the condition");
  if (failed(cond))
    return failure();
  if (cond->isTile() || !cond->elemType.isInteger(1))
    return error(stmt.cond->getLoc())
           << "condition must be a scalar i1 (bool), got " << typeName(*cond);
  Value condValue = materialize(*cond, stmt.getLoc()).value;

  // Each branch runs its own statements, then `rest` unless it returned.
  SmallVector<const Stmt *> thenStmts = pointers(stmt.thenBody);
  SmallVector<const Stmt *> elseStmts;
  if (stmt.elseBody)
    elseStmts = pointers(*stmt.elseBody);
  if (!alwaysReturns(thenStmts))
    thenStmts.append(rest.begin(), rest.end());
  if (!alwaysReturns(elseStmts))
    elseStmts.append(rest.begin(), rest.end());

  SmallVector<const Stmt *> all(thenStmts);
  all.append(elseStmts);
  SmallVector<StringRef> carried = carriedNames(*this, all);
  SmallVector<Value> before = currentValues(*this, carried);
  SmallVector<Type> resultTypes;
  for (Value v : before)
    resultTypes.push_back(v.getType());

  auto ifOp = scf::IfOp::create(builder, loc(stmt.getLoc()), resultTypes,
                                condValue, /*addThenBlock=*/true,
                                /*addElseBlock=*/true);
  OpBuilder::InsertionGuard guard(builder);
  auto genBranch = [&](mlir::Block *block, ArrayRef<const Stmt *> stmts) {
    builder.setInsertionPointToEnd(block);
    for (auto [name, v] : llvm::zip(carried, before))
      lookup(name)->value.value = v;
    frame().scopes.emplace_back();
    LogicalResult result = genStmts(stmts);
    frame().scopes.pop_back();
    if (failed(result))
      return failure();
    scf::YieldOp::create(builder, loc(stmt.getLoc()),
                         currentValues(*this, carried));
    return success();
  };
  if (failed(genBranch(ifOp.thenBlock(), thenStmts)) ||
      failed(genBranch(ifOp.elseBlock(), elseStmts)))
    return failure();
  for (auto [name, result] : llvm::zip(carried, ifOp.getResults()))
    lookup(name)->value.value = result;
  return success();
}

LogicalResult MLIRGenImpl::genReturn(const ReturnStmt &ret) {
  Frame &f = frame();
  if (f.fn->isKernel) {
    if (ret.value)
      return error(ret.getLoc()) << "a kernel cannot return a value";
    return success(); // The kernel's tile.return ends every path.
  }
  if (f.scopes.size() != 1)
    return error(ret.getLoc())
           << "a helper's 'return' must be its last statement";
  if (!ret.value) {
    f.returned = TValue();
    return success();
  }
  if (auto *tuple = dyn_cast<TupleExpr>(ret.value.get())) {
    if (f.fn->returnType)
      return error(ret.getLoc())
             << "'" << f.fn->name
             << "' returns several values, so it cannot declare a return "
                "type";
    FailureOr<SmallVector<TValue>> values =
        genTupleElements(*tuple, "a returned value");
    if (failed(values))
      return failure();
    f.returnedValues = std::move(*values);
    f.returned = TValue();
    return success();
  }
  FailureOr<TValue> value = genValueExpr(*ret.value, "the returned value");
  if (failed(value))
    return failure();
  if (f.fn->returnType) {
    value = checkDeclaredType(*value, *f.fn->returnType,
                              "the result of '" + f.fn->name + "'");
    if (failed(value))
      return failure();
  }
  f.returned = *value;
  return success();
}

LogicalResult MLIRGenImpl::genWhile(const WhileStmt &loop) {
  if (const Stmt *ret = findReturn(loop))
    return error(ret->getLoc()) << "'return' inside a loop is not supported";
  SmallVector<StringRef> carried = carriedNames(*this, pointers(loop.body));
  SmallVector<Value> inits = currentValues(*this, carried);
  SmallVector<Type> types;
  for (Value v : inits)
    types.push_back(v.getType());
  Location at = loc(loop.getLoc());
  SmallVector<Location> locs(types.size(), at);
  auto whileOp = scf::WhileOp::create(builder, at, types, inits);
  {
    OpBuilder::InsertionGuard guard(builder);
    // Before: the condition, over the carried values.
    mlir::Block *before =
        builder.createBlock(&whileOp.getBefore(), {}, types, locs);
    for (auto [name, arg] : llvm::zip(carried, before->getArguments()))
      lookup(name)->value.value = arg;
    FailureOr<TValue> cond =
        genValueExpr(*loop.cond, "the while loop's condition");
    if (failed(cond))
      return failure();
    if (cond->isTile() || !cond->elemType.isInteger(1))
      return error(loop.cond->getLoc())
             << "a while loop's condition must be an i1 (bool) scalar, got "
             << typeName(*cond);
    if (cond->isConst() && *cond->intConst)
      return error(loop.cond->getLoc())
             << "this while loop never ends: its condition is always true "
                "(there is no 'break')";
    scf::ConditionOp::create(builder, at,
                             materialize(*cond, loop.getLoc()).value,
                             before->getArguments());
    // After: the body, yielding the carried values to the next test.
    mlir::Block *after =
        builder.createBlock(&whileOp.getAfter(), {}, types, locs);
    for (auto [name, arg] : llvm::zip(carried, after->getArguments()))
      lookup(name)->value.value = arg;
    frame().scopes.emplace_back();
    ++frame().loopDepth;
    LogicalResult bodyResult = genStmts(pointers(loop.body));
    --frame().loopDepth;
    frame().scopes.pop_back();
    if (failed(bodyResult))
      return failure();
    scf::YieldOp::create(builder, at, currentValues(*this, carried));
  }
  for (auto [name, result] : llvm::zip(carried, whileOp.getResults()))
    lookup(name)->value.value = result;
  return success();
}
