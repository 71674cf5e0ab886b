//===- Parser.cpp - recursive-descent parser for .tile --------------------===//
//
// Grammar (docs/language.md has the full version):
//   file     := (kernel | fn)*
//   kernel   := 'kernel' IDENT '(' params ')' block
//   fn       := 'fn' IDENT '(' params ')' ('->' type)? block
//   stmt     := ('let'|'var') IDENT (':' type)? '=' expr ';'
//             | ('let'|'var') '(' IDENT (',' IDENT)+ ')' '=' expr ';'
//             | IDENT '=' expr ';' | '(' IDENT (',' IDENT)+ ')' '=' expr ';'
//             | expr ';' | 'return' expr? ';'
//             | 'for' IDENT 'in' 'range' '(' expr ',' expr (',' expr)? ')'
//             block | 'if' expr block ('else' (if | block))?
//   Binary operators bind, loosest first: || && (== != < <= > >=) | ^ &
//   (<< >>) (+ -) (* / %), then unary - ! ~, then calls and subscripts.
//
//===----------------------------------------------------------------------===//
#include "tile/Frontend/Parser.h"

#include <limits>

using namespace tile;
using namespace tile::ast;

namespace {

/// Binding strength of a binary operator; 0 if `kind` is not one.
int binaryPrecedence(Tok kind) {
  switch (kind) {
  case Tok::OrOr:
    return 1;
  case Tok::AndAnd:
    return 2;
  case Tok::EqEq:
  case Tok::NotEq:
  case Tok::Lt:
  case Tok::Le:
  case Tok::Gt:
  case Tok::Ge:
    return 3;
  case Tok::Pipe:
    return 4;
  case Tok::Caret:
    return 5;
  case Tok::Amp:
    return 6;
  case Tok::Shl:
  case Tok::Shr:
    return 7;
  case Tok::Plus:
  case Tok::Minus:
    return 8;
  case Tok::Star:
  case Tok::Slash:
  case Tok::Percent:
    return 9;
  default:
    return 0;
  }
}

class Parser {
public:
  Parser(llvm::StringRef source, ParseErrorFn onError)
      : lexer(source), onError(onError) {
    consume();
  }

  std::unique_ptr<Module> parseFile() {
    auto module = std::make_unique<Module>();
    while (tok.kind != Tok::Eof) {
      if (tok.kind != Tok::KwKernel && tok.kind != Tok::KwFn)
        return fail(tok.kind == Tok::Error
                        ? lexer.errorMessage()
                        : "expected 'kernel' or 'fn' at top level, found " +
                              describe(tok)),
               nullptr;
      auto fn = parseFunction();
      if (!fn)
        return nullptr;
      module->functions.push_back(std::move(fn));
    }
    return module;
  }

private:
  //===--------------------------------------------------------------------===//
  // Token handling
  //===--------------------------------------------------------------------===//

  void consume() { tok = lexer.next(); }

  static std::string describe(const Token &t) {
    if (t.kind == Tok::Ident || t.kind == Tok::Int || t.kind == Tok::Float)
      return "'" + t.text.str() + "'";
    return tokSpelling(t.kind).str();
  }

  /// Reports an error at the current token (the lexer's message if the
  /// current token is a lexical error) and returns false.
  bool fail(const llvm::Twine &message) {
    if (!failed) {
      if (tok.kind == Tok::Error)
        onError(tok.loc, lexer.errorMessage());
      else
        onError(tok.loc, message);
    }
    failed = true;
    return false;
  }

  bool failAt(SrcLoc loc, const llvm::Twine &message) {
    if (!failed)
      onError(loc, message);
    failed = true;
    return false;
  }

  bool expect(Tok kind, llvm::StringRef context) {
    if (tok.kind == kind) {
      consume();
      return true;
    }
    return fail("expected " + tokSpelling(kind) + " " + context + ", found " +
                describe(tok));
  }

  /// Parses `element`s separated by commas up to the `close` token, which it
  /// consumes; `what` names the list in the error for anything else.
  bool parseList(Tok close, llvm::StringRef what,
                 llvm::function_ref<bool()> element) {
    while (tok.kind != close) {
      if (!element())
        return false;
      if (tok.kind == Tok::Comma)
        consume();
      else if (tok.kind != close)
        return fail("expected ',' or " + tokSpelling(close) + " in " + what +
                    ", found " + describe(tok));
    }
    consume();
    return true;
  }

