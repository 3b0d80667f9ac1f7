//! The OpenCL C spelling of semantic builtins in real SPIR: a call to the builtin's mangled
//! name (SPIR Appendix A). Graph integers are signless, so each builtin decides the
//! signedness its OpenCL C overload takes (`s_abs` is `abs(int)`, `u_abs` is `abs(uint)`).

use super::body::FnCtx;
use super::{Writer, CC_SPIR_FUNC};
use crate::diag::{Error, Result};
use crate::ir::builtin::OpenclOp;
use crate::ir::{self, Builtin, ConvertKind, ImageOp, Sign, Type, Value};
use crate::llvm::{self, AttributePlace, IntPredicate};
use crate::mappings;
use crate::mappings::channel_query;
use crate::options::Flavor;
use crate::spir::demangle::MType;
use crate::spir::friendly;
use crate::spir::mangle::mangle;
use crate::spir::opencl_names::{spir_image_names, vector_memory_name};

/// Whether integer argument `arg` of an OpenCL.std instruction's OpenCL C overload is signed:
/// the table's class (`u_abs` is `abs(uint)`), then the builtins whose arguments differ.
fn ext_sign(op: OpenclOp, arg: usize) -> bool {
    if mappings::opencl_std_sign(op) == Some(Sign::Unsigned) {
        return false;
    }
    match op {
        // upsample(hi, lo): lo is always unsigned.
        OpenclOp::s_upsample => arg == 0,
        OpenclOp::nan => false,
        // prefetch(const T*, size_t num_elements)
        OpenclOp::prefetch => false,
        // The mask of shuffle/shuffle2 is unsigned.
        OpenclOp::shuffle => arg == 0,
        OpenclOp::shuffle2 => arg < 2,
        _ => true,
    }
}

/// Bit width of a type's scalar element.
pub(super) fn scalar_bits(m: &ir::Module, t: ir::Handle<Type>) -> u32 {
    match m.types[m.scalar_of(t)] {
        Type::Int { width } | Type::Float { width } => width,
        _ => 32,
    }
}

impl<'a> Writer<'a> {
    /// The mangling type of a graph type (`signed` decides `i` vs `j` for integers).
    pub(super) fn mtype(&self, t: ir::Handle<Type>, signed: bool) -> Result<MType> {
        Ok(match &self.m.types[t] {
            Type::Void => MType::Void,
            Type::Bool => MType::Bool,
            Type::Int { width } => MType::Int {
                bits: *width,
                signed,
            },
            Type::Float { width } => MType::Float { bits: *width },
            Type::Vector { elem, len } => MType::Vector {
                len: *len,
                elem: Box::new(self.mtype(*elem, signed)?),
            },
            Type::Pointer { pointee, space } => MType::Pointer {
                space: super::types::llvm_space(*space)?,
                is_const: false,
                is_volatile: false,
                pointee: Box::new(self.mtype(*pointee, signed)?),
            },
            t if self.opts.flavor == Flavor::SpirvIr && friendly::type_name(t).is_some() => {
                let name = friendly::type_name(t).unwrap_or_default();
                MType::Pointer {
                    space: friendly::object_space(t),
                    is_const: false,
                    is_volatile: false,
                    pointee: Box::new(MType::Named(friendly::mangled_type_name(&name))),
                }
            }
            Type::Image(i) => MType::Named(spir_image_names(i, self.opts.form).1),
            Type::Sampler => MType::Named("ocl_sampler".into()),
            Type::Event => MType::Named("ocl_event".into()),
            Type::DeviceEvent => MType::Named("ocl_clkevent".into()),
            Type::Queue => MType::Named("ocl_queue".into()),
            Type::ReserveId => MType::Named("ocl_reserveid".into()),
            Type::Pipe(_) => MType::Named("ocl_pipe".into()),
            _ => {
                return Err(Error::unsupported(format!(
                    "a builtin argument of type {}",
                    crate::ir::print::type_text(self.m, t)
                )))
            }
        })
    }

    /// The mangling types of builtin arguments, integers of one signedness.
    pub(super) fn mtypes(&self, tys: &[ir::Handle<Type>], signed: bool) -> Result<Vec<MType>> {
        tys.iter().map(|&t| self.mtype(t, signed)).collect()
    }

