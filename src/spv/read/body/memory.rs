//! Memory instructions of a function body: variables, loads, stores, copies, access chains.

use rspirv::dr::{Instruction, Operand};
use spirv::{Decoration, Op as S};

use super::super::function::FnState;
use super::super::{id_operand, result_id, Reader};
use crate::diag::{Error, Result};
use crate::ir::{self, Op, Type, Value};

impl Reader {
    /// A variable, a load, a store, a copy of memory, an access chain.
    pub(super) fn memory_instruction(
        &mut self,
        st: &mut FnState,
        inst: &Instruction,
        rty: ir::Handle<Type>,
        name: Option<String>,
    ) -> Result<()> {
        let op = inst.class.opcode;
        match op {
            S::Variable => {
                let Type::Pointer { pointee, .. } = self.m.types[rty] else {
                    return Err(Error::malformed("OpVariable whose type is not a pointer"));
                };
                let id = result_id(inst)?;
                let align = self
                    .m
                    .stated_align(pointee, self.ann.literal(id, Decoration::Alignment));
                let v = self.push(
                    st,
                    rty,
                    Op::Alloca {
                        allocated: pointee,
                        align,
                    },
                    name,
                );
                self.define(st, inst, v)?;
                if let Some(Operand::IdRef(init)) = inst.operands.get(1) {
                    let value = self.operand(st, *init)?;
                    let void = self.m.void_type();
                    self.push(
                        st,
                        void,
                        Op::Store {
                            ptr: v,
                            value,
                            align,
                            volatile: false,
                        },
                        None,
                    );
                }
            }
            S::Load => self.load(st, inst, rty, name)?,
            S::Store => {
                let ptr_id = id_operand(inst, 0)?;
                let ptr = self.operand(st, ptr_id)?;
                let value = self.operand(st, id_operand(inst, 1)?)?;
                let (align, volatile) = self.memory_access(inst, 2, ptr_id);
                let align = self.access_align(st, ptr, align);
                let void = self.m.void_type();
                self.push(
                    st,
                    void,
                    Op::Store {
                        ptr,
                        value,
                        align,
                        volatile,
                    },
                    None,
                );
            }
            S::CopyMemory | S::CopyMemorySized => {
                let dst_id = id_operand(inst, 0)?;
                let dst = self.operand(st, dst_id)?;
                let src = self.operand(st, id_operand(inst, 1)?)?;
                let (size, access_at) = if op == S::CopyMemorySized {
                    (self.operand(st, id_operand(inst, 2)?)?, 3)
                } else {
                    let pointee = self
                        .m
                        .pointee(self.value_ty(st, dst))
                        .ok_or_else(|| Error::malformed("OpCopyMemory of a non-pointer"))?;
                    let bytes = self.m.size_of(pointee);
                    let st_ty = self.m.size_type();
                    (Value::Const(self.m.int_const(st_ty, bytes)), 2)
                };
                let (align, volatile) = self.memory_access(inst, access_at, dst_id);
                let void = self.m.void_type();
                self.push(
                    st,
                    void,
                    Op::CopyMemory {
                        dst,
                        src,
                        size,
                        align,
                        volatile,
                    },
                    None,
                );
            }
            S::AccessChain
            | S::InBoundsAccessChain
            | S::PtrAccessChain
            | S::InBoundsPtrAccessChain => {
                let base = self.operand(st, id_operand(inst, 0)?)?;
                let mut indices = self.operands(st, inst, 1)?;
                if matches!(op, S::AccessChain | S::InBoundsAccessChain) {
                    let i32t = self.m.int_type(32);
                    indices.insert(0, Value::Const(self.m.int_const(i32t, 0)));
                }
                let base_ty = self.value_ty(st, base);
                self.m.struct_indices_as_i32(base_ty, &mut indices);
                // The indices must walk the base type to the result type: a writer (LLVM's
                // GEP above all) cannot spell a chain that does not.
                let consts = self.m.const_indices(&indices);
                let integers = indices.iter().all(|&i| {
                    let it = self.value_ty(st, i);
                    matches!(self.m.types[it], Type::Int { .. })
                });
                if !integers || self.m.gep_result_type(base_ty, &consts) != Some(rty) {
                    return Err(Error::malformed(format!(
                        "Op{op:?}: the indices do not lead from the base type to the result type"
                    )));
                }
                self.emit(
                    st,
                    inst,
                    rty,
                    Op::Gep {
                        inbounds: matches!(op, S::InBoundsAccessChain | S::InBoundsPtrAccessChain),
                        base,
                        indices,
                    },
                    name,
                )?;
            }
            _ => return Err(Error::internal("an instruction read by the wrong family")),
        }
        Ok(())
    }
}
