//===- Lexer.cpp - tokens of the .tile language ---------------------------===//
#include "tile/Frontend/Lexer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>

using namespace tile;

llvm::StringRef tile::tokSpelling(Tok kind) {
  switch (kind) {
  case Tok::Eof:
    return "end of file";
  case Tok::Error:
    return "invalid token";
  case Tok::Ident:
    return "identifier";
  case Tok::Int:
    return "integer literal";
  case Tok::Float:
    return "float literal";
  case Tok::String:
    return "string literal";
  case Tok::KwKernel:
    return "'kernel'";
  case Tok::KwFn:
    return "'fn'";
  case Tok::KwConst:
    return "'const'";
  case Tok::KwLet:
    return "'let'";
  case Tok::KwVar:
    return "'var'";
  case Tok::KwFor:
    return "'for'";
  case Tok::KwWhile:
    return "'while'";
  case Tok::KwIn:
    return "'in'";
  case Tok::KwIf:
    return "'if'";
  case Tok::KwElse:
    return "'else'";
  case Tok::KwReturn:
    return "'return'";
  case Tok::KwTrue:
    return "'true'";
  case Tok::KwFalse:
    return "'false'";
  case Tok::KwInf:
    return "'inf'";
  case Tok::KwNone:
    return "'None'";
  case Tok::LParen:
    return "'('";
  case Tok::RParen:
    return "')'";
  case Tok::LBrace:
    return "'{'";
  case Tok::RBrace:
    return "'}'";
  case Tok::LBracket:
    return "'['";
  case Tok::RBracket:
    return "']'";
  case Tok::Comma:
    return "','";
  case Tok::Colon:
    return "':'";
  case Tok::Semi:
    return "';'";
  case Tok::Arrow:
    return "'->'";
  case Tok::Assign:
    return "'='";
  case Tok::Plus:
    return "'+'";
  case Tok::Minus:
    return "'-'";
  case Tok::Star:
    return "'*'";
  case Tok::Slash:
    return "'/'";
  case Tok::Percent:
    return "'%'";
  case Tok::Shl:
    return "'<<'";
  case Tok::Shr:
    return "'>>'";
  case Tok::Amp:
    return "'&'";
  case Tok::Pipe:
    return "'|'";
  case Tok::Caret:
    return "'^'";
  case Tok::Tilde:
    return "'~'";
  case Tok::Bang:
    return "'!'";
  case Tok::EqEq:
    return "'=='";
  case Tok::NotEq:
    return "'!='";
  case Tok::Lt:
    return "'<'";
  case Tok::Le:
    return "'<='";
  case Tok::Gt:
    return "'>'";
  case Tok::Ge:
    return "'>='";
  case Tok::AndAnd:
    return "'&&'";
  case Tok::OrOr:
    return "'||'";
  }
  return "token";
}

void Lexer::advance() {
  if (pos >= source.size())
    return;
  if (source[pos] == '\n') {
    ++cur.line;
    cur.col = 1;
  } else {
    ++cur.col;
  }
  ++pos;
}

bool Lexer::skipTrivia(SrcLoc &errorLoc) {
  while (pos < source.size()) {
    char c = peek();
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      advance();
    } else if (c == '/' && peek(1) == '/') {
      while (pos < source.size() && peek() != '\n')
        advance();
    } else if (c == '/' && peek(1) == '*') {
      errorLoc = cur;
      advance();
      advance();
      while (!(peek() == '*' && peek(1) == '/')) {
        if (pos >= source.size())
          return false;
        advance();
      }
      advance();
      advance();
    } else {
      break;
    }
  }
  return true;
}

Token Lexer::makeError(SrcLoc loc, size_t start, std::string message) {
  error = std::move(message);
  Token tok;
  tok.kind = Tok::Error;
  tok.loc = loc;
  tok.text = source.slice(start, std::max(pos, start + 1));
  return tok;
}

Token Lexer::lexNumber(SrcLoc loc, size_t start) {
  bool isFloat = false;
  while (std::isdigit(static_cast<unsigned char>(peek())))
    advance();
  if (peek() == '.' && std::isdigit(static_cast<unsigned char>(peek(1)))) {
    isFloat = true;
    advance();
    while (std::isdigit(static_cast<unsigned char>(peek())))
      advance();
  }
  if (peek() == 'e' || peek() == 'E') {
    size_t signAhead = (peek(1) == '+' || peek(1) == '-') ? 2 : 1;
    if (!std::isdigit(static_cast<unsigned char>(peek(signAhead))))
      return makeError(loc, start, "malformed exponent in number");
    isFloat = true;
    for (size_t i = 0; i < signAhead; ++i)
      advance();
    while (std::isdigit(static_cast<unsigned char>(peek())))
      advance();
  }
  if (std::isalpha(static_cast<unsigned char>(peek())) || peek() == '_') {
    advance();
    return makeError(loc, start, "invalid character in number");
  }
  Token tok;
  tok.loc = loc;
  tok.text = source.slice(start, pos);
  if (isFloat) {
    tok.kind = Tok::Float;
    std::string text = tok.text.str();
    tok.floatValue = std::strtod(text.c_str(), nullptr);
  } else {
    tok.kind = Tok::Int;
    tok.intOverflow = tok.text.getAsInteger(10, tok.intValue);
  }
  return tok;
}

