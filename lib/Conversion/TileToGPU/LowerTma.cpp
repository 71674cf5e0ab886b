//===- LowerTma.cpp - Tensor Memory Accelerator copies and mbarriers ------===//
//
// tile-promote-shared's TMA pipeline: `barrier_alloc` (one mbarrier per
// stage, initialized by thread 0), `tma_copy` (thread 0 announces the
// stage's bytes on its barrier; the `cp.async.bulk.tensor` copies, one box
// per thread of the first warp where there are several)
// and `tma_wait` (a block barrier unless `unsynchronized`, then a wait for
// the barrier's phase); `barrier_arrive` and `tile.producer`, whose warps
// branch off the kernel's own (the block barriers after that branch
// become named barriers of the kernel's threads).
//
// A copy reads its tensor through a tensor map that the runtime encodes at
// launch and passes as a parameter after the kernel's own
// (LoweringContext::tensorMapParam; the signature record's `tmap=` fields).
// The stage is stored as a wgmma operand: rows of one panel (a swizzle
// atom of 32, 64 or 128 bytes) after another, the hardware's swizzle
// inside, so each box is one panel wide and the map swizzles as the panel
// does. Stored rows follow the tensor's rows in runs (all of them, at most
// 256 per box), one box per run and panel. Boxes start at multiples of 8 stored
// rows of a 1024-byte aligned stage, so the swizzle pattern, which the
// hardware computes from the shared-memory address, is the encoding's.
// A copy with a `slice` reads a 3-D map (boxes one slice deep) whose third
// coordinate is the slice.
//
//===----------------------------------------------------------------------===//
#include "LoweringContext.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tile;

