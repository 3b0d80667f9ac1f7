//! Module scope: types, constants (incl. OpConstantSampler and spec constants, read as their
//! default values), extended instruction imports and module-scope variables.

use rspirv::dr::{Instruction, Operand};
use spirv::{Decoration, Op as S, StorageClass};

use super::{id_operand, literal_operand, result_id, result_type, Entity, ExtSet, Reader};
use crate::diag::{Error, Result};
use crate::ir::{self, ConstantKind, Type};
use crate::mappings;

impl Reader {
    pub(super) fn module_scope(&mut self, inst: &Instruction) -> Result<()> {
        let op = inst.class.opcode;
        match op {
            S::Capability
            | S::Extension
            | S::MemoryModel
            | S::EntryPoint
            | S::ExecutionMode
            | S::ExecutionModeId
            | S::SourceContinued
            | S::Source
            | S::SourceExtension
            | S::Name
            | S::MemberName
            | S::Decorate
            | S::DecorateId
            | S::DecorateString
            | S::MemberDecorate
            | S::DecorationGroup
            | S::GroupDecorate
            | S::GroupMemberDecorate
            | S::Line
            | S::NoLine
            | S::Nop => Ok(()),
            S::String => {
                self.debug_string(inst);
                Ok(())
            }
            S::ModuleProcessed => {
                self.debug_processed(inst);
                Ok(())
            }
            S::ExtInstImport => {
                let name = super::string_operand(inst, 0)?;
                let debug = self.debug_import(result_id(inst)?, name).is_some();
                let set = if name == "OpenCL.std" {
                    ExtSet::OpenClStd
                } else if debug || name.starts_with("NonSemantic.") || name.contains("DebugInfo") {
                    ExtSet::NonSemantic
                } else {
                    ExtSet::Unknown
                };
                self.ids.insert(result_id(inst)?, Entity::ExtInstSet(set));
                Ok(())
            }
            // Module-scope extended instructions are debug or non-semantic information: the
            // debug sets' are kept for `debug.rs`.
            S::ExtInst => {
                self.debug_module_inst(inst);
                Ok(())
            }
            S::TypeForwardPointer => self.forward_pointer(inst),
            S::Variable => self.global(inst),
            S::Undef => self.constant(inst, ConstantKind::Undef),
            // The definition of a forward-declared pointer: already read.
            S::TypePointer if self.ids.contains_key(&result_id(inst)?) => Ok(()),
            _ if op_is_type(op) => {
                let t = self.lower_type(inst)?;
                self.ids.insert(result_id(inst)?, Entity::Type(t));
                Ok(())
            }
            _ if op_is_constant(op) => {
                let mut kind = self.constant_kind(inst)?;
                // A specialization constant keeps its SpecId; one without can never be
                // specialized and is its default.
                let spec_id = self.ann.literal(result_id(inst)?, Decoration::SpecId);
                if let (
                    S::SpecConstant | S::SpecConstantTrue | S::SpecConstantFalse,
                    Some(spec_id),
                ) = (op, spec_id)
                {
                    let ty = self.type_of(result_type(inst)?)?;
                    let default = self.m.constant(ir::Constant { ty, kind });
                    kind = ConstantKind::Spec { spec_id, default };
                }
                self.constant(inst, kind)
            }
            _ => Err(Error::unsupported(format!("Op{op:?} at module scope"))),
        }
    }

    /// `OpTypeForwardPointer %p SC`: a pointer to a struct that (directly or through other
    /// structs) contains `%p`. The struct gets its handle now, as a placeholder the
    /// OpTypeStruct defines later (`ir::arena::UniqueArena::define`), and `%p` is the pointer
    /// to it.
    fn forward_pointer(&mut self, inst: &Instruction) -> Result<()> {
        let p = id_operand(inst, 0)?;
        let Some(Operand::StorageClass(sc)) = inst.operands.get(1) else {
            return Err(Error::malformed(
                "OpTypeForwardPointer without a storage class",
            ));
        };
        let target = *self.pointer_pointees.get(&p).ok_or_else(|| {
            Error::malformed(format!("OpTypeForwardPointer %{p} has no OpTypePointer"))
        })?;
        let pointee = match self.ids.get(&target) {
            Some(Entity::Type(t)) => *t,
            Some(other) => {
                return Err(Error::malformed(format!(
                    "forward pointer %{p} points to %{target}, which is {}",
                    other.words()
                )))
            }
            None => *self.pending_structs.entry(target).or_insert_with(|| {
                // Unique until defined: two recursive structs may agree in everything else.
                self.m.ty(Type::Struct {
                    name: Some(format!("\0forward %{target}")),
                    members: None,
                    packed: false,
                })
            }),
        };
        let ptr = self.m.ty(Type::Pointer {
            pointee,
            space: space(*sc)?,
        });
        self.ids.insert(p, Entity::Type(ptr));
        Ok(())
    }