  /// Expressions separated by commas up to `close`, appended to `out`.
  bool parseExprList(Tok close, llvm::StringRef what,
                     std::vector<ExprPtr> &out) {
    return parseList(close, what, [&] {
      out.push_back(parseExpr());
      return out.back() != nullptr;
    });
  }

  bool expectIdent(std::string &name, SrcLoc &loc, llvm::StringRef what) {
    if (tok.kind != Tok::Ident)
      return fail("expected " + what + ", found " + describe(tok));
    name = tok.text.str();
    loc = tok.loc;
    consume();
    return true;
  }

  /// Guards recursion so that deeply nested input errors out instead of
  /// exhausting the stack.
  struct DepthGuard {
    explicit DepthGuard(Parser &p) : p(p) { ++p.depth; }
    ~DepthGuard() { --p.depth; }
    bool ok() {
      if (p.depth <= kMaxDepth)
        return true;
      return p.fail("program is nested too deeply");
    }
    Parser &p;
  };
  static constexpr int kMaxDepth = 200;

  //===--------------------------------------------------------------------===//
  // Declarations
  //===--------------------------------------------------------------------===//

  std::unique_ptr<Function> parseFunction() {
    auto fn = std::make_unique<Function>();
    fn->isKernel = tok.kind == Tok::KwKernel;
    fn->loc = tok.loc;
    consume();
    SrcLoc nameLoc;
    if (!expectIdent(fn->name, nameLoc,
                     fn->isKernel ? "kernel name" : "function name"))
      return nullptr;
    fn->loc = nameLoc;
    if (!expect(Tok::LParen, "after the name"))
      return nullptr;
    if (!parseList(Tok::RParen, "parameter list", [&] {
          Param param;
          if (!parseParam(param, fn->isKernel))
            return false;
          fn->params.push_back(std::move(param));
          return true;
        }))
      return nullptr;
    if (tok.kind == Tok::Arrow) {
      consume();
      fn->returnType.emplace();
      if (!parseType(*fn->returnType))
        return nullptr;
    }
    if (!parseBlock(fn->body))
      return nullptr;
    return fn;
  }

  bool parseParam(Param &param, bool inKernel) {
    if (tok.kind == Tok::KwConst) {
      param.isConst = true;
      consume();
    }
    if (!expectIdent(param.name, param.loc, "parameter name"))
      return false;
    if (tok.kind == Tok::Colon) {
      consume();
      param.type.emplace();
      if (!parseType(*param.type))
        return false;
    } else if (param.isConst || inKernel) {
      return fail("expected ':' and a type after parameter '" + param.name +
                  "', found " + describe(tok));
    }
    if (param.isConst) {
      if (tok.kind != Tok::Assign)
        return fail("const parameter '" + param.name +
                    "' needs a default value ('= value')");
      consume();
      param.defaultValue = parseExpr();
      return param.defaultValue != nullptr;
    }
    return true;
  }

  bool parseType(TypeAnnotation &type) {
    type.loc = tok.loc;
    if (tok.kind != Tok::Ident)
      return fail("expected a type, found " + describe(tok));
    if (tok.text == "ptr") {
      consume();
      type.isPointer = true;
      if (!expect(Tok::Lt, "after 'ptr'"))
        return false;
      if (tok.kind != Tok::Ident)
        return fail("expected a pointee type, found " + describe(tok));
      type.scalar = tok.text.str();
      consume();
      return expect(Tok::Gt, "to close 'ptr<'");
    }
    type.scalar = tok.text.str();
    consume();
    if (tok.kind != Tok::LBracket)
      return true;
    consume();
    while (true) {
      ExprPtr dim = parseExpr();
      if (!dim)
        return false;
      type.dims.push_back(std::move(dim));
      if (tok.kind == Tok::Comma) {
        consume();
        continue;
      }
      return expect(Tok::RBracket, "to close the tile shape");
    }
  }

  //===--------------------------------------------------------------------===//
  // Statements
  //===--------------------------------------------------------------------===//

  bool parseBlock(Block &block) {
    DepthGuard guard(*this);
    if (!guard.ok() || !expect(Tok::LBrace, "to open a block"))
      return false;
    while (tok.kind != Tok::RBrace) {
      if (tok.kind == Tok::Eof)
        return fail("expected '}' to close the block, found end of file");
      StmtPtr stmt = parseStmt();
      if (!stmt)
        return false;
      block.push_back(std::move(stmt));
    }
    consume();
    return true;
  }

