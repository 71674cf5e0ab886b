//===- PtxasWorkarounds.cpp - LLVM IR that ptxas compiles correctly ------===//
#include "PtxasWorkarounds.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace {

/// The types this rewrite widens: i8 and i16, and the odd widths LLVM's
/// optimizer sometimes forms (i12, i17), which code generation would promote
/// to 16-bit operations again. Not i1.
bool isNarrow(Type *type) {
  auto *integer = dyn_cast<IntegerType>(type);
  return integer && integer->getBitWidth() > 1 && integer->getBitWidth() < 32;
}

unsigned widthOf(Value *v) { return v->getType()->getIntegerBitWidth(); }

/// An llvm.smin/smax/umin/umax call.
bool isIntegerMinMax(const Value *v) {
  auto *call = dyn_cast<IntrinsicInst>(v);
  if (!call)
    return false;
  switch (call->getIntrinsicID()) {
  case Intrinsic::smin:
  case Intrinsic::smax:
  case Intrinsic::umin:
  case Intrinsic::umax:
    return true;
  default:
    return false;
  }
}

/// An instruction computed in i32 by this rewrite: narrow arithmetic, and
/// the comparisons and conversions that read narrow values.
bool isPromoted(Instruction &inst) {
  if (auto *cmp = dyn_cast<ICmpInst>(&inst))
    return isNarrow(cmp->getOperand(0)->getType());
  if (isa<SIToFPInst, UIToFPInst>(inst))
    return isNarrow(inst.getOperand(0)->getType());
  if (isa<SExtInst, ZExtInst>(inst))
    return isNarrow(inst.getType()) || isNarrow(inst.getOperand(0)->getType());
  if (!isNarrow(inst.getType()))
    return false;
  if (isa<BinaryOperator, TruncInst, SelectInst, PHINode>(inst))
    return true;
  if (auto *intrinsic = dyn_cast<IntrinsicInst>(&inst))
    return isIntegerMinMax(intrinsic) ||
           intrinsic->getIntrinsicID() == Intrinsic::abs;
  return false;
}

/// Holds, for every narrow value the promoted instructions read, its i32
/// sign extension ("wide" value).
class Promoter {
public:
  explicit Promoter(Function &f)
      : f(f), i32(Type::getInt32Ty(f.getContext())) {}

  bool run();

private:
  /// The i32 sign extension of the narrow value `v`.
  Value *wideOf(Value *v);
  /// Sign-extends the low `width` bits of the i32 `v` (two's complement
  /// wrap-around of the narrow type).
  Value *wrap(IRBuilder<> &b, Value *v, unsigned width) {
    unsigned shift = 32 - width;
    return b.CreateAShr(b.CreateShl(v, shift), shift);
  }
  /// The narrow value's bits zero-extended to i32.
  Value *zeroExtended(IRBuilder<> &b, Value *wide, unsigned width) {
    return b.CreateAnd(wide, (uint32_t(1) << width) - 1);
  }
  /// The i32 computation of `inst`: its wide value if its type is narrow,
  /// else its replacement.
  Value *promote(Instruction &inst);

  Function &f;
  IntegerType *i32;
  DenseMap<Value *, Value *> wide;
};

Value *Promoter::wideOf(Value *v) {
  if (auto it = wide.find(v); it != wide.end())
    return it->second;
  if (auto *constant = dyn_cast<ConstantInt>(v))
    return ConstantInt::get(i32, constant->getValue().sext(32));
  if (isa<PoisonValue>(v))
    return PoisonValue::get(i32);
  if (isa<UndefValue>(v))
    return UndefValue::get(i32);
  // A narrow value from memory, a call or an argument: extend it once.
  BasicBlock::iterator at = f.getEntryBlock().getFirstInsertionPt();
  if (auto *inst = dyn_cast<Instruction>(v)) {
    std::optional<BasicBlock::iterator> after =
        inst->getInsertionPointAfterDef();
    assert(after && "a narrow value without an insertion point after it");
    at = *after;
  }
  IRBuilder<> b(at->getParent(), at);
  Value *extended = b.CreateSExt(v, i32);
  wide[v] = extended;
  return extended;
}