    fn constant(&mut self, inst: &Instruction, kind: ConstantKind) -> Result<()> {
        let ty_id = result_type(inst)?;
        let ty = self.type_of(ty_id)?;
        let c = self.m.constant(ir::Constant { ty, kind });
        let id = result_id(inst)?;
        self.ids.insert(id, Entity::Constant(c));
        self.result_types.insert(id, ty_id);
        Ok(())
    }

    fn lower_type(&mut self, inst: &Instruction) -> Result<ir::Handle<Type>> {
        let t = match inst.class.opcode {
            S::TypeVoid => Type::Void,
            S::TypeBool => Type::Bool,
            S::TypeInt => {
                // 8, 16, 32 and 64 bits; other widths up to 64 under
                // SPV_INTEL_arbitrary_precision_integers (SPIR's `i24`, say). Wider ones have
                // no consumer: OpenCL C and LLVM's SPIR have no such integers.
                let width = literal_operand(inst, 0)?;
                if !(1..=64).contains(&width) {
                    return Err(Error::malformed(format!(
                        "an integer type of {width} bits (SPIR-V's are 8, 16, 32 and 64 bits \
                         wide, others up to 64 bits with SPV_INTEL_arbitrary_precision_integers)"
                    )));
                }
                Type::Int { width }
            }
            S::TypeFloat => {
                let width = literal_operand(inst, 0)?;
                if ![16, 32, 64].contains(&width) {
                    return Err(Error::malformed(format!(
                        "a floating-point type of {width} bits (SPIR-V's are 16, 32 and 64 bits \
                         wide)"
                    )));
                }
                Type::Float { width }
            }
            S::TypeVector => {
                let len = literal_operand(inst, 1)?;
                if !ir::types::VECTOR_LANES.contains(&len) {
                    return Err(Error::malformed(format!(
                        "a vector of {len} components (SPIR-V has 2, 3, 4, 8 and 16)"
                    )));
                }
                Type::Vector {
                    elem: self.type_of(id_operand(inst, 0)?)?,
                    len,
                }
            }
            S::TypeArray => {
                let elem = self.type_of(id_operand(inst, 0)?)?;
                let len = self.int_constant(id_operand(inst, 1)?)?;
                self.m.check_array(elem, len)?;
                Type::Array { elem, len }
            }
            S::TypeStruct => {
                let id = result_id(inst)?;
                let members = (0..inst.operands.len())
                    .map(|i| self.type_of(id_operand(inst, i)?))
                    .collect::<Result<Vec<_>>>()?;
                let t = Type::Struct {
                    name: self.name(id),
                    members: Some(members),
                    packed: self.ann.has(id, Decoration::CPacked),
                };
                if let Some(h) = self.pending_structs.remove(&id) {
                    self.m.types.define(h, t);
                    return Ok(h);
                }
                t
            }
            S::TypeOpaque => Type::Struct {
                name: Some(super::string_operand(inst, 0)?.to_string()),
                members: None,
                packed: false,
            },
            S::TypePointer => {
                let Some(Operand::StorageClass(sc)) = inst.operands.first() else {
                    return Err(Error::malformed("OpTypePointer without a storage class"));
                };
                Type::Pointer {
                    pointee: self.type_of(id_operand(inst, 1)?)?,
                    space: space(*sc)?,
                }
            }
            S::TypeFunction => Type::Function {
                ret: self.type_of(id_operand(inst, 0)?)?,
                params: (1..inst.operands.len())
                    .map(|i| self.type_of(id_operand(inst, i)?))
                    .collect::<Result<Vec<_>>>()?,
                varargs: false,
            },
            S::TypeImage => Type::Image(image_type(inst)?),
            S::TypeSampledImage => {
                let img = self.type_of(id_operand(inst, 0)?)?;
                match self.m.types[img] {
                    Type::Image(i) => Type::SampledImage(i),
                    _ => return Err(Error::malformed("OpTypeSampledImage of a non-image type")),
                }
            }
            S::TypeSampler => Type::Sampler,
            S::TypeEvent => Type::Event,
            S::TypeDeviceEvent => Type::DeviceEvent,
            S::TypeReserveId => Type::ReserveId,
            S::TypeQueue => Type::Queue,
            S::TypePipe => match inst.operands.first() {
                Some(Operand::AccessQualifier(a)) => Type::Pipe(access(*a)),
                _ => return Err(Error::malformed("OpTypePipe without an access qualifier")),
            },
            other => {
                return Err(Error::unsupported(format!(
                    "type Op{other:?} (not part of the OpenCL kernel environment)"
                )))
            }
        };
        Ok(self.m.ty(t))
    }

