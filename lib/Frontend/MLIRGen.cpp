//===- MLIRGen.cpp - modules, kernels, declarations and statements -------===//
#include "MLIRGenImpl.h"

#include "tile/Frontend/Parser.h"

#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace tile;
using namespace tile::ast;

//===----------------------------------------------------------------------===//
// Scopes
//===----------------------------------------------------------------------===//

Binding *MLIRGenImpl::lookup(StringRef name) {
  for (auto &scope : llvm::reverse(frame().scopes)) {
    auto it = scope.find(name);
    if (it != scope.end())
      return &it->second;
  }
  return nullptr;
}

LogicalResult MLIRGenImpl::declare(SrcLoc at, StringRef name, Binding b) {
  if (lookup(name))
    return error(at) << "redefinition of '" << name
                     << "' (names cannot be shadowed)";
  if (scalarTypeFromName(&context, name) || name == "ptr")
    return error(at) << "'" << name << "' is a type name";
  frame().scopes.back()[name] = std::move(b);
  return success();
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

LogicalResult MLIRGenImpl::resolveType(const TypeAnnotation &type, Type &elem,
                                       SmallVectorImpl<int64_t> &shape) {
  Type scalar = scalarTypeFromName(&context, type.scalar);
  if (!scalar)
    return error(type.loc) << "unknown type '" << type.scalar << "'";
  elem = type.isPointer ? Type(PointerType::get(&context, scalar)) : scalar;
  for (const ExprPtr &dim : type.dims) {
    FailureOr<int64_t> size = genConstInt(*dim, "a tile dimension");
    if (failed(size))
      return failure();
    shape.push_back(*size);
  }
  if (!shape.empty())
    return checkTileShape(shape, type.loc);
  return success();
}

FailureOr<TValue> MLIRGenImpl::checkDeclaredType(TValue value,
                                                 const TypeAnnotation &type,
                                                 StringRef what) {
  Type elem;
  SmallVector<int64_t> shape;
  if (failed(resolveType(type, elem, shape)))
    return failure();
  if (value.weak && value.shape == ArrayRef<int64_t>(shape) &&
      !isa<PointerType>(elem)) {
    if (isa<IntegerType>(elem) && value.floatConst)
      return error(type.loc) << what << " has type " << formatType(elem, shape)
                             << " but the value is the float literal";
    return convert(value, elem, type.loc);
  }
  if (value.elemType != elem || value.shape != ArrayRef<int64_t>(shape))
    return error(type.loc) << what << " has type " << formatType(elem, shape)
                           << " but the value has type " << typeName(value);
  return value;
}

//===----------------------------------------------------------------------===//
// Module and kernels
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> MLIRGenImpl::genModule(const ast::Module &module) {
  auto moduleOp = ModuleOp::create(builder.getUnknownLoc());
  OwningOpRef<ModuleOp> owned(moduleOp);
  for (const auto &fn : module.functions) {
    auto &table = fn->isKernel ? kernels : helpers;
    if (kernels.count(fn->name) || helpers.count(fn->name)) {
      error(fn->loc) << "redefinition of '" << fn->name << "'";
      return nullptr;
    }
    if (scalarTypeFromName(&context, fn->name)) {
      error(fn->loc) << "'" << fn->name << "' is a type name";
      return nullptr;
    }
    if (isBuiltinName(fn->name)) {
      error(fn->loc) << "'" << fn->name << "' is a builtin function";
      return nullptr;
    }
    table[fn->name] = fn.get();
  }
  if (kernels.empty()) {
    emitError(FileLineColLoc::get(&context, filename, 1, 1))
        << "no kernel in the file (a file needs at least one 'kernel')";
    return nullptr;
  }
  // Overrides must name a const parameter of some kernel.
  llvm::StringSet<> constNames;
  for (const auto &fn : module.functions)
    if (fn->isKernel)
      for (const Param &p : fn->params)
        if (p.isConst)
          constNames.insert(p.name);
  for (const auto &[name, value] : overrides)
    if (!constNames.contains(name)) {
      emitError(FileLineColLoc::get(&context, filename, 1, 1))
          << "-D " << name << "=" << value
          << ": no kernel in the file has a const parameter '" << name << "'";
      return nullptr;
    }
  builder.setInsertionPointToEnd(moduleOp.getBody());
  for (const auto &fn : module.functions)
    if (fn->isKernel && failed(genKernel(*fn)))
      return nullptr;
  return owned;
}

/// Parses `text` as a value of scalar type `type` (a -D override).
static std::optional<TValue> parseOverride(MLIRGenImpl &gen, StringRef text,
                                           Type type) {
  if (type.isInteger(1)) {
    if (text == "true" || text == "1")
      return gen.makeIntConst(1, type);
    if (text == "false" || text == "0")
      return gen.makeIntConst(0, type);
    return std::nullopt;
  }
  if (isa<IntegerType>(type)) {
    unsigned width = type.getIntOrFloatBitWidth();
    if (type.isUnsignedInteger()) {
      // [0, 2^width), kept as the value's bits.
      uint64_t u;
      if (text.getAsInteger(10, u) || !llvm::isUIntN(width, u))
        return std::nullopt;
      return gen.makeIntConst(static_cast<int64_t>(u), type);
    }
    int64_t v;
    if (text.getAsInteger(10, v) || (width < 64 && !llvm::isIntN(width, v)))
      return std::nullopt;
    return gen.makeIntConst(v, type);
  }
  double v;
  if (text.getAsDouble(v))
    return std::nullopt;
  return gen.makeFloatConst(v, type);
}

LogicalResult MLIRGenImpl::genKernel(const ast::Function &fn) {
  frames.emplace_back();
  frame().fn = &fn;
  frame().scopes.emplace_back();
  llvm::scope_exit popFrame([&] { frames.pop_back(); });

  SmallVector<Type> argTypes;
  SmallVector<Type> argSourceTypes;
  SmallVector<const Param *> runtimeParams;
  SmallVector<NamedAttribute> constants;
  for (const Param &param : fn.params) {
    Type elem;
    SmallVector<int64_t> shape;
    if (failed(resolveType(*param.type, elem, shape)))
      return failure();
    if (!shape.empty())
      return error(param.type->loc)
             << "kernel parameter '" << param.name
             << "' cannot be a tile; pass a pointer and load it";
    if (isFloat8(elem))
      return error(param.type->loc)
             << "kernel parameter '" << param.name << "' cannot be an 8-bit "
             << "float; pass it as f16 or f32 (or a pointer to "
             << scalarTypeName(elem) << ")";
    if (!param.isConst) {
      argTypes.push_back(signlessType(elem));
      argSourceTypes.push_back(elem);
      runtimeParams.push_back(&param);
      continue;
    }
    if (isa<PointerType>(elem))
      return error(param.type->loc) << "const parameter '" << param.name
                                    << "' must have an integer or float type";
    TValue value;
    auto it = overrides.find(param.name);
    if (it != overrides.end()) {
      std::optional<TValue> parsed = parseOverride(*this, it->second, elem);
      if (!parsed)
        return error(param.loc)
               << "invalid value '" << it->second << "' (from -D) for const "
               << "parameter '" << param.name << "' of type "
               << formatType(elem, {})
               << (isa<IntegerType>(elem) && !elem.isInteger(1)
                       ? " (an integer in its range)"
                       : "");
      value = *parsed;
    } else {
      FailureOr<TValue> init = genExpr(*param.defaultValue);
      if (failed(init))
        return failure();
      if (!init->isConst() || init->isTile())
        return error(param.defaultValue->getLoc())
               << "default of const parameter '" << param.name
               << "' must be a compile-time scalar constant";
      if (isa<IntegerType>(elem) && init->floatConst)
        return error(param.defaultValue->getLoc())
               << "const parameter '" << param.name << "' of type "
               << formatType(elem, {}) << " cannot take a float value";
      FailureOr<TValue> converted = convert(*init, elem, param.loc);
      if (failed(converted))
        return failure();
      value = *converted;
    }
    value.weak = false;
    Attribute attr =
        value.intConst
            ? Attribute(builder.getIntegerAttr(elem, *value.intConst))
            : Attribute(builder.getFloatAttr(elem, *value.floatConst));
    constants.push_back(builder.getNamedAttr(param.name, attr));
    if (failed(declare(param.loc, param.name, Binding{value})))
      return failure();
  }

  auto kernel = KernelOp::create(builder, loc(fn.loc), fn.name,
                                 builder.getFunctionType(argTypes, {}),
                                 builder.getDictionaryAttr(constants));
  mlir::Block &entry = kernel.getBody().front();
  for (auto [param, arg, sourceType] :
       llvm::zip(runtimeParams, entry.getArguments(), argSourceTypes)) {
    if (sourceType != arg.getType())
      kernel.setArgAttr(arg.getArgNumber(),
                        TileDialect::SourceTypeAttrHelper::getNameStr(),
                        TypeAttr::get(sourceType));
    // The name rides on the location: diagnostics and the runtime can say
    // which parameter a value came from.
    arg.setLoc(
        NameLoc::get(builder.getStringAttr(param->name), loc(param->loc)));
    if (failed(declare(param->loc, param->name,
                       Binding{makeRuntime(arg, sourceType)})))
      return failure();
  }
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&entry);
  if (failed(genStmts(pointers(fn.body))))
    return failure();
  ReturnOp::create(builder, loc(fn.loc));
  return checkFloat8Uses(kernel);
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

LogicalResult MLIRGenImpl::genStmts(ArrayRef<const Stmt *> stmts) {
  for (size_t i = 0; i < stmts.size(); ++i) {
    const Stmt *stmt = stmts[i];
    if (auto *ret = dyn_cast<ReturnStmt>(stmt)) {
      if (i + 1 != stmts.size())
        return error(stmts[i + 1]->getLoc())
               << "unreachable code after 'return'";
      return genReturn(*ret);
    }
    if (auto *branch = dyn_cast<IfStmt>(stmt);
        branch && containsReturn(*branch)) {
      if (!frame().fn->isKernel)
        return error(findReturn(*branch)->getLoc())
               << "a helper's 'return' must be its last statement";
      // Early exit: what follows the `if` runs only on the paths that do not
      // return, so it moves into the branches.
      return genIf(*branch, stmts.drop_front(i + 1));
    }
    if (failed(genStmt(*stmt)))
      return failure();
  }
  return success();
}

LogicalResult MLIRGenImpl::genStmt(const Stmt &stmt) {
  switch (stmt.getKind()) {
  case Stmt::Kind::Let:
    return genLet(cast<LetStmt>(stmt));
  case Stmt::Kind::Assign:
    return genAssign(cast<AssignStmt>(stmt));
  case Stmt::Kind::Expr: {
    const Expr &expr = *cast<ExprStmt>(stmt).expr;
    if (!isa<CallExpr>(expr))
      return error(expr.getLoc()) << "expression result is unused";
    return genExpr(expr);
  }
  case Stmt::Kind::For:
    return genFor(cast<ForStmt>(stmt));
  case Stmt::Kind::While:
    return genWhile(cast<WhileStmt>(stmt));
  case Stmt::Kind::If:
    return genIf(cast<IfStmt>(stmt), {});
  case Stmt::Kind::Return:
    return genReturn(cast<ReturnStmt>(stmt));
  }
  return failure();
}

/// Names the operation that computes `value` after the source variable it is
/// bound to (`tilec --explain-layout=NAME` finds it by that name). An
/// operation keeps its first name: `let y = x` leaves it named x.
static void nameDefiningOp(const TValue &value, StringRef name) {
  Operation *def = value.value ? value.value.getDefiningOp() : nullptr;
  if (!def || isa<NameLoc>(def->getLoc()))
    return;
  def->setLoc(
      NameLoc::get(StringAttr::get(def->getContext(), name), def->getLoc()));
}

LogicalResult MLIRGenImpl::genLet(const LetStmt &let) {
  if (!let.names.empty()) {
    FailureOr<SmallVector<TValue>> values =
        genValues(*let.value, let.names.size(), "the declared value");
    if (failed(values))
      return failure();
    for (auto [ref, value] : llvm::zip(let.names, *values))
      if (failed(bindName(ref.loc, ref.name, value, let.isVar)))
        return failure();
    return success();
  }
  FailureOr<TValue> value =
      genValueExpr(*let.value, "the value of '" + let.name + "'");
  if (failed(value))
    return failure();
  if (let.type) {
    value = checkDeclaredType(*value, *let.type, "'" + let.name + "'");
    if (failed(value))
      return failure();
  }
  return bindName(let.getLoc(), let.name, *value, let.isVar);
}

LogicalResult MLIRGenImpl::bindName(SrcLoc at, StringRef name, TValue value,
                                    bool isVar) {
  if (isVar) {
    // A `var` may change, so it is a runtime value of a fixed type.
    value.weak = false;
    value = materialize(value, at);
    value.intConst.reset();
    value.floatConst.reset();
  }
  nameDefiningOp(value, name);
  return declare(at, name, Binding{value, isVar});
}

LogicalResult MLIRGenImpl::genAssign(const AssignStmt &assign) {
  if (!assign.names.empty()) {
    for (const NameRef &ref : assign.names)
      if (failed(checkAssignable(ref.loc, ref.name)))
        return failure();
    FailureOr<SmallVector<TValue>> values =
        genValues(*assign.value, assign.names.size(), "the assigned value");
    if (failed(values))
      return failure();
    for (auto [ref, value] : llvm::zip(assign.names, *values))
      if (failed(assignName(ref.loc, ref.name, value)))
        return failure();
    return success();
  }
  if (failed(checkAssignable(assign.getLoc(), assign.name)))
    return failure();
  FailureOr<TValue> value = genValueExpr(*assign.value, "the assigned value");
  if (failed(value))
    return failure();
  return assignName(assign.getLoc(), assign.name, *value);
}

LogicalResult MLIRGenImpl::checkAssignable(SrcLoc at, StringRef name) {
  Binding *b = lookup(name);
  if (!b)
    return error(at) << "unknown name '" << name << "'";
  if (!b->isMutable)
    return error(at) << "cannot assign to '" << name << "': "
                     << (b->isLoopVar ? "it is a loop variable"
                                      : "it is not declared with 'var'");
  return success();
}

LogicalResult MLIRGenImpl::assignName(SrcLoc at, StringRef name, TValue value) {
  Binding *b = lookup(name);
  TValue target = b->value;
  FailureOr<TValue> converted = value;
  if (value.weak && value.shape == target.shape &&
      !isa<PointerType>(target.elemType) &&
      !(isa<IntegerType>(target.elemType) && value.floatConst))
    converted = convert(value, target.elemType, at);
  if (failed(converted))
    return failure();
  if (converted->elemType != target.elemType ||
      converted->shape != target.shape)
    return error(at) << "cannot assign a value of type " << typeName(*converted)
                     << " to '" << name << "' of type " << typeName(target);
  TValue stored = materialize(*converted, at);
  stored.weak = false;
  stored.intConst.reset();
  stored.floatConst.reset();
  nameDefiningOp(stored, name);
  b->value = stored;
  return success();
}

FailureOr<SmallVector<TValue>>
MLIRGenImpl::genValues(const Expr &expr, size_t count, StringRef what) {
  if (auto *tuple = dyn_cast<TupleExpr>(&expr)) {
    if (tuple->elements.size() != count)
      return error(expr.getLoc()) << "expected " << count << " values, got "
                                  << tuple->elements.size();
    return genTupleElements(*tuple, what);
  }
  auto *call = dyn_cast<CallExpr>(&expr);
  if (call && call->callee == "split") {
    FailureOr<SmallVector<TValue>> halves = genSplit(*call);
    if (succeeded(halves) && count != 2)
      return error(expr.getLoc()) << "'split' gives 2 values, not " << count;
    return halves;
  }
  auto helper = call ? helpers.find(call->callee) : helpers.end();
  if (helper == helpers.end())
    return error(expr.getLoc())
           << what << " must be a tuple of " << count
           << " values or a call of a helper that returns them";
  SmallVector<TValue> values;
  if (failed(genHelperCall(*call, *helper->second, &values)))
    return failure();
  if (values.size() != count)
    return error(expr.getLoc()) << "'" << call->callee << "' returns "
                                << values.size() << " values, not " << count;
  return values;
}

FailureOr<SmallVector<TValue>>
MLIRGenImpl::genTupleElements(const TupleExpr &tuple, StringRef what) {
  SmallVector<TValue> values;
  for (const ExprPtr &element : tuple.elements) {
    FailureOr<TValue> v = genValueExpr(*element, what);
    if (failed(v))
      return failure();
    values.push_back(*v);
  }
  return values;
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> tile::mlirGen(MLIRContext &context,
                                    const ast::Module &module,
                                    StringRef filename,
                                    const ConstOverrides &overrides) {
  context.loadDialect<TileDialect, arith::ArithDialect, math::MathDialect,
                      scf::SCFDialect>();
  return MLIRGenImpl(context, filename, overrides).genModule(module);
}

OwningOpRef<ModuleOp> tile::compileTileSource(llvm::SourceMgr &sourceMgr,
                                              MLIRContext &context,
                                              const ConstOverrides &overrides) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  StringRef filename = buffer->getBufferIdentifier();
  auto onError = [&](SrcLoc at, const llvm::Twine &message) {
    emitError(FileLineColLoc::get(&context, filename, at.line, at.col))
        << message.str();
  };
  std::unique_ptr<ast::Module> ast = parseModule(buffer->getBuffer(), onError);
  if (!ast)
    return nullptr;
  OwningOpRef<ModuleOp> module = mlirGen(context, *ast, filename, overrides);
  if (!module)
    return nullptr;
  if (failed(verify(*module))) {
    emitError(module->getLoc())
        << "internal compiler error: the generated IR does not verify";
    return nullptr;
  }
  return module;
}
