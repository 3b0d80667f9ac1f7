//! Builtins spelled as OpenCL C calls. Graph integers are held unsigned, so an overload that
//! takes or returns signed integers sees its operands through casts (`max((int)a, (int)b)`,
//! `as_int4(v)`) and gives its result back unsigned; booleans are OpenCL C's ints.

use crate::ir::Primitive as S;
use spirv::Scope;

use super::function::FnWriter;
use super::ops::Shape;
use super::precedence::Expr;
use crate::diag::{Error, Result};
use crate::ir::builtin::OpenclOp;
use crate::ir::primitive::{enqueue_primitives, pipe_primitives};
use crate::ir::{
    AddressSpace, Builtin, ConvertKind, Handle, ImageOp, Sign, TexelKind, Type, Value,
};
use crate::mappings;
use crate::spir::groups;
use crate::spir::opencl_names::convert_name;
use crate::spir::opencl_names::{float_test_name, no_opencl_c_builtin};

impl FnWriter<'_, '_> {
    /// A builtin call's expression (`None` for a call without a result, written as a
    /// statement by the caller all the same: it is returned as the expression).
    pub fn builtin(
        &mut self,
        b: &Builtin,
        args: &[Value],
        ret: Handle<Type>,
    ) -> Result<Option<Expr>> {
        if let Builtin::Primitive(op) = b {
            if super::enqueue::is_enqueue(*op) {
                return self.enqueue(*op, args, ret).map(Some);
            }
        }
        let tys: Vec<Handle<Type>> = args.iter().map(|&v| self.type_of(v)).collect();
        let mut a = Vec::new();
        for &v in args {
            a.push(self.operand(v)?);
        }
        Ok(Some(match b {
            Builtin::WorkItem(bi) => {
                let (name, _, _) = mappings::work_item_name(*bi).ok_or_else(|| {
                    Error::unsupported(format!("the work-item query BuiltIn {bi:?}"))
                })?;
                if name.starts_with("get_sub_group")
                    || name.starts_with("get_max_sub_group")
                    || name.starts_with("get_enqueued_num_sub_groups")
                    || name == "get_num_sub_groups"
                {
                    self.w.needs.extension("cl_khr_subgroups");
                    self.w.needs.version(2, 0, "sub-groups (cl_khr_subgroups)");
                }
                if name == "get_enqueued_local_size"
                    || name == "get_global_linear_id"
                    || name == "get_local_linear_id"
                {
                    self.w.needs.version(2, 0, name);
                }
                Expr::call(name, &a)
            }
            Builtin::ExtInst { op, literal } => self.ext_inst(*op, *literal, args, a, &tys, ret)?,
            Builtin::Convert {
                from,
                to,
                saturate,
                rounding,
            } => {
                let to_signed = matches!(to, ConvertKind::Int(Sign::Signed));
                let m = self.w.m;
                let to_name = m.opencl_type_name(ret, to_signed).ok_or_else(|| {
                    Error::unsupported("a conversion to a type OpenCL C cannot name")
                })?;
                if matches!(self.w.shape(ret).1, Shape::Float(64)) {
                    self.w.needs.extension("cl_khr_fp64");
                }
                let name = convert_name(&to_name, *saturate, *rounding);
                let x = if matches!(from, ConvertKind::Int(Sign::Signed)) {
                    self.w.signed(tys[0], &a[0])?
                } else {
                    a[0].clone()
                };
                let r = Expr::call(&name, &[x]);
                if to_signed {
                    self.w.unsigned(ret, &r)?
                } else {
                    r
                }
            }
            Builtin::ControlBarrier {
                exec,
                mem,
                semantics,
            } => self.control_barrier(*exec, *mem, *semantics)?,
            Builtin::MemoryBarrier { mem, semantics } => self.memory_barrier(*mem, *semantics)?,
            Builtin::Atomic {
                op,
                scope,
                semantics,
            } => self.atomic(*op, *scope, *semantics, a, &tys, ret)?,
            Builtin::Image(op) => self.image(*op, a, &tys, ret)?,
            Builtin::AsyncCopy { strided } => {
                let name = if *strided {
                    "async_work_group_strided_copy"
                } else {
                    "async_work_group_copy"
                };
                Expr::call(name, &a)
            }
            Builtin::WaitEvents => Expr::call(
                "wait_group_events",
                &[Expr::cast("int", &a[0]), a[1].clone()],
            ),
            Builtin::Group {
                op,
                scope,
                operation,
            } => self.group(*op, *scope, *operation, a, &tys, ret)?,
            Builtin::Primitive(op) if super::pipes::is_pipe(*op) => {
                self.pipe(*op, args, a, &tys)?
            }
            Builtin::Primitive(op) => self.primitive(*op, a, &tys, ret)?,
            Builtin::Glsl(op) => {
                return Err(Error::internal(format!(
                    "GLSL.std.450 {op:?} in an OpenCL graph"
                )))
            }
        }))
    }