    fn constant_kind(&mut self, inst: &Instruction) -> Result<ConstantKind> {
        let ty = self.type_of(result_type(inst)?)?;
        Ok(match inst.class.opcode {
            S::ConstantTrue | S::SpecConstantTrue => ConstantKind::Int(1),
            S::ConstantFalse | S::SpecConstantFalse => ConstantKind::Int(0),
            S::Constant | S::SpecConstant => {
                let bits = match inst.operands.first() {
                    Some(Operand::LiteralBit32(v)) => *v as u64,
                    Some(Operand::LiteralBit64(v)) => *v,
                    other => {
                        return Err(Error::malformed(format!(
                            "OpConstant with {} for its value",
                            super::operand_words(other)
                        )))
                    }
                };
                match self.m.types[ty] {
                    Type::Int { width } => ConstantKind::Int(mask(bits, width)),
                    Type::Float { width } => ConstantKind::Float(mask(bits, width)),
                    _ => return Err(Error::malformed("OpConstant of a non-scalar type")),
                }
            }
            S::ConstantComposite | S::SpecConstantComposite => {
                let elems = (0..inst.operands.len())
                    .map(|i| self.constant_or_address(id_operand(inst, i)?))
                    .collect::<Result<Vec<_>>>()?;
                if inst.class.opcode == S::ConstantComposite {
                    self.m.composite_kind(elems)
                } else {
                    ConstantKind::Composite(elems)
                }
            }
            S::ConstantNull => ConstantKind::Null,
            S::ConstantSampler => {
                let (
                    Some(Operand::SamplerAddressingMode(a)),
                    Some(Operand::LiteralBit32(n)),
                    Some(Operand::SamplerFilterMode(f)),
                ) = (
                    inst.operands.first(),
                    inst.operands.get(1),
                    inst.operands.get(2),
                )
                else {
                    return Err(Error::malformed("OpConstantSampler operands"));
                };
                use spirv::SamplerAddressingMode as A;
                ConstantKind::Sampler {
                    addressing: match a {
                        A::None => ir::SamplerAddressing::None,
                        A::ClampToEdge => ir::SamplerAddressing::ClampToEdge,
                        A::Clamp => ir::SamplerAddressing::Clamp,
                        A::Repeat => ir::SamplerAddressing::Repeat,
                        A::RepeatMirrored => ir::SamplerAddressing::RepeatMirrored,
                    },
                    normalized: *n != 0,
                    filter: match f {
                        spirv::SamplerFilterMode::Nearest => ir::SamplerFilter::Nearest,
                        spirv::SamplerFilterMode::Linear => ir::SamplerFilter::Linear,
                    },
                }
            }
            S::SpecConstantOp => self.spec_constant_op(inst, ty)?,
            other => return Err(Error::unsupported(format!("constant Op{other:?}"))),
        })
    }

