//! The OpenCL C spelling of semantic builtins in real SPIR: a call to the builtin's mangled
//! name (SPIR Appendix A). Graph integers are signless, so each builtin decides the
//! signedness its OpenCL C overload takes (`s_abs` is `abs(int)`, `u_abs` is `abs(uint)`).

use std::ffi::CStr;

use llvm_sys::core::*;
use llvm_sys::prelude::*;
use spirv::Op as S;

use super::body::FnCtx;
use super::{c, Writer, CC_SPIR_FUNC};
use crate::diag::{Error, Result};
use crate::ir::builtin::{is_float_test, CLOp};
use crate::ir::{self, Builtin, ConvertKind, ImageOp, Sign, TexelKind, Type, Value};
use crate::mappings;
use crate::mappings::channel_query;
use crate::options::Flavor;
use crate::spir::friendly;
use crate::spir::mangle::MType;
use crate::spir::mangler::mangle;
use crate::spir::opencl_names::image_base;

/// The suffix of a rounding mode given as its SPIR-V number (vstore_half*_r literals).
fn rounding_suffix(r: u32) -> &'static str {
    mappings::rounding_suffix(
        spirv::FPRoundingMode::from_u32(r).unwrap_or(spirv::FPRoundingMode::RTN),
    )
}

/// Whether integer argument `arg` of an OpenCL.std instruction's OpenCL C overload is signed:
/// the table's class (`u_abs` is `abs(uint)`), then the builtins whose arguments differ.
fn ext_sign(op: CLOp, arg: usize) -> bool {
    if mappings::opencl_std_sign(op) == Some(Sign::Unsigned) {
        return false;
    }
    match op {
        // upsample(hi, lo): lo is always unsigned.
        CLOp::s_upsample => arg == 0,
        CLOp::nan => false,
        // prefetch(const T*, size_t num_elements)
        CLOp::prefetch => false,
        // The mask of shuffle/shuffle2 is unsigned.
        CLOp::shuffle => arg == 0,
        CLOp::shuffle2 => arg < 2,
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

impl Writer<'_> {
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
            Type::Image(i) => MType::Named(format!("ocl_{}", image_base(i).replace('_', ""))),
            Type::Sampler => MType::Named("ocl_sampler".into()),
            Type::Event => MType::Named("ocl_event".into()),
            Type::DeviceEvent => MType::Named("ocl_clkevent".into()),
            Type::Queue => MType::Named("ocl_queue".into()),
            Type::ReserveId => MType::Named("ocl_reserveid".into()),
            Type::Pipe(_) => MType::Named("ocl_pipe".into()),
            other => {
                return Err(Error::unsupported(format!(
                    "a builtin argument of type {other:?}"
                )))
            }
        })
    }

    /// The mangling types of builtin arguments, integers of one signedness.
    fn mtypes(&self, tys: &[ir::Handle<Type>], signed: bool) -> Result<Vec<MType>> {
        tys.iter().map(|&t| self.mtype(t, signed)).collect()
    }

    /// `v != 0` lane by lane: OpenCL's int (1/0) or intN (-1/0) result as SPIR-V's bool.
    pub(super) fn is_nonzero(&self, v: LLVMValueRef, t: LLVMTypeRef, out: &CStr) -> LLVMValueRef {
        unsafe {
            LLVMBuildICmp(
                self.builder,
                llvm_sys::LLVMIntPredicate::LLVMIntNE,
                v,
                LLVMConstNull(t),
                out.as_ptr(),
            )
        }
    }

    /// Call `symbol` (declared on first use with the arguments' types), `spir_func`.
    pub(super) fn call_symbol(
        &mut self,
        symbol: &str,
        ret: LLVMTypeRef,
        args: &[LLVMValueRef],
        varargs: bool,
        name: &CStr,
    ) -> LLVMValueRef {
        unsafe {
            let f = match self.decls.get(symbol) {
                Some(&f) => f,
                None => {
                    let mut ps: Vec<_> = args.iter().map(|&a| LLVMTypeOf(a)).collect();
                    if varargs {
                        ps.truncate(1);
                    }
                    let fty =
                        LLVMFunctionType(ret, ps.as_mut_ptr(), ps.len() as u32, varargs as i32);
                    let f = LLVMAddFunction(self.module, c(symbol).as_ptr(), fty);
                    LLVMSetFunctionCallConv(f, CC_SPIR_FUNC);
                    LLVMAddAttributeAtIndex(f, u32::MAX, self.enum_attr("nounwind"));
                    self.decls.insert(symbol.to_string(), f);
                    f
                }
            };
            let fty = LLVMGlobalGetValueType(f);
            let mut a = args.to_vec();
            let is_void = LLVMGetTypeKind(ret) == llvm_sys::LLVMTypeKind::LLVMVoidTypeKind;
            let call = LLVMBuildCall2(
                self.builder,
                fty,
                f,
                a.as_mut_ptr(),
                a.len() as u32,
                if is_void { c"".as_ptr() } else { name.as_ptr() },
            );
            LLVMSetInstructionCallConv(call, CC_SPIR_FUNC);
            call
        }
    }

    /// Call the OpenCL C builtin `name` with mangled parameter types `params`.
    pub(super) fn call_builtin(
        &mut self,
        name: &str,
        params: &[MType],
        ret: LLVMTypeRef,
        args: &[LLVMValueRef],
        out: &CStr,
    ) -> LLVMValueRef {
        let symbol = mangle(name, params);
        self.call_symbol(&symbol, ret, args, false, out)
    }

    pub(super) fn no_spelling(&self, what: String) -> Error {
        let (a, b) = self.spir_version;
        Error::unsupported(format!(
            "{what} has no OpenCL C spelling in SPIR {a}.{b}; use --flavor spirv-ir to keep it"
        ))
    }

    pub(super) fn i32_const(&self, v: u64) -> LLVMValueRef {
        unsafe { LLVMConstInt(LLVMInt32TypeInContext(self.ctx), v, 0) }
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
        fc: &mut FnCtx,
        builtin: &Builtin,
        args: &[Value],
        a: &[LLVMValueRef],
        tys: &[ir::Handle<Type>],
        ret: ir::Handle<Type>,
        out: &CStr,
    ) -> Result<LLVMValueRef> {
        if self.opts.flavor == Flavor::SpirvIr {
            if let Builtin::Spirv(op) = builtin {
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
                    let dim = self.int_to_width(a[0], 32);
                    self.call_builtin(name, &[uint], rt, &[dim], out)
                } else {
                    self.call_builtin(name, &[], rt, &[], out)
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
                let mut name = format!("convert_{to_name}");
                if *saturate {
                    name.push_str("_sat");
                }
                if let Some(r) = rounding {
                    name.push('_');
                    name.push_str(mappings::rounding_suffix(*r));
                }
                let p = self.mtype(tys[0], signed_from)?;
                self.call_builtin(&name, &[p], rt, a, out)
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
                let num = self.int_to_width(a[2], self.m.addressing.pointer_bits());
                let event = MType::Named("ocl_event".into());
                if *strided && !stride_one {
                    let stride = self.int_to_width(a[3], self.m.addressing.pointer_bits());
                    self.call_builtin(
                        "async_work_group_strided_copy",
                        &[dst, src, size_t.clone(), size_t, event],
                        rt,
                        &[a[0], a[1], num, stride, a[4]],
                        out,
                    )
                } else {
                    let ev = if *strided { a[4] } else { a[3] };
                    self.call_builtin(
                        "async_work_group_copy",
                        &[dst, src, size_t, event],
                        rt,
                        &[a[0], a[1], num, ev],
                        out,
                    )
                }
            }
            Builtin::WaitEvents => {
                let num = self.int_to_width(a[0], 32);
                let list = self.mtype(tys[1], true)?;
                let int = MType::Int {
                    bits: 32,
                    signed: true,
                };
                self.call_builtin("wait_group_events", &[int, list], rt, &[num, a[1]], out)
            }
            Builtin::Group {
                op,
                scope,
                operation,
            } => self.group(*op, *scope, *operation, a, tys, rt, out)?,
            Builtin::Spirv(op) if super::enqueue::is_enqueue(*op) => {
                self.enqueue(fc, *op, args, a, tys, ret, rt, out)?
            }
            Builtin::Spirv(op) if super::pipes::is_pipe(*op) => {
                self.pipe(*op, args, a, tys, rt, out)?
            }
            Builtin::Spirv(op) => self.spirv_op(*op, a, tys, rt, out)?,
        })
    }

    /// Truncate or zero-extend an integer argument to `bits` (dimension indices, sizes).
    pub(super) fn int_to_width(&self, v: LLVMValueRef, bits: u32) -> LLVMValueRef {
        unsafe {
            let t = LLVMIntTypeInContext(self.ctx, bits);
            if LLVMTypeOf(v) == t {
                v
            } else {
                LLVMBuildIntCast2(self.builder, v, t, 0, c"".as_ptr())
            }
        }
    }

    fn ext_inst(
        &mut self,
        op: CLOp,
        literal: Option<u32>,
        a: &[LLVMValueRef],
        tys: &[ir::Handle<Type>],
        rt: LLVMTypeRef,
        out: &CStr,
    ) -> Result<LLVMValueRef> {
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
            CLOp::vloadn => (
                format!("vload{}", literal.unwrap_or(1)),
                vec![size_t, ptr(self, tys[1], true)?],
            ),
            CLOp::vstoren => (
                format!("vstore{}", lanes(self, tys[0])),
                vec![self.mtype(tys[0], true)?, size_t, ptr(self, tys[2], false)?],
            ),
            CLOp::vload_half => ("vload_half".into(), vec![size_t, ptr(self, tys[1], true)?]),
            CLOp::vload_halfn | CLOp::vloada_halfn => (
                format!(
                    "{}{}",
                    if op == CLOp::vload_halfn {
                        "vload_half"
                    } else {
                        "vloada_half"
                    },
                    literal.unwrap_or(1)
                ),
                vec![size_t, ptr(self, tys[1], true)?],
            ),
            CLOp::vstore_half
            | CLOp::vstore_half_r
            | CLOp::vstore_halfn
            | CLOp::vstore_halfn_r
            | CLOp::vstorea_halfn
            | CLOp::vstorea_halfn_r => {
                let n = lanes(self, tys[0]);
                let mut name = match op {
                    CLOp::vstore_half | CLOp::vstore_half_r => "vstore_half".to_string(),
                    CLOp::vstore_halfn | CLOp::vstore_halfn_r => format!("vstore_half{n}"),
                    _ => format!("vstorea_half{n}"),
                };
                if matches!(
                    op,
                    CLOp::vstore_half_r | CLOp::vstore_halfn_r | CLOp::vstorea_halfn_r
                ) {
                    name.push('_');
                    name.push_str(rounding_suffix(literal.unwrap_or(0)));
                }
                (
                    name,
                    vec![self.mtype(tys[0], true)?, size_t, ptr(self, tys[2], false)?],
                )
            }
            CLOp::printf => {
                return Ok(self.call_symbol("printf", rt, a, true, out));
            }
            _ => {
                let name = mappings::opencl_std_name(op)
                    .ok_or_else(|| self.no_spelling(format!("OpenCL.std {op:?}")))?;
                // Pointer arguments (frexp's int*, prefetch's const T*) point to signed data.
                let ps = tys
                    .iter()
                    .enumerate()
                    .map(|(i, &t)| match self.m.types[t] {
                        Type::Pointer { .. } => ptr(self, t, op == CLOp::prefetch && i == 0),
                        _ => self.mtype(t, ext_sign(op, i)),
                    })
                    .collect::<Result<Vec<_>>>()?;
                (name.to_string(), ps)
            }
        };
        Ok(self.call_builtin(&name, &params, rt, a, out))
    }

    fn image(
        &mut self,
        op: ImageOp,
        a: &[LLVMValueRef],
        tys: &[ir::Handle<Type>],
        ret: ir::Handle<Type>,
        rt: LLVMTypeRef,
        out: &CStr,
    ) -> Result<LLVMValueRef> {
        let Type::Image(img) = self.m.types[tys[0]] else {
            return Err(Error::malformed(
                "image builtin on a value that is not an image",
            ));
        };
        let suffix = |k: TexelKind| match k {
            TexelKind::Float => "f",
            TexelKind::Half => "h",
            TexelKind::Signed => "i",
            TexelKind::Unsigned => "ui",
        };
        Ok(match op {
            ImageOp::Read(k) | ImageOp::Sample(k) => {
                let p = self.mtypes(tys, true)?;
                self.call_builtin(&format!("read_image{}", suffix(k)), &p, rt, a, out)
            }
            ImageOp::Write(k) => {
                let p = self.mtypes(tys, true)?;
                self.call_builtin(&format!("write_image{}", suffix(k)), &p, rt, a, out)
            }
            ImageOp::QueryChannelDataType | ImageOp::QueryChannelOrder => {
                let q = channel_query(|q| q.op == op)
                    .ok_or_else(|| Error::internal("a channel query without a table row"))?;
                let p = self.mtypes(tys, true)?;
                self.call_builtin(q.opencl, &p, rt, a, out)
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
                let int_t = unsafe { LLVMInt32TypeInContext(self.ctx) };
                let size_t_t =
                    unsafe { LLVMIntTypeInContext(self.ctx, self.m.addressing.pointer_bits()) };
                let lanes = self.m.lanes(ret);
                match component {
                    Some(i) => {
                        let t = if i == dims { size_t_t } else { int_t };
                        let v = self.call_builtin(comp_name(i), &p, t, a, c"");
                        self.fit_int(v, rt, out)
                    }
                    None if !img.arrayed
                        && ((dims == 2 && lanes == 2) || (dims == 3 && lanes == 4)) =>
                    {
                        let vt = unsafe { LLVMVectorType(int_t, lanes) };
                        let v = self.call_builtin("get_image_dim", &p, vt, a, c"");
                        self.fit_int(v, rt, out)
                    }
                    None if lanes == 1 => {
                        let v = self.call_builtin(comp_name(0), &p, int_t, a, c"");
                        self.fit_int(v, rt, out)
                    }
                    None => {
                        let elem = unsafe { LLVMGetElementType(rt) };
                        let mut acc = unsafe { LLVMGetUndef(rt) };
                        for i in 0..lanes {
                            let t = if i == dims { size_t_t } else { int_t };
                            let v = self.call_builtin(comp_name(i), &p, t, a, c"");
                            let v = self.fit_int(v, elem, c"");
                            let nm = if i + 1 == lanes { out } else { c"" };
                            acc = unsafe {
                                LLVMBuildInsertElement(
                                    self.builder,
                                    acc,
                                    v,
                                    self.i32_const(i as u64),
                                    nm.as_ptr(),
                                )
                            };
                        }
                        acc
                    }
                }
            }
        })
    }

    /// Integer cast of `v` to `t` (same width: `v` itself).
    /// `v` as integer type `t`, named `out`: `v` itself when it has that type already.
    fn fit_int(&self, v: LLVMValueRef, t: LLVMTypeRef, out: &CStr) -> LLVMValueRef {
        unsafe {
            if LLVMTypeOf(v) == t {
                if !out.is_empty() {
                    LLVMSetValueName2(v, out.as_ptr(), out.to_bytes().len());
                }
                v
            } else {
                LLVMBuildIntCast2(self.builder, v, t, 0, out.as_ptr())
            }
        }
    }

    /// SPIR-V instructions the graph keeps as such, in OpenCL C where it has a spelling.
    fn spirv_op(
        &mut self,
        op: S,
        a: &[LLVMValueRef],
        tys: &[ir::Handle<Type>],
        rt: LLVMTypeRef,
        out: &CStr,
    ) -> Result<LLVMValueRef> {
        Ok(match op {
            S::Dot => {
                let p = self.mtypes(tys, true)?;
                self.call_builtin("dot", &p, rt, a, out)
            }
            S::BitCount => {
                let p = self.mtypes(tys, true)?;
                self.call_builtin("popcount", &p, rt, a, out)
            }
            _ if is_float_test(op) => {
                // The OpenCL builtin returns int (1/0) or intN (-1/0); the SPIR-V result is bool.
                let name = match op {
                    S::LessOrGreater => "islessgreater",
                    _ => mappings::relational_name(op)
                        .ok_or_else(|| Error::internal(format!("relational Op{op:?}")))?,
                };
                let lanes = self.m.lanes(tys[0]);
                let ew = scalar_bits(self.m, tys[0]);
                let it = unsafe {
                    let e = LLVMIntTypeInContext(self.ctx, if lanes == 1 { 32 } else { ew });
                    if lanes == 1 {
                        e
                    } else {
                        LLVMVectorType(e, lanes)
                    }
                };
                let p = self.mtypes(tys, true)?;
                let r = self.call_builtin(name, &p, it, a, c"");
                self.is_nonzero(r, it, out)
            }
            S::Any | S::All => {
                // any/all test the sign bit of integer lanes: widen the booleans to -1/0.
                let lanes = self.m.lanes(tys[0]);
                let (it, vt) = unsafe {
                    let e = LLVMInt32TypeInContext(self.ctx);
                    (e, LLVMVectorType(e, lanes))
                };
                let wide = unsafe { LLVMBuildSExt(self.builder, a[0], vt, c"".as_ptr()) };
                let p = [MType::Vector {
                    len: lanes,
                    elem: Box::new(MType::Int {
                        bits: 32,
                        signed: true,
                    }),
                }];
                let name = if op == S::Any { "any" } else { "all" };
                let r = self.call_builtin(name, &p, it, &[wide], c"");
                self.is_nonzero(r, it, out)
            }
            S::ImageQueryFormat | S::ImageQueryOrder => {
                // SPIR-V's enumerant is OpenCL's CL_* value minus a fixed offset.
                let q = channel_query(|q| q.spirv == op)
                    .ok_or_else(|| Error::internal("a channel query without a table row"))?;
                let p = self.mtypes(tys, true)?;
                let v = self.call_builtin(q.opencl, &p, rt, a, c"");
                let off = unsafe { LLVMConstInt(rt, q.cl_offset, 0) };
                unsafe { LLVMBuildSub(self.builder, v, off, out.as_ptr()) }
            }
            S::GenericCastToPtrExplicit => {
                // clang's spelling: `__to_global` (`__to_local`, `__to_private`) on i8
                // pointers, the result cast back to the graph's pointer type.
                let space = unsafe { LLVMGetPointerAddressSpace(rt) };
                let name = match space {
                    1 => "__to_global",
                    3 => "__to_local",
                    0 => "__to_private",
                    _ => {
                        return Err(self.no_spelling(format!(
                            "a cast of a generic pointer to address space {space}"
                        )))
                    }
                };
                unsafe {
                    let i8t = LLVMInt8TypeInContext(self.ctx);
                    let from =
                        LLVMBuildBitCast(self.builder, a[0], LLVMPointerType(i8t, 4), c"".as_ptr());
                    let r =
                        self.call_symbol(name, LLVMPointerType(i8t, space), &[from], false, c"");
                    LLVMBuildBitCast(self.builder, r, rt, out.as_ptr())
                }
            }
            S::GenericPtrMemSemantics => {
                // get_fence's CLK_LOCAL_MEM_FENCE (1) and CLK_GLOBAL_MEM_FENCE (2) are the
                // storage bits 0x100 and 0x200 shifted down by 8.
                let p = [MType::Pointer {
                    space: 4,
                    is_const: true,
                    is_volatile: false,
                    pointee: Box::new(MType::Void),
                }];
                unsafe {
                    let i8t = LLVMInt8TypeInContext(self.ctx);
                    let from =
                        LLVMBuildBitCast(self.builder, a[0], LLVMPointerType(i8t, 4), c"".as_ptr());
                    let flags = self.call_builtin("get_fence", &p, rt, &[from], c"");
                    let eight = LLVMConstInt(rt, 8, 0);
                    LLVMBuildShl(self.builder, flags, eight, out.as_ptr())
                }
            }
            other => return Err(self.no_spelling(format!("SPIR-V instruction Op{other:?}"))),
        })
    }
}