namespace {

/// Bytes one mbarrier takes.
constexpr int64_t kBarrierBytes = 8;

/// The mbarrier of `stage` in the barrier array `barriers`.
Value barrierOf(LoweringContext &l, Value barriers, Value stage) {
  ImplicitLocOpBuilder &b = l.builder();
  Value base = l.lookupScalar(barriers);
  Value offset =
      arith::MulIOp::create(b, l.lookupScalar(stage), l.i32(kBarrierBytes));
  return LLVM::GEPOp::create(b, base.getType(), b.getI8Type(), base,
                             ValueRange{offset});
}

LogicalResult lowerBarrierAlloc(BarrierAllocOp op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  Value base = l.rawSharedPointer(l.bufferOffset(op));
  l.map(op, {base});
  l.emitIf(l.isFirstThread(), [&] {
    for (int64_t s = 0; s < op.getType().getDimSize(0); ++s) {
      Value barrier =
          s == 0 ? base
                 : LLVM::GEPOp::create(
                       b, base.getType(), b.getI8Type(), base,
                       ArrayRef<LLVM::GEPArg>{int32_t(s * kBarrierBytes)});
      NVVM::MBarrierInitOp::create(b, barrier, l.i32(op.getArrivals()),
                                   /*predicate=*/Value());
    }
  });
  // The initialized barriers are visible to the TMA unit and to every
  // thread before any copy signals them.
  NVVM::FenceMbarrierInitOp::create(b);
  gpu::BarrierOp::create(b);
  return success();
}

/// The signature spelling of `value`, a kernel argument or a constant; empty
/// when it is neither.
std::string hostValue(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    if (isa<KernelOp>(arg.getOwner()->getParentOp()))
      return getParamName(arg);
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return std::to_string(constant.getSExtValue());
  return "";
}

LogicalResult lowerTmaCopy(TmaCopyOp op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  SwizzledTile tile = SwizzledTile::forBuffer(op.getBuffer());
  unsigned contiguous = tile.contiguousDim(), other = 1 - contiguous;
  int64_t panel = tile.panel, run = tile.rows;
  while (run > 256)
    run /= 2;
  TensorMapInfo map;
  auto base = dyn_cast<BlockArgument>(op.getBase());
  map.pointer = base ? hostValue(base) : "";
  Type elemType = op.getBuffer().getType().getElementType();
  // 8-bit elements travel as bytes whatever they mean.
  map.elementType = elemType.isF16()                        ? "f16"
                    : elemType.isBF16()                     ? "bf16"
                    : elemType.isF32()                      ? "f32"
                    : elemType.getIntOrFloatBitWidth() == 8 ? "i8"
                                                            : "";
  map.sizes[0] = hostValue(op.getBounds()[contiguous]);
  map.sizes[1] = hostValue(op.getBounds()[other]);
  map.pitch = hostValue(op.getStride());
  map.box[0] = panel;
  map.box[1] = run;
  map.swizzleBytes = panel * tile.elemBytes;
  map.slices = op.getSlice() != nullptr;
  if (map.pointer.empty() || map.elementType.empty() || map.sizes[0].empty() ||
      map.sizes[1].empty() || map.pitch.empty())
    return op.emitError("tma_copy needs its base, bounds and stride to be "
                        "kernel arguments or constants, and f16, bf16 or f32 "
                        "elements");
  Value descriptor = l.tensorMapParam(map);
  Value barrier = barrierOf(l, op.getBarriers(), op.getStage());
  Value stage = l.stagePointer(op.getBuffer(), op.getStage());
  // cp.async.bulk.tensor writes shared::cluster addresses; a CTA launched
  // alone is its own cluster.
  Value clusterStage = LLVM::AddrSpaceCastOp::create(
      b, LLVM::LLVMPointerType::get(b.getContext(), 7), stage);
  Value start0 = l.lookupScalar(op.getStarts()[contiguous]);
  Value start1 = l.lookupScalar(op.getStarts()[other]);
  Value slice = op.getSlice() ? l.lookupScalar(op.getSlice()) : Value();
  Value issue =
      arith::AndIOp::create(b, l.isFirstThread(), l.lookupScalar(op.getPred()));
  int64_t bytes = tile.rows * tile.cols * tile.elemBytes;
  int64_t runsPerPanel = tile.rows / run;
  int64_t boxes = tile.cols / panel * runsPerPanel;
  // Boxes cover stored rows and columns: a box's first element is where
  // the stored tile keeps (row, col) (swizzle phase 0 at the 8-row starts
  // of boxes).
  SwizzledTile stored = tile;
  stored.transposed = false;
  // The box from stored element (row, col), `offset` elements into the
  // stage.
  auto copyBox = [&](Value row, Value col, Value offset, Value predicate) {
    Value dst = LLVM::GEPOp::create(
        b, clusterStage.getType(), b.getI8Type(), clusterStage,
        ValueRange{arith::MulIOp::create(b, offset, l.i32(tile.elemBytes))});
    SmallVector<Value, 3> coords = {
        arith::AddIOp::create(b, start0, col),
        arith::AddIOp::create(b, start1, row),
    };
    if (slice)
      coords.push_back(slice);
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        b, dst, descriptor, coords, barrier, /*im2colOffsets=*/ValueRange(),
        /*multicastMask=*/Value(), /*l2CacheHint=*/Value(),
        NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false, /*group=*/nullptr,
        predicate);
  };
  // Several boxes (one per panel, or per 256 rows) are issued by as many
  // threads of the first warp, one each: one copy instruction instead of
  // `boxes` in a row in thread 0 (fewer instructions; no measurable
  // speedup, bench/NOTES.md v32).
  bool perThread = boxes > 1 && boxes <= 32;
  // `predicated`: predicated instructions rather than branches around them
  // (ptxas serializes the warpgroup MMAs of a warpgroup with a divergent
  // path among them, C7520; the branches cost less where the copies follow
  // the in-flight dot's wait).
  bool predicated = op.getPredicated();
  auto guarded = [&](Value condition, llvm::function_ref<void(Value)> emit) {
    if (predicated)
      emit(condition);
    else
      l.emitIf(condition, [&] { emit(Value()); });
  };
  guarded(issue, [&](Value predicate) {
    NVVM::MBarrierArriveExpectTxOp::create(
        b, /*res=*/Type(), barrier, l.i32(bytes), NVVM::MemScopeKind::CTA,
        /*relaxed=*/false, predicate);
    if (perThread)
      return;
    for (int64_t col = 0; col < tile.cols; col += panel)
      for (int64_t row = 0; row < tile.rows; row += run)
        copyBox(l.i32(row), l.i32(col), l.i32(stored.offset(row, col)),
                predicate);
  });
  if (!perThread)
    return success();
  // A copy completing before thread 0's expect_tx leaves the phase open:
  // it cannot complete before every operand's arrival.
  Value box = l.thread();
  Value mine = arith::AndIOp::create(
      b, arith::CmpIOp::create(b, arith::CmpIPredicate::ult, box, l.i32(boxes)),
      l.lookupScalar(op.getPred()));
  guarded(mine, [&](Value predicate) {
    // Box `box`: panel box / runsPerPanel, rows from (box % runsPerPanel) *
    // run, in the order of the loop above.
    Value col = arith::MulIOp::create(
        b, arith::DivUIOp::create(b, box, l.i32(runsPerPanel)), l.i32(panel));
    Value row = arith::MulIOp::create(
        b, arith::RemUIOp::create(b, box, l.i32(runsPerPanel)), l.i32(run));
    copyBox(row, col, swizzledOffset(l, stored, row, col), predicate);
  });
  return success();
}

LogicalResult lowerTmaWait(TmaWaitOp op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  if (!op.getUnsynchronized())
    gpu::BarrierOp::create(b);
  // The suspend-time hint CUTLASS passes (in nanoseconds); the op loops
  // until the phase completes.
  NVVM::MBarrierTryWaitParityOp::create(
      b, barrierOf(l, op.getBarriers(), op.getStage()),
      l.lookupScalar(op.getPhase()), l.i32(0x989680));
  return success();
}