Token Lexer::next() {
  SrcLoc commentLoc;
  if (!skipTrivia(commentLoc)) {
    error = "unterminated block comment";
    Token tok;
    tok.kind = Tok::Error;
    tok.loc = commentLoc;
    return tok;
  }
  SrcLoc loc = cur;
  size_t start = pos;
  Token tok;
  tok.loc = loc;
  if (pos >= source.size()) {
    tok.kind = Tok::Eof;
    return tok;
  }
  char c = peek();
  if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
    while (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '_')
      advance();
    tok.text = source.slice(start, pos);
    tok.kind = llvm::StringSwitch<Tok>(tok.text)
                   .Case("kernel", Tok::KwKernel)
                   .Case("fn", Tok::KwFn)
                   .Case("const", Tok::KwConst)
                   .Case("let", Tok::KwLet)
                   .Case("var", Tok::KwVar)
                   .Case("for", Tok::KwFor)
                   .Case("while", Tok::KwWhile)
                   .Case("in", Tok::KwIn)
                   .Case("if", Tok::KwIf)
                   .Case("else", Tok::KwElse)
                   .Case("return", Tok::KwReturn)
                   .Case("true", Tok::KwTrue)
                   .Case("false", Tok::KwFalse)
                   .Case("inf", Tok::KwInf)
                   .Case("None", Tok::KwNone)
                   .Default(Tok::Ident);
    return tok;
  }
  if (std::isdigit(static_cast<unsigned char>(c)))
    return lexNumber(loc, start);
  if (c == '"') {
    // "text": no escapes, no newlines; the token's text is the contents.
    advance();
    while (pos < source.size() && source[pos] != '"' && source[pos] != '\n')
      advance();
    if (pos >= source.size() || source[pos] != '"')
      return makeError(loc, start, "unterminated string literal");
    tok.kind = Tok::String;
    tok.text = source.slice(start + 1, pos);
    advance();
    return tok;
  }

  auto single = [&](Tok kind) {
    advance();
    tok.kind = kind;
    tok.text = source.slice(start, pos);
    return tok;
  };
  auto pair = [&](char second, Tok two, Tok one) {
    if (peek(1) == second) {
      advance();
      return single(two);
    }
    return single(one);
  };
  // One-character tokens.
  static const std::pair<char, Tok> singles[] = {
      {'(', Tok::LParen},   {')', Tok::RParen},   {'{', Tok::LBrace},
      {'}', Tok::RBrace},   {'[', Tok::LBracket}, {']', Tok::RBracket},
      {',', Tok::Comma},    {':', Tok::Colon},    {';', Tok::Semi},
      {'+', Tok::Plus},     {'*', Tok::Star},     {'/', Tok::Slash},
      {'%', Tok::Percent},  {'^', Tok::Caret},    {'~', Tok::Tilde}};
  for (auto [ch, kind] : singles)
    if (c == ch)
      return single(kind);
  switch (c) {
  case '-':
    return pair('>', Tok::Arrow, Tok::Minus);
  case '=':
    return pair('=', Tok::EqEq, Tok::Assign);
  case '!':
    return pair('=', Tok::NotEq, Tok::Bang);
  case '&':
    return pair('&', Tok::AndAnd, Tok::Amp);
  case '|':
    return pair('|', Tok::OrOr, Tok::Pipe);
  case '<':
    if (peek(1) == '<') {
      advance();
      return single(Tok::Shl);
    }
    return pair('=', Tok::Le, Tok::Lt);
  case '>':
    if (peek(1) == '>') {
      advance();
      return single(Tok::Shr);
    }
    return pair('=', Tok::Ge, Tok::Gt);
  default:
    break;
  }
  advance();
  std::string shown = std::isprint(static_cast<unsigned char>(c))
                          ? std::string(1, c)
                          : "\\x" + llvm::utohexstr(
                                        static_cast<unsigned char>(c));
  return makeError(loc, start, "unexpected character '" + shown + "'");
}
