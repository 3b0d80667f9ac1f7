//! Images and samplers in shader form. An image argument is a descriptor: a `read_only`
//! image a sampled image, a `write_only` or `read_write` one a storage image
//! (`ir::Type::ShaderImage`), whose texel type is the one the kernel reads or writes it
//! with (`texel_kind`). A sampler argument and each sampler constant is a sampler
//! descriptor.
//!
//! Vulkan's samplers with unnormalized coordinates read only 1D and 2D images that are not
//! arrays, and only clamped (to the edge or the border). A sampler constant that only ever
//! samples such images with such addressing (`super::survey::direct_samplers`) is made by
//! the host as OpenCL's bits say, unnormalized, and takes the coordinates as they are, as
//! clspv's modules do; every other sampler is made with normalized coordinates and the
//! kernel normalizes OpenCL's unnormalized ones itself: divided by the image's size (an
//! integer coordinate `x` is the texel's centre, `(x + 0.5) / size`, and so is a float one
//! under a nearest sampler, `(floor(x) + 0.5) / size`); an array's layer is never
//! normalized. Whether a sampler is normalized and how it filters is known for a constant;
//! for an argument the host writes OpenCL's sampler bits in a push-constant word
//! (`ir::interface::ArgKind::Sampler`).
//!
//! `read_image{f,i,ui,h}` with a sampler is OpImageSampleExplicitLod at level 0; without
//! one, OpImageFetch (sampled) or OpImageRead (storage); `write_image*` is OpImageWrite;
//! half texels are read and written as float. The size queries are the writer's
//! (OpImageQuerySizeLod on sampled images). An image's channel order and data type have no
//! Vulkan query: refused.

use crate::hash::HashSet;

use crate::diag::{Error, Result};
use crate::ir::builtin::{ImageOp, TexelKind};
use crate::ir::{
    self, AddressSpace, BinaryOp, Builtin, Constant, ConstantKind, ConvertKind, Handle,
    IntPredicate, Op, Sign, Type, Value,
};

use super::body::FnBuilder;
use super::emit::{plain, E};
use super::state::SamplerSource;

/// What a kernel does with an image parameter.
pub(super) struct ImageUse {
    /// The texel kind it reads or writes it with (Vulkan fixes one in the image's type).
    pub texel: TexelKind,
    /// Whether it writes the image, and whether it samples it (with a sampler).
    pub written: bool,
    pub sampled: bool,
    pub queries_order: bool,
    pub queries_data_type: bool,
}

/// How kernel or function `f` uses its image parameter `param`: its image builtins,
/// through -O0's spill variables and calls. An image used with two texel kinds is refused;
/// an unused one reads floats.
pub(super) fn image_use(m: &ir::Module, f: Handle<ir::Function>, param: u32) -> Result<ImageUse> {
    let mut seen = HashSet::default();
    let ops = ops_of(m, f, param, &mut seen);
    let kinds: Vec<TexelKind> = ops
        .iter()
        .filter_map(|op| match op {
            ImageOp::Read(k) | ImageOp::Sample(k) | ImageOp::Write(k) => Some(*k),
            _ => None,
        })
        .collect();
    Ok(ImageUse {
        texel: texel_kind(kinds)?,
        written: ops.iter().any(|op| matches!(op, ImageOp::Write(_))),
        sampled: ops.iter().any(|op| matches!(op, ImageOp::Sample(_))),
        queries_order: ops.contains(&ImageOp::QueryChannelOrder),
        queries_data_type: ops.contains(&ImageOp::QueryChannelDataType),
    })
}

fn texel_kind(kinds: Vec<TexelKind>) -> Result<TexelKind> {
    let mut kinds: Vec<TexelKind> = kinds
        .into_iter()
        .map(|k| {
            if k == TexelKind::Half {
                TexelKind::Float
            } else {
                k
            }
        })
        .collect();
    kinds.dedup();
    match kinds[..] {
        [] => Ok(TexelKind::Float),
        [k] => Ok(k),
        _ => Err(Error::unsupported(
            "an image read or written with texels of two kinds (a Vulkan image has one \
             sampled type)",
        )),
    }
}