LogicalResult lowerBarrierArrive(BarrierArriveOp op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  // Every thread fences its own stores before its arrival releases them.
  if (op.getPublishShared())
    l.fenceSharedForAsyncProxy();
  Value arrives = op.getPred() ? l.lookupScalar(op.getPred()) : Value();
  if (op.getPerWarp()) {
    Value lane0 = arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                        l.getLaneId(), l.i32(0));
    arrives = arrives ? arith::AndIOp::create(b, arrives, lane0) : lane0;
  }
  Value barrier = barrierOf(l, op.getBarriers(), op.getStage());
  l.emitIf(arrives, [&] {
    NVVM::MBarrierArriveOp::create(b, /*res=*/Type(), barrier,
                                   /*count=*/Value());
  });
  return success();
}

LogicalResult lowerProducer(ProducerOp op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  auto kernelWarps = l.getKernel()->getAttrOfType<IntegerAttr>(
      TileDialect::NumWarpsAttrHelper::getNameStr());
  int64_t consumerThreads = 32 * kernelWarps.getInt();
  int64_t groupThreads = 32 * int64_t(op.getWarps());
  int64_t producerThreads = groupThreads * op.getGroups();
  // The register file (64 Ki, of which setmaxnreg hands out at most 64512)
  // split unevenly: the producer's warps copy, the kernel's own hold the
  // accumulators. Counts are multiples of 8 from 24 to 256.
  constexpr int64_t kRegisterFile = 64512;
  int64_t producerRegs = op.getRegisters();
  int64_t consumerRegs =
      std::min<int64_t>(256, (kRegisterFile - producerRegs * producerThreads) /
                                 consumerThreads / 8 * 8);
  Value isProducer = arith::CmpIOp::create(b, arith::CmpIPredicate::uge,
                                           l.thread(), l.i32(consumerThreads));
  auto ifOp = scf::IfOp::create(b, isProducer, /*withElseRegion=*/true);
  l.setProducerBranch(ifOp, consumerThreads);
  OpBuilder::InsertionGuard guard(b);
  // Up to 256 threads every thread may have 255 registers anyway (ptxas
  // then ignores setmaxnreg: C7508). The producer gives registers up and
  // the kernel's warps take them from the count every thread starts with.
  int64_t threads = consumerThreads + producerThreads;
  int64_t atEntry = std::min<int64_t>(255, 65536 / threads / 8 * 8);
  bool rebalance = threads * 255 > 65536 && producerRegs <= atEntry &&
                   consumerRegs >= atEntry;
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  if (rebalance)
    NVVM::SetMaxRegisterOp::create(b, producerRegs,
                                   NVVM::SetMaxRegisterAction::decrease);
  Value index = arith::SubIOp::create(b, l.thread(), l.i32(consumerThreads));
  Block &body = op.getBody().front();
  l.map(body.getArgument(0),
        {arith::DivUIOp::create(b, index, l.i32(groupThreads))});
  Value thread = arith::RemUIOp::create(b, index, l.i32(groupThreads));
  if (failed(l.lowerProducerBody(body, thread)))
    return failure();
  // The producer's warps are done: they never reach the kernel's barriers
  // (a block barrier does not wait for exited threads).
  NVVM::Exit::create(b);
  b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
  if (rebalance)
    NVVM::SetMaxRegisterOp::create(b, consumerRegs,
                                   NVVM::SetMaxRegisterAction::increase);
  return success();
}

} // namespace

void tile::nameBarriersAfterProducer(Operation *branch, int64_t threads) {
  Block *block = branch->getBlock();
  SmallVector<gpu::BarrierOp> barriers;
  branch->getParentRegion()->walk([&](gpu::BarrierOp barrier) {
    Operation *ancestor = block->findAncestorOpInBlock(*barrier);
    if (ancestor && (ancestor == branch ? !branch->getRegion(0).isAncestor(
                                              barrier->getParentRegion())
                                        : branch->isBeforeInBlock(ancestor)))
      barriers.push_back(barrier);
  });
  for (gpu::BarrierOp barrier : barriers) {
    ImplicitLocOpBuilder b(barrier.getLoc(), barrier);
    auto i32 = [&](int64_t v) {
      return arith::ConstantIntOp::create(b, v, 32).getResult();
    };
    NVVM::BarrierOp::create(b, /*res=*/Type(), i32(kKernelWarpsBarrier),
                            i32(threads), /*reductionOp=*/nullptr,
                            /*reductionPredicate=*/Value());
    barrier.erase();
  }
}

void tile::populateTmaLowerings(LoweringPatternSet &patterns) {
  patterns.add(lowerBarrierAlloc);
  patterns.add(lowerTmaCopy);
  patterns.add(lowerTmaWait);
  patterns.add(lowerBarrierArrive);
  patterns.add(lowerProducer);
}