    /// Constant expressions (llvm-spirv spells LLVM constant GEPs and casts this way).
    fn spec_constant_op(
        &mut self,
        inst: &Instruction,
        ty: ir::Handle<Type>,
    ) -> Result<ConstantKind> {
        let Some(Operand::LiteralSpecConstantOpInteger(op)) = inst.operands.first() else {
            return Err(Error::malformed("OpSpecConstantOp without an opcode"));
        };
        let c = |r: &mut Self, i: usize| r.constant_or_address(id_operand(inst, i)?);
        let base = c(self, 1)?;
        let cast = |o| -> Result<ConstantKind> { Ok(ConstantKind::Cast(o, base)) };
        use ir::CastOp as C;
        Ok(match op {
            S::Bitcast => cast(C::Bitcast)?,
            S::ConvertPtrToU => cast(C::PtrToInt)?,
            S::ConvertUToPtr => cast(C::IntToPtr)?,
            S::PtrCastToGeneric | S::GenericCastToPtr => cast(C::AddrSpaceCast)?,
            S::UConvert | S::SConvert | S::FConvert => {
                let from = self.m.constants[base].ty;
                let (fw, tw) = (
                    super::function::scalar_width(&self.m, from),
                    super::function::scalar_width(&self.m, ty),
                );
                let o = match (op, fw < tw) {
                    (S::UConvert, true) => C::ZExt,
                    (S::SConvert, true) => C::SExt,
                    (S::FConvert, true) => C::FPExt,
                    (S::FConvert, false) => C::FPTrunc,
                    _ => C::Trunc,
                };
                cast(o)?
            }
            S::AccessChain
            | S::InBoundsAccessChain
            | S::PtrAccessChain
            | S::InBoundsPtrAccessChain => {
                let mut indices = (2..inst.operands.len())
                    .map(|i| c(self, i))
                    .collect::<Result<Vec<_>>>()?;
                if matches!(op, S::AccessChain | S::InBoundsAccessChain) {
                    let i32t = self.m.int_type(32);
                    indices.insert(0, self.m.int_const(i32t, 0));
                }
                ConstantKind::Gep {
                    inbounds: matches!(op, S::InBoundsAccessChain | S::InBoundsPtrAccessChain),
                    base,
                    indices,
                }
            }
            other => return Err(Error::unsupported(format!("OpSpecConstantOp Op{other:?}"))),
        })
    }

    /// A constant, or the address of a global or function as a constant (initializers and
    /// constant expressions may name either).
    pub(super) fn constant_or_address(
        &mut self,
        id: spirv::Word,
    ) -> Result<ir::Handle<ir::Constant>> {
        let kind = match self.ids.get(&id) {
            Some(Entity::Global(g)) => ConstantKind::GlobalAddress(*g),
            _ => return self.constant_of(id),
        };
        let ty = self.type_of(self.result_types[&id])?;
        Ok(self.m.constant(ir::Constant { ty, kind }))
    }

    fn global(&mut self, inst: &Instruction) -> Result<()> {
        let id = result_id(inst)?;
        let ptr_ty_id = result_type(inst)?;
        let ptr_ty = self.type_of(ptr_ty_id)?;
        let Type::Pointer { pointee, space } = self.m.types[ptr_ty] else {
            return Err(Error::malformed("OpVariable whose type is not a pointer"));
        };
        let Some(Operand::StorageClass(_)) = inst.operands.first() else {
            return Err(Error::malformed("OpVariable without a storage class"));
        };
        // A module-scope Function variable is invalid SPIR-V, but it is how llvm-spirv-14
        // writes a SPIR global in address space 0: the graph holds the private global it
        // stands for (the pointer type says Private), which each writer spells validly.
        if let Some(Operand::BuiltIn(b)) = self
            .ann
            .get(id, Decoration::BuiltIn)
            .next()
            .and_then(|ops| ops.first())
        {
            if mappings::work_item_name(*b).is_none() {
                return Err(Error::unsupported(format!(
                    "BuiltIn {b:?} (no OpenCL work-item function reads it)"
                )));
            }
            self.ids.insert(id, Entity::BuiltinVar(*b, pointee));
            return Ok(());
        }
        let init = match inst.operands.get(1) {
            Some(Operand::IdRef(c)) => Some(self.constant_or_address(*c)?),
            _ => None,
        };
        let linkage = match self.ann.linkage(id) {
            Some((_, spirv::LinkageType::Export)) => ir::Linkage::Export,
            Some((_, _)) => ir::Linkage::Import,
            None => ir::Linkage::Internal,
        };
        let name = self
            .ann
            .linkage(id)
            .map(|(n, _)| n)
            .or_else(|| self.name(id))
            .unwrap_or_default();
        let h = self.m.globals.append(ir::Global {
            name,
            ty: pointee,
            space,
            init,
            is_constant: self.ann.has(id, Decoration::Constant),
            align: self.ann.literal(id, Decoration::Alignment),
            linkage,
        });
        self.ids.insert(id, Entity::Global(h));
        self.result_types.insert(id, ptr_ty_id);
        Ok(())
    }

