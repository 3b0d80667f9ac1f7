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
use crate::llvm::{self, Block, Opcode, Type, TypeKind, Value, ValueKind};

/// Prefix of the marker functions; `s` (scalar) or `v<N>` follows.
pub const MARKER: &str = "__spir_xlate.half.";

/// Whether `v` is a `half` constant or a constant vector of them that llvm-ir would read
/// without its value (undefined and zero values it reads fine).
fn is_half_constant(v: Value) -> bool {
    let t = v.type_of();
    let elem = t.vector().map_or(t, |(elem, _)| elem);
    elem.kind() == TypeKind::LLVMHalfTypeKind
        && matches!(
            v.kind(),
            ValueKind::LLVMConstantFPValueKind
                | ValueKind::LLVMConstantDataVectorValueKind
                | ValueKind::LLVMConstantVectorValueKind
        )
}

struct Rewriter<'m> {
    module: &'m llvm::Module,
    /// The marker call made at the end of a block for a constant that phis take from it: a
    /// phi has one value per predecessor block, however many edges it has.
    phi_calls: HashMap<(Block<'m>, Value<'m>), Value<'m>>,
}

impl<'m> Rewriter<'m> {
    /// The marker function returning `ty` from the integer type of the same bits, and that
    /// integer type.
    fn marker(&self, ty: Type<'m>) -> Option<(Value<'m>, Type<'m>)> {
        let i16t = self.module.int_type(16).ok()?;
        let (name, int_ty) = match ty.vector() {
            Some((_, n)) => (format!("{MARKER}v{n}"), i16t.vector_of(n).ok()?),
            None => (format!("{MARKER}s"), i16t),
        };
        let f = self.module.declare_function(&name, ty, &[int_ty])?;
        Some((f, int_ty))
    }

    /// A marker call standing for constant `c`, made right before `before`.
    fn call_for(&mut self, c: Value<'m>, before: Value<'m>) -> Option<Value<'m>> {
        let (f, int_ty) = self.marker(c.type_of())?;
        let bits = c.const_bitcast(int_ty)?;
        self.module.insert_call_before(before, f, &[bits])
    }

    /// The marker call for constant `c` that phis take from `block`, made at its end.
    fn phi_call_for(&mut self, c: Value<'m>, block: Block<'m>) -> Option<Value<'m>> {
        if let Some(&v) = self.phi_calls.get(&(block, c)) {
            return Some(v);
        }
        let call = self.call_for(c, block.terminator()?)?;
        self.phi_calls.insert((block, c), call);
        Some(call)
    }
}

/// Replaces every `half` constant operand of an instruction in `m` with its marker call.
/// Returns whether there was any.
pub fn rewrite(m: &llvm::Module) -> bool {
    let mut r = Rewriter {
        module: m,
        phi_calls: HashMap::default(),
    };
    let mut any = false;
    for f in m.functions() {
        for bb in f.blocks() {
            for inst in bb.instructions() {
                let phi = inst.opcode() == Some(Opcode::LLVMPHI);
                for i in 0..inst.operand_count() {
                    let Some(op) = inst.operand(i).filter(|&op| is_half_constant(op)) else {
                        continue;
                    };
                    // A phi's value is made at the end of the block it comes from.
                    let call = if phi {
                        inst.incoming_block(i)
                            .and_then(|block| r.phi_call_for(op, block))
                    } else {
                        r.call_for(op, inst)
                    };
                    if call.is_some_and(|call| inst.set_operand(i, call)) {
                        any = true;
                    }
                }
            }
        }
    }
    any
}
