//===- MLIRGenImpl.h - state of .tile to tile IR generation -----*- C++ -*-===//
//
// Internal to lib/Frontend: MLIRGen.cpp (declarations, statements, control
// flow), MLIRGenHelpers.cpp (helper calls, combine functions),
// MLIRGenExpr.cpp (operators, conversions), MLIRGenBuiltins.cpp (builtin
// calls), MLIRGenMath.cpp (math builtins), MLIRGenRandom.cpp (random
// numbers) and MLIRGenShape.cpp (moving elements) implement this one class.
// Type checking happens here, as the IR is built, because tile shapes depend on
// const values and untyped helper parameters are checked at each call.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_LIB_FRONTEND_MLIRGENIMPL_H
#define TILE_LIB_FRONTEND_MLIRGENIMPL_H

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Frontend/AST.h"
#include "tile/Frontend/MLIRGen.h"
#include "tile/Frontend/TypeRules.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"

#include <deque>

namespace tile {

/// A value of the language while generating IR: a scalar or a tile.
struct TValue {
  /// The SSA value; null for a compile-time constant not yet materialized.
  mlir::Value value;
  /// Scalar element type (integer, float or !tile.ptr); null for "no value"
  /// (the result of `store` or of a helper without `return`).
  mlir::Type elemType;
  /// Tile shape; empty for a scalar.
  llvm::SmallVector<int64_t, 4> shape;
  /// An untyped literal: it adopts the type of the other operand.
  bool weak = false;
  /// Compile-time value of a constant (ints and bools; floats below).
  std::optional<int64_t> intConst;
  std::optional<double> floatConst;

  bool isVoid() const { return !elemType; }
  bool isTile() const { return !shape.empty(); }
  bool isConst() const { return !value && (intConst || floatConst); }
};

/// A name in scope.
struct Binding {
  Binding() = default;
  explicit Binding(TValue value, bool isMutable = false, bool isLoopVar = false)
      : value(std::move(value)), isMutable(isMutable), isLoopVar(isLoopVar) {}

  TValue value;
  bool isMutable = false;
  bool isLoopVar = false;
  /// A helper parameter given a type name (`f(x, f16)`): it names that type
  /// where a builtin takes one (`cast(v, T)`), and is no value.
  mlir::Type typeName;
};

/// Maximum number of elements in one tile.
constexpr int64_t kMaxTileElements = 1 << 20;

class MLIRGenImpl {
public:
  MLIRGenImpl(mlir::MLIRContext &context, llvm::StringRef filename,
              const ConstOverrides &overrides)
      : context(context), builder(&context), filename(filename),
        overrides(overrides) {}

  mlir::OwningOpRef<mlir::ModuleOp> genModule(const ast::Module &module);

  //===--- Locations and diagnostics (MLIRGen.cpp) -------------------------===//
  mlir::Location loc(SrcLoc l) {
    return mlir::FileLineColLoc::get(&context, filename, l.line, l.col);
  }
  mlir::InFlightDiagnostic error(SrcLoc l) { return mlir::emitError(loc(l)); }

  //===--- Declarations and statements (MLIRGen.cpp) -----------------------===//
  mlir::LogicalResult genKernel(const ast::Function &fn);
  mlir::LogicalResult genStmts(llvm::ArrayRef<const ast::Stmt *> stmts);
  mlir::LogicalResult genStmt(const ast::Stmt &stmt);
  mlir::LogicalResult genLet(const ast::LetStmt &let);
  mlir::LogicalResult genAssign(const ast::AssignStmt &assign);
  mlir::LogicalResult genFor(const ast::ForStmt &loop);
  mlir::LogicalResult genWhile(const ast::WhileStmt &loop);
  mlir::LogicalResult genIf(const ast::IfStmt &stmt,
                            llvm::ArrayRef<const ast::Stmt *> rest);
  mlir::LogicalResult genReturn(const ast::ReturnStmt &ret);
  /// Binds `name` (a `let`, or a `var` when `isVar`) to `value`.
  mlir::LogicalResult bindName(SrcLoc at, llvm::StringRef name, TValue value,
                               bool isVar);
  /// Errors unless `name` is a `var` in scope.
  mlir::LogicalResult checkAssignable(SrcLoc at, llvm::StringRef name);
  /// Assigns `value` to the `var` `name` (converting a weak literal).
  mlir::LogicalResult assignName(SrcLoc at, llvm::StringRef name,
                                 TValue value);
  /// The `count` values of a tuple or of a helper call that returns them.
  mlir::FailureOr<llvm::SmallVector<TValue>>
  genValues(const ast::Expr &expr, size_t count, llvm::StringRef what);
  /// The elements of `(a, b, ...)`, each a value.
  mlir::FailureOr<llvm::SmallVector<TValue>>
  genTupleElements(const ast::TupleExpr &tuple, llvm::StringRef what);