  StmtPtr parseStmt() {
    SrcLoc loc = tok.loc;
    switch (tok.kind) {
    case Tok::KwLet:
    case Tok::KwVar: {
      bool isVar = tok.kind == Tok::KwVar;
      consume();
      if (tok.kind == Tok::LParen) {
        // `let (a, b, ...) = value;`
        auto let = std::make_unique<LetStmt>(tok.loc, "", isVar);
        consume();
        if (!parseList(Tok::RParen, "the names", [&] {
              NameRef ref;
              if (!expectIdent(ref.name, ref.loc, "a variable name"))
                return false;
              let->names.push_back(std::move(ref));
              return true;
            }))
          return nullptr;
        if (let->names.size() < 2)
          return failAt(let->getLoc(), "a parenthesized declaration binds at "
                                       "least two names"),
                 nullptr;
        if (!expect(Tok::Assign, "after the names"))
          return nullptr;
        let->value = parseExpr();
        if (!let->value || !expect(Tok::Semi, "after the declaration"))
          return nullptr;
        return let;
      }
      std::string name;
      SrcLoc nameLoc;
      if (!expectIdent(name, nameLoc, "a variable name"))
        return nullptr;
      auto let = std::make_unique<LetStmt>(nameLoc, name, isVar);
      if (tok.kind == Tok::Colon) {
        consume();
        let->type.emplace();
        if (!parseType(*let->type))
          return nullptr;
      }
      if (!expect(Tok::Assign, "in declaration of '" + name + "'"))
        return nullptr;
      let->value = parseExpr();
      if (!let->value || !expect(Tok::Semi, "after the declaration"))
        return nullptr;
      return let;
    }
    case Tok::KwFor:
      return parseFor();
    case Tok::KwWhile:
      return parseWhile();
    case Tok::KwIf:
      return parseIf();
    case Tok::KwReturn: {
      consume();
      ExprPtr value;
      if (tok.kind != Tok::Semi) {
        value = parseExpr();
        if (!value)
          return nullptr;
      }
      if (!expect(Tok::Semi, "after 'return'"))
        return nullptr;
      return std::make_unique<ReturnStmt>(loc, std::move(value));
    }
    default:
      break;
    }
    ExprPtr expr = parseExpr();
    if (!expr)
      return nullptr;
    if (tok.kind == Tok::Assign) {
      if (auto *tuple = llvm::dyn_cast<TupleExpr>(expr.get())) {
        // `(a, b, ...) = value;`
        auto assign = std::make_unique<AssignStmt>(loc, "", nullptr);
        for (const ExprPtr &element : tuple->elements) {
          auto *name = llvm::dyn_cast<NameExpr>(element.get());
          if (!name)
            return failAt(element->getLoc(),
                          "only a variable name can be assigned to"),
                   nullptr;
          assign->names.push_back({name->name, name->getLoc()});
        }
        consume();
        assign->value = parseExpr();
        if (!assign->value || !expect(Tok::Semi, "after the assignment"))
          return nullptr;
        return assign;
      }
      auto *name = llvm::dyn_cast<NameExpr>(expr.get());
      if (!name)
        return failAt(expr->getLoc(),
                      "only a variable name can be assigned to"),
               nullptr;
      consume();
      ExprPtr value = parseExpr();
      if (!value || !expect(Tok::Semi, "after the assignment"))
        return nullptr;
      return std::make_unique<AssignStmt>(name->getLoc(), name->name,
                                          std::move(value));
    }
    if (!expect(Tok::Semi, "after the expression"))
      return nullptr;
    return std::make_unique<ExprStmt>(loc, std::move(expr));
  }

  StmtPtr parseWhile() {
    SrcLoc loc = tok.loc;
    consume();
    ExprPtr cond = parseExpr();
    if (!cond)
      return nullptr;
    auto loop = std::make_unique<WhileStmt>(loc, std::move(cond));
    if (!parseBlock(loop->body))
      return nullptr;
    return loop;
  }

