//===- PromoteSharedCommon.h - tile-promote-shared's pieces ----*- C++ -*-===//
//
// Shared by PromoteShared.cpp (the K loops' pipelines), StageEncodings.cpp
// (how stages are stored), WarpSpecialize.cpp (a producer warpgroup's
// pipeline) and StageOnce.cpp (operands copied once, for dots outside loops
// and loop-invariant A).
//
//===----------------------------------------------------------------------===//
#ifndef TILE_LIB_DIALECT_TILE_TRANSFORMS_PROMOTESHAREDCOMMON_H
#define TILE_LIB_DIALECT_TILE_TRANSFORMS_PROMOTESHAREDCOMMON_H

#include "TensorTileAccess.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace tile::promote {

/// One operand load to stage: the load, the ops between it and the dot
/// (operandUses: a `trans`, conversions around it; any may be absent), and
/// the body ops its pointers and mask are computed by.
struct Candidate {
  LoadOp load;
  llvm::SmallVector<mlir::Operation *, 3> uses;
  llvm::SetVector<mlir::Operation *> slice;
  mlir::Value buffer;
  /// How the stage is stored (stageEncoding, or the wgmma encoding).
  SharedEncodingAttr encoding;
  /// True when the stage is stored K-major from a load contiguous along N
  /// (tf32 B for warpgroup MMAs): loaded into registers and written with
  /// `shared_store` (a transposing copy).
  bool transposingCopy = false;
  /// The value the stage's shared_load replaces.
  mlir::Value replaced() {
    return uses.empty() ? load.getResult() : uses.back()->getResult(0);
  }
  /// True when the dot reads the load transposed.
  bool transposed() {
    return llvm::any_of(
        uses, [](mlir::Operation *op) { return llvm::isa<TransOp>(op); });
  }
  /// Reads stage `stage` of `buffer` at `b` in place of the value the dot
  /// reads (replaced()); returns the read.
  mlir::Value readStage(mlir::OpBuilder &b, mlir::Value stage);
  /// Erases the load and the ops between it and the dot, once nothing
  /// reads them (after readStage and the copies that clone its addressing).
  void eraseLoad();
};

/// The iteration number of `loop`'s induction value `iv` and the stage of
/// `stages` it uses, computed at `b`.
std::pair<mlir::Value, mlir::Value> iterationStage(mlir::OpBuilder &b,
                                                   mlir::scf::ForOp loop,
                                                   mlir::Value iv,
                                                   int64_t stages);

/// The parity of the phase a stage's mbarrier completes for `iteration`
/// (its n-th fill completes phase n), computed at `b`.
mlir::Value stagePhase(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value iteration, int64_t stages);

/// The ops from `load` to the value its dot reads: an optional `trans`
/// (after tile-coalesce's conversion out of the load's own layout, if
/// any), then an optional conversion to a dot-operand layout (or to an FMA
/// dot's blocked layout); failure when the load feeds no dot that way.
mlir::FailureOr<llvm::SmallVector<mlir::Operation *, 3>>
operandUses(LoadOp load);

/// The shared encoding of a stage that `c.load` fills: rows along the
/// load's fastest dimension, so that copies move whole chunks.
SharedEncodingAttr stageEncoding(Candidate &c);

/// The layout a transposing copy (Candidate::transposingCopy) moves its
/// [k][n] tile in: four consecutive k a thread at one n, the lanes along N;
/// over `warps` warps (0: the load's) (StageEncodings.cpp).
BlockedEncodingAttr transposingCopyLayout(Candidate &c, unsigned warps = 0);

/// Gives the stages of each dot whose B is in `cands` the encoding wgmma
/// descriptors read, where the dot's layout is tile-accelerate-dot's for
/// warpgroup MMAs; A, when staged too, as well.
void chooseWgmmaEncodings(llvm::MutableArrayRef<Candidate> cands);

/// The 2-D blocked layout of `load` when cp.async can copy its tile into a
/// stage (its `other` absent or zero: cp.async zero-fills what the mask
/// leaves out); null otherwise.
BlockedEncodingAttr stageableLayout(LoadOp load);

/// A shared_alloc of `stages` stages of `load`'s tile stored as `encoding`,
/// created at `b`.
mlir::Value allocateStages(mlir::OpBuilder &b, LoadOp load, int64_t stages,
                           SharedEncodingAttr encoding);

/// One shared-memory mbarrier per stage of `stages`, `arrivals` arrivals
/// each (a `barrier_alloc`), created at `b`.
mlir::Value allocateStageBarriers(mlir::OpBuilder &b, mlir::Location loc,
                                  int64_t stages, int64_t arrivals);

/// The tensor tile `c`'s load reads, when the TMA can fill its stage: the
/// stage stored for wgmma along the tensor's contiguous dimension, base,
/// bounds and row stride known to the host, the base 16-byte aligned and
/// rows 16-byte multiples.
std::optional<TensorTileAccess> tmaAccess(Candidate &c);

