//! Names of the "SPIR-V friendly" LLVM IR convention (`spirv-representation-in-llvm`): the
//! opaque type names (`spirv.Image._void_1_0_0_0_0_0_0`) and the unmangled builtin names
//! (`__spirv_ConvertFToS_Rint4_sat_rte`, `__spirv_ocl_vloadn__Rfloat4`,
//! `__spirv_BuiltInGlobalInvocationId`), in both directions.
//!
//! Pure string work shared by the writer and the reader, so the two cannot drift apart; what a
//! name means for the graph is decided by `write::friendly` and `read::friendly`.

use crate::ir::{Access, ImageDim, ImageType, Type};
use spirv::FPRoundingMode;

/// Address space of the pointer that stands for an object of this type (the Khronos
/// translator's choice: images and pipes global, samplers constant, the rest private).
pub fn object_space(t: &Type) -> u32 {
    match t {
        Type::Image(_) | Type::SampledImage(_) | Type::Pipe(_) => 1,
        Type::Sampler => 2,
        _ => 0,
    }
}

fn access_number(a: Option<Access>) -> u32 {
    // SPIR-V requires a qualifier in kernels; an image without one is read-only.
    match a.unwrap_or(Access::ReadOnly) {
        Access::ReadOnly => 0,
        Access::WriteOnly => 1,
        Access::ReadWrite => 2,
    }
}

fn access_of(n: u32) -> Option<Access> {
    Some(match n {
        0 => Access::ReadOnly,
        1 => Access::WriteOnly,
        2 => Access::ReadWrite,
        _ => return None,
    })
}

/// `_void_{Dim}_{Depth}_{Arrayed}_{MS}_{Sampled}_{Format}_{Access}` with SPIR-V's numbers.
fn image_postfixes(i: &ImageType) -> String {
    let dim = match i.dim {
        ImageDim::Dim1D => spirv::Dim::Dim1D,
        ImageDim::Dim2D => spirv::Dim::Dim2D,
        ImageDim::Dim3D => spirv::Dim::Dim3D,
        ImageDim::Buffer => spirv::Dim::DimBuffer,
    } as u32;
    format!(
        "_void_{dim}_{}_{}_{}_0_0_{}",
        i.depth as u32,
        i.arrayed as u32,
        i.multisampled as u32,
        access_number(i.access)
    )
}

fn parse_image_postfixes(s: &str) -> Option<ImageType> {
    let parts: Vec<&str> = s.strip_prefix('_')?.split('_').collect();
    let [_sampled_type, dim, depth, arrayed, ms, _sampled, _format, access] = parts.as_slice()
    else {
        return None;
    };
    let n = |s: &str| s.parse::<u32>().ok();
    let flag = |s: &str| match n(s)? {
        0 => Some(false),
        1 => Some(true),
        _ => None,
    };
    let dim = match spirv::Dim::from_u32(n(dim)?)? {
        spirv::Dim::Dim1D => ImageDim::Dim1D,
        spirv::Dim::Dim2D => ImageDim::Dim2D,
        spirv::Dim::Dim3D => ImageDim::Dim3D,
        spirv::Dim::DimBuffer => ImageDim::Buffer,
        _ => return None,
    };
    Some(ImageType {
        dim,
        depth: flag(depth)?,
        arrayed: flag(arrayed)?,
        multisampled: flag(ms)?,
        access: Some(access_of(n(access)?)?),
    })
}

/// The opaque struct name of an OpenCL object type (`spirv.Event`), `None` for other types.
pub fn type_name(t: &Type) -> Option<String> {
    Some(match t {
        Type::Image(i) => format!("spirv.Image.{}", image_postfixes(i)),
        Type::SampledImage(i) => format!("spirv.SampledImage.{}", image_postfixes(i)),
        Type::Pipe(a) => format!("spirv.Pipe._{}", access_number(Some(*a))),
        Type::Sampler => "spirv.Sampler".into(),
        Type::Event => "spirv.Event".into(),
        Type::DeviceEvent => "spirv.DeviceEvent".into(),
        Type::ReserveId => "spirv.ReserveId".into(),
        Type::Queue => "spirv.Queue".into(),
        _ => return None,
    })
}

