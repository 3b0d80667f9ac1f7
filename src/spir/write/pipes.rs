//! Pipe instructions spelled as clang-14 spells OpenCL C 2.0's pipe built-ins
//! (mappings/pipes.toml): `__read_pipe_2(pipe, i8 addrspace(4)* packet, i32 size, i32 align)`
//! and its family, whose operands are the SPIR-V instruction's in order (the group forms'
//! scope goes into the name). That is what the Intel runtime's SPIR consumer and
//! llvm-spirv's reverse translation use; the mangled spelling SPIR 2.0 §2.10.7 prints is
//! read but not written, since no consumer we can run links it.

use crate::ir::Primitive as S;

use super::Writer;
use crate::diag::{Error, Result};
use crate::ir::{self, ConstantKind, Type, Value};
use crate::llvm::{self, Opcode};
use crate::mappings;
use crate::spir::demangle::MType;

/// Whether `op` is a pipe instruction (a row of mappings/pipes.toml).
pub(super) fn is_pipe(op: S) -> bool {
    mappings::PIPE_SPELLINGS.iter().any(|p| p.op == op)
}

impl<'a> Writer<'a> {
    /// Pipe instruction `op` over graph operands `args` (LLVM values `a`) returning `rt`.
    pub(super) fn pipe(
        &mut self,
        op: S,
        args: &[Value],
        a: &[llvm::Value<'a>],
        tys: &[ir::Handle<Type>],
        rt: llvm::Type<'a>,
        out: &str,
    ) -> Result<llvm::Value<'a>> {
        let group = matches!(
            op,
            S::GroupReserveReadPipePackets
                | S::GroupReserveWritePipePackets
                | S::GroupCommitReadPipe
                | S::GroupCommitWritePipe
        );
        let (scope, a, tys) = if group {
            let scope = match args.first() {
                Some(Value::Const(c)) => match self.m.constants[*c].kind {
                    ConstantKind::Int(s) => spirv::Scope::from_u32(s as u32),
                    _ => None,
                },
                _ => None,
            };
            let Some(scope) = scope else {
                return Err(self.no_spelling(format!("Op{op:?} whose scope is not a constant")));
            };
            (Some(scope), &a[1..], &tys[1..])
        } else {
            (None, a, tys)
        };
        let row = mappings::pipe_spelling(op, scope).map_err(|what| self.no_spelling(what))?;
        if a.len() != row.args as usize {
            return Err(Error::internal(format!(
                "Op{op:?} with {} operands (the table says {})",
                a.len(),
                row.args
            )));
        }
        let Some(clang) = row.clang else {
            // is_valid_reserve_id: an ordinary mangled OpenCL C function.
            let p = [MType::Named("ocl_reserveid".into())];
            return self.call_builtin(row.spir, &p, rt, a, out);
        };
        let name = match (row.clang_wo, &self.m.types[tys[0]]) {
            (Some(wo), Type::Pipe(ir::Access::WriteOnly)) => wo,
            _ => clang,
        };
        // The packet pointer is an `i8 addrspace(4)*`.
        let mut a = a.to_vec();
        for (v, &t) in a.iter_mut().zip(tys) {
            if matches!(self.m.types[t], Type::Pointer { .. }) {
                *v = self.b.cast(Opcode::LLVMBitCast, *v, self.i8_ptr(4)?, "")?;
            }
        }
        self.call_symbol(name, rt, &a, false, out)
    }
}
