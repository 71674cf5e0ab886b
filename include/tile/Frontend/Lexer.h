//===- Lexer.h - tokens of the .tile language -------------------*- C++ -*-===//
#ifndef TILE_FRONTEND_LEXER_H
#define TILE_FRONTEND_LEXER_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace tile {

/// A 1-based source position.
struct SrcLoc {
  unsigned line = 1;
  unsigned col = 1;
};

/// Kinds of tokens.
enum class Tok {
  Eof,
  Error,
  Ident,
  Int,
  Float,
  String,
  // Keywords.
  KwKernel,
  KwFn,
  KwConst,
  KwLet,
  KwVar,
  KwFor,
  KwWhile,
  KwIn,
  KwIf,
  KwElse,
  KwReturn,
  KwTrue,
  KwFalse,
  KwInf,
  KwNone,
  // Punctuation.
  LParen,
  RParen,
  LBrace,
  RBrace,
  LBracket,
  RBracket,
  Comma,
  Colon,
  Semi,
  Arrow,
  Assign,
  // Operators.
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  Shl,
  Shr,
  Amp,
  Pipe,
  Caret,
  Tilde,
  Bang,
  EqEq,
  NotEq,
  Lt,
  Le,
  Gt,
  Ge,
  AndAnd,
  OrOr,
};

/// Spelling of a token kind for diagnostics, e.g. "';'" or "identifier".
llvm::StringRef tokSpelling(Tok kind);

/// A token with its text and position.
struct Token {
  Tok kind = Tok::Eof;
  llvm::StringRef text;
  SrcLoc loc;
  /// For Int tokens: the value (valid when `text` fits in 64 bits).
  uint64_t intValue = 0;
  bool intOverflow = false;
  /// For Float tokens.
  double floatValue = 0.0;
};

/// Splits .tile source text into tokens. On a lexical error it returns a
/// Tok::Error token whose `errorMessage()` says what is wrong.
class Lexer {
public:
  explicit Lexer(llvm::StringRef source) : source(source) {}

  /// Returns the next token, or Eof at the end (repeatedly).
  Token next();
  /// The message of the last Tok::Error token.
  const std::string &errorMessage() const { return error; }

private:
  char peek(size_t ahead = 0) const {
    return pos + ahead < source.size() ? source[pos + ahead] : '\0';
  }
  void advance();
  /// Skips whitespace and comments; false on an unterminated block comment.
  bool skipTrivia(SrcLoc &errorLoc);
  Token makeError(SrcLoc loc, size_t start, std::string message);
  Token lexNumber(SrcLoc loc, size_t start);

  llvm::StringRef source;
  size_t pos = 0;
  SrcLoc cur;
  std::string error;
};

} // namespace tile

#endif // TILE_FRONTEND_LEXER_H