fn ops_of(
    m: &ir::Module,
    f: Handle<ir::Function>,
    param: u32,
    seen: &mut HashSet<(Handle<ir::Function>, u32)>,
) -> Vec<ImageOp> {
    if !seen.insert((f, param)) {
        return Vec::new();
    }
    let Some(body) = &m.functions[f].body else {
        return Vec::new();
    };
    // The values that are the parameter: itself, and loads of variables it was stored in.
    let mut same: HashSet<Value> = HashSet::from_iter([Value::Param(param)]);
    let mut spills: HashSet<Value> = HashSet::default();
    for _ in 0..2 {
        for (h, inst) in body.insts.iter() {
            match &inst.op {
                Op::Store { ptr, value, .. } if same.contains(value) => {
                    spills.insert(*ptr);
                }
                Op::Load { ptr, .. } if spills.contains(ptr) => {
                    same.insert(Value::Inst(h));
                }
                _ => {}
            }
        }
    }
    let mut kinds = Vec::new();
    for (_, inst) in body.insts.iter() {
        match &inst.op {
            Op::Builtin {
                builtin: Builtin::Image(op),
                args,
            } if args.first().is_some_and(|a| same.contains(a)) => kinds.push(*op),
            // SPIR-V's spelling of the channel queries (a graph read from SPIR-V).
            Op::Builtin {
                builtin: Builtin::Primitive(op),
                args,
            } if args.first().is_some_and(|a| same.contains(a)) => {
                if let Some(q) = crate::mappings::channel_query(|q| q.primitive == *op) {
                    kinds.push(q.op);
                }
            }
            Op::Call { callee, args } => {
                for (i, a) in args.iter().enumerate() {
                    if same.contains(a) {
                        kinds.extend(ops_of(m, *callee, i as u32, seen));
                    }
                }
            }
            _ => {}
        }
    }
    kinds
}

/// The shader-form type of image argument type `img`.
pub(super) fn image_type(
    out: &mut ir::Module,
    img: ir::ImageType,
    texel: TexelKind,
) -> Result<Handle<Type>> {
    if img.multisampled {
        return Err(Error::unsupported(
            "a multisampled image (cl_khr_gl_msaa_sharing's image2d_msaa_t: no Vulkan lowering \
             yet)",
        ));
    }
    let storage = img.access.unwrap_or(ir::Access::ReadOnly) != ir::Access::ReadOnly;
    // A depth image is a one-channel float image to Vulkan (whose OpTypeImage Depth operand
    // only matters for depth comparisons, which OpenCL has not): its texels are read as
    // four lanes, the first the depth (`lower`).
    Ok(out.ty(Type::ShaderImage {
        image: ir::ImageType {
            depth: false,
            ..img
        },
        texel,
        storage,
    }))
}