  StmtPtr parseFor() {
    SrcLoc loc = tok.loc;
    consume();
    std::string var;
    SrcLoc varLoc;
    if (!expectIdent(var, varLoc, "a loop variable"))
      return nullptr;
    auto loop = std::make_unique<ForStmt>(loc, var);
    loop->varLoc = varLoc;
    if (!expect(Tok::KwIn, "after the loop variable"))
      return nullptr;
    if (tok.kind != Tok::Ident || tok.text != "range")
      return fail("expected 'range(lo, hi[, step])' after 'in', found " +
                  describe(tok)),
             nullptr;
    consume();
    if (!expect(Tok::LParen, "after 'range'"))
      return nullptr;
    std::vector<ExprPtr> bounds;
    while (true) {
      ExprPtr e = parseExpr();
      if (!e)
        return nullptr;
      bounds.push_back(std::move(e));
      if (tok.kind == Tok::Comma) {
        consume();
        continue;
      }
      if (!expect(Tok::RParen, "to close 'range('"))
        return nullptr;
      break;
    }
    if (bounds.size() < 2 || bounds.size() > 3)
      return failAt(loc, "a for loop needs 'range(lo, hi)' or "
                         "'range(lo, hi, step)', got " +
                             llvm::Twine(bounds.size()) + " argument(s)"),
             nullptr;
    loop->lo = std::move(bounds[0]);
    loop->hi = std::move(bounds[1]);
    if (bounds.size() == 3)
      loop->step = std::move(bounds[2]);
    if (!parseBlock(loop->body))
      return nullptr;
    return loop;
  }

  StmtPtr parseIf() {
    SrcLoc loc = tok.loc;
    consume();
    ExprPtr cond = parseExpr();
    if (!cond)
      return nullptr;
    auto stmt = std::make_unique<IfStmt>(loc, std::move(cond));
    if (!parseBlock(stmt->thenBody))
      return nullptr;
    if (tok.kind != Tok::KwElse)
      return stmt;
    consume();
    stmt->elseBody.emplace();
    if (tok.kind == Tok::KwIf) {
      DepthGuard guard(*this);
      if (!guard.ok())
        return nullptr;
      StmtPtr nested = parseIf();
      if (!nested)
        return nullptr;
      stmt->elseBody->push_back(std::move(nested));
      return stmt;
    }
    if (!parseBlock(*stmt->elseBody))
      return nullptr;
    return stmt;
  }

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  /// A binary expression, or `a if cond else b` (right-associative).
  ExprPtr parseExpr() {
    ExprPtr value = parseBinary(1);
    if (!value || tok.kind != Tok::KwIf)
      return value;
    DepthGuard guard(*this);
    if (!guard.ok())
      return nullptr;
    SrcLoc loc = tok.loc;
    consume();
    ExprPtr cond = parseBinary(1);
    if (!cond || !expect(Tok::KwElse, "in 'a if cond else b'"))
      return nullptr;
    ExprPtr other = parseExpr();
    if (!other)
      return nullptr;
    auto call = std::make_unique<CallExpr>(loc, "where");
    call->isConditional = true;
    call->args.push_back(std::move(cond));
    call->args.push_back(std::move(value));
    call->args.push_back(std::move(other));
    return call;
  }

  ExprPtr parseBinary(int minPrecedence) {
    DepthGuard guard(*this);
    if (!guard.ok())
      return nullptr;
    ExprPtr lhs = parseUnary();
    while (lhs) {
      int prec = binaryPrecedence(tok.kind);
      if (prec < minPrecedence || prec == 0)
        break;
      Tok op = tok.kind;
      SrcLoc opLoc = tok.loc;
      consume();
      ExprPtr rhs = parseBinary(prec + 1);
      if (!rhs)
        return nullptr;
      lhs = std::make_unique<BinaryExpr>(opLoc, op, std::move(lhs),
                                         std::move(rhs));
    }
    return lhs;
  }

  ExprPtr parseUnary() {
    if (tok.kind == Tok::Minus || tok.kind == Tok::Bang ||
        tok.kind == Tok::Tilde) {
      DepthGuard guard(*this);
      if (!guard.ok())
        return nullptr;
      Tok op = tok.kind;
      SrcLoc loc = tok.loc;
      consume();
      ExprPtr operand = parseUnary();
      if (!operand)
        return nullptr;
      return std::make_unique<UnaryExpr>(loc, op, std::move(operand));
    }
    return parsePostfix();
  }

