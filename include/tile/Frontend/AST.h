//===- AST.h - abstract syntax tree of the .tile language -------*- C++ -*-===//
#ifndef TILE_FRONTEND_AST_H
#define TILE_FRONTEND_AST_H

#include "tile/Frontend/Lexer.h"

#include "llvm/Support/Casting.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tile::ast {

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

/// Base of all expressions; LLVM-style RTTI through `getKind()`.
class Expr {
public:
  enum class Kind {
    Int,
    Float,
    Bool,
    Name,
    Unary,
    Binary,
    Call,
    Subscript,
    List,
    Tuple,
    String
  };
  Expr(Kind kind, SrcLoc loc) : kind(kind), loc(loc) {}
  virtual ~Expr() = default;
  Kind getKind() const { return kind; }
  SrcLoc getLoc() const { return loc; }

private:
  Kind kind;
  SrcLoc loc;
};
using ExprPtr = std::unique_ptr<Expr>;

/// An integer literal.
struct IntExpr : Expr {
  IntExpr(SrcLoc loc, int64_t value) : Expr(Kind::Int, loc), value(value) {}
  int64_t value;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Int; }
};

/// A float literal, including `inf`.
struct FloatExpr : Expr {
  FloatExpr(SrcLoc loc, double value) : Expr(Kind::Float, loc), value(value) {}
  double value;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Float; }
};

/// `true` or `false`.
struct BoolExpr : Expr {
  BoolExpr(SrcLoc loc, bool value) : Expr(Kind::Bool, loc), value(value) {}
  bool value;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Bool; }
};

/// A reference to a variable, parameter or type name (`f16` in `cast`).
struct NameExpr : Expr {
  NameExpr(SrcLoc loc, std::string name)
      : Expr(Kind::Name, loc), name(std::move(name)) {}
  std::string name;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Name; }
};

/// `-x`, `!x`, `~x`.
struct UnaryExpr : Expr {
  UnaryExpr(SrcLoc loc, Tok op, ExprPtr operand)
      : Expr(Kind::Unary, loc), op(op), operand(std::move(operand)) {}
  Tok op;
  ExprPtr operand;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Unary; }
};

/// `lhs op rhs`; the location is the operator's.
struct BinaryExpr : Expr {
  BinaryExpr(SrcLoc loc, Tok op, ExprPtr lhs, ExprPtr rhs)
      : Expr(Kind::Binary, loc), op(op), lhs(std::move(lhs)),
        rhs(std::move(rhs)) {}
  Tok op;
  ExprPtr lhs, rhs;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Binary; }
};

/// A keyword argument `name: value`.
struct KeywordArg {
  std::string name;
  SrcLoc loc;
  ExprPtr value;
};

/// A call of a builtin or helper: `callee(args..., key: value...)`.
struct CallExpr : Expr {
  CallExpr(SrcLoc loc, std::string callee)
      : Expr(Kind::Call, loc), callee(std::move(callee)) {}
  std::string callee;
  std::vector<ExprPtr> args;
  std::vector<KeywordArg> keywords;
  /// `a if cond else b`, parsed as `where(cond, a, b)`.
  bool isConditional = false;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Call; }
};

/// `base[:, None]`: each index is a full slice or a new unit axis.
struct SubscriptExpr : Expr {
  enum class Index { Slice, NewAxis };
  SubscriptExpr(SrcLoc loc, ExprPtr base)
      : Expr(Kind::Subscript, loc), base(std::move(base)) {}
  ExprPtr base;
  std::vector<Index> indices;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Subscript; }
};

/// `[a, b, ...]`, used for shapes.
struct ListExpr : Expr {
  explicit ListExpr(SrcLoc loc) : Expr(Kind::List, loc) {}
  std::vector<ExprPtr> elements;
  static bool classof(const Expr *e) { return e->getKind() == Kind::List; }
};

/// `(a, b, ...)`: the values a helper returns together.
struct TupleExpr : Expr {
  explicit TupleExpr(SrcLoc loc) : Expr(Kind::Tuple, loc) {}
  std::vector<ExprPtr> elements;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Tuple; }
};

/// `"text"`: only a message argument (static_assert).
struct StringExpr : Expr {
  StringExpr(SrcLoc loc, std::string value)
      : Expr(Kind::String, loc), value(std::move(value)) {}
  std::string value;
  static bool classof(const Expr *e) { return e->getKind() == Kind::String; }
};

