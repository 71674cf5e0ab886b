//===- LexerTest.cpp - tests of the .tile lexer ---------------------------===//
#include "tile/Frontend/Lexer.h"

#include "gtest/gtest.h"

#include <cmath>
#include <vector>

using namespace tile;

namespace {
std::vector<Token> lexAll(llvm::StringRef source) {
  Lexer lexer(source);
  std::vector<Token> tokens;
  while (true) {
    tokens.push_back(lexer.next());
    if (tokens.back().kind == Tok::Eof || tokens.back().kind == Tok::Error)
      return tokens;
  }
}

TEST(LexerTest, KeywordsIdentifiersAndPunctuation) {
  auto tokens = lexAll("kernel k(const B: i32 = 4) -> { let var_1 }");
  std::vector<Tok> kinds;
  for (const Token &t : tokens)
    kinds.push_back(t.kind);
  std::vector<Tok> expected = {
      Tok::KwKernel, Tok::Ident,  Tok::LParen, Tok::KwConst, Tok::Ident,
      Tok::Colon,    Tok::Ident,  Tok::Assign, Tok::Int,     Tok::RParen,
      Tok::Arrow,    Tok::LBrace, Tok::KwLet,  Tok::Ident,   Tok::RBrace,
      Tok::Eof};
  EXPECT_EQ(kinds, expected);
  EXPECT_EQ(tokens[13].text, "var_1");
}

TEST(LexerTest, TwoCharacterOperators) {
  auto tokens = lexAll("<< >> <= >= == != && || < > = ! & |");
  std::vector<Tok> expected = {Tok::Shl,   Tok::Shr,    Tok::Le,   Tok::Ge,
                               Tok::EqEq,  Tok::NotEq,  Tok::AndAnd,
                               Tok::OrOr,  Tok::Lt,     Tok::Gt,   Tok::Assign,
                               Tok::Bang,  Tok::Amp,    Tok::Pipe, Tok::Eof};
  ASSERT_EQ(tokens.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(tokens[i].kind, expected[i]) << "token " << i;
}

TEST(LexerTest, Numbers) {
  auto tokens = lexAll("42 1.5 2e3 7.25e-2 18446744073709551616");
  ASSERT_EQ(tokens[0].kind, Tok::Int);
  EXPECT_EQ(tokens[0].intValue, 42u);
  ASSERT_EQ(tokens[1].kind, Tok::Float);
  EXPECT_DOUBLE_EQ(tokens[1].floatValue, 1.5);
  ASSERT_EQ(tokens[2].kind, Tok::Float);
  EXPECT_DOUBLE_EQ(tokens[2].floatValue, 2000.0);
  EXPECT_DOUBLE_EQ(tokens[3].floatValue, 0.0725);
  ASSERT_EQ(tokens[4].kind, Tok::Int);
  EXPECT_TRUE(tokens[4].intOverflow);
}

TEST(LexerTest, PositionsSkipCommentsAndLines) {
  auto tokens = lexAll("// header\n  let /* inline\n */ x");
  ASSERT_EQ(tokens[0].kind, Tok::KwLet);
  EXPECT_EQ(tokens[0].loc.line, 2u);
  EXPECT_EQ(tokens[0].loc.col, 3u);
  ASSERT_EQ(tokens[1].kind, Tok::Ident);
  EXPECT_EQ(tokens[1].loc.line, 3u);
  EXPECT_EQ(tokens[1].loc.col, 5u);
}

TEST(LexerTest, Errors) {
  {
    Lexer lexer("let @");
    lexer.next();
    Token t = lexer.next();
    EXPECT_EQ(t.kind, Tok::Error);
    EXPECT_EQ(t.loc.col, 5u);
    EXPECT_EQ(lexer.errorMessage(), "unexpected character '@'");
  }
  {
    Lexer lexer("x /* open");
    lexer.next();
    Token t = lexer.next();
    EXPECT_EQ(t.kind, Tok::Error);
    EXPECT_EQ(lexer.errorMessage(), "unterminated block comment");
  }
  {
    Lexer lexer("12abc");
    EXPECT_EQ(lexer.next().kind, Tok::Error);
    EXPECT_EQ(lexer.errorMessage(), "invalid character in number");
  }
  {
    Lexer lexer("1e+");
    EXPECT_EQ(lexer.next().kind, Tok::Error);
    EXPECT_EQ(lexer.errorMessage(), "malformed exponent in number");
  }
}

TEST(LexerTest, NonPrintableCharacterIsEscaped) {
  Lexer lexer(llvm::StringRef("\x01", 1));
  EXPECT_EQ(lexer.next().kind, Tok::Error);
  EXPECT_EQ(lexer.errorMessage(), "unexpected character '\\x1'");
}
} // namespace
