//===- TypeRulesTest.cpp - broadcasting and promotion ---------------------===//
#include "tile/Frontend/TypeRules.h"

#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "gtest/gtest.h"

using namespace tile;

namespace {
TEST(TypeRulesTest, BroadcastShapes) {
  using V = llvm::SmallVector<int64_t>;
  EXPECT_EQ(*broadcastShapes({128, 1}, {1, 64}), (V{128, 64}));
  EXPECT_EQ(*broadcastShapes({64}, {32, 64}), (V{32, 64}));
  EXPECT_EQ(*broadcastShapes({}, {8}), (V{8}));
  EXPECT_EQ(*broadcastShapes({}, {}), (V{}));
  EXPECT_EQ(*broadcastShapes({4, 1, 2}, {3, 1}), (V{4, 3, 2}));
  EXPECT_FALSE(broadcastShapes({128}, {64}).has_value());
  EXPECT_FALSE(broadcastShapes({2, 3}, {3, 3}).has_value());
}

TEST(TypeRulesTest, Promotion) {
  mlir::MLIRContext context;
  mlir::Builder b(&context);
  EXPECT_EQ(promoteTypes(b.getI8Type(), b.getI32Type()), b.getI32Type());
  EXPECT_EQ(promoteTypes(b.getI1Type(), b.getI64Type()), b.getI64Type());
  EXPECT_EQ(promoteTypes(b.getI32Type(), b.getF16Type()), b.getF16Type());
  EXPECT_EQ(promoteTypes(b.getF16Type(), b.getF32Type()), b.getF32Type());
  EXPECT_EQ(promoteTypes(b.getF16Type(), b.getBF16Type()), b.getF32Type());
  EXPECT_EQ(promoteTypes(b.getF64Type(), b.getF32Type()), b.getF64Type());
  context.loadDialect<TileDialect>();
  auto ptr = PointerType::get(&context, b.getF32Type());
  EXPECT_FALSE(promoteTypes(ptr, b.getI32Type()));
}

TEST(TypeRulesTest, NamesAndFormatting) {
  mlir::MLIRContext context;
  context.loadDialect<TileDialect>();
  mlir::Builder b(&context);
  EXPECT_EQ(scalarTypeFromName(&context, "bf16"), b.getBF16Type());
  EXPECT_EQ(scalarTypeFromName(&context, "i1"), b.getI1Type());
  EXPECT_FALSE(scalarTypeFromName(&context, "f8"));
  EXPECT_EQ(formatType(b.getF32Type(), {64, 32}), "f32[64, 32]");
  EXPECT_EQ(formatType(PointerType::get(&context, b.getF16Type()), {}),
            "ptr<f16>");
  EXPECT_EQ(formatType(b.getI32Type(), {}), "i32");
  EXPECT_TRUE(isPowerOfTwo(1024));
  EXPECT_FALSE(isPowerOfTwo(781));
  EXPECT_FALSE(isPowerOfTwo(0));
}
} // namespace