/// An image builtin in shader form.
pub(super) fn lower(
    b: &mut FnBuilder,
    op: ImageOp,
    args: Vec<Value>,
    ret: Handle<Type>,
) -> Result<Value> {
    let it = b.ty_of(args[0]);
    let Type::ShaderImage { image, .. } = b.l.out.types[it] else {
        return Err(Error::unsupported(
            "an image that is not a kernel argument (a Vulkan image is a descriptor)",
        ));
    };
    let float_of = |b: &mut FnBuilder, t: Handle<Type>| {
        let f32t = b.l.out.ty(Type::Float { width: 32 });
        match b.l.out.types[t] {
            Type::Vector { len, .. } => b.l.out.ty(Type::Vector { elem: f32t, len }),
            _ => f32t,
        }
    };
    // Half texels are float ones converted.
    let (op, half) = match op {
        ImageOp::Read(TexelKind::Half) => (ImageOp::Read(TexelKind::Float), true),
        ImageOp::Sample(TexelKind::Half) => (ImageOp::Sample(TexelKind::Float), true),
        ImageOp::Write(TexelKind::Half) => (ImageOp::Write(TexelKind::Float), true),
        other => (other, false),
    };
    let mut args = args;
    match op {
        ImageOp::QueryChannelDataType | ImageOp::QueryChannelOrder => {
            // The host's word (kernel.rs made one for each image the kernel asks).
            let g = global_of(b, args[0]);
            let member = g.and_then(|g| b.l.image_words.get(&g)).and_then(|w| {
                if op == ImageOp::QueryChannelOrder {
                    w.0
                } else {
                    w.1
                }
            });
            let member = member.ok_or_else(|| {
                Error::unsupported(
                    "get_image_channel_data_type / get_image_channel_order of an image that is \
                     not a kernel argument",
                )
            })?;
            let v = b.push_constant(member)?;
            let vt = b.ty_of(v);
            return Ok(if vt == ret {
                v
            } else {
                E { b }.cast(ir::CastOp::ZExt, ret, v)
            });
        }
        ImageOp::Write(_) if half => {
            let ft = float_of(b, b.ty_of(args[2]));
            args[2] = E { b }.fconvert(ft, args[2]);
        }
        ImageOp::Sample(_) => {
            args[2] = sample_coordinate(b, image, args[0], args[1], args[2])?;
        }
        _ => {}
    }
    // A depth image's one float: written as four lanes, read as the first of four.
    let scalar = |b: &FnBuilder, t: Handle<Type>| !matches!(b.l.out.types[t], Type::Vector { .. });
    if let ImageOp::Write(_) = op {
        if scalar(b, b.ty_of(args[2])) {
            let t = b.ty_of(args[2]);
            let vt = b.l.out.ty(Type::Vector { elem: t, len: 4 });
            args[2] = E { b }.broadcast(vt, args[2]);
        }
    }
    let depth_read = matches!(op, ImageOp::Read(_) | ImageOp::Sample(_)) && scalar(b, ret);
    let rt = if half { float_of(b, ret) } else { ret };
    let rt = if depth_read {
        b.l.out.ty(Type::Vector { elem: rt, len: 4 })
    } else {
        rt
    };
    let v = b.push(
        rt,
        Op::Builtin {
            builtin: Builtin::Image(op),
            args,
        },
    );
    let v = if depth_read {
        let zero = b.int_const(32, 0);
        let et = if half { float_of(b, ret) } else { ret };
        b.push(
            et,
            Op::ExtractElement {
                vector: v,
                index: zero,
            },
        )
    } else {
        v
    };
    Ok(if half { E { b }.fconvert(ret, v) } else { v })
}

