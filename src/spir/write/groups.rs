//! Work-group and sub-group collectives in real SPIR: OpenCL C's `work_group_*`/`sub_group_*`
//! functions, whose predicates and boolean results are `int` where SPIR-V has a boolean, and
//! whose indices are `uint` (`size_t` for `work_group_broadcast`'s local ids, one argument per
//! dimension).

use spirv::{GroupOperation, Scope};

use super::Writer;
use crate::diag::Result;
use crate::ir::{self, GroupOp, Type};
use crate::llvm::{self, Opcode};
use crate::spir::demangle::MType;
use crate::spir::groups;

impl<'a> Writer<'a> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn group(
        &mut self,
        op: GroupOp,
        scope: Scope,
        operation: Option<GroupOperation>,
        a: &[llvm::Value<'a>],
        tys: &[ir::Handle<Type>],
        rt: llvm::Type<'a>,
        out: &str,
    ) -> Result<llvm::Value<'a>> {
        let (name, row) = groups::spell(op, scope, operation).ok_or_else(|| {
            let how = operation.map(|o| format!(" {o:?}")).unwrap_or_default();
            let spirv = crate::mappings::group_opcode(op);
            self.no_spelling(format!("SPIR-V Op{spirv:?}{how} at {scope:?} scope"))
        })?;
        let int = MType::Int {
            bits: 32,
            signed: true,
        };
        let index_bits = if op == GroupOp::Broadcast && scope == Scope::Workgroup {
            self.m.addressing.pointer_bits()
        } else {
            32
        };
        let (mut params, mut args) = (Vec::new(), Vec::new());
        for (i, (&v, &t)) in a.iter().zip(tys).enumerate() {
            if matches!(self.m.types[t], Type::Bool) {
                params.push(int.clone());
                let i32t = self.llvm.int_type(32)?;
                args.push(self.b.cast(Opcode::LLVMZExt, v, i32t, "")?);
            } else if i == 0 {
                let unsigned = op.takes_ballot() || op.takes_unsigned();
                params.push(self.mtype(t, !unsigned)?);
                args.push(v);
            } else {
                // Indices, deltas and cluster sizes; a vector of local ids is one per dimension.
                let index = MType::Int {
                    bits: index_bits,
                    signed: false,
                };
                let lanes = self.m.lanes(t);
                for lane in 0..lanes {
                    let x = if lanes == 1 {
                        v
                    } else {
                        let lane = self.i32_const(lane as u64)?;
                        self.b.extract_element(v, lane, "")?
                    };
                    params.push(index.clone());
                    args.push(self.int_to_width(x, index_bits)?);
                }
            }
        }
        if !row.boolean {
            return self.call_builtin(&name, &params, rt, &args, out);
        }
        let it = self.llvm.int_type(32)?;
        let r = self.call_builtin(&name, &params, it, &args, "")?;
        self.is_nonzero(r, it, out)
    }
}