    fn ext_inst(
        &mut self,
        op: OpenclOp,
        literal: Option<u32>,
        values: &[Value],
        a: Vec<Expr>,
        tys: &[Handle<Type>],
        ret: Handle<Type>,
    ) -> Result<Expr> {
        let m = self.w.m;
        // The stored value's lanes (a store's first operand).
        let lanes = tys.first().map_or(1, |&t| m.lanes(t));
        let vector_memory = crate::spir::opencl_names::vector_memory_name(op, literal, lanes);
        let name: String = match op {
            _ if vector_memory.is_some() => vector_memory.unwrap_or_default(),
            OpenclOp::printf => return self.printf(values, a, tys),
            OpenclOp::mad => {
                let helper = self.w.mul_add_helper(ret)?;
                return Ok(Expr::call(&helper, &a));
            }
            _ => mappings::opencl_std_name(op)
                .ok_or_else(|| Error::unsupported(format!("OpenCL.std {op:?}")))?
                .to_string(),
        };
        let class_signed = mappings::opencl_std_sign(op) == Some(Sign::Signed);
        // Float functions whose integer operand is `int` (OpenCL C has no `uint` overload).
        let int_operand = matches!(op, OpenclOp::ldexp | OpenclOp::pown | OpenclOp::rootn);
        let mut args = Vec::new();
        for (i, (e, &t)) in a.into_iter().zip(tys).enumerate() {
            let signed_arg = int_operand
                || class_signed
                    && match op {
                        OpenclOp::s_upsample => i == 0,
                        _ => true,
                    };
            let e = match &m.types[t] {
                Type::Pointer { pointee, space } => {
                    // frexp's, remquo's and lgamma_r's int pointers point to signed ints.
                    match self.w.shape(*pointee) {
                        (n, Shape::Int(32))
                            if matches!(
                                op,
                                OpenclOp::frexp | OpenclOp::remquo | OpenclOp::lgamma_r
                            ) =>
                        {
                            let sw = super::types::space_word(*space)?.unwrap_or("");
                            let nn = if n > 1 { n.to_string() } else { String::new() };
                            Expr::cast(&format!("{sw} int{nn} *"), &e)
                        }
                        _ => e,
                    }
                }
                _ if signed_arg && matches!(self.w.shape(t).1, Shape::Int(_)) => {
                    self.w.signed(t, &e)?
                }
                _ => e,
            };
            args.push(e);
        }
        let r = Expr::call(&name, &args);
        let signed_result =
            matches!(self.w.shape(ret).1, Shape::Int(_)) && (class_signed || op == OpenclOp::ilogb);
        if signed_result {
            self.w.unsigned(ret, &r)
        } else {
            Ok(r)
        }
    }