  //===--- Helper calls (MLIRGenHelpers.cpp)
  //-------------------------------===//
  /// Inlines a call of `fn`. With `values`, the call binds what the helper
  /// returns as a tuple (`let (a, b) = f(...)`) into `values`; without, the
  /// helper must return one value or none.
  mlir::FailureOr<TValue>
  genHelperCall(const ast::CallExpr &call, const ast::Function &fn,
                llvm::SmallVector<TValue> *values = nullptr);
  /// Errors at `at` if inlining `fn` there would recurse or nest too deeply.
  mlir::LogicalResult checkInlinable(const ast::Function &fn, SrcLoc at);
  /// Inlines the body of `fn` with its parameters bound to `args` (or, where
  /// `typeArgs` has a type, to that type name); `values` as genHelperCall.
  mlir::FailureOr<TValue> inlineHelper(const ast::Function &fn,
                                       llvm::ArrayRef<TValue> args,
                                       llvm::ArrayRef<mlir::Type> typeArgs,
                                       SrcLoc at,
                                       llvm::SmallVector<TValue> *values);

  //===--- Types and names (MLIRGen.cpp)
  //-----------------------------------===//
  /// Resolves a written type; `shape` gets the tile dimensions.
  mlir::LogicalResult resolveType(const ast::TypeAnnotation &type,
                                  mlir::Type &elem,
                                  llvm::SmallVectorImpl<int64_t> &shape);
  /// Checks that `value` has the written type, converting weak literals.
  mlir::FailureOr<TValue> checkDeclaredType(TValue value,
                                            const ast::TypeAnnotation &type,
                                            llvm::StringRef what);

  Binding *lookup(llvm::StringRef name);
  mlir::LogicalResult declare(SrcLoc at, llvm::StringRef name, Binding b);

  //===--- Expressions (MLIRGenExpr.cpp) -----------------------------------===//
  mlir::FailureOr<TValue> genExpr(const ast::Expr &expr);
  mlir::FailureOr<TValue> genValueExpr(const ast::Expr &expr,
                                       llvm::StringRef what);
  mlir::FailureOr<TValue> genBinary(const ast::BinaryExpr &expr);
  mlir::FailureOr<TValue> genBinaryOp(Tok op, TValue lhs, TValue rhs,
                                      SrcLoc at);
  mlir::FailureOr<TValue> genUnary(const ast::UnaryExpr &expr);
  mlir::FailureOr<TValue> genSubscript(const ast::SubscriptExpr &expr);
  mlir::FailureOr<TValue> genCall(const ast::CallExpr &call);

  /// A compile-time constant value of the language.
  TValue makeIntConst(int64_t v, mlir::Type type, bool weak = false);
  TValue makeFloatConst(double v, mlir::Type type, bool weak = false);
  /// A runtime value with the type of `value`.
  TValue makeRuntime(mlir::Value value);
  /// A runtime value of element type `elemType` (the language's type, which
  /// may be unsigned where `value`'s IR type is signless).
  TValue makeRuntime(mlir::Value value, mlir::Type elemType);
  /// Makes sure `v` has an SSA value (materializing constants).
  TValue materialize(TValue v, SrcLoc at);
  /// Errors at the first op of `kernel` that computes with 8-bit floats
  /// rather than moving or converting them.
  mlir::LogicalResult checkFloat8Uses(KernelOp kernel);
  /// Converts `v` to element type `to` (value-preserving where possible).
  mlir::FailureOr<TValue> convert(TValue v, mlir::Type to, SrcLoc at);
  /// Broadcasts `v` to `shape` (splat, unit axes, broadcast).
  mlir::FailureOr<TValue> broadcastTo(TValue v, llvm::ArrayRef<int64_t> shape,
                                      SrcLoc at);
  /// The type two operands combine to, honouring weak literals.
  mlir::FailureOr<mlir::Type> commonType(const TValue &a, const TValue &b,
                                         SrcLoc at, llvm::StringRef what);
  /// Converts both operands to their common type and shape.
  mlir::LogicalResult unify(TValue &a, TValue &b, SrcLoc at,
                            llvm::StringRef what);
  /// The MLIR type of a value: a scalar or a ranked tensor (of signless
  /// integers where the language's are unsigned).
  mlir::Type mlirType(mlir::Type elem, llvm::ArrayRef<int64_t> shape);
  /// Type for diagnostics.
  std::string typeName(const TValue &v) {
    return formatType(v.elemType, v.shape);
  }
  /// Checks tile dimensions: positive powers of two within the size limit.
  mlir::LogicalResult checkTileShape(llvm::ArrayRef<int64_t> shape, SrcLoc at);
  /// Evaluates a compile-time integer (a shape, an axis, a bound).
  mlir::FailureOr<int64_t> genConstInt(const ast::Expr &expr,
                                       llvm::StringRef what);