/// A sample's coordinate as Vulkan's normalized sampler takes it: float, and divided by
/// the image's size where OpenCL's sampler is unnormalized (the layer of an array never).
/// For a nearest sampler the coordinate is the centre of texel `floor(x)` (an integer
/// coordinate's texel likewise): `x / size` multiplied back by the sampler may land a hair
/// below an exact texel edge `x` and read the texel before. A linear sampler takes
/// `x / size`. Which one a sampler argument is, is read from the host's word of OpenCL's
/// sampler bits (clspv's convention: normalized if bit 0, nearest if the filter bits are
/// CLK_FILTER_NEAREST).
fn sample_coordinate(
    b: &mut FnBuilder,
    image: ir::ImageType,
    img: Value,
    sampler: Value,
    coord: Value,
) -> Result<Value> {
    let ct = b.ty_of(coord);
    let is_int = matches!(b.l.out.types[b.l.out.scalar_of(ct)], Type::Int { .. });
    let lanes = b.l.out.lanes(ct);
    let f32t = b.l.out.ty(Type::Float { width: 32 });
    let ft = if lanes > 1 {
        b.l.out.ty(Type::Vector {
            elem: f32t,
            len: lanes,
        })
    } else {
        f32t
    };
    let mut e = E { b };
    let fc = if is_int {
        e.b.push(
            ft,
            Op::Builtin {
                builtin: plain(ConvertKind::Int(Sign::Signed), ConvertKind::Float),
                args: vec![coord],
            },
        )
    } else {
        coord
    };
    let source = sampler_source(e.b, sampler)?;
    if let SamplerSource::Literal {
        normalized: true,
        linear: true,
        ..
    } = source
    {
        return Ok(fc);
    }
    if let SamplerSource::Literal {
        direct: true,
        linear,
        ..
    } = source
    {
        // The host's sampler takes OpenCL's coordinates; a float one under a nearest filter
        // as the centre of texel floor(x), so that a device computing the coordinate in
        // fixed point does not round it up into the next texel.
        if is_int || linear {
            return Ok(fc);
        }
        let floor = e.glsl(crate::ir::GlslOp::Floor, ft, vec![fc]);
        let half = e.float_const(f32t, 0.5);
        let half = if lanes > 1 {
            e.broadcast(ft, half)
        } else {
            half
        };
        return Ok(e.bin(BinaryOp::FAdd, ft, floor, half));
    }
    let size = image_size_f32(&mut e, image, img);
    // Normalized coordinates under a nearest filter: the texel OpenCL's formulas choose (in
    // float: u = s·size, and repeat's and mirrored repeat's own), given to the sampler as
    // its centre, so that a device computing the coordinate in fixed point (NVIDIA's, at an
    // exact texel edge) does not take its neighbour.
    let texel = |e: &mut E, mode: Addressing| {
        scale(e, fc, ft, lanes, &size, |e, c, s| {
            nearest_texel(e, c, s, mode)
        })
    };
    if let SamplerSource::Literal {
        normalized: true,
        addressing,
        ..
    } = source
    {
        return Ok(texel(&mut e, Addressing::of(addressing)));
    }
    // The texel centres (nearest; integer coordinates) and the plain quotients (linear).
    let centre = |e: &mut E, c: Value| {
        let c = if is_int {
            c
        } else {
            e.glsl(crate::ir::GlslOp::Floor, f32t, vec![c])
        };
        let half = e.float_const(f32t, 0.5);
        e.bin(BinaryOp::FAdd, f32t, c, half)
    };
    let nearest = scale(&mut e, fc, ft, lanes, &size, |e, c, _| centre(e, c));
    let linear = if is_int {
        nearest
    } else {
        scale(&mut e, fc, ft, lanes, &size, |_, c, _| c)
    };
    Ok(match source {
        SamplerSource::Literal { linear: true, .. } => linear,
        SamplerSource::Literal { .. } => nearest,
        SamplerSource::Argument { mask } => {
            let m = e.b.push_constant(mask)?;
            let u32t = e.b.l.out.int_type(32);
            let bt = e.b.l.out.ty(Type::Bool);
            let bits = |e: &mut E, keep: u64, want: u64| {
                let k = e.b.int_const(32, keep);
                let w = e.b.int_const(32, want);
                let masked = e.bin(BinaryOp::And, u32t, m, k);
                e.icmp(IntPredicate::Eq, bt, masked, w)
            };
            use ir::constant::{
                SAMPLER_ADDRESSING_MASK, SAMPLER_FILTER_MASK, SAMPLER_NEAREST, SAMPLER_NORMALIZED,
            };
            let is_nearest = bits(&mut e, SAMPLER_FILTER_MASK, SAMPLER_NEAREST);
            let unnormalized = e.select(ft, is_nearest, nearest, linear);
            // Normalized and nearest: the texel by the argument's addressing mode.
            let plain = texel(&mut e, Addressing::Plain);
            let repeat = texel(&mut e, Addressing::Repeat);
            let mirrored = texel(&mut e, Addressing::Mirrored);
            let mode = |a: ir::SamplerAddressing| u64::from(a.to_bits());
            let is_repeat = bits(
                &mut e,
                SAMPLER_ADDRESSING_MASK,
                mode(ir::SamplerAddressing::Repeat),
            );
            let is_mirrored = bits(
                &mut e,
                SAMPLER_ADDRESSING_MASK,
                mode(ir::SamplerAddressing::RepeatMirrored),
            );
            let t = e.select(ft, is_repeat, repeat, plain);
            let t = e.select(ft, is_mirrored, mirrored, t);
            let normalized_at = e.select(ft, is_nearest, t, fc);
            let normalized = bits(&mut e, SAMPLER_NORMALIZED, SAMPLER_NORMALIZED);
            e.select(ft, normalized, normalized_at, unnormalized)
        }
    })
}

