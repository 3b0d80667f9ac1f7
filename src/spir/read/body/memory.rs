//! Allocas, loads, stores, getelementptr, shufflevector and the lanes and members of vectors
//! and aggregates: the instructions that address memory and aggregates.

use llvm_ir::{instruction as li, Operand};

use crate::diag::{Error, Result};
use crate::ir::{self, CastOp, Op, Type, Value};
use crate::spir::read::lowering::FnLowering;

impl FnLowering<'_, '_> {
    pub(super) fn alloca(&mut self, i: &li::Alloca) -> Result<()> {
        let one = matches!(&i.num_elements, Operand::ConstantOperand(c) if matches!(c.as_ref(), llvm_ir::Constant::Int { value: 1, .. }));
        let mut allocated = self.lower_type(&i.allocated_type)?;
        // `alloca T, N` is N consecutive T and its value a pointer to the first: an array
        // variable and the address of its element 0.
        let mut element = None;
        if !one {
            match &i.num_elements {
                Operand::ConstantOperand(c) => match c.as_ref() {
                    llvm_ir::Constant::Int { value, .. } => {
                        self.m.check_array(allocated, *value)?;
                        element = Some(allocated);
                        allocated = self.m.ty(Type::Array {
                            elem: allocated,
                            len: *value,
                        });
                    }
                    _ => {
                        return Err(Error::unsupported(
                            "alloca with a non-integer element count",
                        ))
                    }
                },
                _ => {
                    return Err(Error::unsupported(
                        "alloca of a run-time number of elements (variable-length array)",
                    ))
                }
            }
        }
        if let Some(&t) = self.slot_types.get(&i.dest).filter(|_| one) {
            allocated = t;
        }
        let ty = self.m.ty(Type::Pointer {
            pointee: allocated,
            space: ir::AddressSpace::Private,
        });
        let op = Op::Alloca {
            allocated,
            align: Self::align(i.alignment),
        };
        let Some(elem) = element else {
            self.emit(Some(&i.dest), ty, op);
            return Ok(());
        };
        let array = self.emit(None, ty, op);
        let i32t = self.m.int_type(32);
        let zero = Value::Const(self.m.int_const(i32t, 0));
        let elem_ptr = self.m.ty(Type::Pointer {
            pointee: elem,
            space: ir::AddressSpace::Private,
        });
        let gep = Op::Gep {
            inbounds: true,
            base: Value::Inst(array),
            indices: vec![zero, zero],
        };
        self.emit(Some(&i.dest), elem_ptr, gep);
        Ok(())
    }

    pub(super) fn gep(&mut self, i: &li::GetElementPtr) -> Result<()> {
        let base = self.operand(&i.address)?;
        let mut indices = Vec::with_capacity(i.indices.len());
        for x in &i.indices {
            let mut v = self.operand(x)?;
            // Indices are signed: a narrow one is sign-extended, a boolean one (i1) is
            // 0 or -1 as an i32.
            if let Some(bits) = self.narrow_of(x) {
                v = self.sign_extend_low(v, bits);
            } else if self.m.types[self.value_type(v)] == Type::Bool {
                let i32_ty = self.m.int_type(32);
                let op = Op::Cast {
                    op: CastOp::SExt,
                    value: v,
                };
                v = Value::Inst(self.emit(None, i32_ty, op));
            }
            indices.push(v);
        }
        // The result type is derived here: llvm-ir's computed GEP type drops the address space.
        let consts = self.m.const_indices(&indices);
        // A getelementptr over vectors of pointers has no OpenCL C or SPIR-V spelling.
        let vector = std::iter::once(&base)
            .chain(&indices)
            .any(|&v| matches!(self.m.types[self.value_type(v)], Type::Vector { .. }));
        if vector {
            return Err(
                Error::unsupported("getelementptr over a vector of indices or pointers")
                    .at_value(format!("%{}", self.names.spell(&i.dest))),
            );
        }
        let bt = self.value_type(base);
        let ty = self
            .m
            .gep_result_type(bt, &consts)
            .ok_or_else(|| Error::malformed("getelementptr indices do not fit the type"))?;
        self.emit(
            Some(&i.dest),
            ty,
            Op::Gep {
                inbounds: i.in_bounds,
                base,
                indices,
            },
        );
        Ok(())
    }

    pub(super) fn shuffle(&mut self, i: &li::ShuffleVector) -> Result<()> {
        let a = self.operand(&i.operand0)?;
        let b = self.operand(&i.operand1)?;
        let t = llvm_ir::types::Typed::get_type(i, &self.types.llvm_module().types);
        let ty = self.lower_type(&t)?;
        let len = self.m.lanes(ty) as usize;
        let mask: Vec<Option<u32>> = match i.mask.as_ref() {
            llvm_ir::Constant::Vector(elems) => elems
                .iter()
                .map(|e| match e.as_ref() {
                    llvm_ir::Constant::Int { value, .. } => Ok(Some(*value as u32)),
                    llvm_ir::Constant::Undef(_) | llvm_ir::Constant::Poison(_) => Ok(None),
                    _ => Err(Error::malformed(
                        "shufflevector mask element is not a constant",
                    )),
                })
                .collect::<Result<_>>()?,
            llvm_ir::Constant::AggregateZero(_) => vec![Some(0); len],
            llvm_ir::Constant::Undef(_) | llvm_ir::Constant::Poison(_) => vec![None; len],
            _ => {
                return Err(Error::malformed(
                    "shufflevector mask is not a constant vector",
                ))
            }
        };
        self.emit_folded(&i.dest, ty, Op::Shuffle { a, b, mask });
        Ok(())
    }

