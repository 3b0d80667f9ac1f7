//! The OpenCL C spelling of barriers and memory fences in real SPIR. OpenCL C 1.2 has one of
//! each at work-group scope (`barrier`, `mem_fence` and its read/write halves); OpenCL C 2.0
//! adds a memory scope to the barrier and `atomic_work_item_fence` with an order and scope.
//! Each graph barrier gets the first spelling that says exactly what it says; a SPIR 1.2
//! module may also take a stronger one (a narrower scope or weaker order is implied by a
//! work-group acquire-release), never a weaker one.

use spirv::{MemorySemantics, Scope};

use super::Writer;
use crate::diag::{Error, Result};
use crate::llvm;
use crate::mappings;
use crate::spir::demangle::MType;

const ORDER_MASK: u32 = 0x1e;

fn uint() -> MType {
    MType::Int {
        bits: 32,
        signed: false,
    }
}

/// Whether a fence or barrier at `scope` is implied by one at work-group scope.
fn within_work_group(scope: Scope) -> bool {
    matches!(
        scope,
        Scope::Invocation | Scope::Subgroup | Scope::Workgroup
    )
}

impl<'a> Writer<'a> {
    fn spir_2_only(what: String) -> Error {
        Error::unsupported(format!(
            "{what} has no OpenCL C spelling in SPIR 1.2; use --spir-version 2.0 or --flavor spirv-ir to keep it"
        ))
    }

    fn is_spir_2(&self) -> bool {
        self.spir_version.0 >= 2
    }

    /// The `memory_scope` argument of an OpenCL C 2.0 builtin.
    pub(super) fn scope_arg(&self, scope: Scope) -> Result<llvm::Value<'a>> {
        let value = mappings::MEMORY_SCOPES
            .iter()
            .find(|(_, s)| *s == scope)
            .map(|(v, _)| *v)
            .ok_or_else(|| self.no_spelling(format!("memory scope {scope:?}")))?;
        self.i32_const(value.into())
    }

    /// OpControlBarrier: `barrier` (SPIR 1.2), `work_group_barrier` or `sub_group_barrier`,
    /// with a `memory_scope` when the memory scope is not the barrier's own. OpenCL C barriers
    /// have no order: they read back sequentially consistent, as llvm-spirv writes them.
    pub(super) fn control_barrier(
        &mut self,
        exec: Scope,
        mem: Scope,
        semantics: u32,
        rt: llvm::Type<'a>,
        out: &str,
    ) -> Result<llvm::Value<'a>> {
        let flags = self.i32_const(Self::fence_flags(semantics))?;
        let name = match exec {
            Scope::Workgroup if !self.is_spir_2() => "barrier",
            Scope::Workgroup => "work_group_barrier",
            Scope::Subgroup => "sub_group_barrier",
            s => return Err(self.no_spelling(format!("a control barrier at scope {s:?}"))),
        };
        if mem == exec || (!self.is_spir_2() && within_work_group(mem)) {
            return self.call_builtin(name, &[uint()], rt, &[flags], out);
        }
        if !self.is_spir_2() {
            return Err(Self::spir_2_only(format!(
                "a work-group barrier on memory at scope {mem:?}"
            )));
        }
        let scope = self.scope_arg(mem)?;
        let params = [uint(), MType::Enum("memory_scope".into())];
        self.call_builtin(name, &params, rt, &[flags, scope], out)
    }

    /// OpMemoryBarrier: `mem_fence` (acquire-release), `read_mem_fence` (acquire) or
    /// `write_mem_fence` (release) at work-group scope; `atomic_work_item_fence` otherwise.
    pub(super) fn memory_barrier(
        &mut self,
        mem: Scope,
        semantics: u32,
        rt: llvm::Type<'a>,
        out: &str,
    ) -> Result<llvm::Value<'a>> {
        let flags = self.i32_const(Self::fence_flags(semantics))?;
        let order = MemorySemantics::from_bits_truncate(semantics & ORDER_MASK);
        let legacy = |order| match order {
            MemorySemantics::ACQUIRE => "read_mem_fence",
            MemorySemantics::RELEASE => "write_mem_fence",
            _ => "mem_fence",
        };
        let exact = mem == Scope::Workgroup
            && [
                MemorySemantics::ACQUIRE,
                MemorySemantics::RELEASE,
                MemorySemantics::ACQUIRE_RELEASE,
            ]
            .contains(&order);
        let implied = within_work_group(mem) && order != MemorySemantics::SEQUENTIALLY_CONSISTENT;
        if exact || (!self.is_spir_2() && implied) {
            return self.call_builtin(legacy(order), &[uint()], rt, &[flags], out);
        }
        if !self.is_spir_2() {
            return Err(Self::spir_2_only(format!(
                "a memory fence ordering {} at scope {mem:?}",
                mappings::memory_order_name(order).unwrap_or("several orders")
            )));
        }
        let order_value = mappings::MEMORY_ORDERS
            .iter()
            .find(|(_, o)| *o == order)
            .map(|(v, _)| *v)
            .ok_or_else(|| {
                Error::malformed(format!(
                    "memory semantics {semantics:#x} with several orders"
                ))
            })?;
        let params = [
            uint(),
            MType::Enum("memory_order".into()),
            MType::Enum("memory_scope".into()),
        ];
        let args = [
            flags,
            self.i32_const(order_value.into())?,
            self.scope_arg(mem)?,
        ];
        self.call_builtin("atomic_work_item_fence", &params, rt, &args, out)
    }
}
