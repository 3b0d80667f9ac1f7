//! Semantic builtins as SPIR-V: work-item variables, extended instructions, conversions,
//! barriers, atomics, collectives and image operations.

use rspirv::dr::Operand;
use spirv::{Capability, GroupOperation, Op as S, Word};

use super::body::{bit_width, FnCtx};
use super::Writer;
use crate::diag::{Error, Result};
use crate::ir::builtin::OpenclOp;
use crate::ir::{self, Builtin, ConvertKind, ImageOp, Primitive, Type, Value};
use crate::mappings;
use crate::mappings::channel_query;
use crate::options::MadForm;
use crate::spv::form::Slot;

impl Writer<'_> {
    /// The Input variable of a builtin whose value has SPIR-V type `t`, declared on first use.
    pub(super) fn builtin_var(&mut self, b: spirv::BuiltIn, t: Word) -> Result<Word> {
        if let Some(&v) = self.builtin_vars.get(&(b as u32)) {
            return Ok(v);
        }
        let pt = self.b.type_pointer(None, spirv::StorageClass::Input, t);
        let id = self.module_variable(pt, spirv::StorageClass::Input, None);
        self.b.name(id, format!("__spirv_BuiltIn{b:?}"));
        self.decorate(id, spirv::Decoration::BuiltIn, [Operand::BuiltIn(b)]);
        self.decorate(id, spirv::Decoration::Constant, []);
        self.builtin_vars.insert(b as u32, id);
        Ok(id)
    }

    pub(super) fn builtin(
        &mut self,
        ctx: &FnCtx,
        builtin: &Builtin,
        args: &[Value],
        ret: ir::Handle<Type>,
        rid: Option<Word>,
    ) -> Result<()> {
        let m = self.m;
        let rty = if matches!(m.types[ret], Type::Void) {
            None
        } else {
            Some(self.ty(ret)?)
        };
        let mut ids = Vec::with_capacity(args.len());
        for &a in args {
            // A block's invoke kernel (OpEnqueueKernel, OpGetKernel*): the function itself.
            if let Value::Const(c) = a {
                if let ir::ConstantKind::FunctionAddress(f) = m.constants[c].kind {
                    let id = self.func_ids.get(&f).copied().ok_or_else(|| {
                        Error::unsupported(format!(
                            "the function '{}' as an operand, which is not written",
                            m.functions[f].name
                        ))
                    })?;
                    ids.push(id);
                    continue;
                }
            }
            ids.push(self.value(ctx, a)?);
        }
        match builtin {
            Builtin::WorkItem(b) => self.work_item(*b, args, &ids, ret, (rty, rid))?,
            Builtin::ExtInst {
                op: OpenclOp::mad,
                literal: None,
            } if matches!(
                self.mad,
                MadForm::Split | MadForm::Contract | MadForm::ContractIntel
            ) =>
            {
                let (t, id) = match (rty, ids.as_slice()) {
                    (Some(t), [_, _, _]) => (t, rid.unwrap_or_else(|| self.b.id())),
                    _ => return Err(Error::internal("mad without three operands and a type")),
                };
                let product = self.b.id();
                let ops = |a: Word, b: Word| vec![Operand::IdRef(a), Operand::IdRef(b)];
                self.emit(S::FMul, Some(t), Some(product), ops(ids[0], ids[1]))?;
                self.emit(S::FAdd, Some(t), Some(id), ops(product, ids[2]))?;
                self.allow_contraction(&[product, id]);
            }
            Builtin::ExtInst { op, literal } => {
                let op = match op {
                    OpenclOp::mad if self.mad == MadForm::Fma => OpenclOp::fma,
                    other => *other,
                };
                let mut ops =
                    vec![
                        Operand::IdRef(self.ext.ok_or_else(|| {
                            Error::internal("an OpenCL.std instruction in a shader")
                        })?),
                        Operand::LiteralExtInstInteger(mappings::opencl_std_opcode(op) as u32),
                    ];
                ops.extend(Self::ids(&ids));
                if let Some(l) = literal {
                    ops.push(Operand::LiteralBit32(*l));
                }
                let t = match rty {
                    Some(t) => t,
                    None => self.b.type_void(),
                };
                let id = rid.unwrap_or_else(|| self.b.id());
                self.emit(S::ExtInst, Some(t), Some(id), ops)?;
            }
            Builtin::Convert {
                from,
                to,
                saturate,
                rounding,
            } => self.convert(
                ctx,
                args[0],
                &ids,
                ret,
                (rty, rid),
                (*from, *to, *saturate, *rounding),
            )?,
            Builtin::Image(op) => self.image(ctx, *op, args, &ids, ret, rid)?,
            Builtin::ControlBarrier { .. }
            | Builtin::MemoryBarrier { .. }
            | Builtin::Atomic { .. }
            | Builtin::AsyncCopy { .. }
            | Builtin::WaitEvents
            | Builtin::Group { .. } => {
                if matches!(builtin, Builtin::Atomic { .. }) && bit_width(m, ret) == 64 {
                    self.cap(Capability::Int64Atomics);
                }
                if let Builtin::Group { op, operation, .. } = builtin {
                    self.group_requirements(crate::mappings::group_opcode(*op), *operation)?;
                }
                let (op, slots) = builtin
                    .spirv_form(&ids)
                    .ok_or_else(|| Error::internal("a builtin without a SPIR-V form"))?;
                let mut ops = Vec::with_capacity(slots.len());
                for s in slots {
                    ops.push(match s {
                        Slot::Value(id) => Operand::IdRef(id),
                        Slot::Int(v) => Operand::IdRef(self.u32_const(v)),
                        Slot::OneLike(i) => {
                            let t = self.vty(ctx, args[i]);
                            Operand::IdRef(self.splat(t, 1, 0.0)?)
                        }
                        Slot::Operation(o) => Operand::GroupOperation(o),
                    });
                }
                self.emit(op, rty, rid, ops)?;
            }
            // The storage class a generic pointer is cast to is the result pointer's.
            Builtin::Primitive(Primitive::GenericCastToPtrExplicit) => {
                let space = match m.types[ret] {
                    Type::Pointer { space, .. } => space,
                    _ => {
                        return Err(Error::internal(
                            "to_global/to_local/to_private of no pointer",
                        ))
                    }
                };
                let mut ops = Self::ids(&ids);
                ops.push(Operand::StorageClass(crate::mappings::space_storage_class(
                    space,
                )));
                self.emit(S::GenericCastToPtrExplicit, rty, rid, ops)?;
            }
            Builtin::Primitive(
                op @ (Primitive::PtrEqual | Primitive::PtrNotEqual | Primitive::PtrDiff),
            ) => {
                self.need_version((1, 4), "a comparison or difference of buffer pointers")?;
                self.emit(mappings::opcode(*op), rty, rid, Self::ids(&ids))?;
            }
            Builtin::Primitive(op) if op.integer_dot().is_some() => {
                let factor = self.vty(ctx, args[0]);
                let mut ops = Self::ids(&ids);
                self.cap(Capability::DotProduct);
                match m.types[factor] {
                    Type::Vector { elem, len: 4 } if m.types[elem] == Type::Int { width: 8 } => {
                        self.cap(Capability::DotProductInput4x8Bit)
                    }
                    Type::Vector { .. } => self.cap(Capability::DotProductInputAll),
                    _ => {
                        self.cap(Capability::DotProductInput4x8BitPacked);
                        ops.push(Operand::PackedVectorFormat(
                            spirv::PackedVectorFormat::PackedVectorFormat4x8Bit,
                        ));
                    }
                }
                self.core_or_extension((1, 6), "SPV_KHR_integer_dot_product")?;
                self.emit(mappings::opcode(*op), rty, rid, ops)?;
            }
            Builtin::Primitive(
                op @ (Primitive::BitFieldInsert
                | Primitive::BitFieldSExtract
                | Primitive::BitFieldUExtract
                | Primitive::BitReverse),
            ) => {
                // Core in a shader; a kernel needs SPV_KHR_bit_instructions.
                if self.policy.execution_model == spirv::ExecutionModel::Kernel {
                    self.cap(Capability::BitInstructions);
                    self.extension("SPV_KHR_bit_instructions");
                }
                self.emit(mappings::opcode(*op), rty, rid, Self::ids(&ids))?;
            }
            // Each primitive is one instruction of the same operands (mappings/primitives.toml).
            Builtin::Primitive(op) => {
                self.emit(mappings::opcode(*op), rty, rid, Self::ids(&ids))?;
            }
            Builtin::Glsl(op) => {
                let set = self.glsl_set();
                let mut ops = vec![
                    Operand::IdRef(set),
                    Operand::LiteralExtInstInteger(mappings::glsl_opcode(*op) as u32),
                ];
                ops.extend(Self::ids(&ids));
                let t = rty.ok_or_else(|| Error::internal("a GLSL.std.450 op without result"))?;
                self.emit(S::ExtInst, Some(t), rid, ops)?;
            }
        }
        Ok(())
    }

    /// A work-item builtin: a load of its input variable, a component of it for the
    /// per-dimension ones.
    fn work_item(
        &mut self,
        b: spirv::BuiltIn,
        args: &[Value],
        ids: &[Word],
        ret: ir::Handle<Type>,
        (rty, rid): (Option<Word>, Option<Word>),
    ) -> Result<()> {
        let m = self.m;
        let (_, per_dim, _) = mappings::work_item_name(b)
            .ok_or_else(|| Error::unsupported(format!("work-item builtin {b:?}")))?;
        if per_dim {
            // A 3-vector of the result type; one component selected by the argument.
            let vt = {
                let lanes = Type::Vector { elem: ret, len: 3 };
                match m.types.find(&lanes) {
                    Some(h) => self.ty(h)?,
                    None => {
                        let e = self.ty(ret)?;
                        self.b.type_vector(e, 3)
                    }
                }
            };
            let var = self.builtin_var(b, vt)?;
            let loaded = self.emit(S::Load, Some(vt), None, Self::ids(&[var]))?;
            let const_dim = match args.first() {
                Some(Value::Const(c)) => match m.constants[*c].kind {
                    ir::ConstantKind::Int(i) if i < 3 => Some(i),
                    _ => None,
                },
                _ => None,
            };
            match const_dim {
                Some(i) => {
                    self.emit(
                        S::CompositeExtract,
                        rty,
                        rid,
                        vec![Operand::IdRef(loaded), Operand::LiteralBit32(i as u32)],
                    )?;
                }
                None => {
                    self.emit(
                        S::VectorExtractDynamic,
                        rty,
                        rid,
                        Self::ids(&[loaded, ids[0]]),
                    )?;
                }
            }
        } else {
            let t = self.ty(ret)?;
            let var = self.builtin_var(b, t)?;
            self.emit(S::Load, rty, rid, Self::ids(&[var]))?;
        }
        Ok(())
    }

    /// A conversion: the SPIR-V conversion instruction for its classes (a copy where nothing
    /// changes), with its saturation and rounding decorations.
    fn convert(
        &mut self,
        ctx: &FnCtx,
        value: Value,
        ids: &[Word],
        ret: ir::Handle<Type>,
        (rty, rid): (Option<Word>, Option<Word>),
        (from, to, saturate, rounding): (
            ConvertKind,
            ConvertKind,
            bool,
            Option<spirv::FPRoundingMode>,
        ),
    ) -> Result<()> {
        let m = self.m;
        let from_t = self.vty(ctx, value);
        let fw = bit_width(m, from_t);
        let tw = bit_width(m, ret);
        let same_class = matches!(
            (from, to),
            (ConvertKind::Float, ConvertKind::Float) | (ConvertKind::Int(_), ConvertKind::Int(_))
        );
        let code = match crate::mappings::conversion_opcode((from, to, saturate)) {
            S::FConvert | S::SConvert | S::UConvert if same_class && fw == tw => S::CopyObject,
            code => code,
        };
        let id = self.emit(code, rty, rid, Self::ids(ids))?;
        // A float conversion is exact too: consumers otherwise fold a narrowing and
        // the widening after it into nothing.
        if matches!(code, S::FConvert | S::ConvertSToF | S::ConvertUToF) {
            self.no_contraction(id);
        }
        if code != S::CopyObject {
            if saturate
                && !matches!(code, S::SatConvertSToU | S::SatConvertUToS)
                && to != ConvertKind::Float
            {
                self.decorate(id, spirv::Decoration::SaturatedConversion, []);
            }
            if let Some(r) = rounding {
                if !(matches!(from, ConvertKind::Int(_)) && matches!(to, ConvertKind::Int(_))) {
                    self.decorate(
                        id,
                        spirv::Decoration::FPRoundingMode,
                        [Operand::FPRoundingMode(r)],
                    );
                }
            }
        }
        Ok(())
    }

    /// Capabilities and version of a collective: `Groups` for the OpenCL 2.0 instructions; for
    /// the non-uniform ones SPIR-V 1.3, `GroupNonUniform` and the capability the grammar lists
    /// for the instruction (`GroupNonUniformClustered` for a clustered reduce).
    pub(super) fn group_requirements(
        &mut self,
        op: S,
        operation: Option<GroupOperation>,
    ) -> Result<()> {
        let inst = rspirv::grammar::INSTRUCTION_TABLE
            .lookup_opcode(op as u32)
            .ok_or_else(|| Error::internal(format!("Op{op:?} is not in the grammar")))?;
        if !inst.opname.starts_with("GroupNonUniform") {
            self.cap(Capability::Groups);
            return Ok(());
        }
        self.need_version((1, 3), &format!("Op{op:?}"))?;
        self.cap(Capability::GroupNonUniform);
        if operation == Some(GroupOperation::ClusteredReduce) {
            self.cap(Capability::GroupNonUniformClustered);
        } else if let Some(&c) = inst.capabilities.first() {
            self.cap(c);
        }
        Ok(())
    }

    pub(super) fn image(
        &mut self,
        ctx: &FnCtx,
        op: ImageOp,
        args: &[Value],
        ids: &[Word],
        ret: ir::Handle<Type>,
        rid: Option<Word>,
    ) -> Result<()> {
        let m = self.m;
        let rty = if matches!(m.types[ret], Type::Void) {
            None
        } else {
            Some(self.ty(ret)?)
        };
        let img_t = self.vty(ctx, args[0]);
        // A shader image: sampled (read by OpImageFetch, sized at a level) or storage, and
        // its texels of the sampled type, whose signedness Vulkan fixes.
        let (img, shader) = match m.types[img_t] {
            Type::Image(img) => (img, None),
            Type::ShaderImage {
                image,
                texel,
                storage,
            } => (image, Some((texel, storage))),
            _ => {
                return Err(Error::unsupported(
                    "image builtin on a value that is not an image",
                ))
            }
        };
        if shader.is_some() && !matches!(op, ImageOp::Write(_)) {
            self.cap(Capability::ImageQuery);
        }
        let signed = matches!(shader, Some((ir::builtin::TexelKind::Signed, _)));
        let signed_texel = |w: &mut Self| {
            let i = w.b.type_int(32, 1);
            w.b.type_vector(i, 4)
        };
        // An instruction whose result is a texel: of the signed vector type first, then
        // reinterpreted as the graph's (sign-less) one.
        let texel_result = |w: &mut Self, code: S, ops: Vec<Operand>| -> Result<()> {
            if signed {
                let st = signed_texel(w);
                let t = w.emit(code, Some(st), None, ops)?;
                w.emit(S::Bitcast, rty, rid, Self::ids(&[t]))?;
            } else {
                w.emit(code, rty, rid, ops)?;
            }
            Ok(())
        };
        // Integer texels' signedness, where SPIR-V 1.4's image operands can say it.
        let extend = match op {
            ImageOp::Read(k) | ImageOp::Sample(k) | ImageOp::Write(k) if self.forms_1_4 => {
                match k {
                    ir::builtin::TexelKind::Signed => spirv::ImageOperands::SIGN_EXTEND,
                    ir::builtin::TexelKind::Unsigned => spirv::ImageOperands::ZERO_EXTEND,
                    _ => spirv::ImageOperands::NONE,
                }
            }
            _ => spirv::ImageOperands::NONE,
        };
        match op {
            ImageOp::Read(_) => match shader {
                Some((_, false)) => {
                    let mut ops = Self::ids(&[ids[0], ids[1]]);
                    if img.dim != ir::ImageDim::Buffer {
                        let it = self.b.type_int(32, 0);
                        let zero = self.scalar_constant(it, 32, 0);
                        ops.push(Operand::ImageOperands(spirv::ImageOperands::LOD));
                        ops.push(Operand::IdRef(zero));
                    }
                    texel_result(self, S::ImageFetch, ops)?;
                }
                _ => {
                    let mut ops = Self::ids(&[ids[0], ids[1]]);
                    if !extend.is_empty() {
                        ops.push(Operand::ImageOperands(extend));
                    }
                    texel_result(self, S::ImageRead, ops)?
                }
            },
            ImageOp::Sample(_) => {
                let it = self.ty(img_t)?;
                let st = self.b.type_sampled_image(it);
                let si = self.emit(
                    S::SampledImage,
                    Some(st),
                    None,
                    Self::ids(&[ids[0], ids[1]]),
                )?;
                let ft = self.b.type_float(32, None);
                let zero = self.scalar_constant(ft, 32, 0);
                let ops = vec![
                    Operand::IdRef(si),
                    Operand::IdRef(ids[2]),
                    Operand::ImageOperands(spirv::ImageOperands::LOD | extend),
                    Operand::IdRef(zero),
                ];
                if let (Type::Float { .. }, Some(scalar)) = (&m.types[ret], rty) {
                    // A depth image's scalar texel: SPIR-V samples a 4-vector (its result
                    // type is a vector whatever the image), whose first component it is.
                    let vt = self.b.type_vector(scalar, 4);
                    let v = self.emit(S::ImageSampleExplicitLod, Some(vt), None, ops)?;
                    self.emit(
                        S::CompositeExtract,
                        Some(scalar),
                        rid,
                        vec![Operand::IdRef(v), Operand::LiteralBit32(0)],
                    )?;
                } else {
                    texel_result(self, S::ImageSampleExplicitLod, ops)?;
                }
            }
            ImageOp::Write(_) => {
                let texel = if signed {
                    let st = signed_texel(self);
                    self.emit(S::Bitcast, Some(st), None, Self::ids(&[ids[2]]))?
                } else {
                    ids[2]
                };
                let mut ops = Self::ids(&[ids[0], ids[1], texel]);
                if let Some(&lod) = ids.get(3) {
                    self.cap(Capability::ImageMipmap);
                    ops.push(Operand::ImageOperands(spirv::ImageOperands::LOD | extend));
                    ops.push(Operand::IdRef(lod));
                } else if !extend.is_empty() {
                    ops.push(Operand::ImageOperands(extend));
                }
                self.emit(S::ImageWrite, None, None, ops)?;
            }
            ImageOp::QuerySize { component } => {
                let sampled = matches!(shader, Some((_, false)));
                self.size_query(img, sampled, component, ids[0], ret, (rty, rid))?
            }
            ImageOp::QueryChannelDataType | ImageOp::QueryChannelOrder => {
                let cq = channel_query(|q| q.op == op)
                    .ok_or_else(|| Error::internal("a channel query without a table row"))?;
                let rt = rty.ok_or_else(|| Error::internal("image query without result"))?;
                let q = self.emit(
                    mappings::opcode(cq.primitive),
                    Some(rt),
                    None,
                    Self::ids(&[ids[0]]),
                )?;
                let off = self.scalar_constant(rt, 32, cq.cl_offset);
                self.emit(S::IAdd, Some(rt), rid, Self::ids(&[q, off]))?;
            }
        }
        Ok(())
    }

    /// `get_image_width` and its kin (one component of the size, `component`) and
    /// `get_image_dim` (the whole size): OpImageQuerySize, or OpImageQuerySizeLod at level 0
    /// for a sampled shader image, converted to the width and lanes OpenCL C answers in.
    fn size_query(
        &mut self,
        img: ir::ImageType,
        sampled: bool,
        component: Option<u32>,
        image: Word,
        ret: ir::Handle<Type>,
        (rty, rid): (Option<Word>, Option<Word>),
    ) -> Result<()> {
        let m = self.m;
        let dims = img.size_components();
        let at_level = sampled && img.dim != ir::ImageDim::Buffer;
        let query_ops = |w: &mut Self| {
            let mut ops = Self::ids(&[image]);
            if at_level {
                let it = w.b.type_int(32, 0);
                ops.push(Operand::IdRef(w.scalar_constant(it, 32, 0)));
            }
            ops
        };
        let query = if at_level {
            S::ImageQuerySizeLod
        } else {
            S::ImageQuerySize
        };
        let u = self.b.type_int(32, 0);
        let qt = if dims > 1 {
            self.b.type_vector(u, dims)
        } else {
            u
        };
        let rt = rty.ok_or_else(|| Error::internal("image query without result"))?;
        let whole = match component {
            Some(_) => dims == 1,
            None => m.lanes(ret) == dims,
        };
        if whole && rt == qt {
            // The query's own result is the value: no copy.
            let ops = query_ops(self);
            self.emit(query, Some(rt), rid, ops)?;
            return Ok(());
        }
        let ops = query_ops(self);
        let q = self.emit(query, Some(qt), None, ops)?;
        // One component is a 32-bit integer; `get_image_array_size` answers a size_t.
        let one = |w: &mut Self, c: Word| -> Result<()> {
            if rt == u {
                w.emit(S::CopyObject, Some(rt), rid, Self::ids(&[c]))?;
            } else {
                w.emit(S::UConvert, Some(rt), rid, Self::ids(&[c]))?;
            }
            Ok(())
        };
        match component {
            Some(_) if dims == 1 => one(self, q)?,
            Some(c) if rt == u => {
                self.emit(
                    S::CompositeExtract,
                    Some(rt),
                    rid,
                    vec![Operand::IdRef(q), Operand::LiteralBit32(c)],
                )?;
            }
            Some(c) => {
                let e = self.emit(
                    S::CompositeExtract,
                    Some(u),
                    None,
                    vec![Operand::IdRef(q), Operand::LiteralBit32(c)],
                )?;
                one(self, e)?;
            }
            None => {
                let want = m.lanes(ret);
                if want == dims {
                    self.emit(S::CopyObject, Some(rt), rid, Self::ids(&[q]))?;
                } else {
                    // get_image_dim of a 3D image is an int4 with w = 0.
                    let zero = self.b.constant_null(qt);
                    let mut ops = Self::ids(&[q, zero]);
                    ops.extend(
                        (0..want).map(|i| Operand::LiteralBit32(if i < dims { i } else { dims })),
                    );
                    self.emit(S::VectorShuffle, Some(rt), rid, ops)?;
                }
            }
        }
        Ok(())
    }
}