//===----------------------------------------------------------------------===//
// Types, statements, declarations
//===----------------------------------------------------------------------===//

/// A written type: `f32`, `ptr<f16>` or `f32[BM, BN]`.
struct TypeAnnotation {
  SrcLoc loc;
  std::string scalar; ///< Scalar type name, or pointee for pointers.
  bool isPointer = false;
  std::vector<ExprPtr> dims; ///< Tile dimensions; empty for scalars.
};

/// Base of all statements.
class Stmt {
public:
  enum class Kind { Let, Assign, Expr, For, While, If, Return };
  Stmt(Kind kind, SrcLoc loc) : kind(kind), loc(loc) {}
  virtual ~Stmt() = default;
  Kind getKind() const { return kind; }
  SrcLoc getLoc() const { return loc; }

private:
  Kind kind;
  SrcLoc loc;
};
using StmtPtr = std::unique_ptr<Stmt>;
using Block = std::vector<StmtPtr>;

/// A name a statement binds or assigns, where it is written.
struct NameRef {
  std::string name;
  SrcLoc loc;
};

/// `let name = value;` or `var name = value;`, optionally typed; or
/// `let (a, b) = value;` binding each value a helper returns.
struct LetStmt : Stmt {
  LetStmt(SrcLoc loc, std::string name, bool isVar)
      : Stmt(Kind::Let, loc), name(std::move(name)), isVar(isVar) {}
  std::string name;
  std::vector<NameRef> names; ///< For `let (a, b) = ...`; `name` is empty.
  bool isVar;
  std::optional<TypeAnnotation> type;
  ExprPtr value;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Let; }
};

/// `name = value;`, or `(a, b) = value;` assigning each value a helper
/// returns.
struct AssignStmt : Stmt {
  AssignStmt(SrcLoc loc, std::string name, ExprPtr value)
      : Stmt(Kind::Assign, loc), name(std::move(name)), value(std::move(value)) {}
  std::string name;
  std::vector<NameRef> names; ///< For `(a, b) = ...`; `name` is empty.
  ExprPtr value;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Assign; }
};

/// An expression evaluated for its effect, e.g. `store(...);`.
struct ExprStmt : Stmt {
  ExprStmt(SrcLoc loc, ExprPtr expr)
      : Stmt(Kind::Expr, loc), expr(std::move(expr)) {}
  ExprPtr expr;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Expr; }
};

/// `for var in range(lo, hi, step) { body }`.
struct ForStmt : Stmt {
  ForStmt(SrcLoc loc, std::string var) : Stmt(Kind::For, loc), var(std::move(var)) {}
  std::string var;
  SrcLoc varLoc;
  ExprPtr lo, hi, step; ///< `step` may be null (1).
  Block body;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::For; }
};

/// `while cond { body }`.
struct WhileStmt : Stmt {
  WhileStmt(SrcLoc loc, ExprPtr cond)
      : Stmt(Kind::While, loc), cond(std::move(cond)) {}
  ExprPtr cond;
  Block body;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::While; }
};

/// `if cond { then } else { otherwise }`; `else if` nests an IfStmt.
struct IfStmt : Stmt {
  IfStmt(SrcLoc loc, ExprPtr cond) : Stmt(Kind::If, loc), cond(std::move(cond)) {}
  ExprPtr cond;
  Block thenBody;
  std::optional<Block> elseBody;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::If; }
};

/// `return;` or `return value;`.
struct ReturnStmt : Stmt {
  ReturnStmt(SrcLoc loc, ExprPtr value)
      : Stmt(Kind::Return, loc), value(std::move(value)) {}
  ExprPtr value; ///< May be null.
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Return; }
};

/// A parameter of a kernel or helper.
struct Param {
  SrcLoc loc;
  std::string name;
  std::optional<TypeAnnotation> type; ///< Helpers may leave it out.
  bool isConst = false;
  ExprPtr defaultValue; ///< For `const` parameters.
};

/// A `kernel` (launchable) or `fn` (helper, inlined at each call).
struct Function {
  SrcLoc loc;
  bool isKernel = false;
  std::string name;
  std::vector<Param> params;
  std::optional<TypeAnnotation> returnType;
  Block body;
};

/// A parsed .tile file.
struct Module {
  std::vector<std::unique_ptr<Function>> functions;
};

} // namespace tile::ast

#endif // TILE_FRONTEND_AST_H
