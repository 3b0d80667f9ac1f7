//! The `--flavor spirv-ir` spelling of semantic builtins: each is the SPIR-V instruction it
//! stands for, as a call to `__spirv_{Op}{_postfixes}` / `__spirv_ocl_{name}` /
//! `__spirv_BuiltIn{Name}` (IA64-mangled, SPIR-V's operands in SPIR-V's order, literal
//! operands as `i32`). Names come from `spir::friendly`, which the reader decodes with.

use spirv::Op as S;

use super::Writer;
use crate::diag::{Error, Result};
use crate::ir::builtin::OpenclOp;
use crate::ir::{self, Builtin, ConvertKind, ImageOp, ImageType, Primitive, Sign, Type};
use crate::llvm::{self, Linkage, Opcode};
use crate::mappings::channel_query;
use crate::spir::demangle::MType;
use crate::spir::friendly::{self, Postfixes};
use crate::spv::form::Slot;

/// OpenCL.std loads whose name carries the result type (`__spirv_ocl_vloadn__Rfloat4`): their
/// arguments do not tell the result apart.
fn ocl_needs_ret(op: OpenclOp) -> bool {
    matches!(
        op,
        OpenclOp::vloadn | OpenclOp::vload_half | OpenclOp::vload_halfn | OpenclOp::vloada_halfn
    )
}

/// Core instructions whose name carries the result type for the same reason (an integer dot
/// product's result may be any width from its components' up).
fn core_needs_ret(op: S) -> bool {
    matches!(
        op,
        S::ImageRead
            | S::ImageSampleExplicitLod
            | S::ImageQuerySize
            | S::ImageQuerySizeLod
            | S::Bitcast
    ) || crate::mappings::primitive(op).is_some_and(|p| p.integer_dot().is_some())
}

const IMAGE_OPERANDS_LOD: u64 = 2;

impl<'a> Writer<'a> {
    fn int32() -> MType {
        MType::Int {
            bits: 32,
            signed: true,
        }
    }

    /// The `_R{ReturnType}` postfix: the OpenCL C name of the result.
    fn ret_postfix(&self, ret: ir::Handle<Type>, signed: bool) -> Result<String> {
        self.m
            .opencl_type_name(ret, signed)
            .ok_or_else(|| Error::unsupported("a builtin result type OpenCL C cannot name"))
    }

    /// Call `__spirv_...` `name` with `args`, mangled from the arguments' graph types (or the
    /// given mangling types where the graph has no type, as for sampled images).
    fn friendly_call(
        &mut self,
        name: &str,
        params: Vec<MType>,
        ret: llvm::Type<'a>,
        args: &[llvm::Value<'a>],
        out: &str,
    ) -> Result<llvm::Value<'a>> {
        let symbol = crate::spir::mangle::mangle(name, &params);
        self.call_symbol(&symbol, ret, args, false, out)
    }

    /// `__spirv_{op}` over the builtin's own arguments.
    fn core_call(
        &mut self,
        op: S,
        post: Postfixes,
        tys: &[ir::Handle<Type>],
        rt: llvm::Type<'a>,
        a: &[llvm::Value<'a>],
        out: &str,
    ) -> Result<llvm::Value<'a>> {
        let ps = tys
            .iter()
            .map(|&t| self.mtype(t, true))
            .collect::<Result<Vec<_>>>()?;
        self.friendly_call(&friendly::core_name(op, &post), ps, rt, a, out)
    }

    /// The sampled-image type of `img`: LLVM pointer and mangling type.
    fn sampled_image_type(&mut self, img: ImageType) -> Result<(llvm::Type<'a>, MType)> {
        let t = Type::SampledImage(img);
        let name = friendly::type_name(&t).expect("sampled images have a friendly name");
        let llvm = self.opaque_ptr(&name, friendly::object_space(&t))?;
        let m = MType::Pointer {
            space: friendly::object_space(&t),
            is_const: false,
            is_volatile: false,
            pointee: Box::new(MType::Named(friendly::mangled_type_name(&name))),
        };
        Ok((llvm, m))
    }

