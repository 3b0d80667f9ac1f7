//! Vector and composite instructions of a function body.

use rspirv::dr::Instruction;
use spirv::Op as S;

use super::super::function::{FnState, Local};
use super::super::{id_operand, literal_operand, Reader};
use super::Steps;
use crate::diag::{Error, Result};
use crate::ir::{self, Op, Type};

impl Reader {
    /// A lane or member of a vector or composite read or replaced, a shuffle, a construct.
    pub(super) fn composite_instruction(
        &mut self,
        st: &mut FnState,
        inst: &Instruction,
        rty: ir::Handle<Type>,
        name: Option<String>,
    ) -> Result<()> {
        let op = inst.class.opcode;
        match op {
            S::VectorShuffle => {
                let a = self.operand(st, id_operand(inst, 0)?)?;
                let b = self.operand(st, id_operand(inst, 1)?)?;
                let mask = (2..inst.operands.len())
                    .map(|i| literal_operand(inst, i).map(|l| (l != u32::MAX).then_some(l)))
                    .collect::<Result<Vec<_>>>()?;
                self.emit(st, inst, rty, Op::Shuffle { a, b, mask }, name)?;
            }
            S::VectorExtractDynamic => {
                let vid = id_operand(inst, 0)?;
                if let Some(Local::BuiltinVector(b, _)) = st.locals.get(&vid).copied() {
                    let idx = self.operand(st, id_operand(inst, 1)?)?;
                    let i32t = self.m.int_type(32);
                    let idx = self.resize_int(st, idx, i32t)?;
                    return self.emit(
                        st,
                        inst,
                        rty,
                        Op::Builtin {
                            builtin: ir::Builtin::WorkItem(b),
                            args: vec![idx],
                        },
                        name,
                    );
                }
                let a = self.operands(st, inst, 0)?;
                self.emit(
                    st,
                    inst,
                    rty,
                    Op::ExtractElement {
                        vector: a[0],
                        index: a[1],
                    },
                    name,
                )?;
            }
            S::VectorInsertDynamic => {
                let a = self.operands(st, inst, 0)?;
                self.emit(
                    st,
                    inst,
                    rty,
                    Op::InsertElement {
                        vector: a[0],
                        element: a[1],
                        index: a[2],
                    },
                    name,
                )?;
            }
            S::CompositeExtract => self.composite_extract(st, inst, rty, name)?,
            S::CompositeInsert => {
                let element = self.operand(st, id_operand(inst, 0)?)?;
                let aggregate = self.operand(st, id_operand(inst, 1)?)?;
                let indices = (2..inst.operands.len())
                    .map(|i| literal_operand(inst, i))
                    .collect::<Result<Vec<_>>>()?;
                let o = crate::normal::insert_path(
                    &mut Steps { r: self, st },
                    aggregate,
                    element,
                    &indices,
                )
                .ok_or_else(|| Error::malformed("OpCompositeInsert indices do not fit"))?;
                self.emit(st, inst, rty, o, name)?;
            }
            S::CompositeConstruct => self.composite_construct(st, inst, rty, name)?,
            _ => return Err(Error::internal("an instruction read by the wrong family")),
        }
        Ok(())
    }
}