/// The iteration argument `dot` accumulates into, directly or through a
/// `trans` (a dot computed transposed); null if none.
mlir::BlockArgument carriedAccumulator(DotOp dot);

/// The dot of `loop` whose MMAs may stay in flight while the loop turns:
/// the only dot whose B is stored for wgmma, whose result is only its own
/// accumulator in the next iteration. Null if there is none.
DotOp inFlightDot(mlir::scf::ForOp loop,
                  llvm::MutableArrayRef<Candidate> cands);

/// Issues the copies of every candidate for the iteration whose induction
/// variable is `k` (PromoteShared.cpp): cp.async copies where `async`, the
/// loads of transposing copies (in a layout over `copyWarps` warps, 0: the
/// load's) where `registers`, each stored into `stage` when given. Returns
/// the loaded tiles.
llvm::SmallVector<mlir::Value>
issueCopies(mlir::OpBuilder &b, mlir::scf::ForOp loop,
            llvm::MutableArrayRef<Candidate> cands, mlir::Value k,
            mlir::Value stage, bool async, bool registers,
            unsigned copyWarps = 0);

/// Issues the TMA copies of every candidate but the transposing ones for
/// the iteration whose induction variable is `k`, into stage `stage`
/// signalling `barriers`, none when k >= ub (PromoteShared.cpp).
void issueTmaCopies(mlir::OpBuilder &b, mlir::scf::ForOp loop,
                    llvm::MutableArrayRef<Candidate> cands, mlir::Value k,
                    mlir::Value stage, mlir::Value barriers, bool predicated);

/// The dot of `loop` whose stages a producer warpgroup may fill
/// (WarpSpecialize.cpp); null when none may.
DotOp producerDot(mlir::scf::ForOp loop, llvm::MutableArrayRef<Candidate> cands,
                  int64_t stages, bool warpSpecialize, bool wgmma, bool tma);

/// Pipelines `loop` with a producer warpgroup filling its `stages` stages
/// (the candidates' buffers allocated) for `dot` (WarpSpecialize.cpp).
void pipelineWithProducer(mlir::scf::ForOp loop,
                          llvm::MutableArrayRef<Candidate> cands,
                          int64_t stages, DotOp dot);

/// The warps of `loop`'s kernel when a producer warpgroup may issue the
/// TMA copies of its `stages` stages (pipelineTmaWithProducer): with
/// `warpSpecialize`, every candidate a TMA copy, no MMAs in flight across
/// iterations, two or more warpgroup-MMA dots directly in the body (one
/// where a later loop of its block has two or more), all on two
/// warpgroups, and a loop that may take a producer (in the kernel's
/// body, or in the body of a loop over tiles there whose bounds and copy
/// addresses the producer can compute; after nothing that writes memory;
/// none there yet). 0 when none may (WarpSpecialize.cpp).
int64_t tmaProducerWarps(mlir::scf::ForOp loop,
                         llvm::MutableArrayRef<Candidate> cands, int64_t stages,
                         bool warpSpecialize, bool wgmma, bool tma);

/// True when `loop` holds no loop: the loops tile-promote-shared pipelines
/// (a loop around loops, a persistent grid's loop over tiles, runs its
/// body's ops once a tile, as a kernel body does).
bool isInnermost(mlir::scf::ForOp loop);

/// The op a producer warpgroup for `loop` is created before: the loop
/// around it when it is in the body of a loop in the kernel's body (a
/// persistent grid's loop over tiles), else the loop itself.
mlir::Operation *producerAnchor(mlir::scf::ForOp loop);

/// The stages a producer warpgroup of TMA copies fills in a ring for one
/// loop and those after it that continue it (continueTmaRing).
struct TmaRing {
  ProducerOp producer;
  /// The last loop the ring feeds.
  mlir::scf::ForOp lastLoop;
  /// One buffer per candidate, in the candidates' order, and the tensor
  /// each buffer's copies read (its TMA base pointer).
  llvm::SmallVector<mlir::Value> buffers, bases;
  /// The stages' "full" and "empty" mbarriers.
  mlir::Value full, empty;
  int64_t stages = 0;
  /// The ring's iterations before lastLoop's first (i32; computed before
  /// the producer, or in the tile loop's body).
  mlir::Value filled;
  /// The kernel's loop over tiles around the ring's loops (null when they
  /// are in the kernel's body) and the producer's copy of it, which runs
  /// the fill loops of each tile.
  mlir::scf::ForOp tileLoop, producerTiles;
  /// The ring's iterations before the current tile's (the tile loop's
  /// iteration argument; the constant 0 without a tile loop).
  mlir::Value tileStart;
  /// The tile loop's values the producer computes, to its copies.
  mlir::IRMapping inProducer;
  /// Each loop the ring feeds, to the producer's fill loop for it.
  llvm::DenseMap<mlir::Operation *, mlir::scf::ForOp> fills;
};