    /// `v != 0` lane by lane: OpenCL's int (1/0) or intN (-1/0) result as SPIR-V's bool.
    pub(super) fn is_nonzero(
        &self,
        v: llvm::Value<'a>,
        t: llvm::Type<'a>,
        out: &str,
    ) -> Result<llvm::Value<'a>> {
        let zero = self.llvm.const_null(t)?;
        Ok(self.b.icmp(IntPredicate::LLVMIntNE, v, zero, out)?)
    }

    /// Call `symbol` (declared on first use with the arguments' types), `spir_func`.
    pub(super) fn call_symbol(
        &mut self,
        symbol: &str,
        ret: llvm::Type<'a>,
        args: &[llvm::Value<'a>],
        varargs: bool,
        name: &str,
    ) -> Result<llvm::Value<'a>> {
        let f = match self.decls.get(symbol) {
            Some(&f) => f,
            None => {
                let mut ps: Vec<_> = args.iter().map(|a| a.type_of()).collect();
                if varargs {
                    ps.truncate(1);
                }
                let fty = self.llvm.function_type(ret, &ps, varargs)?;
                let f = self.llvm.add_function(symbol, fty)?;
                f.set_call_conv(CC_SPIR_FUNC)?;
                f.add_enum_attribute(self.llvm, AttributePlace::Function, "nounwind")?;
                self.decls.insert(symbol.to_string(), f);
                f
            }
        };
        let call = self.b.call(f, args, name)?;
        call.set_call_conv(CC_SPIR_FUNC)?;
        Ok(call)
    }

    /// Call the OpenCL C builtin `name` with mangled parameter types `params`.
    pub(super) fn call_builtin(
        &mut self,
        name: &str,
        params: &[MType],
        ret: llvm::Type<'a>,
        args: &[llvm::Value<'a>],
        out: &str,
    ) -> Result<llvm::Value<'a>> {
        let symbol = mangle(name, params);
        self.call_symbol(&symbol, ret, args, false, out)
    }

    pub(super) fn no_spelling(&self, what: String) -> Error {
        let (a, b) = self.spir_version;
        Error::unsupported(format!(
            "{what} has no OpenCL C spelling in SPIR {a}.{b}; use --flavor spirv-ir to keep it"
        ))
    }

    pub(super) fn i32_const(&self, v: u64) -> Result<llvm::Value<'a>> {
        Ok(self.llvm.const_int(self.llvm.int_type(32)?, v)?)
    }

    /// `i8*` in address space `space`.
    pub(super) fn i8_ptr(&self, space: u32) -> Result<llvm::Type<'a>> {
        Ok(self.llvm.int_type(8)?.pointer_to(space)?)
    }

    /// `cl_mem_fence_flags` of SPIR-V memory semantics.
    pub(super) fn fence_flags(semantics: u32) -> u64 {
        let s = spirv::MemorySemantics::from_bits_truncate(semantics);
        mappings::FENCE_FLAGS
            .iter()
            .filter(|(_, storage)| s.contains(*storage))
            .map(|(bit, _)| *bit as u64)
            .sum()
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn builtin(
        &mut self,
        fc: &mut FnCtx<'a>,
        builtin: &Builtin,
        args: &[Value],
        a: &[llvm::Value<'a>],
        tys: &[ir::Handle<Type>],
        ret: ir::Handle<Type>,
        out: &str,
    ) -> Result<llvm::Value<'a>> {
        if self.opts.flavor == Flavor::SpirvIr {
            if let Builtin::Primitive(op) = builtin {
                if super::enqueue::takes_structs(*op) {
                    return self.friendly_enqueue(fc, *op, a, ret, out);
                }
            }
            return self.friendly_builtin(builtin, a, tys, ret, out);
        }
        let rt = self.ty(ret)?;
        let uint = MType::Int {
            bits: 32,
            signed: false,
        };
        let size_t = MType::Int {
            bits: self.m.addressing.pointer_bits(),
            signed: false,
        };
        Ok(match builtin {
            Builtin::Glsl(op) => {
                return Err(
                    self.no_spelling(format!("GLSL.std.450 {op:?} (a graph lowered for Vulkan)"))
                )
            }
            Builtin::WorkItem(b) => {
                let (name, per_dim, _) = mappings::work_item_name(*b)
                    .ok_or_else(|| self.no_spelling(format!("BuiltIn {b:?}")))?;
                if per_dim {
                    let dim = self.int_to_width(a[0], 32)?;
                    self.call_builtin(name, &[uint], rt, &[dim], out)?
                } else {
                    self.call_builtin(name, &[], rt, &[], out)?
                }
            }
            Builtin::ExtInst { op, literal } => self.ext_inst(*op, *literal, a, tys, rt, out)?,
            Builtin::Convert {
                from,
                to,
                saturate,
                rounding,
            } => {
                let signed_to = !matches!(to, ConvertKind::Int(Sign::Unsigned));
                let signed_from = !matches!(from, ConvertKind::Int(Sign::Unsigned));
                let to_name = self.m.opencl_type_name(ret, signed_to).ok_or_else(|| {
                    Error::unsupported("a conversion to a type OpenCL C cannot name")
                })?;
                let name = crate::spir::opencl_names::convert_name(&to_name, *saturate, *rounding);
                let p = self.mtype(tys[0], signed_from)?;
                self.call_builtin(&name, &[p], rt, a, out)?
            }
            Builtin::ControlBarrier {
                exec,
                mem,
                semantics,
            } => self.control_barrier(*exec, *mem, *semantics, rt, out)?,
            Builtin::MemoryBarrier { mem, semantics } => {
                self.memory_barrier(*mem, *semantics, rt, out)?
            }
            Builtin::Atomic {
                op,
                scope,
                semantics,
            } => self.atomic(fc, *op, *scope, *semantics, a, tys, rt, out)?,
            Builtin::Image(op) => self.image(*op, a, tys, ret, rt, out)?,
            Builtin::AsyncCopy { strided } => {
                let stride_one = *strided
                    && matches!(args[3], Value::Const(k)
                        if matches!(self.m.constants[k].kind, ir::ConstantKind::Int(1)));
                let dst = self.mtype(tys[0], true)?;
                let mut src = self.mtype(tys[1], true)?;
                if let MType::Pointer { is_const, .. } = &mut src {
                    *is_const = true;
                }
                let num = self.int_to_width(a[2], self.m.addressing.pointer_bits())?;
                let event = MType::Named("ocl_event".into());
                if *strided && !stride_one {
                    let stride = self.int_to_width(a[3], self.m.addressing.pointer_bits())?;
                    self.call_builtin(
                        "async_work_group_strided_copy",
                        &[dst, src, size_t.clone(), size_t, event],
                        rt,
                        &[a[0], a[1], num, stride, a[4]],
                        out,
                    )?
                } else {
                    let ev = if *strided { a[4] } else { a[3] };
                    self.call_builtin(
                        "async_work_group_copy",
                        &[dst, src, size_t, event],
                        rt,
                        &[a[0], a[1], num, ev],
                        out,
                    )?
                }
            }
            Builtin::WaitEvents => {
                let num = self.int_to_width(a[0], 32)?;
                let list = self.mtype(tys[1], true)?;
                let int = MType::Int {
                    bits: 32,
                    signed: true,
                };
                self.call_builtin("wait_group_events", &[int, list], rt, &[num, a[1]], out)?
            }
            Builtin::Group {
                op,
                scope,
                operation,
            } => self.group(*op, *scope, *operation, a, tys, rt, out)?,
            Builtin::Primitive(op) if super::enqueue::is_enqueue(*op) => {
                self.enqueue(fc, *op, args, a, tys, ret, rt, out)?
            }
            Builtin::Primitive(op) if super::pipes::is_pipe(*op) => {
                self.pipe(*op, args, a, tys, rt, out)?
            }
            Builtin::Primitive(op) => self.primitive(*op, a, tys, rt, out)?,
        })
    }

    /// Truncate or zero-extend an integer argument to `bits` (dimension indices, sizes).
    pub(super) fn int_to_width(&self, v: llvm::Value<'a>, bits: u32) -> Result<llvm::Value<'a>> {
        Ok(self.b.int_cast(v, self.llvm.int_type(bits)?, "")?)
    }

    fn ext_inst(
        &mut self,
        op: OpenclOp,
        literal: Option<u32>,
        a: &[llvm::Value<'a>],
        tys: &[ir::Handle<Type>],
        rt: llvm::Type<'a>,
        out: &str,
    ) -> Result<llvm::Value<'a>> {
        let size_t = MType::Int {
            bits: self.m.addressing.pointer_bits(),
            signed: false,
        };
        let ptr = |w: &Self, t, is_const| -> Result<MType> {
            let mut p = w.mtype(t, true)?;
            if let MType::Pointer { is_const: k, .. } = &mut p {
                *k = is_const;
            }
            Ok(p)
        };
        let lanes = |w: &Self, t| w.m.lanes(t);
        // vload/vstore families: the name carries the width and rounding.
        let (name, params): (String, Vec<MType>) = match op {
            OpenclOp::vloadn
            | OpenclOp::vload_half
            | OpenclOp::vload_halfn
            | OpenclOp::vloada_halfn => (
                vector_memory_name(op, literal, 1).unwrap_or_default(),
                vec![size_t, ptr(self, tys[1], true)?],
            ),
            OpenclOp::vstoren
            | OpenclOp::vstore_half
            | OpenclOp::vstore_half_r
            | OpenclOp::vstore_halfn
            | OpenclOp::vstore_halfn_r
            | OpenclOp::vstorea_halfn
            | OpenclOp::vstorea_halfn_r => (
                vector_memory_name(op, literal, lanes(self, tys[0])).unwrap_or_default(),
                vec![self.mtype(tys[0], true)?, size_t, ptr(self, tys[2], false)?],
            ),
            OpenclOp::printf => {
                return self.call_symbol("printf", rt, a, true, out);
            }
            _ => {
                let name = mappings::opencl_std_name(op)
                    .ok_or_else(|| self.no_spelling(format!("OpenCL.std {op:?}")))?;
                // Pointer arguments (frexp's int*, prefetch's const T*) point to signed data.
                let ps = tys
                    .iter()
                    .enumerate()
                    .map(|(i, &t)| match self.m.types[t] {
                        Type::Pointer { .. } => ptr(self, t, op == OpenclOp::prefetch && i == 0),
                        _ => self.mtype(t, ext_sign(op, i)),
                    })
                    .collect::<Result<Vec<_>>>()?;
                (name.to_string(), ps)
            }
        };
        self.call_builtin(&name, &params, rt, a, out)
    }

    fn image(
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
        let suffix = crate::spir::opencl_names::texel_suffix;
        Ok(match op {
            ImageOp::Read(k) | ImageOp::Sample(k) => {
                let p = self.mtypes(tys, true)?;
                self.call_builtin(&format!("read_image{}", suffix(k)), &p, rt, a, out)?
            }
            ImageOp::Write(k) => {
                let mut p = self.mtypes(tys, true)?;
                // write_imageui takes a uint4 texel (SPIR-V 1.4's ZeroExtend says so).
                if k == ir::TexelKind::Unsigned {
                    if let Some(&t) = tys.get(2) {
                        p[2] = self.mtype(t, false)?;
                    }
                }
                self.call_builtin(&format!("write_image{}", suffix(k)), &p, rt, a, out)?
            }
            ImageOp::QueryChannelDataType | ImageOp::QueryChannelOrder => {
                let q = channel_query(|q| q.op == op)
                    .ok_or_else(|| Error::internal("a channel query without a table row"))?;
                let p = self.mtypes(tys, true)?;
                self.call_builtin(q.opencl, &p, rt, a, out)?
            }
            ImageOp::QuerySize { component } => {
                let p = self.mtypes(tys, true)?;
                let dims = img.dims();
                let comp_name = |i: u32| match i {
                    i if i == dims => "get_image_array_size",
                    0 => "get_image_width",
                    1 => "get_image_height",
                    _ => "get_image_depth",
                };
                let int_t = self.llvm.int_type(32)?;
                let size_t_t = self.llvm.int_type(self.m.addressing.pointer_bits())?;
                let lanes = self.m.lanes(ret);
                match component {
                    Some(i) => {
                        let t = if i == dims { size_t_t } else { int_t };
                        let v = self.call_builtin(comp_name(i), &p, t, a, "")?;
                        self.fit_int(v, rt, out)?
                    }
                    None if !img.arrayed
                        && ((dims == 2 && lanes == 2) || (dims == 3 && lanes == 4)) =>
                    {
                        let vt = int_t.vector_of(lanes)?;
                        let v = self.call_builtin("get_image_dim", &p, vt, a, "")?;
                        self.fit_int(v, rt, out)?
                    }
                    None if lanes == 1 => {
                        let v = self.call_builtin(comp_name(0), &p, int_t, a, "")?;
                        self.fit_int(v, rt, out)?
                    }
                    None => {
                        let elem = rt
                            .element()
                            .ok_or_else(|| Error::internal("an image size of a scalar type"))?;
                        let mut acc = self.llvm.undef(rt)?;
                        for i in 0..lanes {
                            let t = if i == dims { size_t_t } else { int_t };
                            let v = self.call_builtin(comp_name(i), &p, t, a, "")?;
                            let v = self.fit_int(v, elem, "")?;
                            let nm = if i + 1 == lanes { out } else { "" };
                            let lane = self.i32_const(i as u64)?;
                            acc = self.b.insert_element(acc, v, lane, nm)?;
                        }
                        acc
                    }
                }
            }
        })
    }

    /// Integer cast of `v` to `t` (same width: `v` itself).
    /// `v` as integer type `t`, named `out`: `v` itself when it has that type already.
    pub(super) fn fit_int(
        &self,
        v: llvm::Value<'a>,
        t: llvm::Type<'a>,
        out: &str,
    ) -> Result<llvm::Value<'a>> {
        if v.type_of() == t {
            if !out.is_empty() {
                v.set_name(out);
            }
            Ok(v)
        } else {
            Ok(self.b.int_cast(v, t, out)?)
        }
    }
}
