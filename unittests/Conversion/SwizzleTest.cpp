//===- SwizzleTest.cpp - bank conflicts of the shared-memory swizzles -----===//
//
// Shared memory has 32 banks of 4 bytes. A warp's 32-bit loads conflict when
// two lanes read different words of one bank; 16-byte accesses (ldmatrix
// rows, vector loads) are served 8 lanes at a time and conflict when two of
// those 8 read different 16-byte chunks of one 128-byte line position. These
// tests compute the addresses the kernels' fragment and operand reads use,
// through SwizzledTile::offset, for the tile shapes the tuner tries.
//
//===----------------------------------------------------------------------===//
#include "tile/Conversion/TileToGPU/LayoutMath.h"

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

#include <map>
#include <set>
#include <vector>

using namespace tile;

namespace {

class SwizzleTest : public ::testing::Test {
protected:
  SwizzleTest() { ctx.loadDialect<TileDialect>(); }

  /// A rows x cols tile of `elem` (a 2-D blocked tile, or operand opIdx of
  /// an mma dot when opIdx >= 0).
  SwizzledTile tile(int64_t rows, int64_t cols, mlir::Type elem,
                    int opIdx = -1) {
    auto blocked =
        BlockedEncodingAttr::get(&ctx, {1, 2}, {8, 4}, {2, 2}, {1, 0});
    mlir::Attribute encoding = blocked;
    if (opIdx >= 0)
      encoding = DotOperandEncodingAttr::get(&ctx, opIdx, blocked);
    return SwizzledTile::get(
        mlir::RankedTensorType::get({rows, cols}, elem, encoding));
  }

  /// A rows x cols tile of `elem` stored transposed (order [0, 1]: stored
  /// row r is tile column r), as tile-promote-shared stores an operand
  /// loaded along its first dimension.
  SwizzledTile transposedTile(int64_t rows, int64_t cols, mlir::Type elem,
                              bool elementReads) {
    auto encoding = SharedEncodingAttr::getSwizzled(&ctx, {rows, cols}, elem,
                                                    {0, 1}, elementReads);
    return SwizzledTile::get(encoding, {rows, cols}, elem);
  }

  /// Whether 8 rows starting at `row0` reading the 16 bytes at column `col`
  /// (an ldmatrix matrix, or 8 lanes' vector loads) hit 8 bank groups.
  static bool rowsConflictFree(const SwizzledTile &t, int64_t row0,
                               int64_t col) {
    std::set<int64_t> groups;
    for (int64_t r = row0; r < row0 + 8; ++r)
      groups.insert(t.offset(r, col) * t.elemBytes % 128 / 16);
    return groups.size() == 8;
  }