/// The image's size in each spatial dimension, as floats.
fn image_size_f32(e: &mut E, image: ir::ImageType, img: Value) -> Vec<Value> {
    let u32t = e.b.l.out.int_type(32);
    let f32t = e.b.l.out.ty(Type::Float { width: 32 });
    let n = image.size_components();
    let qt = if n > 1 {
        e.b.l.out.ty(Type::Vector { elem: u32t, len: n })
    } else {
        u32t
    };
    let size = e.b.push(
        qt,
        Op::Builtin {
            // A 1D image's size is one number: the query of component 0.
            builtin: Builtin::Image(ImageOp::QuerySize {
                component: (n == 1).then_some(0),
            }),
            args: vec![img],
        },
    );
    (0..image.dims())
        .map(|i| {
            let s = if n == 1 {
                size
            } else {
                let idx = e.b.int_const(32, i as u64);
                e.b.push(
                    u32t,
                    Op::ExtractElement {
                        vector: size,
                        index: idx,
                    },
                )
            };
            e.b.push(
                f32t,
                Op::Builtin {
                    builtin: plain(ConvertKind::Int(Sign::Unsigned), ConvertKind::Float),
                    args: vec![s],
                },
            )
        })
        .collect()
}

/// How OpenCL's nearest filter finds the texel of a normalized coordinate.
#[derive(Clone, Copy)]
enum Addressing {
    /// floor(s·size): none, clamp and clamp-to-edge (the sampler applies the last two to a
    /// texel outside the image, as OpenCL does).
    Plain,
    /// floor((s − floor(s))·size), less size where that reaches it.
    Repeat,
    /// floor(|s − 2·rint(s/2)|·size), at most size − 1.
    Mirrored,
}

impl Addressing {
    fn of(a: ir::SamplerAddressing) -> Self {
        match a {
            ir::SamplerAddressing::Repeat => Addressing::Repeat,
            ir::SamplerAddressing::RepeatMirrored => Addressing::Mirrored,
            _ => Addressing::Plain,
        }
    }
}

/// The centre of the texel OpenCL's nearest filter takes at normalized coordinate `c` of an
/// image `s` texels wide, unnormalized (i + 0.5; `scale` divides it by `s`).
fn nearest_texel(e: &mut E, c: Value, s: Value, mode: Addressing) -> Value {
    use crate::ir::GlslOp as G;
    let f32t = e.b.l.out.ty(Type::Float { width: 32 });
    let bt = e.b.l.out.ty(Type::Bool);
    let c = match mode {
        Addressing::Plain => c,
        Addressing::Repeat => {
            let fl = e.glsl(G::Floor, f32t, vec![c]);
            e.bin(BinaryOp::FSub, f32t, c, fl)
        }
        Addressing::Mirrored => {
            let half = e.float_const(f32t, 0.5);
            let h = e.bin(BinaryOp::FMul, f32t, c, half);
            let r = e.glsl(G::RoundEven, f32t, vec![h]);
            let two = e.float_const(f32t, 2.0);
            let r = e.bin(BinaryOp::FMul, f32t, r, two);
            let d = e.bin(BinaryOp::FSub, f32t, c, r);
            e.glsl(G::FAbs, f32t, vec![d])
        }
    };
    let u = e.bin(BinaryOp::FMul, f32t, c, s);
    let i = e.glsl(G::Floor, f32t, vec![u]);
    let one = e.float_const(f32t, 1.0);
    let last = e.bin(BinaryOp::FSub, f32t, s, one);
    let i = match mode {
        Addressing::Plain => i,
        Addressing::Repeat => {
            let over = e.fcmp(ir::FloatPredicate::Ogt, bt, i, last);
            let wrapped = e.bin(BinaryOp::FSub, f32t, i, s);
            e.select(f32t, over, wrapped, i)
        }
        Addressing::Mirrored => e.glsl(G::FMin, f32t, vec![i, last]),
    };
    let half = e.float_const(f32t, 0.5);
    e.bin(BinaryOp::FAdd, f32t, i, half)
}

