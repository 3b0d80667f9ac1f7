//! Graph constants -> SPIR-V constant instructions (and specialization-constant operations for
//! constant expressions).

use rspirv::dr::{Instruction, Operand};
use spirv::{Capability, Op, Word};

use super::Writer;
use crate::diag::{Error, Result};
use crate::ir::{self, ConstantKind, SamplerAddressing, SamplerFilter, Type};

impl Writer<'_> {
    /// A 32-bit unsigned constant (scopes, semantics, literals as ids).
    pub(super) fn u32_const(&mut self, v: u32) -> Word {
        let i = self.b.type_int(32, 0);
        self.scalar_constant(i, 32, v as u64)
    }

    /// The OpConstant of scalar type `ty` (`width` bits) with bit pattern `v`, declared once
    /// however many instructions ask for it.
    pub(super) fn scalar_constant(&mut self, ty: Word, width: u32, v: u64) -> Word {
        if let Some(&id) = self.constants.scalars.get(&(ty, v)) {
            return id;
        }
        let id = if width == 64 {
            self.b.constant_bit64(ty, v)
        } else {
            self.b.constant_bit32(ty, v as u32)
        };
        self.constants.scalars.insert((ty, v), id);
        id
    }

    /// A composite constant (OpSpecConstantComposite where a part is a specialization
    /// constant); an undefined part is written as zero.
    fn composite_constant(&mut self, ty: Word, elems: &[ir::Handle<ir::Constant>]) -> Result<Word> {
        // An undefined part is written as zero (a value undef may take): OpUndef
        // inside OpConstantComposite crashes llvm-spirv-14's reader, which drivers use.
        let ids = elems
            .iter()
            .map(|&e| match self.m.constants[e].kind {
                ConstantKind::Undef => {
                    let et = self.m.constants[e].ty;
                    let t = self.ty(et)?;
                    Ok(match self.m.types[et] {
                        Type::Int { width } | Type::Float { width } => {
                            self.scalar_constant(t, width, 0)
                        }
                        Type::Bool => self.b.constant_false(t),
                        _ => self.b.constant_null(t),
                    })
                }
                _ => self.constant(e),
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(if elems.iter().any(|&e| self.m.is_spec_constant(e)) {
            self.b.spec_constant_composite(ty, ids)
        } else {
            self.b.constant_composite(ty, ids)
        })
    }

    pub(super) fn constant(&mut self, c: ir::Handle<ir::Constant>) -> Result<Word> {
        // The address of a private-address-space global is its copy in the function being
        // written (private_globals.rs): never cached.
        if let ConstantKind::GlobalAddress(g) = self.m.constants[c].kind {
            if self.m.globals[g].space == ir::AddressSpace::Private {
                return self.private_vars.get(&g).copied().ok_or_else(|| {
                    Error::internal("a private global used outside the functions that copy it")
                });
            }
        }
        if let Some(&w) = self.constants.ids.get(&c) {
            return Ok(w);
        }
        let k = &self.m.constants[c];
        let ty = self.ty(k.ty)?;
        let id = match &k.kind {
            ConstantKind::Int(v) => match self.m.types[k.ty] {
                Type::Bool if *v != 0 => self.b.constant_true(ty),
                Type::Bool => self.b.constant_false(ty),
                Type::Int { width } => self.scalar_constant(ty, width, *v),
                _ => return Err(Error::internal("integer constant of a non-integer type")),
            },
            ConstantKind::Float(bits) => match self.m.types[k.ty] {
                Type::Float { width } => self.scalar_constant(ty, width, *bits),
                _ => return Err(Error::internal("float constant of a non-float type")),
            },
            ConstantKind::Null => {
                if let Type::Float { width: 16 } = self.m.types[self.m.scalar_of(k.ty)] {
                    self.cap(Capability::Float16);
                }
                self.b.constant_null(ty)
            }
            ConstantKind::Undef => {
                // Always module-scope, even when first needed inside a function.
                let id = self.b.id();
                self.b.insert_types_global_values(
                    rspirv::dr::InsertPoint::End,
                    Instruction::new(Op::Undef, Some(ty), Some(id), vec![]),
                );
                id
            }
            ConstantKind::Composite(elems) => self.composite_constant(ty, elems)?,
            ConstantKind::Spec { spec_id, default } => {
                let id = match (&self.m.types[k.ty], &self.m.constants[*default].kind) {
                    (Type::Bool, ConstantKind::Int(0)) => self.b.spec_constant_false(ty),
                    (Type::Bool, ConstantKind::Int(_)) => self.b.spec_constant_true(ty),
                    (
                        Type::Int { width: 64 } | Type::Float { width: 64 },
                        ConstantKind::Int(v) | ConstantKind::Float(v),
                    ) => self.b.spec_constant_bit64(ty, *v),
                    (Type::Int { .. } | Type::Float { .. }, ConstantKind::Int(v) | ConstantKind::Float(v)) => {
                        self.b.spec_constant_bit32(ty, *v as u32)
                    }
                    _ => return Err(Error::internal("a specialization constant that is not a scalar")),
                };
                self.decorate(id, spirv::Decoration::SpecId, [Operand::LiteralBit32(*spec_id)]);
                id
            }
            ConstantKind::SpecOp { op, lhs, rhs } => {
                let code = super::body::integer_op(*op).ok_or_else(|| {
                    Error::internal(format!("{op:?} of specialization constants"))
                })?;
                let (a, b) = (self.constant(*lhs)?, self.constant(*rhs)?);
                let id = self.b.id();
                self.b.insert_types_global_values(
                    rspirv::dr::InsertPoint::End,
                    Instruction::new(
                        Op::SpecConstantOp,
                        Some(ty),
                        Some(id),
                        vec![
                            Operand::LiteralSpecConstantOpInteger(code),
                            Operand::IdRef(a),
                            Operand::IdRef(b),
                        ],
                    ),
                );
                id
            }
            ConstantKind::GlobalAddress(g) => self.global(*g)?,
            ConstantKind::FunctionAddress(f) => {
                return Err(Error::unsupported(format!(
                    "the address of function '{}' as a value (SPIR-V has no function pointers without extensions)",
                    self.m.functions[*f].name
                )))
            }
            // A function's address cast to a data pointer: in OpenCL C, only a block
            // literal's invoke field, which SPIR-V cannot hold (no function pointers) and no
            // consumer reads (OpEnqueueKernel names the function): a null pointer, as
            // llvm-spirv writes it.
            ConstantKind::Cast(_, _) if self.m.is_function_address(c) => {
                self.b.constant_null(ty)
            }
            ConstantKind::Cast(op, x) => {
                let inner = self.constant(*x)?;
                let from = self.m.constants[*x].ty;
                let opcode = super::body::cast_opcode(self.m, *op, from, k.ty)?;
                self.spec_op(ty, opcode, vec![inner])
            }
            ConstantKind::Gep { inbounds, base, indices } => {
                let mut ops = vec![self.constant(*base)?];
                for &i in indices {
                    ops.push(self.constant(i)?);
                }
                let opcode = if *inbounds { Op::InBoundsPtrAccessChain } else { Op::PtrAccessChain };
                self.spec_op(ty, opcode, ops)
            }
            ConstantKind::Sampler { addressing, normalized, filter } => {
                self.cap(Capability::LiteralSampler);
                let am = match addressing {
                    SamplerAddressing::None => spirv::SamplerAddressingMode::None,
                    SamplerAddressing::ClampToEdge => spirv::SamplerAddressingMode::ClampToEdge,
                    SamplerAddressing::Clamp => spirv::SamplerAddressingMode::Clamp,
                    SamplerAddressing::Repeat => spirv::SamplerAddressingMode::Repeat,
                    SamplerAddressing::RepeatMirrored => spirv::SamplerAddressingMode::RepeatMirrored,
                };
                let fm = match filter {
                    SamplerFilter::Nearest => spirv::SamplerFilterMode::Nearest,
                    SamplerFilter::Linear => spirv::SamplerFilterMode::Linear,
                };
                self.b.constant_sampler(ty, am, *normalized as u32, fm)
            }
        };
        self.constants.ids.insert(c, id);
        Ok(id)
    }

    fn spec_op(&mut self, ty: Word, opcode: Op, operands: Vec<Word>) -> Word {
        let id = self.b.id();
        let mut ops = vec![Operand::LiteralSpecConstantOpInteger(opcode)];
        ops.extend(operands.into_iter().map(Operand::IdRef));
        self.b.insert_types_global_values(
            rspirv::dr::InsertPoint::End,
            Instruction::new(Op::SpecConstantOp, Some(ty), Some(id), ops),
        );
        id
    }
}