    /// A `load` (not of a builtin variable).
    pub(super) fn load_inst(&mut self, i: &li::Load) -> Result<()> {
        let ptr = self.operand(&i.address)?;
        if i.atomicity.is_some() {
            return Err(Error::unsupported("atomic load")
                .at_value(format!("%{}", self.names.spell(&i.dest))));
        }
        let pt = self.value_type(ptr);
        let ty = self
            .m
            .pointee(pt)
            .ok_or_else(|| Error::malformed("load from a non-pointer"))?;
        self.emit(
            Some(&i.dest),
            ty,
            Op::Load {
                ptr,
                align: Self::align(i.alignment),
                volatile: i.volatile,
            },
        );
        Ok(())
    }

    /// A `store`: refused into read-only memory and for a legacy sampler's bits.
    pub(super) fn store_inst(&mut self, i: &li::Store) -> Result<()> {
        if i.atomicity.is_some() {
            return Err(Error::unsupported("atomic store"));
        }
        let ptr = self.operand(&i.address)?;
        let value = self.operand(&i.value)?;
        let ptr_ty = self.value_type(ptr);
        if let Type::Pointer {
            space: space @ (ir::AddressSpace::Constant | ir::AddressSpace::Input),
            ..
        } = self.m.types[ptr_ty]
        {
            let what = match space {
                ir::AddressSpace::Constant => "__constant memory",
                _ => "a builtin input variable",
            };
            return Err(Error::unsupported(format!(
                "a store to {what} (read-only in OpenCL C and SPIR-V)"
            )));
        }
        // A legacy SPIR 1.2 sampler is an `i32` whose bits a kernel can store; in
        // the graph (and in SPIR-V) a sampler is opaque, held only by a sampler
        // variable.
        let value_ty = self.value_type(value);
        if self.m.types[value_ty] == Type::Sampler && self.m.pointee(ptr_ty) != Some(value_ty) {
            return Err(Error::unsupported(
                "the bits of a sampler stored to memory as an integer (a sampler in \
                 SPIR-V is an opaque object, without bits to read)",
            ));
        }
        let void = self.m.void_type();
        self.emit(
            None,
            void,
            Op::Store {
                ptr,
                value,
                align: Self::align(i.alignment),
                volatile: i.volatile,
            },
        );
        Ok(())
    }

    /// An `extractelement` (a lane of a builtin vector variable reads the builtin).
    pub(super) fn extract_element(&mut self, i: &li::ExtractElement) -> Result<()> {
        if let Operand::LocalOperand { name, .. } = &i.vector {
            if let Some(&(b, ty)) = self.builtin_loads.get(name) {
                let index = self.operand(&i.index)?;
                let elem = self.m.scalar_of(ty);
                let q = Op::Builtin {
                    builtin: ir::Builtin::WorkItem(b),
                    args: vec![index],
                };
                self.emit(Some(&i.dest), elem, q);
                return Ok(());
            }
        }
        let vector = self.operand(&i.vector)?;
        let index = self.operand(&i.index)?;
        let ty = self.m.scalar_of(self.value_type(vector));
        if let Some((query, h)) = self.m.query_component(&self.body, vector, index) {
            self.spellings.push(h);
            self.emit(Some(&i.dest), ty, query);
            return Ok(());
        }
        self.emit_folded(&i.dest, ty, Op::ExtractElement { vector, index });
        Ok(())
    }

    /// An `insertelement`.
    pub(super) fn insert_element(&mut self, i: &li::InsertElement) -> Result<()> {
        let vector = self.operand(&i.vector)?;
        let element = self.operand(&i.element)?;
        let index = self.operand(&i.index)?;
        let ty = self.value_type(vector);
        let op = Op::InsertElement {
            vector,
            element,
            index,
        };
        self.emit_folded(&i.dest, ty, op);
        Ok(())
    }

    /// An `extractvalue`.
    pub(super) fn extract_value(&mut self, i: &li::ExtractValue) -> Result<()> {
        // Typed from the graph: llvm-ir cannot type an extractvalue from a named
        // struct (it panics).
        let aggregate = self.operand(&i.aggregate)?;
        let (op, ty) = crate::normal::extract_path(self, aggregate, &i.indices)
            .ok_or_else(|| Error::malformed("extractvalue indices do not fit"))?;
        self.emit(Some(&i.dest), ty, op);
        Ok(())
    }

    /// An `insertvalue`.
    pub(super) fn insert_value(&mut self, i: &li::InsertValue) -> Result<()> {
        let aggregate = self.operand(&i.aggregate)?;
        let element = self.operand(&i.element)?;
        let ty = self.value_type(aggregate);
        let op = crate::normal::insert_path(self, aggregate, element, &i.indices)
            .ok_or_else(|| Error::malformed("insertvalue indices do not fit"))?;
        self.emit(Some(&i.dest), ty, op);
        Ok(())
    }
}