    fn image(
        &mut self,
        op: ImageOp,
        a: Vec<Expr>,
        tys: &[Handle<Type>],
        ret: Handle<Type>,
    ) -> Result<Expr> {
        let m = self.w.m;
        let Type::Image(img) = m.types[tys[0]] else {
            return Err(Error::malformed(
                "an image builtin on a value that is not an image",
            ));
        };
        let suffix = crate::spir::opencl_names::texel_suffix;
        // Integer coordinates and texels are signed in OpenCL C.
        let coord = |w: &mut Self, i: usize, a: &[Expr]| -> Result<Expr> {
            if matches!(w.w.shape(tys[i]).1, Shape::Int(_)) {
                w.w.signed(tys[i], &a[i])
            } else {
                Ok(a[i].clone())
            }
        };
        Ok(match op {
            ImageOp::Read(k) | ImageOp::Sample(k) => {
                if k == TexelKind::Half {
                    self.w.needs.extension("cl_khr_fp16");
                }
                let mut args = vec![a[0].clone()];
                let ci = if matches!(op, ImageOp::Sample(_)) {
                    args.push(a[1].clone());
                    2
                } else {
                    1
                };
                args.push(coord(self, ci, &a)?);
                for i in ci + 1..a.len() {
                    args.push(coord(self, i, &a)?);
                }
                let r = Expr::call(&format!("read_image{}", suffix(k)), &args);
                if k == TexelKind::Signed {
                    self.w.unsigned(ret, &r)?
                } else {
                    r
                }
            }
            ImageOp::Write(k) => {
                let mut args = vec![a[0].clone(), coord(self, 1, &a)?];
                let texel = if k == TexelKind::Signed {
                    self.w.signed(tys[2], &a[2])?
                } else {
                    a[2].clone()
                };
                args.push(texel);
                for i in 3..a.len() {
                    args.push(coord(self, i, &a)?);
                }
                Expr::call(&format!("write_image{}", suffix(k)), &args)
            }
            ImageOp::QueryChannelDataType => Expr::cast(
                &self.w.type_name(ret)?,
                &Expr::call("get_image_channel_data_type", &a[..1]),
            ),
            ImageOp::QueryChannelOrder => Expr::cast(
                &self.w.type_name(ret)?,
                &Expr::call("get_image_channel_order", &a[..1]),
            ),
            ImageOp::QuerySize { component } => {
                let dims = img.dims();
                let comp_name = |i: u32| match i {
                    i if i == dims => "get_image_array_size",
                    0 => "get_image_width",
                    1 => "get_image_height",
                    _ => "get_image_depth",
                };
                let rt = self.w.type_name(ret)?;
                let lanes = m.lanes(ret);
                match component {
                    Some(i) => Expr::cast(&rt, &Expr::call(comp_name(i), &a[..1])),
                    None if lanes == 1 => Expr::cast(&rt, &Expr::call(comp_name(0), &a[..1])),
                    None => {
                        let elem = rt
                            .trim_end_matches(|c: char| c.is_ascii_digit())
                            .to_string();
                        let parts: Vec<Expr> = (0..lanes)
                            .map(|i| {
                                if i < img.size_components() {
                                    Expr::cast(&elem, &Expr::call(comp_name(i), &a[..1]))
                                } else {
                                    Expr::atom("0")
                                }
                            })
                            .collect();
                        super::constants::vector_literal(&rt, &parts)
                    }
                }
            }
        })
    }