/// Inverse of [`type_name`]; `None` for names outside the convention.
pub fn parse_type_name(name: &str) -> Option<Type> {
    let rest = name.strip_prefix("spirv.")?;
    let (base, post) = match rest.split_once('.') {
        Some((b, p)) => (b, Some(p)),
        None => (rest, None),
    };
    Some(match (base, post) {
        ("Image", Some(p)) => Type::Image(parse_image_postfixes(p)?),
        ("SampledImage", Some(p)) => Type::SampledImage(parse_image_postfixes(p)?),
        ("Pipe", Some(p)) => Type::Pipe(access_of(p.strip_prefix('_')?.parse().ok()?)?),
        ("Sampler", None) => Type::Sampler,
        ("Event", None) => Type::Event,
        ("DeviceEvent", None) => Type::DeviceEvent,
        ("ReserveId", None) => Type::ReserveId,
        ("Queue", None) => Type::Queue,
        _ => return None,
    })
}

/// The source name an object type is mangled as: `spirv.Image._void_1...` ->
/// `__spirv_Image__void_1...`.
pub fn mangled_type_name(struct_name: &str) -> String {
    format!("__{}", struct_name.replacen('.', "_", 2))
}

/// A decoded builtin name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Call {
    /// `__spirv_BuiltIn{Name}`: a builtin variable read.
    BuiltIn(spirv::BuiltIn),
    /// `__spirv_ocl_{name}{__postfixes}`: an OpenCL.std instruction.
    Ocl(String),
    /// `__spirv_{Op}{_postfixes}`: a core instruction.
    Core { op: String, post: Postfixes },
}

/// The optional postfixes of a core instruction name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Postfixes {
    /// `_R{ReturnType}`.
    pub ret: Option<String>,
    pub sat: bool,
    pub rounding: Option<FPRoundingMode>,
    /// Anything else (`ToGlobal`, `2D`, `read`): kept for the caller to judge.
    pub other: Vec<String>,
}

fn rounding_postfix(r: FPRoundingMode) -> &'static str {
    match r {
        FPRoundingMode::RTE => "rte",
        FPRoundingMode::RTZ => "rtz",
        FPRoundingMode::RTP => "rtp",
        FPRoundingMode::RTN => "rtn",
    }
}

/// `__spirv_{op}{_R<ret>}{_sat}{_rt*}`.
pub fn core_name(op: spirv::Op, post: &Postfixes) -> String {
    let mut s = format!("__spirv_{op:?}");
    if let Some(r) = &post.ret {
        s.push_str("_R");
        s.push_str(r);
    }
    if post.sat {
        s.push_str("_sat");
    }
    if let Some(r) = post.rounding {
        s.push('_');
        s.push_str(rounding_postfix(r));
    }
    for o in &post.other {
        s.push('_');
        s.push_str(o);
    }
    s
}

/// `__spirv_ocl_{name}` with `__R{ret}` for the vector loads.
pub fn ocl_name(name: &str, ret: Option<&str>) -> String {
    match ret {
        Some(r) => format!("__spirv_ocl_{name}__R{r}"),
        None => format!("__spirv_ocl_{name}"),
    }
}

pub fn builtin_variable_name(b: spirv::BuiltIn) -> String {
    format!("__spirv_BuiltIn{b:?}")
}

/// Decode an unmangled builtin name; `None` if it is not in the convention.
pub fn parse_call(name: &str) -> Option<Call> {
    let rest = name.strip_prefix("__spirv_")?;
    if let Some(b) = rest.strip_prefix("BuiltIn") {
        return b.parse().ok().map(Call::BuiltIn);
    }
    if let Some(o) = rest.strip_prefix("ocl_") {
        // The first postfix starts with two underscores: instruction names hold single ones.
        let base = o.split_once("__").map_or(o, |(b, _)| b);
        return Some(Call::Ocl(base.to_string()));
    }
    let mut parts = rest.split('_');
    let op = parts.next()?.to_string();
    let mut post = Postfixes::default();
    for p in parts {
        match p {
            "sat" => post.sat = true,
            "rte" => post.rounding = Some(FPRoundingMode::RTE),
            "rtz" => post.rounding = Some(FPRoundingMode::RTZ),
            "rtp" => post.rounding = Some(FPRoundingMode::RTP),
            "rtn" => post.rounding = Some(FPRoundingMode::RTN),
            r if r.starts_with('R') && r.len() > 1 && post.ret.is_none() => {
                post.ret = Some(r[1..].to_string())
            }
            other => post.other.push(other.to_string()),
        }
    }
    Some(Call::Core { op, post })
}

