//! Explicit layout (target policy `explicit_layout`: Vulkan). Memory in PhysicalStorageBuffer,
//! PushConstant, StorageBuffer and Uniform storage must say where every member and element lies (Offset,
//! ArrayStride); memory in Function, Private and Workgroup storage must not. So an aggregate
//! type gets a second, laid-out SPIR-V type where such memory holds it. The layout is
//! OpenCL C's (the SPIR data layout: natural alignment, 3-vectors as 4), so a buffer a host
//! filled for OpenCL reads the same; it is the scalar block layout to Vulkan.
//!
//! The Vulkan lowering never loads or stores a whole aggregate through such memory (it splits
//! those accesses into members), so values of the two types never meet.

use rspirv::dr::{Instruction, Operand};
use spirv::{Decoration, Op, StorageClass, Word};

use super::Writer;
use crate::diag::Result;
use crate::ir::{self, Type};

/// Storage classes whose memory has explicit layout.
pub(super) fn is_laid_out(sc: StorageClass) -> bool {
    matches!(
        sc,
        StorageClass::PhysicalStorageBuffer
            | StorageClass::PushConstant
            | StorageClass::StorageBuffer
            | StorageClass::Uniform
    )
}

impl Writer<'_> {
    /// The type a pointer into laid-out memory points to.
    pub(super) fn ty_laid(&mut self, t: ir::Handle<Type>) -> Result<Word> {
        if let Some(&w) = self.types.laid_ids.get(&t) {
            return Ok(w);
        }
        let m = self.m;
        let id = match &m.types[t] {
            Type::Array { elem, len } => {
                let e = self.ty_laid(*elem)?;
                let size_t = m.addressing.pointer_bits();
                let i = self.b.type_int(size_t, 0);
                let n = self.scalar_constant(i, size_t, *len);
                let id = self.fresh_type(Op::TypeArray, vec![e, n]);
                let stride = m.size_of(*elem) as u32;
                self.b
                    .decorate(id, Decoration::ArrayStride, [Operand::LiteralBit32(stride)]);
                id
            }
            Type::Struct {
                name,
                members: Some(ms),
                packed,
            } => {
                self.types.open_laid.push(t);
                let ids = ms
                    .iter()
                    .map(|&x| self.ty_laid(x))
                    .collect::<Result<Vec<_>>>();
                self.types.open_laid.pop();
                let ids = ids?;
                let id = self.fresh_type(Op::TypeStruct, ids);
                if let Some(n) = name {
                    self.b.name(id, n.clone());
                }
                let mut offset = 0u64;
                for (i, &member) in ms.iter().enumerate() {
                    let align = if *packed { 1 } else { m.align_of(member) };
                    offset = offset.div_ceil(align) * align;
                    self.b.member_decorate(
                        id,
                        i as u32,
                        Decoration::Offset,
                        [Operand::LiteralBit32(offset as u32)],
                    );
                    offset += m.size_of(member);
                }
                self.define_forward_pointers(t, id, true);
                id
            }
            Type::Vector { elem, len } if *len > 4 && self.policy.wide_vectors_as_arrays => {
                let e = self.ty_laid(*elem)?;
                let u32t = self.b.type_int(32, 0);
                let n = self.scalar_constant(u32t, 32, *len as u64);
                let id = self.fresh_type(Op::TypeArray, vec![e, n]);
                let stride = m.size_of(*elem) as u32;
                self.b
                    .decorate(id, Decoration::ArrayStride, [Operand::LiteralBit32(stride)]);
                id
            }
            Type::RuntimeArray { elem } => {
                let e = self.ty_laid(*elem)?;
                let id = self.fresh_type(Op::TypeRuntimeArray, vec![e]);
                let stride = m.size_of(*elem) as u32;
                self.b
                    .decorate(id, Decoration::ArrayStride, [Operand::LiteralBit32(stride)]);
                id
            }
            // Scalars, vectors and pointers are the same types everywhere.
            _ => self.ty(t)?,
        };
        self.types.laid_ids.insert(t, id);
        Ok(id)
    }

    /// A pointer type into laid-out memory (`t` is the graph's pointer type). A pointer to
    /// a physical storage buffer carries the stride OpPtrAccessChain steps by.
    pub(super) fn laid_pointer(
        &mut self,
        t: ir::Handle<Type>,
        pointee: ir::Handle<Type>,
        sc: StorageClass,
    ) -> Result<Word> {
        if self.types.open_laid.contains(&pointee) {
            let id = self.b.id();
            self.b.insert_types_global_values(
                rspirv::dr::InsertPoint::End,
                Instruction::new(
                    Op::TypeForwardPointer,
                    None,
                    None,
                    vec![Operand::IdRef(id), Operand::StorageClass(sc)],
                ),
            );
            self.types.forward_laid.push((id, pointee, sc));
            self.types.ids.insert(t, id);
            self.stride(id, pointee, sc);
            return Ok(id);
        }
        let p = self.ty_laid(pointee)?;
        let id = self.b.type_pointer(None, sc, p);
        self.stride(id, pointee, sc);
        Ok(id)
    }

    fn stride(&mut self, ptr: Word, pointee: ir::Handle<Type>, sc: StorageClass) {
        let sized = !matches!(
            self.m.types[pointee],
            Type::Void | Type::Struct { members: None, .. } | Type::Opaque(_)
        );
        let steps = matches!(
            sc,
            StorageClass::PhysicalStorageBuffer | StorageClass::StorageBuffer
        );
        if steps && sized && self.m.size_of(pointee) > 0 {
            let size = self.m.size_of(pointee) as u32;
            self.b
                .decorate(ptr, Decoration::ArrayStride, [Operand::LiteralBit32(size)]);
        }
    }
}