/// Pipelines `loop`, whose candidates are all TMA copies (their buffers
/// allocated), with a producer warpgroup issuing the copies into its
/// `stages` stages for the `kernelWarps` warps that run the body; returns
/// the ring (WarpSpecialize.cpp).
TmaRing pipelineTmaWithProducer(mlir::scf::ForOp loop,
                                llvm::MutableArrayRef<Candidate> cands,
                                int64_t stages, int64_t kernelWarps);

/// Feeds `loop`, a later loop of the same block as the ring's whose
/// candidates are TMA copies of tensors the ring's buffers hold, in their
/// tiles' shapes and encodings (none allocated), from `ring`'s producer and
/// stages, its iterations following the ring's (attention's masked loop
/// after the unmasked one; the last block's P V, V alone, after both): the
/// producer's next fill loop, which computes the loop's bounds and
/// addresses from values defined before it (or in its copy of the tile
/// loop). A tensor the ring holds no buffer for gets one, which the
/// earlier loops' fills fill with a tile of the same shape they copy
/// (attention's V after a first key block that reads K alone), where the
/// ring's stages still fit in `budgetBytes`. False, changing nothing, when
/// the loop cannot (WarpSpecialize.cpp).
bool continueTmaRing(TmaRing &ring, mlir::scf::ForOp loop,
                     llvm::MutableArrayRef<Candidate> cands,
                     int64_t budgetBytes);

/// True when `ring`'s producer can compute `v` where it fills the ring's
/// stages: a value it has, its tile loop's induction variable, or a
/// side-effect free op over such values (WarpSpecialize.cpp).
bool producerCanCompute(TmaRing &ring, mlir::Value v);

/// Makes the ops of `root` (in the producer's body) compute what they read
/// there: each operand the producer does not have is replaced by its clone
/// (producerCanCompute holds for it), cloned before `root` once per ring
/// (a clone made for a later op moves up to `root`) (WarpSpecialize.cpp).
void computeInProducer(TmaRing &ring, mlir::Operation *root);

/// Copies by the ring's producer, into buffers of their own, the 16-bit
/// tiles that the body of its loop over tiles loads for the A of
/// warpgroup-MMA dots in the ring's loops (attention's Q of each query
/// block), where `maxSharedBytes` leaves room (StageOnce.cpp).
void stageTileOperands(TmaRing &ring, int64_t maxSharedBytes);

/// The scalar operands of a `tma_copy` of the tensor tile `access` reads,
/// computed at `b` (PromoteShared.cpp).
struct TmaCopyOperands {
  TmaCopyOperands(mlir::OpBuilder &b, mlir::Location loc,
                  const TensorTileAccess &access);
  mlir::Value starts[2], bounds[2];
  /// Elements between the tile's rows.
  mlir::Value stride;
  /// The slice of a packed 3-D tensor (null when not sliced).
  mlir::Value slice;
};

/// Ends each tile of a ring fed inside a loop over tiles: the tile's last
/// stage goes back to the producer after the ring's last loop, and both
/// copies of the tile loop carry the ring's iteration count into the next
/// tile (WarpSpecialize.cpp). Nothing without a tile loop.
void finishTmaRing(TmaRing &ring);

/// Stages the loaded operands of warpgroup-MMA dots outside loops in
/// one-stage buffers stored for wgmma (StageOnce.cpp).
void stageLoneDots(mlir::ModuleOp module);

/// Stages once a 16-bit A loaded before loops whose warpgroup-MMA dots read
/// it every iteration, where it would take each thread 64 registers or
/// more (StageOnce.cpp).
void stageInvariantOperands(mlir::ModuleOp module);

/// Whether holding `elements` 16-bit elements of loop-invariant A operands
/// over `warps` warps takes each thread 64 registers or more (128 elements:
/// attention's Q at D = 128 with 128 rows on 4 warps, which spilled and ran
/// 1.2-1.45x slower; or the two halves of those rows, each read by its own
/// dots); below that, reading them from shared memory every iteration cost
/// up to 7% (bench/NOTES.md v39) (StageOnce.cpp).
bool operandRegistersShort(int64_t elements, unsigned warps);

/// The ops of `loop`'s body that `roots` are computed from, in body order,
/// with the indices of the loop-carried values among their inputs added to
/// `carried`; none when a root depends on anything but the induction
/// variable, loop-carried values, values from above the loop and ops of the
/// body without memory effects or regions. tile-promote-shared stages a
/// load whose addressing reads no carried value; tile-prefetch-loads also
/// takes pointers the loop advances from themselves (PromoteShared.cpp).
std::optional<llvm::SmallVector<mlir::Operation *>>
loopBodySlice(mlir::scf::ForOp loop, mlir::ValueRange roots,
              llvm::SetVector<unsigned> &carried);

/// Bytes of the operands stageInvariantOperands may copy once for the dots
/// of `loop` (live through it, beside its stages), counted before the loop
/// is pipelined.
int64_t invariantOperandBytes(mlir::scf::ForOp loop);

} // namespace tile::promote

#endif // TILE_LIB_DIALECT_TILE_TRANSFORMS_PROMOTESHAREDCOMMON_H