Value *Promoter::promote(Instruction &inst) {
  IRBuilder<> b(&inst);
  if (auto *cmp = dyn_cast<ICmpInst>(&inst)) {
    // Sign extension keeps both the signed and the unsigned order.
    return b.CreateICmp(cmp->getPredicate(), wideOf(cmp->getOperand(0)),
                        wideOf(cmp->getOperand(1)));
  }
  if (isa<SIToFPInst>(inst))
    return b.CreateSIToFP(wideOf(inst.getOperand(0)), inst.getType());
  if (isa<UIToFPInst>(inst)) {
    Value *x = inst.getOperand(0);
    return b.CreateUIToFP(zeroExtended(b, wideOf(x), widthOf(x)),
                          inst.getType());
  }
  if (isa<SExtInst, ZExtInst>(inst)) {
    Value *x = inst.getOperand(0);
    Value *extended;
    if (!isNarrow(x->getType()))
      extended =
          isa<SExtInst>(inst) ? b.CreateSExt(x, i32) : b.CreateZExt(x, i32);
    else if (isa<SExtInst>(inst))
      extended = wideOf(x);
    else
      extended = zeroExtended(b, wideOf(x), widthOf(x));
    // A narrow result (i8 to i16) is already the wide value; a wider one
    // (i64) extends it further.
    if (isNarrow(inst.getType()))
      return extended;
    return isa<SExtInst>(inst) ? b.CreateSExtOrTrunc(extended, inst.getType())
                               : b.CreateZExtOrTrunc(extended, inst.getType());
  }

  unsigned width = widthOf(&inst);
  if (auto *trunc = dyn_cast<TruncInst>(&inst)) {
    Value *x = trunc->getOperand(0);
    Value *low =
        isNarrow(x->getType()) ? wideOf(x) : b.CreateZExtOrTrunc(x, i32);
    return wrap(b, low, width);
  }
  if (auto *select = dyn_cast<SelectInst>(&inst))
    return b.CreateSelect(select->getCondition(),
                          wideOf(select->getTrueValue()),
                          wideOf(select->getFalseValue()));
  if (auto *intrinsic = dyn_cast<IntrinsicInst>(&inst)) {
    Intrinsic::ID id = intrinsic->getIntrinsicID();
    Value *x = wideOf(intrinsic->getArgOperand(0));
    if (id == Intrinsic::abs)
      return wrap(b, b.CreateBinaryIntrinsic(Intrinsic::abs, x, b.getFalse()),
                  width);
    // Sign extension keeps the unsigned order too, and min/max return an
    // operand, so the result is already sign-extended.
    return b.CreateBinaryIntrinsic(id, x, wideOf(intrinsic->getArgOperand(1)));
  }

  auto *binary = cast<BinaryOperator>(&inst);
  Value *x = wideOf(binary->getOperand(0)), *y = wideOf(binary->getOperand(1));
  switch (binary->getOpcode()) {
  case Instruction::And:
  case Instruction::Or:
  case Instruction::Xor:
  case Instruction::AShr:
  case Instruction::SRem:
    // These keep a sign-extended value sign-extended.
    return b.CreateBinOp(binary->getOpcode(), x, y);
  case Instruction::LShr:
    return wrap(b, b.CreateLShr(zeroExtended(b, x, width), y), width);
  case Instruction::UDiv:
  case Instruction::URem:
    return wrap(b,
                b.CreateBinOp(binary->getOpcode(), zeroExtended(b, x, width),
                              zeroExtended(b, y, width)),
                width);
  default:
    // add, sub, mul, shl, sdiv: may leave the narrow range; wrap.
    return wrap(b, b.CreateBinOp(binary->getOpcode(), x, y), width);
  }
}