    /// OpSource / OpSourceExtension / OpString facts about the source program.
    pub(super) fn source_info(&mut self) {
        let s = &mut self.m.source;
        if let Some((spirv::SourceLanguage::OpenCL_C | spirv::SourceLanguage::OpenCL_CPP, v)) =
            self.ann.source
        {
            s.ocl_version = Some((v / 100_000, (v % 100_000) / 1000));
        }
        for e in &self.ann.source_extensions {
            match e.strip_prefix("opencl.used.optional.core.feature.") {
                Some(f) => s.used_optional_core_features.push(f.to_string()),
                None => s.used_extensions.push(e.clone()),
            }
        }
        for st in &self.ann.strings {
            if let Some(o) = st.strip_prefix("opencl.compiler.options.") {
                s.compiler_options.push(o.to_string());
            } else if let Some(v) = st.strip_prefix("opencl.spir.version.") {
                if let Some((a, b)) = v.split_once('.') {
                    if let (Ok(a), Ok(b)) = (a.parse(), b.parse()) {
                        s.spir_version = Some((a, b));
                    }
                }
            }
        }
    }
}

fn mask(bits: u64, width: u32) -> u64 {
    if width >= 64 {
        bits
    } else {
        bits & ((1u64 << width) - 1)
    }
}

pub(super) fn space(sc: StorageClass) -> Result<ir::AddressSpace> {
    mappings::space_from_storage_class(sc).ok_or_else(|| {
        Error::unsupported(format!(
            "storage class {sc:?} (no OpenCL address space corresponds to it)"
        ))
    })
}

pub(super) fn access(a: spirv::AccessQualifier) -> ir::Access {
    match a {
        spirv::AccessQualifier::ReadOnly => ir::Access::ReadOnly,
        spirv::AccessQualifier::WriteOnly => ir::Access::WriteOnly,
        spirv::AccessQualifier::ReadWrite => ir::Access::ReadWrite,
    }
}

fn image_type(inst: &Instruction) -> Result<ir::ImageType> {
    let dim = match inst.operands.get(1) {
        Some(Operand::Dim(spirv::Dim::Dim1D)) => ir::ImageDim::Dim1D,
        Some(Operand::Dim(spirv::Dim::Dim2D)) => ir::ImageDim::Dim2D,
        Some(Operand::Dim(spirv::Dim::Dim3D)) => ir::ImageDim::Dim3D,
        Some(Operand::Dim(spirv::Dim::DimBuffer)) => ir::ImageDim::Buffer,
        other => {
            let dim = match other {
                Some(Operand::Dim(d)) => format!("{d:?}"),
                other => super::operand_words(other),
            };
            return Err(Error::unsupported(format!(
                "image dimensionality {dim} (OpenCL has 1D, 2D, 3D and buffer images)"
            )));
        }
    };
    Ok(ir::ImageType {
        dim,
        depth: literal_operand(inst, 2)? == 1,
        arrayed: literal_operand(inst, 3)? != 0,
        multisampled: literal_operand(inst, 4)? != 0,
        access: match inst.operands.get(7) {
            Some(Operand::AccessQualifier(a)) => Some(access(*a)),
            _ => None,
        },
    })
}

fn op_is_type(op: S) -> bool {
    matches!(
        op,
        S::TypeVoid
            | S::TypeBool
            | S::TypeInt
            | S::TypeFloat
            | S::TypeVector
            | S::TypeMatrix
            | S::TypeImage
            | S::TypeSampler
            | S::TypeSampledImage
            | S::TypeArray
            | S::TypeRuntimeArray
            | S::TypeStruct
            | S::TypeOpaque
            | S::TypePointer
            | S::TypeFunction
            | S::TypeEvent
            | S::TypeDeviceEvent
            | S::TypeReserveId
            | S::TypeQueue
            | S::TypePipe
            | S::TypeForwardPointer
            | S::TypePipeStorage
            | S::TypeNamedBarrier
    )
}

fn op_is_constant(op: S) -> bool {
    matches!(
        op,
        S::ConstantTrue
            | S::ConstantFalse
            | S::Constant
            | S::ConstantComposite
            | S::ConstantSampler
            | S::ConstantNull
            | S::SpecConstantTrue
            | S::SpecConstantFalse
            | S::SpecConstant
            | S::SpecConstantComposite
            | S::SpecConstantOp
    )
}