    pub(super) fn friendly_builtin(
        &mut self,
        builtin: &Builtin,
        a: &[llvm::Value<'a>],
        tys: &[ir::Handle<Type>],
        ret: ir::Handle<Type>,
        out: &str,
    ) -> Result<llvm::Value<'a>> {
        let rt = self.ty(ret)?;
        let none = Postfixes::default();
        Ok(match builtin {
            Builtin::Glsl(op) => {
                return Err(Error::unsupported(format!(
                    "GLSL.std.450 {op:?} (a graph lowered for Vulkan) has no SPIR spelling"
                )))
            }
            Builtin::WorkItem(b) => {
                let name = friendly::builtin_variable_name(*b);
                let index = a.first().map(|&d| self.int_to_width(d, 32)).transpose()?;
                if self.opts.builtins_as_globals {
                    self.builtin_global_read(&name, index, rt, out)?
                } else {
                    let (ps, args) = match index {
                        Some(i) => (vec![Self::int32()], vec![i]),
                        None => (vec![], vec![]),
                    };
                    self.friendly_call(&name, ps, rt, &args, out)?
                }
            }
            Builtin::ExtInst { op, literal } => {
                let base = friendly::ocl_op_name(*op)
                    .ok_or_else(|| Error::internal(format!("OpenCL.std {op:?} has no name")))?;
                let r = if ocl_needs_ret(*op) {
                    Some(self.ret_postfix(ret, true)?)
                } else {
                    None
                };
                let mut ps = tys
                    .iter()
                    .map(|&t| self.mtype(t, true))
                    .collect::<Result<Vec<_>>>()?;
                let mut av = a.to_vec();
                if let Some(l) = literal {
                    ps.push(Self::int32());
                    av.push(self.i32_const(*l as u64)?);
                }
                self.friendly_call(&friendly::ocl_name(base, r.as_deref()), ps, rt, &av, out)?
            }
            Builtin::Convert {
                from,
                to,
                saturate,
                rounding,
            } => {
                let op = crate::mappings::conversion_opcode((*from, *to, *saturate));
                let post = Postfixes {
                    ret: Some(self.ret_postfix(ret, *to != ConvertKind::Int(Sign::Unsigned))?),
                    sat: *saturate && !matches!(op, S::SatConvertSToU | S::SatConvertUToS),
                    rounding: *rounding,
                    other: vec![],
                };
                let from_signed = *from != ConvertKind::Int(Sign::Unsigned);
                let p = vec![self.mtype(tys[0], from_signed)?];
                self.friendly_call(&friendly::core_name(op, &post), p, rt, a, out)?
            }
            Builtin::Image(op) => self.friendly_image(*op, a, tys, ret, rt, out)?,
            Builtin::ControlBarrier { .. }
            | Builtin::MemoryBarrier { .. }
            | Builtin::Atomic { .. }
            | Builtin::AsyncCopy { .. }
            | Builtin::WaitEvents
            | Builtin::Group { .. } => {
                // The form over operand positions, so each slot knows its graph type.
                let positions: Vec<usize> = (0..a.len()).collect();
                let (op, slots) = builtin
                    .spirv_form(&positions)
                    .ok_or_else(|| Error::internal("a builtin without a SPIR-V form"))?;
                let signed = match builtin {
                    Builtin::Atomic { op, .. } => !op.unsigned(),
                    Builtin::Group { op, .. } => !op.takes_unsigned(),
                    _ => true,
                };
                let (mut ps, mut av) = (Vec::new(), Vec::new());
                for slot in slots {
                    match slot {
                        Slot::Value(i) => {
                            ps.push(self.mtype(tys[i], signed)?);
                            av.push(a[i]);
                        }
                        // The convention passes literals and constants alike as i32.
                        Slot::Int(v) => {
                            ps.push(Self::int32());
                            av.push(self.i32_const(v as u64)?);
                        }
                        Slot::Operation(o) => {
                            ps.push(Self::int32());
                            av.push(self.i32_const(o as u64)?);
                        }
                        Slot::OneLike(i) => {
                            ps.push(self.mtype(tys[i], signed)?);
                            av.push(self.llvm.const_int(a[i].type_of(), 1)?);
                        }
                    }
                }
                self.friendly_call(&friendly::core_name(op, &none), ps, rt, &av, out)?
            }
            Builtin::Primitive(Primitive::GenericCastToPtrExplicit) => {
                // `__spirv_GenericCastToPtrExplicit_To{Global,Local,Private}(p, storage class)`.
                let space = match self.m.types[ret] {
                    Type::Pointer { space, .. } => space,
                    _ => return Err(Error::internal("a generic cast to no pointer")),
                };
                let to = match space {
                    ir::AddressSpace::Global => "ToGlobal",
                    ir::AddressSpace::Local => "ToLocal",
                    _ => "ToPrivate",
                };
                let post = Postfixes {
                    other: vec![to.to_string()],
                    ..Postfixes::default()
                };
                let class = crate::mappings::space_storage_class(space) as u64;
                let ps = vec![self.mtype(tys[0], true)?, Self::int32()];
                let av = [a[0], self.i32_const(class)?];
                self.friendly_call(
                    &friendly::core_name(S::GenericCastToPtrExplicit, &post),
                    ps,
                    rt,
                    &av,
                    out,
                )?
            }
            // `__spirv_` and the instruction's name, its operands in its order.
            Builtin::Primitive(p) => {
                let op = crate::mappings::opcode(*p);
                let post = Postfixes {
                    ret: if core_needs_ret(op) {
                        Some(self.ret_postfix(ret, true)?)
                    } else {
                        None
                    },
                    ..Postfixes::default()
                };
                self.core_call(op, post, tys, rt, a, out)?
            }
        })
    }

