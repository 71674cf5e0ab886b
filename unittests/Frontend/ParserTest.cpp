//===- ParserTest.cpp - tests of the .tile parser -------------------------===//
#include "tile/Frontend/Parser.h"

#include "gtest/gtest.h"

#include <cmath>
#include <string>

using namespace tile;
using namespace tile::ast;

namespace {
struct ParseResult {
  std::unique_ptr<Module> module;
  std::string error;
  SrcLoc errorLoc;
};

ParseResult parse(llvm::StringRef source) {
  ParseResult result;
  result.module = parseModule(source, [&](SrcLoc loc, const llvm::Twine &msg) {
    result.error = msg.str();
    result.errorLoc = loc;
  });
  return result;
}

TEST(ParserTest, KernelSignature) {
  auto r = parse("kernel k(x: ptr<f16>, n: i32, const B: i32 = 64) {}\n"
                 "fn helper(v, w: f32[16, B]) -> f32 { return v; }");
  ASSERT_TRUE(r.module) << r.error;
  ASSERT_EQ(r.module->functions.size(), 2u);
  const Function &k = *r.module->functions[0];
  EXPECT_TRUE(k.isKernel);
  ASSERT_EQ(k.params.size(), 3u);
  EXPECT_TRUE(k.params[0].type->isPointer);
  EXPECT_EQ(k.params[0].type->scalar, "f16");
  EXPECT_TRUE(k.params[2].isConst);
  ASSERT_TRUE(k.params[2].defaultValue);
  const Function &h = *r.module->functions[1];
  EXPECT_FALSE(h.isKernel);
  EXPECT_FALSE(h.params[0].type.has_value());
  EXPECT_EQ(h.params[1].type->dims.size(), 2u);
  ASSERT_TRUE(h.returnType.has_value());
}

TEST(ParserTest, PrecedenceFollowsTheSpec) {
  // `a + b * c < d & e` parses as `((a + (b * c)) < (d & e))`: & binds
  // tighter than comparisons, * tighter than +.
  auto r = parse("kernel k() { let x = a + b * c < d & e; }");
  ASSERT_TRUE(r.module) << r.error;
  auto *let = llvm::dyn_cast<LetStmt>(r.module->functions[0]->body[0].get());
  ASSERT_TRUE(let);
  auto *cmp = llvm::dyn_cast<BinaryExpr>(let->value.get());
  ASSERT_TRUE(cmp);
  EXPECT_EQ(cmp->op, Tok::Lt);
  auto *add = llvm::dyn_cast<BinaryExpr>(cmp->lhs.get());
  ASSERT_TRUE(add);
  EXPECT_EQ(add->op, Tok::Plus);
  auto *mul = llvm::dyn_cast<BinaryExpr>(add->rhs.get());
  ASSERT_TRUE(mul);
  EXPECT_EQ(mul->op, Tok::Star);
  auto *band = llvm::dyn_cast<BinaryExpr>(cmp->rhs.get());
  ASSERT_TRUE(band);
  EXPECT_EQ(band->op, Tok::Amp);
}

TEST(ParserTest, CallsKeywordsAndSubscripts) {
  auto r = parse("kernel k() { let v = load(p + r[:, None], m, other: -inf); }");
  ASSERT_TRUE(r.module) << r.error;
  auto *let = llvm::dyn_cast<LetStmt>(r.module->functions[0]->body[0].get());
  auto *call = llvm::dyn_cast<CallExpr>(let->value.get());
  ASSERT_TRUE(call);
  EXPECT_EQ(call->callee, "load");
  EXPECT_EQ(call->args.size(), 2u);
  ASSERT_EQ(call->keywords.size(), 1u);
  EXPECT_EQ(call->keywords[0].name, "other");
  auto *neg = llvm::dyn_cast<UnaryExpr>(call->keywords[0].value.get());
  ASSERT_TRUE(neg);
  auto *inf = llvm::dyn_cast<FloatExpr>(neg->operand.get());
  ASSERT_TRUE(inf);
  EXPECT_TRUE(std::isinf(inf->value));
  auto *sum = llvm::dyn_cast<BinaryExpr>(call->args[0].get());
  auto *sub = llvm::dyn_cast<SubscriptExpr>(sum->rhs.get());
  ASSERT_TRUE(sub);
  ASSERT_EQ(sub->indices.size(), 2u);
  EXPECT_EQ(sub->indices[0], SubscriptExpr::Index::Slice);
  EXPECT_EQ(sub->indices[1], SubscriptExpr::Index::NewAxis);
}

TEST(ParserTest, StatementsAndElseIf) {
  auto r = parse("kernel k() { var a = 0; for i in range(0, 8, 2) { a = a + i; }"
                 " if a > 1 { return; } else if a < 0 { a = 1; } else { } }");
  ASSERT_TRUE(r.module) << r.error;
  const Block &body = r.module->functions[0]->body;
  ASSERT_EQ(body.size(), 3u);
  auto *loop = llvm::dyn_cast<ForStmt>(body[1].get());
  ASSERT_TRUE(loop);
  EXPECT_TRUE(loop->step);
  auto *branch = llvm::dyn_cast<IfStmt>(body[2].get());
  ASSERT_TRUE(branch);
  ASSERT_TRUE(branch->elseBody.has_value());
  ASSERT_EQ(branch->elseBody->size(), 1u);
  EXPECT_TRUE(llvm::isa<IfStmt>((*branch->elseBody)[0].get()));
}

TEST(ParserTest, ErrorsCarryPositions) {
  auto r = parse("kernel k() {\n  let x = (1 + 2;\n}");
  EXPECT_FALSE(r.module);
  EXPECT_EQ(r.error, "expected ')' to close '(', found ';'");
  EXPECT_EQ(r.errorLoc.line, 2u);
  EXPECT_EQ(r.errorLoc.col, 17u);
}

TEST(ParserTest, DeepNestingIsAnErrorNotACrash) {
  std::string source = "kernel k() { let x = " + std::string(100000, '(') + ";}";
  auto r = parse(source);
  EXPECT_FALSE(r.module);
  EXPECT_EQ(r.error, "program is nested too deeply");
}
} // namespace
