//! Image builtins (`read_image*`, `write_image*`, the queries) and sampling through a select
//! of samplers.

use super::lowering::FnLowering;
use super::lowering::Lowered;
use super::sampler_operands::sampler_operand;
use crate::diag::Result;
use crate::ir::{self, Builtin, ConstantKind, ImageOp, Op, TexelKind, Type, Value};

fn texel(s: &str) -> Option<TexelKind> {
    Some(match s {
        "f" => TexelKind::Float,
        "h" => TexelKind::Half,
        "i" => TexelKind::Signed,
        "ui" => TexelKind::Unsigned,
        _ => return None,
    })
}

/// A sampling (`builtin` over `[image, sampler, coord]`) through a select of samplers
/// (`read_image*(img, c ? s1 : s2, coord)`: the optimizer merges two reads with different
/// samplers so): SPIR-V cannot select between samplers in its OpenCL environment (OpSelect of
/// a sampler needs a bindless extension), so the read is made through each sampler and the
/// texels are selected; the select of samplers is dropped when nothing else uses it. `None`
/// when the sampler is no select.
pub(super) fn sample_each(
    l: &mut FnLowering,
    ret: ir::Handle<Type>,
    builtin: &Builtin,
    [img, smp, coord]: [Value; 3],
) -> Option<Value> {
    let (h, cond, on_true, on_false) = crate::normal::sampler_select(l.m, &l.body, smp)?;
    let arm = |l: &mut FnLowering, s: Value| {
        sample_each(l, ret, builtin, [img, s, coord]).unwrap_or_else(|| {
            let op = Op::Builtin {
                builtin: builtin.clone(),
                args: vec![img, s, coord],
            };
            Value::Inst(l.emit(None, ret, op))
        })
    };
    let (t, f) = (arm(l, on_true), arm(l, on_false));
    l.drop_if_unused(h);
    let op = Op::Select {
        cond,
        on_true: t,
        on_false: f,
    };
    Some(Value::Inst(l.emit(None, ret, op)))
}

/// Image builtins: the op and its operands in graph order.
pub(super) fn image(l: &mut FnLowering, n: &str, mut args: Vec<Value>) -> Result<Option<Op>> {
    let op = if let Some(k) = n.strip_prefix("read_image").and_then(texel) {
        // read_image*(image, sampler, coord) samples; read_image*(image, coord) reads.
        if args.len() == 3 {
            args[1] = sampler_operand(l, args[1])?;
            ImageOp::Sample(k)
        } else {
            ImageOp::Read(k)
        }
    } else if let Some(k) = n.strip_prefix("write_image").and_then(texel) {
        if args.len() == 4 {
            // write_image(img, coord, lod, texel) -> graph order img, coord, texel, lod
            args.swap(2, 3);
        }
        ImageOp::Write(k)
    } else {
        match n {
            "get_image_width" => ImageOp::QuerySize { component: Some(0) },
            "get_image_height" => ImageOp::QuerySize { component: Some(1) },
            "get_image_depth" => ImageOp::QuerySize { component: Some(2) },
            "get_image_array_size" => {
                let ty = l.value_type(args[0]);
                let c = match l.m.types[ty] {
                    Type::Image(i) if i.dim == ir::ImageDim::Dim1D => 1,
                    _ => 2,
                };
                ImageOp::QuerySize { component: Some(c) }
            }
            "get_image_dim" => ImageOp::QuerySize { component: None },
            _ => match crate::mappings::channel_query(|q| q.opencl == n) {
                Some(q) => q.op,
                None => return Ok(None),
            },
        }
    };
    Ok(Some(Op::Builtin {
        builtin: Builtin::Image(op),
        args,
    }))
}

/// A depth image's texel read or sampled as a 4-vector (the SPIR-V friendly form of
/// OpImageSampleExplicitLod, whose result is a vector whatever the image): the graph reads
/// the scalar texel OpenCL C's depth reads return, and the vector is that texel in its first
/// component. `None` for any other image or result.
pub(super) fn depth_texel(
    l: &mut FnLowering,
    img: Value,
    ret: ir::Handle<Type>,
    builtin: &Builtin,
    args: Vec<Value>,
) -> Option<Lowered> {
    let it = l.value_type(img);
    let elem = l.m.depth_texel_of_vector(it, ret)?;
    let op = Op::Builtin {
        builtin: builtin.clone(),
        args,
    };
    let texel = Value::Inst(l.emit(None, elem, op));
    let undef = Value::Const(l.m.constant(ir::Constant {
        ty: ret,
        kind: ConstantKind::Undef,
    }));
    let i32t = l.m.int_type(32);
    let index = Value::Const(l.m.int_const(i32t, 0));
    Some(Lowered::Inst(
        ret,
        Op::InsertElement {
            vector: undef,
            element: texel,
            index,
        },
    ))
}