  //===--- Builtins (MLIRGenBuiltins.cpp) ----------------------------------===//
  /// Generates a builtin call; returns nullopt if `call` is not a builtin.
  std::optional<mlir::FailureOr<TValue>> genBuiltin(const ast::CallExpr &call);

  //===--- Memory builtins (MLIRGenMemory.cpp) ----------------------------===//
  /// Generates load/store/atomic_*; other calls go on to genMathBuiltin.
  std::optional<mlir::FailureOr<TValue>>
  genMemoryBuiltin(const ast::CallExpr &call);
  /// The `sem:` and `scope:` arguments of an atomic (either may be null:
  /// acq_rel, gpu).
  mlir::FailureOr<std::pair<MemSemantic, MemScope>>
  genAtomicOrder(const ast::Expr *sem, const ast::Expr *scope);

  //===--- Math builtins (MLIRGenMath.cpp)
  //---------------------------------===//
  /// Generates a math builtin call (exp, erf, pow, clamp, ...); other calls
  /// go on to genRandomBuiltin.
  std::optional<mlir::FailureOr<TValue>>
  genMathBuiltin(const ast::CallExpr &call);

  //===--- Random numbers (MLIRGenRandom.cpp)
  //------------------------------===//
  /// Generates randint/rand/randn/umulhi; other calls go on to
  /// genShapeBuiltin.
  std::optional<mlir::FailureOr<TValue>>
  genRandomBuiltin(const ast::CallExpr &call);

  //===--- Moving elements (MLIRGenShape.cpp) -----------------------------===//
  /// Generates reshape/permute/join (split: an error, it gives two values);
  /// other calls go on to genCombineBuiltin.
  std::optional<mlir::FailureOr<TValue>>
  genShapeBuiltin(const ast::CallExpr &call);
  /// The two values of `split(x)`.
  mlir::FailureOr<llvm::SmallVector<TValue>>
  genSplit(const ast::CallExpr &call);

  //===--- Combine functions (MLIRGenHelpers.cpp)
  //--------------------------===//
  /// Generates reduce/scan with a helper as combine function; returns
  /// nullopt for other calls.
  std::optional<mlir::FailureOr<TValue>>
  genCombineBuiltin(const ast::CallExpr &call);

  mlir::MLIRContext &context;
  mlir::OpBuilder builder;
  std::string filename;
  const ConstOverrides &overrides;

  /// Helpers by name.
  llvm::StringMap<const ast::Function *> helpers;
  /// Kernel names, to reject calls of kernels.
  llvm::StringMap<const ast::Function *> kernels;

  /// One frame per kernel or inlined helper call: helpers see only their
  /// own parameters and locals. A deque, because code holds a Frame& or a
  /// Binding* into a frame while it generates an expression, and a helper
  /// call in that expression pushes a frame: a vector would move them.
  struct Frame {
    const ast::Function *fn = nullptr;
    std::vector<llvm::StringMap<Binding>> scopes;
    std::optional<TValue> returned;
    /// What `return (a, b, ...)` returned.
    std::optional<llvm::SmallVector<TValue>> returnedValues;
    int loopDepth = 0;
  };
  std::deque<Frame> frames;
  Frame &frame() { return frames.back(); }
};

/// Whether `name` is a builtin function.
bool isBuiltinName(llvm::StringRef name);
/// Whether `name` is load/store or an atomic (MLIRGenMemory.cpp).
bool isMemoryBuiltinName(llvm::StringRef name);
/// Whether `name` is a math builtin (MLIRGenMath.cpp).
bool isMathBuiltinName(llvm::StringRef name);
/// Whether `name` is a random-number builtin (MLIRGenRandom.cpp).
bool isRandomBuiltinName(llvm::StringRef name);
/// Whether `name` is reshape/permute/join/split (MLIRGenShape.cpp).
bool isShapeBuiltinName(llvm::StringRef name);
/// Whether `name` is reduce/scan (MLIRGenHelpers.cpp).
bool isCombineBuiltinName(llvm::StringRef name);
/// The statements of `block`, in order.
llvm::SmallVector<const ast::Stmt *> pointers(const ast::Block &block);
/// Whether `stmt` contains a `return` anywhere within it.
bool containsReturn(const ast::Stmt &stmt);
/// Whether the statements always end in `return` on every path.
bool alwaysReturns(llvm::ArrayRef<const ast::Stmt *> stmts);
/// The first `return` within `stmt` (for diagnostics), or null.
const ast::Stmt *findReturn(const ast::Stmt &stmt);

} // namespace tile

#endif // TILE_LIB_FRONTEND_MLIRGENIMPL_H
