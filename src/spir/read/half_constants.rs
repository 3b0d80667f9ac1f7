//! Half-precision constants, whose value the bitcode reader (llvm-ir 0.11) does not expose:
//! its `Float::Half` has no payload.
//!
//! Before llvm-ir reads a module that has them, each instruction operand that is a `half`
//! constant, or a vector of them, becomes a call to a marker function taking the same bits as
//! an integer constant (`call half @__spir_xlate.half.s(i16 15360)` for `half 1.0`); LLVM folds
//! nothing through a call, so the bits survive. The body lowering reads the call back as the
//! constant (`calls.rs`), so the marker never reaches the graph. A `half` inside a global's
//! initializer or a constant expression is left alone, and still refused with a clear error.

use crate::hash::HashMap;

use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::{LLVMOpcode, LLVMTypeKind, LLVMValueKind};

/// Prefix of the marker functions; `s` (scalar) or `v<N>` follows.
pub const MARKER: &str = "__spir_xlate.half.";

/// Whether `v` is a `half` constant or a constant vector of them that llvm-ir would read
/// without its value (undefined and zero values it reads fine).
unsafe fn is_half_constant(v: LLVMValueRef) -> bool {
    let t = LLVMTypeOf(v);
    let elem = match LLVMGetTypeKind(t) {
        LLVMTypeKind::LLVMVectorTypeKind => LLVMGetElementType(t),
        _ => t,
    };
    LLVMGetTypeKind(elem) == LLVMTypeKind::LLVMHalfTypeKind
        && matches!(
            LLVMGetValueKind(v),
            LLVMValueKind::LLVMConstantFPValueKind
                | LLVMValueKind::LLVMConstantDataVectorValueKind
                | LLVMValueKind::LLVMConstantVectorValueKind
        )
}

struct Rewriter {
    ctx: LLVMContextRef,
    module: LLVMModuleRef,
    builder: LLVMBuilderRef,
    /// The marker call made at the end of a block for a constant that phis take from it: a
    /// phi has one value per predecessor block, however many edges it has.
    phi_calls: HashMap<(LLVMBasicBlockRef, LLVMValueRef), LLVMValueRef>,
}

impl Rewriter {
    /// The marker function returning `ty` from the integer type of the same bits.
    unsafe fn marker(&self, ty: LLVMTypeRef) -> (LLVMValueRef, LLVMTypeRef, LLVMTypeRef) {
        let i16t = LLVMInt16TypeInContext(self.ctx);
        let (name, int_ty) = match LLVMGetTypeKind(ty) {
            LLVMTypeKind::LLVMVectorTypeKind => {
                let n = LLVMGetVectorSize(ty);
                (format!("{MARKER}v{n}"), LLVMVectorType(i16t, n))
            }
            _ => (format!("{MARKER}s"), i16t),
        };
        let mut params = [int_ty];
        let fn_ty = LLVMFunctionType(ty, params.as_mut_ptr(), 1, 0);
        let cname = std::ffi::CString::new(name).expect("no NUL in marker names");
        let mut f = LLVMGetNamedFunction(self.module, cname.as_ptr());
        if f.is_null() {
            f = LLVMAddFunction(self.module, cname.as_ptr(), fn_ty);
        }
        (f, fn_ty, int_ty)
    }

    /// A marker call standing for constant `c`, made right before `before`.
    unsafe fn call_for(&mut self, c: LLVMValueRef, before: LLVMValueRef) -> LLVMValueRef {
        let (f, fn_ty, int_ty) = self.marker(LLVMTypeOf(c));
        let mut arg = [LLVMConstBitCast(c, int_ty)];
        LLVMPositionBuilderBefore(self.builder, before);
        LLVMBuildCall2(self.builder, fn_ty, f, arg.as_mut_ptr(), 1, c"".as_ptr())
    }

    /// The marker call for constant `c` that phis take from `block`, made at its end.
    unsafe fn phi_call_for(&mut self, c: LLVMValueRef, block: LLVMBasicBlockRef) -> LLVMValueRef {
        if let Some(&v) = self.phi_calls.get(&(block, c)) {
            return v;
        }
        let call = self.call_for(c, LLVMGetBasicBlockTerminator(block));
        self.phi_calls.insert((block, c), call);
        call
    }
}

/// Replaces every `half` constant operand of an instruction in `m` with its marker call.
/// Returns whether there was any.
///
/// # Safety
/// `ctx` and `m` must be a valid context and a verified module in it.
pub unsafe fn rewrite(ctx: LLVMContextRef, m: LLVMModuleRef) -> bool {
    let mut r = Rewriter {
        ctx,
        module: m,
        builder: LLVMCreateBuilderInContext(ctx),
        phi_calls: HashMap::default(),
    };
    let mut any = false;
    let mut f = LLVMGetFirstFunction(m);
    while !f.is_null() {
        let mut bb = LLVMGetFirstBasicBlock(f);
        while !bb.is_null() {
            let mut inst = LLVMGetFirstInstruction(bb);
            while !inst.is_null() {
                let phi = LLVMGetInstructionOpcode(inst) == LLVMOpcode::LLVMPHI;
                for i in 0..LLVMGetNumOperands(inst).max(0) as u32 {
                    let op = LLVMGetOperand(inst, i);
                    if !is_half_constant(op) {
                        continue;
                    }
                    // A phi's value is made at the end of the block it comes from.
                    let call = if phi {
                        r.phi_call_for(op, LLVMGetIncomingBlock(inst, i))
                    } else {
                        r.call_for(op, inst)
                    };
                    LLVMSetOperand(inst, i, call);
                    any = true;
                }
                inst = LLVMGetNextInstruction(inst);
            }
            bb = LLVMGetNextBasicBlock(bb);
        }
        f = LLVMGetNextFunction(f);
    }
    LLVMDisposeBuilder(r.builder);
    any
}