    /// `load` of the builtin variable `@name` (declared on first use, `Input` storage), then
    /// the lane `index` of a vector variable.
    fn builtin_global_read(
        &mut self,
        name: &str,
        index: Option<llvm::Value<'a>>,
        rt: llvm::Type<'a>,
        out: &str,
    ) -> Result<llvm::Value<'a>> {
        let vt = match index {
            Some(_) => rt.vector_of(3)?,
            None => rt,
        };
        let space = super::types::llvm_space(ir::AddressSpace::Input)?;
        let g = match self.llvm.global_named(name) {
            Some(g) => g,
            None => {
                let g = self.llvm.add_global(vt, name, space)?;
                g.set_global_constant(true)?;
                g.set_linkage(Linkage::LLVMExternalLinkage)?;
                g
            }
        };
        Ok(match index {
            Some(i) => {
                let v = self.b.load(vt, g, "")?;
                self.b.extract_element(v, i, out)?
            }
            None => self.b.load(vt, g, out)?,
        })
    }

    fn friendly_image(
        &mut self,
        op: ImageOp,
        a: &[llvm::Value<'a>],
        tys: &[ir::Handle<Type>],
        ret: ir::Handle<Type>,
        rt: llvm::Type<'a>,
        out: &str,
    ) -> Result<llvm::Value<'a>> {
        let Type::Image(img) = self.m.types[tys[0]] else {
            return Err(Error::malformed(
                "image builtin on a value that is not an image",
            ));
        };
        let none = Postfixes::default();
        Ok(match op {
            ImageOp::Read(_) => {
                let post = Postfixes {
                    ret: Some(self.ret_postfix(ret, true)?),
                    ..none
                };
                self.core_call(S::ImageRead, post, tys, rt, a, out)?
            }
            ImageOp::Sample(_) => {
                let (st, sm) = self.sampled_image_type(img)?;
                let ps = vec![self.mtype(tys[0], true)?, self.mtype(tys[1], true)?];
                let name = friendly::core_name(S::SampledImage, &none);
                let si = self.friendly_call(&name, ps, st, &a[..2], "")?;
                let post = Postfixes {
                    ret: Some(self.ret_postfix(ret, true)?),
                    ..none
                };
                let zero = self.llvm.const_real(self.llvm.float_type(), 0.0)?;
                let ps = vec![
                    sm,
                    self.mtype(tys[2], true)?,
                    Self::int32(),
                    MType::Float { bits: 32 },
                ];
                let av = [si, a[2], self.i32_const(IMAGE_OPERANDS_LOD)?, zero];
                let name = friendly::core_name(S::ImageSampleExplicitLod, &post);
                self.friendly_call(&name, ps, rt, &av, out)?
            }
            ImageOp::Write(_) => {
                let mut ps = tys[..3]
                    .iter()
                    .map(|&t| self.mtype(t, true))
                    .collect::<Result<Vec<_>>>()?;
                let mut av = a[..3].to_vec();
                if a.len() > 3 {
                    ps.push(Self::int32());
                    ps.push(self.mtype(tys[3], true)?);
                    av.push(self.i32_const(IMAGE_OPERANDS_LOD)?);
                    av.push(a[3]);
                }
                let name = friendly::core_name(S::ImageWrite, &none);
                self.friendly_call(&name, ps, rt, &av, out)?
            }
            ImageOp::QuerySize { component: None } => {
                let post = Postfixes {
                    ret: Some(self.ret_postfix(ret, true)?),
                    ..none
                };
                self.core_call(S::ImageQuerySize, post, tys, rt, a, out)?
            }
            ImageOp::QuerySize { component: Some(i) } => {
                // One component: the whole size vector, then its lane.
                let dims = img.size_components();
                let (vt, post_ty) = if dims == 1 {
                    (rt, self.ret_postfix(ret, true)?)
                } else {
                    let et = self.ret_postfix(ret, true)?;
                    (rt.vector_of(dims)?, format!("{et}{dims}"))
                };
                let post = Postfixes {
                    ret: Some(post_ty),
                    ..none
                };
                // The call is the value when there is one component: it takes the name.
                let call_name = if dims == 1 { out } else { "" };
                let v = self.core_call(S::ImageQuerySize, post, tys, vt, a, call_name)?;
                if dims == 1 {
                    v
                } else {
                    let lane = self.i32_const(i as u64)?;
                    self.b.extract_element(v, lane, out)?
                }
            }
            ImageOp::QueryChannelDataType | ImageOp::QueryChannelOrder => {
                // SPIR-V's enumerant is OpenCL's CL_* value minus a fixed offset.
                let q = channel_query(|q| q.op == op)
                    .ok_or_else(|| Error::internal("a channel query without a table row"))?;
                let v =
                    self.core_call(crate::mappings::opcode(q.primitive), none, tys, rt, a, "")?;
                let off = self.llvm.const_int(rt, q.cl_offset)?;
                self.b.binary(Opcode::LLVMAdd, v, off, out)?
            }
        })
    }

    /// A specialization constant: `__spirv_SpecConstant(i32 spec_id, T default)` at the
    /// insertion point (the convention's spelling; LLVM has no specializable constant).
    pub(super) fn friendly_spec_constant(
        &mut self,
        spec_id: u32,
        default: ir::Handle<ir::Constant>,
    ) -> Result<llvm::Value<'a>> {
        let t = self.m.constants[default].ty;
        let (rt, d) = (self.ty(t)?, self.constant(default)?);
        let ps = vec![Self::int32(), self.mtype(t, true)?];
        let args = [self.i32_const(spec_id as u64)?, d];
        self.friendly_call("__spirv_SpecConstant", ps, rt, &args, "")
    }

    /// A sampler constant: `__translate_sampler_initializer(i32 bits)` at the insertion point
    /// (the convention has no constant of sampler type).
    pub(super) fn friendly_sampler(&mut self, bits: u32) -> Result<llvm::Value<'a>> {
        let arg = self.i32_const(bits as u64)?;
        self.translate_sampler(arg)
    }

    /// `__translate_sampler_initializer(bits)` for an `i32` sampler bit-field value (also
    /// SPIR's in clang's form, where clang calls it `spir_func`).
    pub(super) fn translate_sampler(&mut self, arg: llvm::Value<'a>) -> Result<llvm::Value<'a>> {
        let t = self.object_type(&Type::Sampler)?;
        let name = "__translate_sampler_initializer";
        let spir = self.opts.flavor == crate::options::Flavor::Spir;
        let f = match self.llvm.function_named(name) {
            Some(f) => f,
            None => {
                let fty = self
                    .llvm
                    .function_type(t, &[self.llvm.int_type(32)?], false)?;
                let f = self.llvm.add_function(name, fty)?;
                if spir {
                    f.set_call_conv(super::CC_SPIR_FUNC)?;
                }
                f
            }
        };
        let call = self.b.call(f, &[arg], "")?;
        if spir {
            call.set_call_conv(super::CC_SPIR_FUNC)?;
        }
        Ok(call)
    }
}
