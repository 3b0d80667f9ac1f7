//! OpenCL C spellings of graph types (`uchar4`, `float*`, `image2d_array_t`), needed on both
//! sides: argument info a SPIR-V module did not record, `convert_<type>` names, and the SPIR
//! image names derived from the image base name.

use crate::ir::builtin::IntegerDot;
use crate::ir::module::Module;
use crate::ir::types::{Access, ImageDim, ImageType, Type};
use crate::ir::Handle;
use crate::ir::{Primitive, Sign, TexelKind};

/// The OpenCL C relational builtin of a floating-point test primitive (`isnan`, `signbit`,
/// `islessgreater`, ...); `None` for other primitives.
pub fn float_test_name(p: Primitive) -> Option<&'static str> {
    match p {
        // relational.toml reads `islessgreater` as the comparison it is (FOrdNotEqual).
        Primitive::LessOrGreater => Some("islessgreater"),
        p if p.is_float_test() => crate::mappings::relational_name(crate::mappings::opcode(p)),
        _ => None,
    }
}

/// The pattern of the primitives OpenCL C has no builtin for (the logical operations, the
/// carries and full products, the pointer comparisons and copies, the float atomics, two image
/// queries, a sampled image): both OpenCL C writers, SPIR's and the source one, refuse them by
/// name in their exhaustive match.
macro_rules! no_opencl_c_builtin {
    () => {
        $crate::ir::Primitive::LogicalAnd
            | $crate::ir::Primitive::LogicalOr
            | $crate::ir::Primitive::LogicalNot
            | $crate::ir::Primitive::LogicalEqual
            | $crate::ir::Primitive::LogicalNotEqual
            | $crate::ir::Primitive::FMod
            | $crate::ir::Primitive::SMod
            | $crate::ir::Primitive::IAddCarry
            | $crate::ir::Primitive::ISubBorrow
            | $crate::ir::Primitive::UMulExtended
            | $crate::ir::Primitive::SMulExtended
            | $crate::ir::Primitive::SizeOf
            | $crate::ir::Primitive::PtrEqual
            | $crate::ir::Primitive::PtrNotEqual
            | $crate::ir::Primitive::PtrDiff
            | $crate::ir::Primitive::CopyObject
            | $crate::ir::Primitive::AtomicFMin
            | $crate::ir::Primitive::AtomicFMax
            | $crate::ir::Primitive::AtomicFAdd
            | $crate::ir::Primitive::ImageQueryLevels
            | $crate::ir::Primitive::ImageQuerySamples
            | $crate::ir::Primitive::SampledImage
    };
}
pub(crate) use no_opencl_c_builtin;

/// The `cl_khr_integer_dot_product` builtin (OpenCL C 3.0) computing `d`, its factors in
/// SPIR-V's order: `dot`/`dot_acc_sat` of `char4`/`uchar4` vectors, or for `packed` factors
/// `dot[_acc_sat]_4x8packed_<first sign><second sign>_<result>` (`dot_4x8packed_su_int`).
pub fn integer_dot_name(d: IntegerDot, packed: bool) -> String {
    let acc = if d.accumulate { "_acc_sat" } else { "" };
    if !packed {
        return format!("dot{acc}");
    }
    let letter = |s: Sign| if s == Sign::Signed { 's' } else { 'u' };
    let result = if d.signed_result() { "int" } else { "uint" };
    format!(
        "dot{acc}_4x8packed_{}{}_{result}",
        letter(d.first),
        letter(d.second)
    )
}

