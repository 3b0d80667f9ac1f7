//! Calls in the "SPIR-V friendly" convention (`__spirv_*`, see `spir::friendly`) -> semantic
//! builtins: each call is the SPIR-V instruction it names, operands in SPIR-V's order, literal
//! operands as `i32` constants. Produced by our `--flavor spirv-ir` and by
//! `llvm-spirv -r --spirv-target-env=SPV-IR`.

use spirv::Op as S;

use super::lowering::FnLowering;
use super::lowering::Lowered;
use super::sampler_operands::sampler_operand;
use crate::diag::{Error, Result};
use crate::ir::{self, Builtin, ConstantKind, ImageOp, Op, Primitive, TexelKind, Type, Value};
use crate::mappings::has_trailing_literal;
use crate::spir::friendly::{self, Call};

/// The builtin a `@__spirv_BuiltIn*` global (`--builtins-as-globals`) stands for.
pub(crate) fn builtin_variable(name: &str) -> Option<spirv::BuiltIn> {
    match friendly::parse_call(name)? {
        Call::BuiltIn(b) => Some(b),
        _ => None,
    }
}

/// The value of an integer constant.
fn const_u32(l: &FnLowering, v: Value) -> Option<u32> {
    match v {
        Value::Const(c) => match l.m.constants[c].kind {
            ConstantKind::Int(i) => Some(i as u32),
            _ => None,
        },
        _ => None,
    }
}

/// Operand `i`, which must be an integer constant (literals, image operands, levels).
fn int_arg(l: &FnLowering, args: &[Value], i: usize, what: &str) -> Result<u32> {
    let v = args
        .get(i)
        .ok_or_else(|| Error::malformed(format!("missing {what} operand")))?;
    const_u32(l, *v).ok_or_else(|| Error::unsupported(format!("{what} that is not a constant")))
}

fn arity(args: &[Value], n: usize, what: &str) -> Result<()> {
    if args.len() < n {
        return Err(Error::malformed(format!(
            "{what} takes {n} operands, the call has {}",
            args.len()
        )));
    }
    Ok(())
}

pub(crate) fn lower(
    l: &mut FnLowering,
    call: Call,
    ret: ir::Handle<Type>,
    args: Vec<Value>,
) -> Result<Lowered> {
    let inst =
        |b: Builtin, args: Vec<Value>| Ok(Lowered::Inst(ret, Op::Builtin { builtin: b, args }));
    match call {
        Call::BuiltIn(b) => inst(Builtin::WorkItem(b), args),
        Call::Ocl(name) => {
            // `vloadn__Rfloat4` per the convention; the Khronos translator writes `vloadn_Rfloat4`.
            let op = friendly::ocl_op(&name)
                .or_else(|| {
                    name.rsplit_once("_R")
                        .and_then(|(b, _)| friendly::ocl_op(b))
                })
                .ok_or_else(|| Error::unsupported(format!("OpenCL.std has no '{name}'")))?;
            let mut args = args;
            let literal = if has_trailing_literal(op) {
                let v = int_arg(l, &args, args.len().wrapping_sub(1), "a literal")?;
                args.pop();
                Some(v)
            } else {
                None
            };
            let scalar_data = args
                .first()
                .is_some_and(|&d| l.m.lanes(l.value_type(d)) == 1);
            let (op, literal) = crate::normal::half_form(op, literal, scalar_data);
            inst(Builtin::ExtInst { op, literal }, args)
        }
        Call::Core { op: name, post } => {
            // SPIR-V 1.6 dropped the KHR suffix of the instructions it took in
            // (`__spirv_SDotKHR` is `OpSDot`).
            let op = friendly::core_op(&name)
                .or_else(|| name.strip_suffix("KHR").and_then(friendly::core_op));
            let op = op.ok_or_else(|| {
                Error::unsupported(format!("'__spirv_{name}': no such SPIR-V instruction"))
            })?;
            core(l, op, post, ret, args)
        }
    }
}

