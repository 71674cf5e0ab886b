//===- SharedTiles.cpp - tiles in shared memory, plain and swizzled ----===//
//
// Tiles written to and read from shared memory by several units: row-major
// buffers for layout conversions and reductions, and swizzled tiles (16-byte
// chunk c of row r at chunk c ^ phase(r)) for dot operands, so that the rows
// one ldmatrix or vector load reads fall in different banks.
//
//===----------------------------------------------------------------------===//
#include "LoweringContext.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace tile;

int64_t tile::sharedElementBytes(Type type) {
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

Value tile::linearIndex(LoweringContext &l, ArrayRef<Value> coords,
                        ArrayRef<int64_t> shape, ArrayRef<unsigned> perm) {
  OpBuilder &b = l.builder();
  Location loc = coords.front().getLoc();
  Value lin;
  int64_t stride = 1;
  for (unsigned j = shape.size(); j-- > 0;) {
    unsigned d = perm.empty() ? j : perm[j];
    if (shape[d] != 1) {
      Value term =
          stride == 1 ? coords[d]
                      : arith::MulIOp::create(b, loc, coords[d], l.i32(stride));
      lin = lin ? arith::AddIOp::create(b, loc, lin, term) : term;
    }
    stride *= shape[d];
  }
  return lin ? lin : l.i32(0);
}

void tile::storeShared(LoweringContext &l, const Slots &slots,
                       const Distribution &dist, int64_t base,
                       ArrayRef<unsigned> perm) {
  OpBuilder &b = l.builder();
  Location loc = l.loc;
  Type memType = l.memoryType(slots.front().getType());
  int64_t numElements = 1;
  for (int64_t e : dist.getShape())
    numElements *= e;
  Value buffer =
      l.sharedPointer(base, numElements * sharedElementBytes(memType));
  Value owner = dist.isUnique() ? Value() : l.ownerPredicate(dist);
  l.emitIf(owner, [&] {
    for (unsigned slot = 0; slot < dist.getNumSlots(); ++slot) {
      SmallVector<Value> coords = dist.isScalar() ? SmallVector<Value>{l.i32(0)}
                                                  : l.coordinates(dist, slot);
      SmallVector<int64_t> shape(dist.isScalar() ? ArrayRef<int64_t>{1}
                                                 : dist.getShape());
      Value lin = linearIndex(l, coords, shape, perm);
      Value ptr = LLVM::GEPOp::create(b, loc, buffer.getType(), memType, buffer,
                                      ValueRange{lin});
      Value v = slots[slot];
      if (v.getType() != memType)
        v = arith::ExtUIOp::create(b, loc, memType, v);
      LLVM::StoreOp::create(b, loc, v, ptr);
    }
  });
}

Slots tile::loadShared(LoweringContext &l, const Distribution &dist,
                       Type elemType, int64_t base) {
  OpBuilder &b = l.builder();
  Location loc = l.loc;
  Type memType = l.memoryType(elemType);
  Value buffer = l.sharedPointer(base, 0);
  Slots out;
  for (unsigned slot = 0; slot < dist.getNumSlots(); ++slot) {
    SmallVector<Value> coords = dist.isScalar() ? SmallVector<Value>{l.i32(0)}
                                                : l.coordinates(dist, slot);
    SmallVector<int64_t> shape(dist.isScalar() ? ArrayRef<int64_t>{1}
                                               : dist.getShape());
    Value lin = linearIndex(l, coords, shape, {});
    Value ptr = LLVM::GEPOp::create(b, loc, buffer.getType(), memType, buffer,
                                    ValueRange{lin});
    Value v = LLVM::LoadOp::create(b, loc, memType, ptr);
    if (memType != elemType)
      v = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v,
                                arith::ConstantIntOp::create(b, loc, 0, 8));
    out.push_back(v);
  }
  return out;
}