/// The unmangled name inside an Itanium-mangled symbol (`_Z18__spirv_AtomicIAddPU3AS1iiii`
/// -> `__spirv_AtomicIAdd`), or the symbol itself if it is not mangled. Only the name is
/// needed: arguments are read from the call's LLVM types.
pub fn unmangled(symbol: &str) -> Option<&str> {
    let Some(rest) = symbol.strip_prefix("_Z") else {
        return Some(symbol);
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let len: usize = rest[..digits].parse().ok()?;
    rest.get(digits..digits + len)
}

/// A SPIR-V opcode from its name without `Op` (`AtomicIAdd`).
pub fn core_op(name: &str) -> Option<spirv::Op> {
    rspirv::grammar::INSTRUCTION_TABLE
        .iter()
        .find(|i| i.opname == name)
        .map(|i| i.opcode)
}

/// An OpenCL.std instruction from its name (`s_abs`, `vloadn`).
pub fn ocl_op(name: &str) -> Option<crate::ir::builtin::OpenclOp> {
    rspirv::grammar::OPENCL_STD_100_INSTRUCTION_TABLE
        .iter()
        .find(|i| i.opname == name)
        .and_then(|i| spirv::OpenclStd100Op::from_u32(i.opcode.into()))
        .map(crate::mappings::opencl_op)
}

/// The OpenCL.std name of an instruction (from the grammar, the same table [`ocl_op`] reads).
pub fn ocl_op_name(op: crate::ir::builtin::OpenclOp) -> Option<&'static str> {
    rspirv::grammar::OPENCL_STD_100_INSTRUCTION_TABLE
        .lookup_opcode(crate::mappings::opencl_std_opcode(op) as u32)
        .map(|i| i.opname)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn object_type_names_roundtrip() {
        let img = ImageType {
            dim: ImageDim::Dim2D,
            depth: false,
            arrayed: true,
            multisampled: false,
            access: Some(Access::WriteOnly),
        };
        for t in [
            Type::Image(img),
            Type::SampledImage(img),
            Type::Pipe(Access::ReadOnly),
            Type::Sampler,
            Type::Event,
            Type::DeviceEvent,
            Type::ReserveId,
            Type::Queue,
        ] {
            let n = type_name(&t).unwrap();
            assert_eq!(parse_type_name(&n), Some(t), "{n}");
        }
        assert_eq!(
            type_name(&Type::Image(img)).unwrap(),
            "spirv.Image._void_1_0_1_0_0_0_1"
        );
        assert_eq!(
            mangled_type_name("spirv.Image._void_1_0_0_0_0_0_0"),
            "__spirv_Image__void_1_0_0_0_0_0_0"
        );
        assert_eq!(parse_type_name("spirv.Image._void_9_0_0_0_0_0_0"), None);
        assert_eq!(parse_type_name("opencl.image2d_t"), None);
    }

    #[test]
    fn builtin_names_roundtrip() {
        let post = Postfixes {
            ret: Some("int4".into()),
            sat: true,
            rounding: Some(FPRoundingMode::RTE),
            other: vec![],
        };
        let n = core_name(spirv::Op::ConvertFToS, &post);
        assert_eq!(n, "__spirv_ConvertFToS_Rint4_sat_rte");
        assert_eq!(
            parse_call(&n),
            Some(Call::Core {
                op: "ConvertFToS".into(),
                post
            })
        );
        assert_eq!(
            parse_call(&ocl_name("vload_halfn", Some("float4"))),
            Some(Call::Ocl("vload_halfn".into()))
        );
        assert_eq!(
            parse_call("__spirv_BuiltInGlobalInvocationId"),
            Some(Call::BuiltIn(spirv::BuiltIn::GlobalInvocationId))
        );
        assert_eq!(parse_call("get_global_id"), None);
        assert_eq!(
            unmangled("_Z18__spirv_AtomicIAddPU3AS1iiii"),
            Some("__spirv_AtomicIAdd")
        );
        assert_eq!(core_op("AtomicIAdd"), Some(spirv::Op::AtomicIAdd));
        assert_eq!(ocl_op("s_abs"), Some(crate::ir::builtin::OpenclOp::s_abs));
        assert_eq!(
            ocl_op_name(crate::ir::builtin::OpenclOp::vstore_half_r),
            Some("vstore_half_r")
        );
    }
}