    fn group(
        &mut self,
        op: crate::ir::GroupOp,
        scope: Scope,
        operation: Option<spirv::GroupOperation>,
        a: Vec<Expr>,
        tys: &[Handle<Type>],
        ret: Handle<Type>,
    ) -> Result<Expr> {
        let (name, _) = groups::spell(op, scope, operation).ok_or_else(|| {
            let how = operation.map(|o| format!(" {o:?}")).unwrap_or_default();
            let spirv = crate::mappings::group_opcode(op);
            Error::unsupported(format!("SPIR-V Op{spirv:?}{how} at {scope:?} scope"))
        })?;
        if scope == Scope::Workgroup {
            self.w.needs.version(2, 0, "a work-group collective");
        } else if name.starts_with("sub_group_non_uniform")
            || name.starts_with("sub_group_ballot")
            || name.starts_with("sub_group_elect")
            || name.starts_with("sub_group_clustered")
            || name.starts_with("sub_group_shuffle")
            || name.starts_with("sub_group_inverse_ballot")
        {
            self.w.needs.extension("cl_khr_subgroups");
            let ext = if name.contains("clustered") {
                "cl_khr_subgroup_clustered_reduce"
            } else if name.contains("shuffle_up") || name.contains("shuffle_down") {
                "cl_khr_subgroup_shuffle_relative"
            } else if name.contains("shuffle") {
                "cl_khr_subgroup_shuffle"
            } else if name.contains("ballot") {
                "cl_khr_subgroup_ballot"
            } else if name.contains("elect") || name.contains("all_equal") {
                "cl_khr_subgroup_non_uniform_vote"
            } else {
                "cl_khr_subgroup_non_uniform_arithmetic"
            };
            self.w.needs.extension(ext);
        } else {
            self.w.needs.extension("cl_khr_subgroups");
        }
        if scope == Scope::Subgroup {
            self.w.needs.version(2, 0, "sub-groups (cl_khr_subgroups)");
        }
        let signed = !op.takes_unsigned();
        let m = self.w.m;
        let mut args = Vec::new();
        for (i, (e, &t)) in a.into_iter().zip(tys).enumerate() {
            match self.w.shape(t) {
                (_, Shape::Bool) => args.push(Expr::cast("int", &e)),
                (n, Shape::Int(_)) if i > 0 && n > 1 => {
                    // One local id per dimension (work_group_broadcast).
                    for lane in 0..n {
                        args.push(Expr::atom(format!("{}.s{lane}", e.postfix())));
                    }
                }
                (_, Shape::Int(_)) if i == 0 && signed => args.push(self.w.signed(t, &e)?),
                _ => args.push(e),
            }
        }
        let r = Expr::call(&name, &args);
        Ok(match self.w.shape(ret) {
            (_, Shape::Bool) => Expr::binary(&r, "!=", &Expr::atom("0")),
            (_, Shape::Int(_)) if signed && !matches!(m.types[ret], Type::Vector { .. }) => {
                self.w.unsigned(ret, &r)?
            }
            _ => r,
        })
    }

    /// An integer dot product as the `cl_khr_integer_dot_product` builtin, each factor seen
    /// with its signedness; the `int` or `uint` it returns cast to the result's type where that
    /// differs (the plain forms' sum fits in 32 bits).
    fn integer_dot(
        &mut self,
        op: S,
        a: Vec<Expr>,
        tys: &[Handle<Type>],
        ret: Handle<Type>,
    ) -> Result<Expr> {
        let d = op
            .integer_dot()
            .ok_or_else(|| Error::internal("not a dot"))?;
        let m = self.w.m;
        let packed = m.lanes(tys[0]) == 1;
        let bytes = matches!(m.types[tys[0]], Type::Vector { elem, len: 4 }
            if m.types[elem] == Type::Int { width: 8 });
        let (_, Shape::Int(width)) = self.w.shape(ret) else {
            return Err(Error::malformed(
                "an integer dot product of no integer result",
            ));
        };
        if !packed && !bytes || d.accumulate && width != 32 {
            return Err(Error::unsupported(
                "an integer dot product other than OpenCL C's (char4 or uchar4 factors, or \
                 packed uint; a saturating one into int or uint)",
            ));
        }
        // The builtins are declared from OpenCL C 3.0 on (`__opencl_c_integer_dot_product_*`);
        // the extension has no pragma.
        self.w
            .needs
            .version(3, 0, "an integer dot product (cl_khr_integer_dot_product)");
        // Packed factors are `uint` whatever their components' signs.
        let signed = |s| !packed && s == crate::ir::Sign::Signed;
        let signs = [signed(d.first), signed(d.second), d.signed_result()];
        let mut args = Vec::with_capacity(a.len());
        for ((e, &t), signed) in a.iter().zip(tys).zip(signs) {
            args.push(match signed {
                true => self.w.signed(t, e)?,
                false => self.w.unsigned(t, e)?,
            });
        }
        let name = crate::spir::opencl_names::integer_dot_name(d, packed);
        let call = Expr::call(&name, &args);
        Ok(if width == 32 && !d.signed_result() {
            call
        } else {
            Expr::cast(&self.w.type_name(ret)?, &call)
        })
    }