  mlir::MLIRContext ctx;
};

TEST_F(SwizzleTest, LdmatrixRowsHitEightBankGroups) {
  mlir::Builder b(&ctx);
  struct Case {
    mlir::Type elem;
    int opIdx;
    std::vector<int64_t> colsList;
  };
  // A (M x K): f16 and tf32 (ldmatrix of 32-bit pairs); B (K x N): f16.
  for (const Case &c : {Case{b.getF16Type(), 0, {16, 32, 64}},
                        Case{b.getF32Type(), 0, {8, 16, 32, 64}},
                        Case{b.getF16Type(), 1, {16, 32, 64, 128, 256}},
                        Case{b.getBF16Type(), 0, {16, 32, 64}}}) {
    for (int64_t cols : c.colsList) {
      SwizzledTile t = tile(128, cols, c.elem, c.opIdx);
      int64_t perChunk = 16 / t.elemBytes;
      for (int64_t row0 = 0; row0 < 128; row0 += 8)
        for (int64_t col = 0; col < cols; col += perChunk)
          EXPECT_TRUE(rowsConflictFree(t, row0, col))
              << "opIdx " << c.opIdx << ", " << cols << " columns of "
              << t.elemBytes << "-byte elements, rows " << row0 << "+, column "
              << col;
    }
  }
}

TEST_F(SwizzleTest, TF32BFragmentLoadsHit32Banks) {
  mlir::Builder b(&ctx);
  // Lane l reads B[k0 + l % 4][n0 + l / 4] (and the same 4 rows higher).
  for (int64_t bk : {8, 16, 32, 64})
    for (int64_t bn : {8, 16, 32, 64, 128, 256}) {
      SwizzledTile t = tile(bk, bn, b.getF32Type(), /*opIdx=*/1);
      for (int64_t k0 = 0; k0 < bk; k0 += 4)
        for (int64_t n0 = 0; n0 < bn; n0 += 8) {
          std::set<int64_t> banks;
          for (int64_t lane = 0; lane < 32; ++lane)
            banks.insert(t.offset(k0 + lane % 4, n0 + lane / 4) % 32);
          EXPECT_EQ(banks.size(), 32u)
              << bk << "x" << bn << " at k " << k0 << ", n " << n0;
        }
    }
}

TEST_F(SwizzleTest, FmaOperandRowsHitEightBankGroups) {
  mlir::Builder b(&ctx);
  // An FMA dot reads A's rows in 16-byte vectors along k.
  for (int64_t bk : {8, 16, 32, 64}) {
    SwizzledTile t = tile(128, bk, b.getF32Type());
    for (int64_t row0 = 0; row0 < 128; row0 += 8)
      for (int64_t col = 0; col < bk; col += 4)
        EXPECT_TRUE(rowsConflictFree(t, row0, col)) << bk << " " << row0;
  }
}

TEST_F(SwizzleTest, TransposedLdmatrixRowsHitEightBankGroups) {
  mlir::Builder b(&ctx);
  // A stored [k][m] (ldmatrix.trans reads 8 k rows of 8 m) and B stored
  // [n][k] (ldmatrix reads 8 n rows of 8 k): tile column c is stored row c.
  for (mlir::Type elem :
       {mlir::Type(b.getF16Type()), mlir::Type(b.getBF16Type())})
    for (int64_t rows : {16, 32, 64, 128, 256})
      for (int64_t cols : {16, 32, 64, 128}) {
        SwizzledTile t = transposedTile(rows, cols, elem, false);
        EXPECT_TRUE(t.transposed);
        for (int64_t c0 = 0; c0 < cols; c0 += 8)
          for (int64_t r = 0; r < rows; r += 8) {
            std::set<int64_t> groups;
            for (int64_t c = c0; c < c0 + 8; ++c)
              groups.insert(t.offset(r, c) * t.elemBytes % 128 / 16);
            EXPECT_EQ(groups.size(), 8u)
                << rows << "x" << cols << " stored transposed, columns "
                << c0 << "+, rows from " << r;
          }
      }
}

TEST_F(SwizzleTest, TransposedTF32ElementLoadsHit32Banks) {
  mlir::Builder b(&ctx);
  // tf32 A stored [k][m]: lane l reads A[m0 + l / 4][k0 + l % 4], four
  // stored rows of eight consecutive words.
  for (int64_t bm : {16, 32, 64, 128, 256})
    for (int64_t bk : {8, 16, 32, 64}) {
      SwizzledTile t = transposedTile(bm, bk, b.getF32Type(), true);
      for (int64_t m0 = 0; m0 < bm; m0 += 8)
        for (int64_t k0 = 0; k0 < bk; k0 += 4) {
          std::set<int64_t> banks;
          for (int64_t lane = 0; lane < 32; ++lane)
            banks.insert(t.offset(m0 + lane / 4, k0 + lane % 4) % 32);
          EXPECT_EQ(banks.size(), 32u)
              << bm << "x" << bk << " at m " << m0 << ", k " << k0;
        }
    }
}

TEST_F(SwizzleTest, TransposedOffsetsArePermutationsOfEachColumn) {
  mlir::Builder b(&ctx);
  for (bool elementReads : {false, true})
    for (int64_t rows : {8, 32, 128}) {
      SwizzledTile t = transposedTile(rows, 16, b.getF32Type(), elementReads);
      for (int64_t c = 0; c < 16; ++c) {
        std::set<int64_t> seen;
        for (int64_t r = 0; r < rows; ++r) {
          int64_t off = t.offset(r, c);
          EXPECT_GE(off, c * rows);
          EXPECT_LT(off, (c + 1) * rows);
          seen.insert(off);
        }
        EXPECT_EQ(int64_t(seen.size()), rows);
      }
    }
}

TEST_F(SwizzleTest, OffsetsArePermutationsOfEachRow) {
  mlir::Builder b(&ctx);
  for (int opIdx : {-1, 0, 1})
    for (int64_t cols : {8, 16, 32, 128}) {
      SwizzledTile t = tile(16, cols, b.getF32Type(), opIdx);
      for (int64_t r = 0; r < 16; ++r) {
        std::set<int64_t> seen;
        for (int64_t c = 0; c < cols; ++c) {
          int64_t off = t.offset(r, c);
          EXPECT_GE(off, r * cols);
          EXPECT_LT(off, (r + 1) * cols);
          seen.insert(off);
        }
        EXPECT_EQ(int64_t(seen.size()), cols);
      }
    }
}

} // namespace