fn core(
    l: &mut FnLowering,
    op: S,
    post: friendly::Postfixes,
    ret: ir::Handle<Type>,
    mut args: Vec<Value>,
) -> Result<Lowered> {
    // llvm-spirv's `__spirv_BuildNDRange_1D(sret, global, local, offset)`.
    if op == S::BuildNDRange && matches!(l.m.types[ret], Type::Void) {
        return super::enqueue::build_ndrange_sret(l, ret, &args);
    }
    let inst =
        |b: Builtin, args: Vec<Value>| Ok(Lowered::Inst(ret, Op::Builtin { builtin: b, args }));
    if let Some((from, to, sat)) = crate::mappings::conversion(op) {
        arity(&args, 1, "a conversion")?;
        let b = Builtin::Convert {
            from,
            to,
            saturate: sat || post.sat,
            rounding: post.rounding,
        };
        return inst(b, args);
    }
    // An integer dot product of packed factors may spell SPIR-V's packed format (0, four
    // 8-bit components) as a last operand; the graph does not (see `ir::IntegerDot`).
    let primitive = crate::mappings::primitive(op);
    if let Some((p, d)) = primitive.and_then(|p| p.integer_dot().map(|d| (p, d))) {
        let n = if d.accumulate { 3 } else { 2 };
        let packed = args
            .first()
            .is_some_and(|&a| l.m.lanes(l.value_type(a)) == 1);
        if packed && args.len() == n + 1 && const_u32(l, args[n]) == Some(0) {
            args.pop();
        }
        return inst(Builtin::Primitive(p), args);
    }
    // Barriers, atomics and group copies: the operand layout shared with the other sides.
    if let Some(form) = Builtin::from_spirv_form(op, &args, |v| const_u32(l, v)) {
        let (b, operands) = form.map_err(Error::unsupported)?;
        return inst(b, operands);
    }
    // The Khronos translator returns boolean vectors as `<n x i8>` (0/1).
    let boolean = matches!(l.m.types[l.m.scalar_of(ret)], Type::Bool);
    if let Some(test) = primitive.filter(|p| p.is_float_test() && !boolean) {
        let bt = l.m.ty(Type::Bool);
        let lanes = l.m.lanes(ret);
        let bvt = if lanes > 1 {
            l.m.ty(Type::Vector {
                elem: bt,
                len: lanes,
            })
        } else {
            bt
        };
        let b = l.emit(
            None,
            bvt,
            Op::Builtin {
                builtin: Builtin::Primitive(test),
                args,
            },
        );
        return Ok(Lowered::Inst(
            ret,
            Op::Cast {
                op: ir::CastOp::ZExt,
                value: Value::Inst(b),
            },
        ));
    }
    match op {
        S::SpecConstant => {
            // __spirv_SpecConstant(i32 spec_id, T default)
            arity(&args, 2, "a specialization constant")?;
            let spec_id = int_arg(l, &args, 0, "a SpecId")?;
            let default = match args[1] {
                Value::Const(c)
                    if matches!(
                        l.m.constants[c].kind,
                        ConstantKind::Int(_) | ConstantKind::Float(_)
                    ) =>
                {
                    c
                }
                _ => {
                    return Err(Error::unsupported(
                        "a specialization constant whose default is not a scalar constant",
                    ))
                }
            };
            let ty = l.m.constants[default].ty;
            let kind = ConstantKind::Spec { spec_id, default };
            Ok(Lowered::Value(Value::Const(
                l.m.constant(ir::Constant { ty, kind }),
            )))
        }
        S::SampledImage
        | S::ImageSampleExplicitLod
        | S::ImageRead
        | S::ImageWrite
        | S::ImageQuerySize
        | S::ImageQuerySizeLod => image_call(l, op, ret, args),
        S::Any | S::All => {
            // The Khronos translator passes the boolean vector as `<n x i8>`.
            arity(&args, 1, "OpAny/OpAll")?;
            let t = l.value_type(args[0]);
            if !matches!(l.m.types[l.m.scalar_of(t)], Type::Bool) {
                let bt = l.m.ty(Type::Bool);
                let lanes = l.m.lanes(t);
                let bvt = l.m.ty(Type::Vector {
                    elem: bt,
                    len: lanes,
                });
                let zero = l.m.constant(ir::Constant {
                    ty: t,
                    kind: ConstantKind::Null,
                });
                let cmp = Op::ICmp {
                    pred: ir::IntPredicate::Ne,
                    lhs: args[0],
                    rhs: Value::Const(zero),
                };
                args[0] = Value::Inst(l.emit(None, bvt, cmp));
            }
            let p = if op == S::Any {
                Primitive::Any
            } else {
                Primitive::All
            };
            inst(Builtin::Primitive(p), args)
        }
        // `__spirv_GenericCastToPtrExplicit_To{Global,Local,Private}(p, storage class)`: the
        // storage class is the result's.
        S::GenericCastToPtrExplicit => {
            args.truncate(1);
            inst(
                Builtin::Primitive(Primitive::GenericCastToPtrExplicit),
                args,
            )
        }
        _ => match crate::spv::form::read_as_primitive(op) {
            Some(p) => inst(Builtin::Primitive(p), args),
            None => Err(Error::unsupported(format!(
                "'__spirv_{op:?}' (SPIR-V instruction Op{op:?} has no graph form yet)"
            ))),
        },
    }
}

