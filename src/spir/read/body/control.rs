//! Terminators, and the compare predicates of icmp and fcmp.

use llvm_ir::{terminator as lt, Terminator as T};

use crate::diag::{Error, Result};
use crate::ir::{self, Terminator};
use crate::spir::read::lowering::FnLowering;

impl FnLowering<'_, '_> {
    pub(super) fn terminator(&mut self, t: &T) -> Result<Terminator> {
        Ok(match t {
            T::Ret(lt::Ret { return_operand, .. }) => Terminator::Return(
                return_operand
                    .as_ref()
                    .map(|o| self.operand(o))
                    .transpose()?,
            ),
            T::Br(b) => Terminator::Branch(self.block(&b.dest)?),
            T::CondBr(b) => Terminator::CondBranch {
                cond: self.operand(&b.condition)?,
                on_true: self.block(&b.true_dest)?,
                on_false: self.block(&b.false_dest)?,
            },
            T::Switch(s) => {
                let value = self.operand(&s.operand)?;
                let mut cases = Vec::new();
                for (c, d) in &s.dests {
                    let v = match c.as_ref() {
                        // The value held zero-extended, as narrow integers are (narrow.rs).
                        llvm_ir::Constant::Int { value, bits } if *bits < 64 => {
                            value & ((1u64 << bits) - 1)
                        }
                        llvm_ir::Constant::Int { value, .. } => *value,
                        _ => {
                            return Err(Error::malformed("switch case is not an integer constant"))
                        }
                    };
                    cases.push((v, self.block(d)?));
                }
                Terminator::Switch {
                    value,
                    default: self.block(&s.default_dest)?,
                    cases,
                }
            }
            T::Unreachable(_) => Terminator::Unreachable,
            other => {
                return Err(Error::unsupported(format!(
                    "terminator '{other}' (not part of SPIR)"
                )))
            }
        })
    }
}

pub(super) fn int_pred(p: llvm_ir::IntPredicate) -> ir::IntPredicate {
    use ir::IntPredicate as Q;
    use llvm_ir::IntPredicate as P;
    match p {
        P::EQ => Q::Eq,
        P::NE => Q::Ne,
        P::UGT => Q::Ugt,
        P::UGE => Q::Uge,
        P::ULT => Q::Ult,
        P::ULE => Q::Ule,
        P::SGT => Q::Sgt,
        P::SGE => Q::Sge,
        P::SLT => Q::Slt,
        P::SLE => Q::Sle,
    }
}

pub(super) fn float_pred(p: llvm_ir::FPPredicate) -> ir::FloatPredicate {
    use ir::FloatPredicate as Q;
    use llvm_ir::FPPredicate as P;
    match p {
        P::False => Q::False,
        P::OEQ => Q::Oeq,
        P::OGT => Q::Ogt,
        P::OGE => Q::Oge,
        P::OLT => Q::Olt,
        P::OLE => Q::Ole,
        P::ONE => Q::One,
        P::ORD => Q::Ord,
        P::UNO => Q::Uno,
        P::UEQ => Q::Ueq,
        P::UGT => Q::Ugt,
        P::UGE => Q::Uge,
        P::ULT => Q::Ult,
        P::ULE => Q::Ule,
        P::UNE => Q::Une,
        P::True => Q::True,
    }
}