/// The integer dot product an OpenCL C builtin name computes, whether its factors are packed,
/// given the signs of its first two parameters' components (which only the vector forms'
/// mangled names carry). `None` for any other name, and for `dot` of floats.
pub fn integer_dot_from_name(
    name: &str,
    signs: (Option<bool>, Option<bool>),
) -> Option<(IntegerDot, bool)> {
    let sign = |signed: bool| if signed { Sign::Signed } else { Sign::Unsigned };
    let (accumulate, rest) = match name.strip_prefix("dot_acc_sat") {
        Some(rest) => (true, rest),
        None => (false, name.strip_prefix("dot")?),
    };
    let (first, second, packed) = match rest {
        "" => (sign(signs.0?), sign(signs.1?), false),
        _ => {
            let (letters, result) = rest.strip_prefix("_4x8packed_")?.split_once('_')?;
            let letter = |c: u8| match c {
                b's' => Some(Sign::Signed),
                b'u' => Some(Sign::Unsigned),
                _ => None,
            };
            let &[a, b] = letters.as_bytes() else {
                return None;
            };
            let (a, b) = (letter(a)?, letter(b)?);
            let expected = if a == Sign::Unsigned && b == Sign::Unsigned {
                "uint"
            } else {
                "int"
            };
            (result == expected).then_some((a, b, true))?
        }
    };
    let d = IntegerDot {
        first,
        second,
        accumulate,
    };
    Some((d, packed))
}

/// `image2d_array_depth`: the part every image spelling shares (OpenCL C `<base>_t`, SPIR
/// opaque struct `opencl.<base>_t`, mangled `ocl_<base without underscores>`).
pub fn image_base(i: &ImageType) -> String {
    let dim = match i.dim {
        ImageDim::Dim1D => "image1d",
        ImageDim::Dim2D => "image2d",
        ImageDim::Dim3D => "image3d",
        ImageDim::Buffer => "image1d_buffer",
    };
    let arr = if i.arrayed { "_array" } else { "" };
    let ms = if i.multisampled { "_msaa" } else { "" };
    let depth = if i.depth { "_depth" } else { "" };
    format!("{dim}{arr}{ms}{depth}")
}

/// How SPIR names image type `i` in `form`: its opaque struct (`opencl.image2d_ro_t`, or
/// `opencl.image2d_t` to the specification's letter) and its mangled source name
/// (`ocl_image2d_ro`, or `ocl_image2d`). clang names an image by its access too (read-only
/// where none is said); the SPIR specifications do not.
pub fn spir_image_names(i: &ImageType, form: crate::options::SpirForm) -> (String, String) {
    let base = image_base(i);
    match form {
        crate::options::SpirForm::Clang => {
            let access = match i.access {
                Some(crate::ir::Access::WriteOnly) => "wo",
                Some(crate::ir::Access::ReadWrite) => "rw",
                _ => "ro",
            };
            (
                format!("opencl.{base}_{access}_t"),
                format!("ocl_{base}_{access}"),
            )
        }
        crate::options::SpirForm::Spec => (
            format!("opencl.{base}_t"),
            format!("ocl_{}", base.replace('_', "")),
        ),
    }
}

/// The OpenCL C name of one of OpenCL.std's vector loads and stores (`vload4`,
/// `vstore_half2_rtz`, `vloada_half4`): `literal` is the instruction's trailing literal (the
/// count of the loads, the rounding mode of the `_r` stores), `lanes` the stored value's lane
/// count. `None` for other instructions.
pub fn vector_memory_name(
    op: crate::ir::builtin::OpenclOp,
    literal: Option<u32>,
    lanes: u32,
) -> Option<String> {
    use crate::ir::builtin::OpenclOp as O;
    let n = |k: u32| if k > 1 { k.to_string() } else { String::new() };
    let count = literal.unwrap_or(1);
    let rounding = || {
        crate::mappings::rounding_suffix(
            spirv::FPRoundingMode::from_u32(literal.unwrap_or(0))
                .unwrap_or(spirv::FPRoundingMode::RTN),
        )
    };
    Some(match op {
        O::vloadn => format!("vload{count}"),
        O::vstoren => format!("vstore{lanes}"),
        O::vload_half => "vload_half".into(),
        O::vload_halfn => format!("vload_half{count}"),
        O::vloada_halfn => format!("vloada_half{count}"),
        O::vstore_half => "vstore_half".into(),
        O::vstore_half_r => format!("vstore_half_{}", rounding()),
        O::vstore_halfn => format!("vstore_half{}", n(lanes)),
        O::vstore_halfn_r => format!("vstore_half{}_{}", n(lanes), rounding()),
        O::vstorea_halfn => format!("vstorea_half{}", n(lanes)),
        O::vstorea_halfn_r => format!("vstorea_half{}_{}", n(lanes), rounding()),
        _ => return None,
    })
}