/// `__spirv_SampledImage`, `__spirv_ImageSampleExplicitLod`, `__spirv_ImageRead`,
/// `__spirv_ImageWrite` and the size queries: the graph's image builtins (a sampled image is
/// kept until the sampling that consumes it).
fn image_call(
    l: &mut FnLowering,
    op: S,
    ret: ir::Handle<Type>,
    mut args: Vec<Value>,
) -> Result<Lowered> {
    let inst =
        |b: Builtin, args: Vec<Value>| Ok(Lowered::Inst(ret, Op::Builtin { builtin: b, args }));
    match op {
        S::SampledImage => {
            // Kept until the sampling that consumes it; `drop_sampled_images` removes it then.
            arity(&args, 2, "OpSampledImage")?;
            args[1] = sampler_operand(l, args[1])?;
            inst(Builtin::Primitive(Primitive::SampledImage), args)
        }
        S::ImageSampleExplicitLod => {
            arity(&args, 4, "OpImageSampleExplicitLod")?;
            let (img, smp) = match args[0] {
                Value::Inst(h) => match &l.body.insts[h].op {
                    Op::Builtin {
                        builtin: Builtin::Primitive(Primitive::SampledImage),
                        args: pair,
                    } => (pair[0], pair[1]),
                    _ => {
                        return Err(Error::unsupported(
                            "sampling a value that is not an OpSampledImage call",
                        ))
                    }
                },
                _ => {
                    return Err(Error::unsupported(
                        "sampling a value that is not an OpSampledImage call",
                    ))
                }
            };
            lod_zero(l, &args[2..])?;
            let k = TexelKind::of_texel_type(l.m, ret);
            let sample = Builtin::Image(ImageOp::Sample(k));
            if let Some(r) =
                super::images::depth_texel(l, img, ret, &sample, vec![img, smp, args[1]])
            {
                return Ok(r);
            }
            if let Some(v) = super::images::sample_each(l, ret, &sample, [img, smp, args[1]]) {
                return Ok(Lowered::Value(v));
            }
            inst(sample, vec![img, smp, args[1]])
        }
        S::ImageRead => {
            if args.len() != 2 {
                return Err(Error::unsupported("OpImageRead with image operands"));
            }
            let k = TexelKind::of_texel_type(l.m, ret);
            let read = Builtin::Image(ImageOp::Read(k));
            if let Some(r) = super::images::depth_texel(l, args[0], ret, &read, args.clone()) {
                return Ok(r);
            }
            inst(read, args)
        }
        S::ImageWrite => {
            arity(&args, 3, "OpImageWrite")?;
            let k = TexelKind::of_texel_type(l.m, l.value_type(args[2]));
            let mut operands = args[..3].to_vec();
            match args.len() {
                3 => {}
                5 if int_arg(l, &args, 3, "image operands")?
                    == spirv::ImageOperands::LOD.bits() =>
                {
                    operands.push(args[4])
                }
                _ => {
                    return Err(Error::unsupported(
                        "OpImageWrite with image operands other than Lod",
                    ))
                }
            }
            inst(Builtin::Image(ImageOp::Write(k)), operands)
        }
        S::ImageQuerySize | S::ImageQuerySizeLod => {
            arity(&args, 1, "an image size query")?;
            if op == S::ImageQuerySizeLod && int_arg(l, &args, 1, "a level of detail")? != 0 {
                return Err(Error::unsupported(
                    "OpImageQuerySizeLod of a level other than constant 0",
                ));
            }
            inst(Builtin::Image(l.m.size_query(ret)), vec![args[0]])
        }
        _ => Err(Error::internal("image_call of another instruction")),
    }
}