bool Promoter::run() {
  SetVector<Instruction *> promoted;
  ReversePostOrderTraversal<Function *> order(&f);
  for (BasicBlock *block : order)
    for (Instruction &inst : *block)
      if (isPromoted(inst))
        promoted.insert(&inst);
  if (promoted.empty())
    return false;

  // Phis first, so that loop-carried values have their wide value before
  // their uses; their incoming values are filled in at the end.
  SmallVector<std::pair<PHINode *, PHINode *>> phis;
  for (Instruction *inst : promoted)
    if (auto *phi = dyn_cast<PHINode>(inst)) {
      PHINode *widePhi = PHINode::Create(i32, phi->getNumIncomingValues(), "",
                                         phi->getIterator());
      wide[phi] = widePhi;
      phis.push_back({phi, widePhi});
    }
  DenseMap<Instruction *, Value *> replacements;
  for (Instruction *inst : promoted) {
    if (isa<PHINode>(inst))
      continue;
    Value *result = promote(*inst);
    if (isNarrow(inst->getType()))
      wide[inst] = result;
    else
      replacements[inst] = result;
  }
  for (auto [phi, widePhi] : phis)
    for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i)
      widePhi->addIncoming(wideOf(phi->getIncomingValue(i)),
                           phi->getIncomingBlock(i));

  // Users outside the promoted set (stores, bitcasts, calls) read the narrow
  // value back through a truncation where the original stood.
  for (Instruction *inst : promoted) {
    if (auto it = replacements.find(inst); it != replacements.end()) {
      inst->replaceAllUsesWith(it->second);
      continue;
    }
    Value *narrow = nullptr;
    for (Use &use : make_early_inc_range(inst->uses())) {
      auto *user = cast<Instruction>(use.getUser());
      if (promoted.contains(user))
        continue;
      if (!narrow) {
        BasicBlock::iterator at = isa<PHINode>(inst)
                                      ? inst->getParent()->getFirstInsertionPt()
                                      : inst->getIterator();
        IRBuilder<> b(inst->getParent(), at);
        narrow = b.CreateTrunc(wide[inst], inst->getType());
      }
      use.set(narrow);
    }
  }
  for (Instruction *inst : promoted)
    inst->dropAllReferences();
  for (Instruction *inst : promoted)
    inst->eraseFromParent();
  return true;
}

} // namespace

bool tile::guardIntegerAbs(Function &f) {
  SmallVector<IntrinsicInst *> calls;
  for (Instruction &inst : instructions(f))
    if (auto *call = dyn_cast<IntrinsicInst>(&inst))
      if (call->getIntrinsicID() == Intrinsic::abs &&
          isa<IntegerType>(call->getType()) &&
          cast<ConstantInt>(call->getArgOperand(1))->isZero())
        calls.push_back(call);
  for (IntrinsicInst *call : calls) {
    // max(x, 0 - x), wrapping.
    IRBuilder<> b(call);
    Value *x = call->getArgOperand(0);
    call->replaceAllUsesWith(
        b.CreateBinaryIntrinsic(Intrinsic::smax, x, b.CreateNeg(x)));
    call->eraseFromParent();
  }
  return !calls.empty();
}

bool tile::hideNegations(Function &f) {
  const DataLayout &layout = f.getDataLayout();
  // Read by a min/max directly or through a select or phi (code
  // generation turns select-of-compare into min/max too).
  auto feedsMinMax = [&](Instruction *inst) {
    return any_of(inst->users(), [&](User *user) {
      return isIntegerMinMax(user) || (isa<SelectInst, PHINode>(user) &&
                                       any_of(user->users(), isIntegerMinMax));
    });
  };
  // An i64 whose high half is the sign or zero extension of its low half (a
  // widened i32, whatever the instructions that widened it).
  auto isWidened32 = [&](Value *v) {
    return v->getType()->isIntegerTy(64) &&
           (ComputeNumSignBits(v, layout) > 32 ||
            computeKnownBits(v, layout).countMinLeadingZeros() >= 32);
  };
  // Negations: a - x (ptxas folds a constant `a` into a fused add-min/max,
  // `VIADDMNMX`, and drops the negation of x there too; 0 - x is the plain
  // case), and x * c and x / c for a negative constant c (which code
  // generation emits as a shift, multiply or division and a neg). Also any
  // i64 a - x of a widened i32 x, min/max or not.
  // Collected first, rewritten after: a negation may be the operand of
  // another (-(x * -3) read by a max), so operands are read at rewrite time.
  SmallVector<BinaryOperator *> negations;
  auto negativeConstant = [](BinaryOperator *op) -> const APInt * {
    const APInt *c;
    if ((op->getOpcode() == Instruction::Mul ||
         op->getOpcode() == Instruction::SDiv) &&
        match(op->getOperand(1), m_APInt(c)) && c->isNegative() &&
        !c->isMinSignedValue() && !c->isAllOnes())
      return c;
    return nullptr;
  };
  for (Instruction &inst : instructions(f)) {
    auto *op = dyn_cast<BinaryOperator>(&inst);
    if (!op ||
        !(op->getType()->isIntegerTy(32) || op->getType()->isIntegerTy(64)))
      continue;
    bool isSub = op->getOpcode() == Instruction::Sub;
    if (((isSub || negativeConstant(op)) && feedsMinMax(op)) ||
        (isSub && isWidened32(op->getOperand(1))))
      negations.push_back(op);
  }
  for (BinaryOperator *op : negations) {
    IRBuilder<> b(op);
    // -(x op -c) for x op c; x for a - x.
    Value *negated = op->getOperand(1);
    if (const APInt *c = negativeConstant(op))
      negated = b.CreateBinOp(op->getOpcode(), op->getOperand(0),
                              ConstantInt::get(op->getType(), -*c));
    bool wide = op->getType()->isIntegerTy(64);
    auto *type = FunctionType::get(op->getType(), {op->getType()}, false);
    InlineAsm *asmNeg =
        InlineAsm::get(type,
                       wide ? "not.b64 $0, $1;\n\tadd.s64 $0, $0, 1;"
                            : "not.b32 $0, $1;\n\tadd.s32 $0, $0, 1;",
                       wide ? "=l,l" : "=r,r", /*hasSideEffects=*/false);
    Value *result = b.CreateCall(asmNeg, {negated});
    if (op->getOpcode() == Instruction::Sub &&
        !match(op->getOperand(0), m_Zero()))
      result = b.CreateAdd(op->getOperand(0), result);
    op->replaceAllUsesWith(result);
    op->eraseFromParent();
  }
  return !negations.empty();
}