/// `convert_<type>[_sat][_<rounding>]` (`convert_int4_sat_rte`).
pub fn convert_name(
    type_name: &str,
    saturate: bool,
    rounding: Option<spirv::FPRoundingMode>,
) -> String {
    let mut name = format!("convert_{type_name}");
    if saturate {
        name.push_str("_sat");
    }
    if let Some(r) = rounding {
        name.push('_');
        name.push_str(crate::mappings::rounding_suffix(r));
    }
    name
}

/// The suffix of an image read or write of a texel kind (`read_imagef`, `write_imageui`).
pub fn texel_suffix(k: TexelKind) -> &'static str {
    match k {
        TexelKind::Float => "f",
        TexelKind::Half => "h",
        TexelKind::Signed => "i",
        TexelKind::Unsigned => "ui",
    }
}

/// The image `image2d_array_depth[_ro|_wo|_rw]` names (the inverse of [`image_base`], with
/// the access suffix SPIR's opaque struct names may carry).
pub fn image_from_name(base: &str) -> Option<ImageType> {
    let (base, access) = match base.rsplit_once('_') {
        Some((b, "ro")) => (b, Some(Access::ReadOnly)),
        Some((b, "wo")) => (b, Some(Access::WriteOnly)),
        Some((b, "rw")) => (b, Some(Access::ReadWrite)),
        _ => (base, None),
    };
    let mut parts = base.split('_');
    let mut dim = match parts.next()? {
        "image1d" => ImageDim::Dim1D,
        "image2d" => ImageDim::Dim2D,
        "image3d" => ImageDim::Dim3D,
        _ => return None,
    };
    let mut img = ImageType {
        dim,
        depth: false,
        arrayed: false,
        multisampled: false,
        access,
    };
    for p in parts {
        match p {
            "array" => img.arrayed = true,
            "depth" => img.depth = true,
            "msaa" => img.multisampled = true,
            "buffer" if dim == ImageDim::Dim1D => dim = ImageDim::Buffer,
            _ => return None,
        }
    }
    img.dim = dim;
    // OpenCL C's image types: arrays of 1D and 2D images, depth and multisampling in 2D.
    let other = img.depth || img.multisampled;
    let exists = match dim {
        ImageDim::Dim2D => true,
        ImageDim::Dim1D => !other,
        ImageDim::Buffer | ImageDim::Dim3D => !other && !img.arrayed,
    };
    exists.then_some(img)
}

impl Module {
    /// The OpenCL C name of a type; integers take the given signedness (graph integers are
    /// signless). `None` for types OpenCL C cannot name (odd integer widths, literal structs).
    pub fn opencl_type_name(&self, t: Handle<Type>, signed: bool) -> Option<String> {
        Some(match &self.types[t] {
            Type::Void => "void".into(),
            Type::Bool => "bool".into(),
            Type::Int { width } => {
                let base = match width {
                    8 => "char",
                    16 => "short",
                    32 => "int",
                    64 => "long",
                    _ => return None,
                };
                if signed {
                    base.into()
                } else {
                    format!("u{base}")
                }
            }
            Type::Float { width } => match width {
                16 => "half",
                64 => "double",
                _ => "float",
            }
            .into(),
            Type::Vector { elem, len } => format!("{}{len}", self.opencl_type_name(*elem, signed)?),
            Type::Pointer { pointee, .. } => {
                format!("{}*", self.opencl_type_name(*pointee, signed)?)
            }
            Type::Struct { name: Some(n), .. } => {
                format!("struct {}", n.strip_prefix("struct.").unwrap_or(n))
            }
            Type::Image(i) => format!("{}_t", image_base(i)),
            Type::Sampler => "sampler_t".into(),
            Type::Event => "event_t".into(),
            Type::Queue => "queue_t".into(),
            Type::DeviceEvent => "clk_event_t".into(),
            Type::ReserveId => "reserve_id_t".into(),
            Type::Pipe(_) => "pipe".into(),
            _ => return None,
        })
    }
}