Value tile::swizzledOffset(LoweringContext &l, const SwizzledTile &tile,
                           Value row, Value col) {
  OpBuilder &b = l.builder();
  Location loc = l.loc;
  Value phase = arith::RemUIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, row, l.i32(tile.perPhase)),
      l.i32(tile.maxPhase));
  Value chunk = arith::DivUIOp::create(b, loc, col, l.i32(tile.vec));
  Value within = arith::RemUIOp::create(b, loc, col, l.i32(tile.vec));
  Value swizzled = arith::XOrIOp::create(b, loc, chunk, phase);
  Value rowStart = arith::MulIOp::create(b, loc, row, l.i32(tile.cols));
  Value chunkStart = arith::MulIOp::create(b, loc, swizzled, l.i32(tile.vec));
  return arith::AddIOp::create(
      b, loc, rowStart, arith::AddIOp::create(b, loc, chunkStart, within));
}

Value tile::swizzledPointer(LoweringContext &l, const SwizzledTile &tile,
                            Value buffer, Type elemType, Value row,
                            int64_t rowDelta, Value col, int64_t colDelta,
                            SwizzleAnchors &anchors) {
  OpBuilder &b = l.builder();
  Location loc = l.loc;
  int64_t ra = rowDelta % (tile.perPhase * tile.maxPhase);
  int64_t ca = colDelta % (tile.vec * tile.maxPhase);
  Value &anchor = anchors[{buffer, row, col, ra, ca}];
  if (!anchor) {
    auto plus = [&](Value x, int64_t c) -> Value {
      return c == 0 ? x : arith::AddIOp::create(b, loc, x, l.i32(c));
    };
    anchor = LLVM::GEPOp::create(
        b, loc, buffer.getType(), elemType, buffer,
        ValueRange{swizzledOffset(l, tile, plus(row, ra), plus(col, ca))});
  }
  int64_t rest = (rowDelta - ra) * tile.cols + (colDelta - ca);
  if (rest == 0)
    return anchor;
  return LLVM::GEPOp::create(b, loc, buffer.getType(), elemType, anchor,
                             ArrayRef<LLVM::GEPArg>{int32_t(rest)});
}

void tile::storeSwizzled(LoweringContext &l, const Slots &slots,
                         const Distribution &dist, const SwizzledTile &tile,
                         Value buffer) {
  OpBuilder &b = l.builder();
  Location loc = l.loc;
  Type elemType = slots.front().getType();
  // A run of the thread's consecutive elements inside one chunk moves as
  // one vector.
  int64_t group = tile.runLength(dist);
  Value owner = dist.isUnique() ? Value() : l.ownerPredicate(dist);
  l.emitIf(owner, [&] {
    for (unsigned slot = 0; slot < dist.getNumSlots(); slot += group) {
      SmallVector<Value> coords = l.coordinates(dist, slot);
      Value offset = swizzledOffset(l, tile, coords[0], coords[1]);
      Value ptr = LLVM::GEPOp::create(b, loc, buffer.getType(), elemType,
                                      buffer, ValueRange{offset});
      Value v = slots[slot];
      if (group > 1) {
        auto vecType = VectorType::get({group}, elemType);
        v = vector::FromElementsOp::create(
            b, loc, vecType,
            ArrayRef<Value>(slots.begin() + slot,
                            slots.begin() + slot + group));
      }
      LLVM::StoreOp::create(b, loc, v, ptr, group * tile.elemBytes);
    }
  });
}

Slots tile::loadSwizzled(LoweringContext &l, const Distribution &dist,
                         Type elemType, const SwizzledTile &tile,
                         Value buffer) {
  OpBuilder &b = l.builder();
  Location loc = l.loc;
  int64_t group = tile.runLength(dist);
  Slots out(dist.getNumSlots());
  for (unsigned slot = 0; slot < dist.getNumSlots(); slot += group) {
    SmallVector<Value> coords = l.coordinates(dist, slot);
    Value ptr = LLVM::GEPOp::create(
        b, loc, buffer.getType(), elemType, buffer,
        ValueRange{swizzledOffset(l, tile, coords[0], coords[1])});
    if (group == 1) {
      out[slot] = LLVM::LoadOp::create(b, loc, elemType, ptr);
      continue;
    }
    Value v = LLVM::LoadOp::create(b, loc, VectorType::get({group}, elemType),
                                   ptr, group * tile.elemBytes);
    for (int64_t e = 0; e < group; ++e)
      out[slot + e] = vector::ExtractOp::create(b, loc, v, e);
  }
  return out;
}