/// Image operands of a sampling: exactly `Lod` with a constant zero level.
fn lod_zero(l: &FnLowering, ops: &[Value]) -> Result<()> {
    let mask = int_arg(l, ops, 0, "image operands")?;
    let zero = match ops.get(1) {
        Some(Value::Const(c)) => matches!(
            l.m.constants[*c].kind,
            ConstantKind::Float(0) | ConstantKind::Int(0) | ConstantKind::Null
        ),
        _ => false,
    };
    if mask != spirv::ImageOperands::LOD.bits() || ops.len() != 2 || !zero {
        return Err(Error::unsupported(
            "image sampling other than at a constant level of detail 0 (cl_khr_mipmap_image)",
        ));
    }
    Ok(())
}

/// Remove the `OpSampledImage` calls: every sampling took its image and sampler directly.
pub(crate) fn drop_sampled_images(body: &mut ir::Body) -> Result<()> {
    let is_pair = |op: &Op| {
        matches!(
            op,
            Op::Builtin {
                builtin: Builtin::Primitive(Primitive::SampledImage),
                ..
            }
        )
    };
    let pairs: Vec<ir::Handle<ir::Inst>> = body
        .blocks
        .iter()
        .flat_map(|b| b.insts.iter().copied())
        .filter(|&h| is_pair(&body.insts[h].op))
        .collect();
    if pairs.is_empty() {
        return Ok(());
    }
    for b in &body.blocks {
        for &h in &b.insts {
            let mut bad = false;
            ir::operands::for_each_use(&body.insts[h].op, |v| {
                bad |= matches!(v, Value::Inst(x) if pairs.contains(&x));
            });
            let mut term_uses = false;
            if let ir::Terminator::Return(Some(Value::Inst(x))) = &b.terminator {
                term_uses = pairs.contains(x);
            }
            if bad || term_uses {
                return Err(Error::unsupported(
                    "an OpSampledImage result used other than by OpImageSampleExplicitLod",
                ));
            }
        }
    }
    // The samplers they paired, where a select of samplers made one: a sampling through it
    // was made through each (images::sample_each), so it goes when nothing else uses it.
    let selects: Vec<ir::Handle<ir::Inst>> = pairs
        .iter()
        .filter_map(|&h| match &body.insts[h].op {
            Op::Builtin { args, .. } => match args.get(1) {
                Some(&Value::Inst(s)) if matches!(body.insts[s].op, Op::Select { .. }) => Some(s),
                _ => None,
            },
            _ => None,
        })
        .collect();
    for b in &mut body.blocks {
        b.insts.retain(|h| !pairs.contains(h));
    }
    crate::normal::drop_unused(body, &selects);
    for &h in &pairs {
        // Out of every block, so nothing may refer to it, not even by name.
        body.insts[h].name = None;
    }
    Ok(())
}