bool tile::clearSignForHalfAbs(Function &f) {
  SmallVector<IntrinsicInst *> absCalls;
  for (Instruction &inst : instructions(f))
    if (auto *call = dyn_cast<IntrinsicInst>(&inst))
      if (call->getIntrinsicID() == Intrinsic::fabs &&
          call->getType()->getScalarType()->is16bitFPTy() &&
          call->getType()->getPrimitiveSizeInBits() <= 32)
        absCalls.push_back(call);
  for (IntrinsicInst *call : absCalls) {
    IRBuilder<> b(call);
    // In inline PTX: code generation folds an `and` of the sign bit back
    // into abs.bf16. One half or a pair of halves.
    Type *type = call->getType();
    bool pair = type->getPrimitiveSizeInBits() == 32;
    Type *bits = pair ? b.getInt32Ty() : b.getInt16Ty();
    InlineAsm *clear = InlineAsm::get(
        FunctionType::get(bits, {bits}, false),
        pair ? "and.b32 $0, $1, 0x7FFF7FFF;" : "and.b16 $0, $1, 0x7FFF;",
        pair ? "=r,r" : "=h,h", /*hasSideEffects=*/false);
    Value *cleared =
        b.CreateCall(clear, {b.CreateBitCast(call->getArgOperand(0), bits)});
    call->replaceAllUsesWith(b.CreateBitCast(cleared, type));
    call->eraseFromParent();
  }
  return !absCalls.empty();
}

bool tile::promoteNarrowIntegers(Function &f) {
  if (f.isDeclaration())
    return false;
  return Promoter(f).run();
}

bool tile::settleConstantGuards(Function &f) {
  /// Each guarded statement, whether its guard is true, and its text
  /// without the guard.
  SmallVector<std::tuple<CallInst *, bool, StringRef>> guarded;
  for (Instruction &inst : instructions(f)) {
    auto *call = dyn_cast<CallInst>(&inst);
    auto *code = call ? dyn_cast<InlineAsm>(call->getCalledOperand()) : nullptr;
    // Statements without results: `$N` is the call's argument N.
    if (!code || !call->getType()->isVoidTy())
      continue;
    StringRef text = StringRef(code->getAsmString()).ltrim();
    unsigned operand;
    if (!text.consume_front("@$") || text.consumeInteger(10, operand) ||
        !text.starts_with(" ") || operand >= call->arg_size())
      continue;
    if (auto *value = dyn_cast<ConstantInt>(call->getArgOperand(operand)))
      guarded.push_back({call, value->isOne(), text.ltrim()});
  }
  for (auto [call, taken, text] : guarded) {
    if (taken) {
      auto *code = cast<InlineAsm>(call->getCalledOperand());
      call->setCalledOperand(InlineAsm::get(
          code->getFunctionType(), text, code->getConstraintString(),
          code->hasSideEffects(), code->isAlignStack(), code->getDialect(),
          code->canThrow()));
    } else {
      call->eraseFromParent();
    }
  }
  return !guarded.empty();
}
