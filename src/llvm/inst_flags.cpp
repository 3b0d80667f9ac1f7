// The flags of one LLVM instruction that LLVM 14's C API can neither read nor set: the
// fast-math flags (LLVMGetFastMathFlags and LLVMSetFastMathFlags came with LLVM 18) and the
// wrap and exactness flags (LLVMGetNSW, LLVMSetNUW, LLVMGetExact and the rest came with
// LLVM 17).
// Two functions over LLVM's C++ API, called only by src/llvm/inst_flags.rs, which gives
// their bits names. Each checks the kind of the value it is given (LLVM's own `dyn_cast`),
// so any value of a live module is a valid argument.

#include <llvm-c/Core.h>
#include <llvm/IR/Instruction.h>
#include <llvm/IR/Operator.h>

using namespace llvm;

namespace {
// The bits, as inst_flags.rs names them: LLVM 18's LLVMFastMathFlags in the low seven,
// then the integer ones.
enum : unsigned {
  Reassoc = 1 << 0,
  NoNaNs = 1 << 1,
  NoInfs = 1 << 2,
  NoSignedZeros = 1 << 3,
  AllowRecip = 1 << 4,
  Contract = 1 << 5,
  ApproxFunc = 1 << 6,
  NoSignedWrap = 1 << 8,
  NoUnsignedWrap = 1 << 9,
  Exact = 1 << 10,
};
} // namespace

extern "C" unsigned spir_xlate_inst_flags(LLVMValueRef value) {
  Value *v = unwrap(value);
  unsigned bits = 0;
  if (auto *f = dyn_cast<FPMathOperator>(v)) {
    FastMathFlags m = f->getFastMathFlags();
    bits |= (m.allowReassoc() ? Reassoc : 0) | (m.noNaNs() ? NoNaNs : 0) |
            (m.noInfs() ? NoInfs : 0) | (m.noSignedZeros() ? NoSignedZeros : 0) |
            (m.allowReciprocal() ? AllowRecip : 0) | (m.allowContract() ? Contract : 0) |
            (m.approxFunc() ? ApproxFunc : 0);
  }
  if (auto *o = dyn_cast<OverflowingBinaryOperator>(v)) {
    bits |= (o->hasNoSignedWrap() ? NoSignedWrap : 0) |
            (o->hasNoUnsignedWrap() ? NoUnsignedWrap : 0);
  }
  if (auto *e = dyn_cast<PossiblyExactOperator>(v)) {
    bits |= e->isExact() ? Exact : 0;
  }
  return bits;
}

// Sets the flags of `value` that its kind has to those of `bits`: the fast-math flags of a
// float operation, the wrap flags of an add, sub, mul or shl, exactness of a division or
// right shift. Returns 0, changing nothing, where `value` is no instruction with flags.
extern "C" int spir_xlate_set_inst_flags(LLVMValueRef value, unsigned bits) {
  auto *i = dyn_cast<Instruction>(unwrap(value));
  if (!i)
    return 0;
  int set = 0;
  if (isa<OverflowingBinaryOperator>(i)) {
    i->setHasNoSignedWrap(bits & NoSignedWrap);
    i->setHasNoUnsignedWrap(bits & NoUnsignedWrap);
    set = 1;
  }
  if (isa<PossiblyExactOperator>(i)) {
    i->setIsExact(bits & Exact);
    set = 1;
  }
  if (!isa<FPMathOperator>(i))
    return set;
  FastMathFlags m;
  m.setAllowReassoc(bits & Reassoc);
  m.setNoNaNs(bits & NoNaNs);
  m.setNoInfs(bits & NoInfs);
  m.setNoSignedZeros(bits & NoSignedZeros);
  m.setAllowReciprocal(bits & AllowRecip);
  m.setAllowContract(bits & Contract);
  m.setApproxFunc(bits & ApproxFunc);
  i->setFastMathFlags(m);
  return 1;
}
