//! Program-scope variables in the global address space (OpenCL C 2.0's `__global int
//! table[4] = {...};` at file scope). OpenCL gives each one copy, shared by every work-item
//! of every kernel of the program and kept between kernel runs. A variable that no kernel
//! writes, and whose address never leaves the loads that read it, holds its initializer
//! for the program's whole life: a copy in each invocation's Private memory (what
//! `__constant` tables become) then computes the same, with no buffer for the host to
//! bind. The others live in one buffer the host makes from their initial bytes and keeps
//! for the program's life (`Layout`): under physical pointers its device address is the
//! first 8 bytes of every kernel's push constants (clspv's
//! ProgramScopeVariablePointerPushConstant); under `descriptors` it is a storage buffer of
//! set 1 (ProgramScopeVariablesStorageBuffer).

use crate::diag::{Error, Result};
use crate::ir::{self, CastOp, Handle, Op, Type, Value};

impl super::body::FnBuilder<'_, '_> {
    /// The address of program-scope variable `g` (of the source; `ty` its address's source
    /// type): under `descriptors` its member of the program's storage buffer, otherwise
    /// the buffer's address from the push constants plus the variable's offset.
    pub(super) fn program_scope_address(
        &mut self,
        g: Handle<ir::Global>,
        ty: Handle<Type>,
    ) -> Result<Value> {
        let internal = || Error::internal("a program-scope variable without the program's buffer");
        let layout = self.l.program_scope.as_ref().ok_or_else(internal)?;
        let index = layout
            .vars
            .iter()
            .position(|v| v.0 == g)
            .ok_or_else(internal)?;
        let at = layout.vars[index].1;
        if let Some(buffer) = layout.buffer {
            return self.member_of(buffer, index as u32);
        }
        let member = self.kctx.program_scope_member.ok_or_else(internal)?;
        let base = self.push_constant(member)?;
        let u64t = self.l.out.int_type(64);
        let offset = self.int_const(64, at);
        let addr = super::emit::E { b: self }.bin(ir::BinaryOp::Add, u64t, base, offset);
        let pt = self.l.ty(ty)?;
        Ok(self.push(
            pt,
            Op::Cast {
                op: CastOp::IntToPtr,
                value: addr,
            },
        ))
    }
}