  ExprPtr parsePostfix() {
    ExprPtr expr = parsePrimary();
    while (expr && tok.kind == Tok::LBracket) {
      auto sub = std::make_unique<SubscriptExpr>(tok.loc, std::move(expr));
      consume();
      while (true) {
        if (tok.kind == Tok::Colon)
          sub->indices.push_back(SubscriptExpr::Index::Slice);
        else if (tok.kind == Tok::KwNone)
          sub->indices.push_back(SubscriptExpr::Index::NewAxis);
        else
          return fail("expected ':' or 'None' in a subscript, found " +
                      describe(tok)),
                 nullptr;
        consume();
        if (tok.kind == Tok::Comma) {
          consume();
          continue;
        }
        if (!expect(Tok::RBracket, "to close the subscript"))
          return nullptr;
        break;
      }
      expr = std::move(sub);
    }
    return expr;
  }

  ExprPtr parsePrimary() {
    SrcLoc loc = tok.loc;
    switch (tok.kind) {
    case Tok::Int: {
      if (tok.intOverflow ||
          tok.intValue >
              static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        return fail("integer literal '" + tok.text + "' is too large"), nullptr;
      auto e =
          std::make_unique<IntExpr>(loc, static_cast<int64_t>(tok.intValue));
      consume();
      return e;
    }
    case Tok::Float: {
      auto e = std::make_unique<FloatExpr>(loc, tok.floatValue);
      consume();
      return e;
    }
    case Tok::String: {
      auto e = std::make_unique<StringExpr>(loc, tok.text.str());
      consume();
      return e;
    }
    case Tok::KwInf:
      consume();
      return std::make_unique<FloatExpr>(
          loc, std::numeric_limits<double>::infinity());
    case Tok::KwTrue:
    case Tok::KwFalse: {
      bool value = tok.kind == Tok::KwTrue;
      consume();
      return std::make_unique<BoolExpr>(loc, value);
    }
    case Tok::Ident: {
      std::string name = tok.text.str();
      consume();
      if (tok.kind == Tok::LParen)
        return parseCall(loc, std::move(name));
      return std::make_unique<NameExpr>(loc, std::move(name));
    }
    case Tok::LParen: {
      consume();
      ExprPtr inner = parseExpr();
      if (!inner)
        return nullptr;
      if (tok.kind == Tok::Comma) {
        // `(a, b, ...)`: a tuple.
        auto tuple = std::make_unique<TupleExpr>(loc);
        tuple->elements.push_back(std::move(inner));
        consume();
        if (!parseExprList(Tok::RParen, "a tuple", tuple->elements))
          return nullptr;
        if (tuple->elements.size() < 2)
          return failAt(loc, "a tuple needs at least two values"), nullptr;
        return tuple;
      }
      if (!expect(Tok::RParen, "to close '('"))
        return nullptr;
      return inner;
    }
    case Tok::LBracket: {
      auto list = std::make_unique<ListExpr>(loc);
      consume();
      if (!parseExprList(Tok::RBracket, "a list", list->elements))
        return nullptr;
      return list;
    }
    default:
      return fail("expected an expression, found " + describe(tok)), nullptr;
    }
  }

  /// The kind of the token after the current one.
  Tok peekKind() const {
    Lexer copy = lexer;
    return copy.next().kind;
  }

  ExprPtr parseCall(SrcLoc loc, std::string callee) {
    auto call = std::make_unique<CallExpr>(loc, std::move(callee));
    consume(); // '('
    if (!parseList(Tok::RParen, "the argument list", [&] {
          if (tok.kind == Tok::Ident && peekKind() == Tok::Colon) {
            KeywordArg kw{tok.text.str(), tok.loc, nullptr};
            consume();
            consume();
            kw.value = parseExpr();
            if (!kw.value)
              return false;
            call->keywords.push_back(std::move(kw));
            return true;
          }
          ExprPtr arg = parseExpr();
          if (!arg)
            return false;
          if (!call->keywords.empty())
            return failAt(arg->getLoc(),
                          "positional argument after a keyword argument");
          call->args.push_back(std::move(arg));
          return true;
        }))
      return nullptr;
    return call;
  }

  Lexer lexer;
  ParseErrorFn onError;
  Token tok;
  int depth = 0;
  bool failed = false;
};

} // namespace

std::unique_ptr<Module> tile::parseModule(llvm::StringRef source,
                                          ParseErrorFn onError) {
  return Parser(source, onError).parseFile();
}