    /// Primitive `op` as the OpenCL C builtin that computes it (the pipes in pipes.rs, the
    /// device-side enqueue in enqueue.rs).
    fn primitive(
        &mut self,
        op: S,
        a: Vec<Expr>,
        tys: &[Handle<Type>],
        ret: Handle<Type>,
    ) -> Result<Expr> {
        Ok(match op {
            S::Dot => Expr::call("dot", &a),
            S::BitCount => Expr::call("popcount", &a),
            S::SDot | S::UDot | S::SUDot | S::SDotAccSat | S::UDotAccSat | S::SUDotAccSat => {
                self.integer_dot(op, a, tys, ret)?
            }
            S::BitFieldInsert | S::BitFieldSExtract | S::BitFieldUExtract | S::BitReverse => {
                // Declared from OpenCL C 3.0 on (cl_khr_extended_bit_ops, no pragma).
                self.w
                    .needs
                    .version(3, 0, "a bit-field builtin (cl_khr_extended_bit_ops)");
                // bitfield_extract_signed returns the signed type: seen unsigned again.
                let name = mappings::extended_bit_op_name(op)
                    .ok_or_else(|| Error::internal(format!("{op:?} without its name")))?;
                let call = Expr::call(name, &a);
                match op {
                    S::BitFieldSExtract => self.w.unsigned(ret, &call)?,
                    _ => call,
                }
            }
            S::IsNan
            | S::IsInf
            | S::IsFinite
            | S::IsNormal
            | S::SignBitSet
            | S::LessOrGreater
            | S::Ordered
            | S::Unordered => {
                let name = float_test_name(op)
                    .ok_or_else(|| Error::internal(format!("relational {op:?}")))?;
                let r = Expr::call(name, &a);
                self.w.relational_result(tys[0], r)?
            }
            S::Any | S::All => Expr::call(if op == S::Any { "any" } else { "all" }, &a),
            S::ImageQueryFormat | S::ImageQueryOrder => {
                let q = mappings::channel_query(|q| q.primitive == op)
                    .ok_or_else(|| Error::internal("a channel query without a table row"))?;
                let call = Expr::call(q.opencl, &a);
                let rt = self.w.type_name(ret)?;
                Expr::cast(
                    &rt,
                    &Expr::binary(&call, "-", &Expr::atom(format!("{:#x}", q.cl_offset))),
                )
            }
            S::GenericCastToPtrExplicit => {
                self.w.needs.version(2, 0, "a generic pointer");
                let Type::Pointer { space, .. } = self.w.m.types[ret] else {
                    return Err(Error::malformed("a generic cast to a non-pointer"));
                };
                let name = match space {
                    AddressSpace::Global => "to_global",
                    AddressSpace::Local => "to_local",
                    AddressSpace::Private => "to_private",
                    s => {
                        return Err(Error::unsupported(format!(
                            "a cast of a generic pointer to {s:?} memory"
                        )))
                    }
                };
                let rt = self.w.type_name(ret)?;
                Expr::cast(&rt, &Expr::call(name, &a))
            }
            S::GenericPtrMemSemantics => {
                self.w.needs.version(2, 0, "get_fence");
                let rt = self.w.type_name(ret)?;
                Expr::cast(
                    &rt,
                    &Expr::binary(&Expr::call("get_fence", &a), "<<", &Expr::atom("8")),
                )
            }
            no_opencl_c_builtin!() => {
                let spelled = mappings::opcode(op);
                return Err(Error::unsupported(format!(
                    "the SPIR-V instruction Op{spelled:?} in OpenCL C"
                )));
            }
            pipe_primitives!() | enqueue_primitives!() => {
                return Err(Error::internal(format!(
                    "{op:?} reached the writer of primitives, not of pipes and enqueue"
                )))
            }
        })
    }
}