namespace {

/// The address a wgmma descriptor reads for element (mn, k) of an operand
/// in the canonical layout of its swizzle (PTX ISA, "Shared memory matrix
/// layout"): atoms of 8 rows by `atomBytes`, one after another along the
/// row direction within a panel of all rows, panels after each other; the
/// hardware XORs address bits [4, 4 + log2(atomBytes / 16)) with the bits
/// from 7 up. Stored rows run along the contiguous dimension.
int64_t hardwareAddress(int64_t row, int64_t col, int64_t rows,
                        int64_t elemBytes, int64_t atomBytes) {
  int64_t atomElems = atomBytes / elemBytes;
  int64_t linear = col / atomElems * rows * atomBytes + row * atomBytes +
                   col % atomElems * elemBytes;
  int64_t bits = atomBytes == 128 ? 7 : atomBytes == 64 ? 3 : 1;
  return linear ^ (((linear >> 7) & bits) << 4);
}

} // namespace

/// Stages stored for wgmma put every element where the hardware's swizzle
/// reads it, for 32-, 64- and 128-byte atoms and rows of several panels.
TEST_F(SwizzleTest, WgmmaStagesAreTheHardwareSwizzle) {
  mlir::Type f16 = mlir::Float16Type::get(&ctx);
  for (auto [rows, cols] : {std::pair<int64_t, int64_t>{64, 16},
                            {128, 32},
                            {64, 64},
                            {32, 256},
                            {16, 128}}) {
    auto encoding =
        SharedEncodingAttr::getForWgmma(&ctx, {rows, cols}, f16, {1, 0});
    ASSERT_TRUE(encoding) << rows << "x" << cols;
    SwizzledTile t = SwizzledTile::get(encoding, {rows, cols}, f16);
    int64_t atomBytes = std::min<int64_t>(cols * 2, 128);
    EXPECT_EQ(t.panel * 2, atomBytes);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        ASSERT_EQ(t.offset(r, c) * 2, hardwareAddress(r, c, rows, 2, atomBytes))
            << rows << "x" << cols << " at (" << r << ", " << c << ")";
  }
  // Rows the descriptors cannot describe: 48 bytes, 192 bytes.
  EXPECT_FALSE(SharedEncodingAttr::getForWgmma(&ctx, {64, 24}, f16, {1, 0}));
  EXPECT_FALSE(SharedEncodingAttr::getForWgmma(&ctx, {64, 96}, f16, {1, 0}));
}

/// An MN-major A (the dot's M x K tile loaded along M, stored K x M): the
/// hardware reads element (m, k) at the MN-major swizzled address of
/// stored row k, column m; the stage holds it there, every element once,
/// for one and two panels along M.
TEST_F(SwizzleTest, WgmmaMnMajorAIsTheHardwareSwizzle) {
  mlir::Type f16 = mlir::Float16Type::get(&ctx);
  for (int64_t m : {64, 128, 256}) {
    int64_t k = 32;
    auto encoding = SharedEncodingAttr::getForWgmma(&ctx, {m, k}, f16, {0, 1});
    ASSERT_TRUE(encoding);
    SwizzledTile t = SwizzledTile::get(encoding, {m, k}, f16);
    EXPECT_EQ(t.panel, 64);
    std::set<int64_t> seen;
    for (int64_t mm = 0; mm < m; ++mm)
      for (int64_t kk = 0; kk < k; ++kk) {
        int64_t at = t.offset(mm, kk) * 2;
        seen.insert(at);
        ASSERT_EQ(at, hardwareAddress(kk, mm, k, 2, 128))
            << "M " << m << ", m " << mm << ", k " << kk;
      }
    EXPECT_EQ(int64_t(seen.size()), k * m);
  }
}

