//===- BuiltinArgs.h - arguments of a builtin call --------------*- C++ -*-===//
//
// Internal to lib/Frontend: the argument checking that MLIRGenBuiltins.cpp
// and MLIRGenMath.cpp share (arity, keywords, values, type names, shapes).
//
//===----------------------------------------------------------------------===//
#ifndef TILE_LIB_FRONTEND_BUILTINARGS_H
#define TILE_LIB_FRONTEND_BUILTINARGS_H

#include "MLIRGenImpl.h"

namespace tile {

/// The arguments of one builtin call, each positional or by keyword.
class CallArgs {
public:
  CallArgs(MLIRGenImpl &gen, const ast::CallExpr &call)
      : gen(gen), call(call) {}

  /// Checks the positional count and that every keyword is one of `names`
  /// (keyword `names[i]` may also be given as positional argument i).
  mlir::LogicalResult check(size_t minArgs,
                            llvm::ArrayRef<llvm::StringRef> names) {
    size_t given = call.args.size();
    if (given > names.size() || given + call.keywords.size() < minArgs) {
      auto diag = gen.error(call.getLoc())
                  << "'" << call.callee << "' expects ";
      if (minArgs == names.size())
        diag << minArgs;
      else
        diag << minArgs << " to " << names.size();
      return diag << " argument(s), got " << given + call.keywords.size();
    }
    for (const ast::KeywordArg &kw : call.keywords) {
      auto it = llvm::find(names, kw.name);
      if (it == names.end())
        return gen.error(kw.loc)
               << "'" << call.callee << "' has no argument named '" << kw.name
               << "'";
      if (static_cast<size_t>(it - names.begin()) < given)
        return gen.error(kw.loc) << "argument '" << kw.name << "' of '"
                                 << call.callee << "' is given twice";
      for (const ast::KeywordArg &other : call.keywords)
        if (&other != &kw && other.name == kw.name)
          return gen.error(kw.loc) << "argument '" << kw.name << "' of '"
                                   << call.callee << "' is given twice";
    }
    for (size_t i = 0; i < minArgs; ++i)
      if (!get(i, names[i]))
        return gen.error(call.getLoc())
               << "'" << call.callee << "' is missing argument '" << names[i]
               << "'";
    this->names.assign(names.begin(), names.end());
    return mlir::success();
  }

  /// Argument `i` (named `name`), or null if absent.
  const ast::Expr *get(size_t i, llvm::StringRef name) const {
    if (i < call.args.size())
      return call.args[i].get();
    for (const ast::KeywordArg &kw : call.keywords)
      if (kw.name == name)
        return kw.value.get();
    return nullptr;
  }
  const ast::Expr *get(size_t i) const { return get(i, names[i]); }

  mlir::FailureOr<TValue> value(size_t i) {
    return gen.genValueExpr(
        *get(i),
        ("argument '" + names[i] + "' of '" + call.callee + "'").str());
  }

  /// Argument `i` as a scalar type name (`f16`).
  mlir::FailureOr<mlir::Type> type(size_t i) {
    const ast::Expr *e = get(i);
    if (auto *name = llvm::dyn_cast<ast::NameExpr>(e)) {
      if (Binding *bound = gen.lookup(name->name))
        if (bound->typeName)
          return bound->typeName;
      if (mlir::Type t = scalarTypeFromName(&gen.context, name->name))
        return t;
    }
    return gen.error(e->getLoc())
           << "argument '" << names[i] << "' of '" << call.callee
           << "' must be a type name (i1 i8 i16 i32 i64 f16 bf16 f32 f64 "
              "f8e4m3 f8e5m2)";
  }

  /// Argument `i` as the text of a string literal (`fallback` when absent);
  /// otherwise an error that `what` must be one.
  mlir::FailureOr<std::string> text(size_t i, llvm::StringRef what,
                                    llvm::StringRef fallback = "") {
    const ast::Expr *e = get(i);
    if (!e)
      return fallback.str();
    if (auto *literal = llvm::dyn_cast<ast::StringExpr>(e))
      return literal->value;
    return gen.error(e->getLoc()) << what << " must be a string literal";
  }

  /// Argument 0 as the tile a reduction or scan works on (numbers), and
  /// argument 1 as its axis, which a 1-D tile may leave out.
  mlir::FailureOr<std::pair<TValue, int64_t>> tileAndAxis() {
    mlir::FailureOr<TValue> x = value(0);
    if (mlir::failed(x))
      return mlir::failure();
    if (!x->isTile() || llvm::isa<PointerType>(x->elemType))
      return gen.error(call.getLoc())
             << "'" << call.callee << "' takes a tile of numbers, got "
             << gen.typeName(*x);
    int64_t rank = x->shape.size();
    const ast::Expr *axisExpr = get(1);
    if (!axisExpr) {
      if (rank > 1)
        return gen.error(call.getLoc()) << "'" << call.callee << "' of a rank-"
                                        << rank << " tile needs 'axis:'";
      return std::make_pair(*x, int64_t(0));
    }
    mlir::FailureOr<int64_t> axis = gen.genConstInt(*axisExpr, "the axis");
    if (mlir::failed(axis))
      return mlir::failure();
    if (*axis < 0 || *axis >= rank)
      return gen.error(axisExpr->getLoc())
             << "axis " << *axis << " is out of range for " << gen.typeName(*x)
             << " (rank " << rank << ")";
    return std::make_pair(*x, *axis);
  }

  /// Argument `i` as a tile shape: `[a, b]` or a single integer.
  mlir::FailureOr<llvm::SmallVector<int64_t>> shape(size_t i) {
    const ast::Expr *e = get(i);
    llvm::SmallVector<int64_t> shape;
    auto add = [&](const ast::Expr &dim) -> mlir::LogicalResult {
      mlir::FailureOr<int64_t> d = gen.genConstInt(dim, "a tile dimension");
      if (failed(d))
        return mlir::failure();
      shape.push_back(*d);
      return mlir::success();
    };
    if (auto *list = llvm::dyn_cast<ast::ListExpr>(e)) {
      if (list->elements.empty())
        return gen.error(e->getLoc()) << "a tile shape needs at least one "
                                         "dimension";
      for (const ast::ExprPtr &dim : list->elements)
        if (failed(add(*dim)))
          return mlir::failure();
    } else if (failed(add(*e))) {
      return mlir::failure();
    }
    if (failed(gen.checkTileShape(shape, e->getLoc())))
      return mlir::failure();
    return shape;
  }

private:
  MLIRGenImpl &gen;
  const ast::CallExpr &call;
  /// A copy: callers pass the names as a temporary initializer list.
  llvm::SmallVector<llvm::StringRef, 4> names;
};

} // namespace tile

#endif // TILE_LIB_FRONTEND_BUILTINARGS_H