/// Coordinate `fc` (of type `ft`, `lanes` lanes) with each spatial lane `c` replaced by
/// `at(c, size) / size` (an array's layer and a 4-lane 3D coordinate's w stay).
fn scale(
    e: &mut E,
    fc: Value,
    ft: Handle<Type>,
    lanes: u32,
    size: &[Value],
    at: impl Fn(&mut E, Value, Value) -> Value,
) -> Value {
    let f32t = e.b.l.out.ty(Type::Float { width: 32 });
    let mut scaled = fc;
    for (i, &s) in size.iter().enumerate() {
        let idx = e.b.int_const(32, i as u64);
        let c = if lanes == 1 {
            fc
        } else {
            e.b.push(
                f32t,
                Op::ExtractElement {
                    vector: fc,
                    index: idx,
                },
            )
        };
        let c = at(e, c, s);
        let q = e.bin(BinaryOp::FDiv, f32t, c, s);
        scaled = if lanes == 1 {
            q
        } else {
            e.b.push(
                ft,
                Op::InsertElement {
                    vector: scaled,
                    element: q,
                    index: idx,
                },
            )
        };
    }
    scaled
}

/// The global a lowered image or sampler value was loaded from (the lowering loads every
/// one from the descriptor global it made).
fn global_of(b: &FnBuilder, v: Value) -> Option<Handle<ir::Global>> {
    match v {
        Value::Inst(h) => match b.body.insts[h].op {
            Op::Load {
                ptr: Value::Const(c),
                ..
            } => match b.l.out.constants[c].kind {
                ConstantKind::GlobalAddress(g) => Some(g),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

/// Where a lowered sampler value comes from: a load of a sampler global the lowering made.
fn sampler_source(b: &FnBuilder, sampler: Value) -> Result<SamplerSource> {
    let g = global_of(b, sampler);
    g.and_then(|g| b.l.samplers.get(&g).copied())
        .ok_or_else(|| {
            Error::unsupported(
                "a sampler that is neither a kernel argument nor a constant (a Vulkan sampler is \
             a descriptor)",
            )
        })
}

impl FnBuilder<'_, '_> {
    /// A sampler constant: a load of its global (one per distinct sampler, module-wide,
    /// bound in descriptor set 1).
    pub(super) fn literal_sampler(&mut self, c: Handle<Constant>) -> Result<Value> {
        let ConstantKind::Sampler {
            addressing,
            normalized,
            filter,
        } = self.l.src.constants[c].kind
        else {
            return Err(Error::internal("a sampler constant that is not one"));
        };
        let linear = filter == ir::SamplerFilter::Linear;
        // The host makes the sampler as its bits say (as clvk does): they say unnormalized
        // where the kernel gives its coordinates as they are
        // (`super::survey::direct_samplers`), and normalized where it normalizes them.
        let direct = self.l.direct_samplers.contains(&c);
        let mask = ir::constant::encode_sampler(addressing, !direct, filter);
        let same = |s: &SamplerSource| {
            matches!(*s, SamplerSource::Literal { normalized: n, linear: f, addressing: a, direct: d }
                if n == normalized && f == linear && a == addressing && d == direct)
        };
        let known =
            self.l.literal_samplers.iter().find(|s| {
                s.mask == mask && self.l.samplers.get(&s.binding.global).is_some_and(same)
            });
        let g = match known.map(|s| s.binding.global) {
            Some(g) => g,
            None => {
                let st = self.l.out.ty(Type::Sampler);
                let g = self.l.out.globals.append(ir::Global {
                    name: format!(
                        "sampler.{:#x}",
                        ir::constant::encode_sampler(addressing, normalized, filter)
                    ),
                    ty: st,
                    space: AddressSpace::Constant,
                    init: None,
                    is_constant: false,
                    align: None,
                    linkage: ir::Linkage::Internal,
                });
                let binding = self.l.literal_samplers.len() as u32;
                self.l
                    .literal_samplers
                    .push(crate::ir::interface::LiteralSampler {
                        binding: crate::ir::interface::Binding {
                            descriptor_set: 1,
                            binding,
                            global: g,
                        },
                        mask,
                    });
                self.l.samplers.insert(
                    g,
                    SamplerSource::Literal {
                        normalized,
                        linear,
                        addressing,
                        direct,
                    },
                );
                g
            }
        };
        let (pointee, space) = (self.l.out.globals[g].ty, self.l.out.globals[g].space);
        let pt = self.l.out.ty(Type::Pointer { pointee, space });
        let addr = self.l.out.constant(Constant {
            ty: pt,
            kind: ConstantKind::GlobalAddress(g),
        });
        self.load(Value::Const(addr), None, false)
    }
}