/// The warpgroup accumulator layout (repsPerWarp [2, 1]) gives each thread
/// the rows the m64 instructions give it: block i of warpgroup q is rows
/// 16 W i + 64 q + [0, 64), of which warp w' of the warpgroup has
/// 16 w' + 8 h + g (lane g = l / 4) in its local rows 2 i + h; every
/// element once. The A fragments of a dot with that parent pair the same
/// rows: register r of block i holds local row 2 i + r % 2, as the
/// accumulator re-packed as A (attention's P) assumes.
TEST_F(SwizzleTest, WarpgroupAccumulatorRowsAreTheInstructionRows) {
  mlir::Type f32 = mlir::Float32Type::get(&ctx);
  mlir::Type f16 = mlir::Float16Type::get(&ctx);
  for (unsigned warps : {4u, 8u}) {
    auto layout = BlockedEncodingAttr::get(&ctx, {1, 2}, {8, 4}, {warps, 1},
                                           {1, 0}, {2, 1});
    ASSERT_TRUE(layout.isMmaAccumulator());
    for (int64_t m : {int64_t(16) * warps, int64_t(32) * warps}) {
      int64_t n = 16;
      auto type = mlir::RankedTensorType::get({m, n}, f32, layout);
      auto held = getHeldElements(type, warps);
      ASSERT_TRUE(mlir::succeeded(held));
      std::set<std::pair<int64_t, int64_t>> seen;
      auto dist = *Distribution::get(type);
      for (const HeldElement &e : *held) {
        seen.insert({e.coords[0], e.coords[1]});
        int64_t warp = e.thread / 32, lane = e.thread % 32;
        int64_t q = warp / 4, w = warp % 4, g = lane / 4;
        int64_t local = dist.getLocalIndex(e.reg)[0];
        int64_t i = local / 2, h = local % 2;
        EXPECT_EQ(e.coords[0], 16 * warps * i + 64 * q + 16 * w + 8 * h + g)
            << warps << " warps, M " << m << ", thread " << e.thread;
      }
      EXPECT_EQ(int64_t(seen.size()), m * n);
      EXPECT_EQ(int64_t(held->size()), m * n);

      auto aType = mlir::RankedTensorType::get(
          {m, 32}, f16, DotOperandEncodingAttr::get(&ctx, 0, layout));
      auto fragments = getHeldElements(aType, warps);
      ASSERT_TRUE(mlir::succeeded(fragments));
      // Rows of each (thread, block, half) from the accumulator.
      std::map<std::pair<unsigned, int64_t>, int64_t> accRow;
      for (const HeldElement &e : *held)
        accRow[{e.thread, dist.getLocalIndex(e.reg)[0]}] = e.coords[0];
      int64_t numK = 32 / 16;
      for (const HeldElement &e : *fragments) {
        int64_t blk = e.reg / 4 / numK, r = e.reg % 4;
        EXPECT_EQ(e.coords[0], (accRow[{e.thread, 2 * blk + r % 2}]));
      }
    }
  }
}

/// tf32 A stored K x M for warpgroup MMAs (wgmma's 128-byte swizzle: panels
/// of 32 m, k rows 128 bytes apart) is read into fragment registers one
/// element per lane: lane (g, t) reads A[m0 + g][k0 + t], 8 m of 2 chunks
/// by 4 k rows, whose chunks the swizzle moves within 4 of the 8: two lanes
/// on each bank (ncu: two wavefronts per load, bench/NOTES.md v46). Half
/// the lanes (those of odd t, or of g >= 4) reading the k halves in the
/// other order put the 32 on 32 banks.
TEST_F(SwizzleTest, WgmmaMnMajorTF32AFragmentsReadOneWavefrontWithAFlip) {
  mlir::Type f32 = mlir::Float32Type::get(&ctx);
  for (unsigned warps : {4u, 8u})
    for (int64_t m : {int64_t(16) * warps, int64_t(32) * warps})
      for (int64_t k : {16, 32, 64}) {
        auto layout = BlockedEncodingAttr::get(&ctx, {1, 2}, {8, 4}, {warps, 1},
                                               {1, 0}, {2, 1});
        auto type = mlir::RankedTensorType::get(
            {m, k}, f32, DotOperandEncodingAttr::get(&ctx, 0, layout));
        MmaFragments frag = MmaFragments::get(type);
        auto encoding =
            SharedEncodingAttr::getForWgmma(&ctx, {m, k}, f32, {0, 1});
        ASSERT_TRUE(encoding);
        SwizzledTile t = SwizzledTile::get(encoding, {m, k}, f32);
        int64_t loads = warps * frag.numMN * frag.numK * frag.perStep;
        EXPECT_EQ(frag.elementLoadWavefronts(t, warps, -1), 2 * loads)
            << warps << " warps, " << m << "x" << k;
        int bit = frag.bestElementFlip(t, warps);
        EXPECT_GE(bit, 0) << warps << " warps, " << m << "x" << k;
        EXPECT_EQ(frag.elementLoadWavefronts(t, warps, bit), loads)
            << warps << " warps, " << m << "x" << k;
      }
}

/// The stages tile-promote-shared stores for mma.sync's tf32 element reads
/// are conflict-free already: no flip.
TEST_F(SwizzleTest, TransposedTF32ElementStagesNeedNoFlip) {
  mlir::Builder b(&ctx);
  auto layout = BlockedEncodingAttr::get(&ctx, {1, 2}, {8, 4}, {2, 2}, {1, 0});
  for (int64_t bm : {32, 64, 128})
    for (int64_t bk : {16, 32}) {
      auto type = mlir::RankedTensorType::get(
          {bm, bk}, b.getF32Type(),
          DotOperandEncodingAttr::get(&ctx, 0, layout));
      MmaFragments frag = MmaFragments::get(type);
      SwizzledTile t = transposedTile(bm, bk, b.getF32Type(), true);
      EXPECT_EQ(frag.bestElementFlip(t, 2), -1) << bm << "x" << bk;
      int64_t warps = 2;
      EXPECT_EQ(frag.elementLoadWavefronts(t, warps, -1),
                warps * frag.numMN * frag.numK * frag.perStep)
          << bm << "x" << bk;
    }
}
