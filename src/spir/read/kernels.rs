//! Interprets kernel metadata (legacy `!opencl.kernels` or clang's function metadata) into
//! graph kernel info, and decides the parameter types SPIR leaves implicit: image access
//! (legacy images carry it only in `kernel_arg_access_qual`) and legacy `i32` samplers.

use crate::hash::HashMap;

use super::metadata::{HintScalar, RawKernel, RawMetadata};
use crate::diag::{Error, Result};
use crate::ir::{self, Access, ArgInfo, Type, TypeQualifiers};
use crate::mappings;
use crate::spir::opencl_names::image_from_name;

pub(crate) struct KernelInfo {
    pub args: Vec<ArgInfo>,
    pub reqd_work_group_size: Option<[u32; 3]>,
    pub work_group_size_hint: Option<[u32; 3]>,
    pub vec_type_hint: Option<ir::VecTypeHint>,
    pub reqd_sub_group_size: Option<u32>,
    pub other_modes: Vec<(spirv::ExecutionMode, Vec<u32>)>,
    /// Parameter types decided by the argument info rather than the LLVM type.
    pub param_types: HashMap<usize, Type>,
    /// Access of unsuffixed image struct types in this kernel, where unambiguous.
    pub image_access: HashMap<String, Access>,
}

impl KernelInfo {
    pub fn into_kernel(self, function: ir::Handle<ir::Function>) -> ir::Kernel {
        ir::Kernel {
            function,
            args: self.args,
            reqd_work_group_size: self.reqd_work_group_size,
            work_group_size_hint: self.work_group_size_hint,
            vec_type_hint: self.vec_type_hint,
            reqd_sub_group_size: self.reqd_sub_group_size,
            other_modes: self.other_modes,
        }
    }
}

pub(crate) fn interpret(
    m: &mut ir::Module,
    md: &RawMetadata,
) -> Result<HashMap<String, KernelInfo>> {
    let mut out = HashMap::default();
    for k in &md.kernels {
        let info = interpret_one(m, k).map_err(|e| e.in_function(&k.name))?;
        out.insert(k.name.clone(), info);
    }
    Ok(out)
}

fn access(s: &str) -> Result<Option<Access>> {
    Access::parse_qualifier(s)
        .map_err(|w| Error::malformed(format!("unknown kernel_arg_access_qual '{w}'")))
}

fn interpret_one(m: &mut ir::Module, k: &RawKernel) -> Result<KernelInfo> {
    let n = [
        k.addr_space.as_ref().map(|v| v.len()),
        k.access_qual.as_ref().map(|v| v.len()),
        k.arg_type.as_ref().map(|v| v.len()),
        k.base_type.as_ref().map(|v| v.len()),
        k.type_qual.as_ref().map(|v| v.len()),
        k.arg_name.as_ref().map(|v| v.len()),
    ];
    let count = n.iter().flatten().copied().max().unwrap_or(0);
    if n.iter().flatten().any(|&l| l != count) {
        return Err(Error::malformed(
            "kernel_arg_* metadata lists have different lengths",
        ));
    }
    let mut args = Vec::with_capacity(count);
    let mut param_types = HashMap::default();
    let mut image_access: HashMap<String, Option<Access>> = HashMap::default();
    for i in 0..count {
        let space_num = k.addr_space.as_ref().map_or(0, |v| v[i]);
        let space = mappings::space_from_kernel_arg(space_num).ok_or_else(|| {
            Error::malformed(format!("kernel_arg_addr_space {space_num} of argument {i}"))
        })?;
        let acc = access(k.access_qual.as_ref().map_or("none", |v| &v[i]))?;
        let type_name = k
            .arg_type
            .as_ref()
            .map(|v| v[i].clone())
            .unwrap_or_default();
        let base = k.base_type.as_ref().map(|v| v[i].clone());
        let quals = k.type_qual.as_ref().map(|v| v[i].as_str()).unwrap_or("");
        let (q, unknown) = TypeQualifiers::parse(quals);
        if let Some(w) = unknown.first() {
            return Err(Error::malformed(format!(
                "unknown kernel_arg_type_qual '{w}'"
            )));
        }
        // Images and samplers: the argument info decides the graph type.
        let spelled = base.as_deref().unwrap_or(&type_name).trim();
        if let Some(img_base) = spelled
            .strip_suffix("_t")
            .filter(|s| s.starts_with("image"))
        {
            if let Some(mut img) = image_from_name(img_base) {
                img.access = img.access.or(acc).or(Some(Access::ReadOnly));
                param_types.insert(i, Type::Image(img));
                let key = format!("opencl.{spelled}");
                let prev = image_access.entry(key).or_insert(img.access);
                if *prev != img.access {
                    *prev = None;
                }
            }
        } else if spelled == "sampler_t" {
            param_types.insert(i, Type::Sampler);
        } else if q.is_pipe {
            // SPIR 2.0's one `%opencl.pipe_t`: the access is the argument's qualifier, for
            // the argument and for the struct name in the body (as for legacy images).
            let a = acc.unwrap_or(Access::ReadOnly);
            param_types.insert(i, Type::Pipe(a));
            let prev = image_access
                .entry("opencl.pipe_t".to_string())
                .or_insert(Some(a));
            if *prev != Some(a) {
                *prev = None;
            }
        }
        args.push(ArgInfo {
            name: k.arg_name.as_ref().map(|v| v[i].clone()),
            type_name,
            base_type_name: base,
            space,
            access: acc,
            qualifiers: q,
            stated: true,
        });
    }
    let vec_type_hint = k.vec_type_hint.map(|(scalar, len, signed)| {
        let elem = match scalar {
            HintScalar::Int(w) => m.int_type(w),
            HintScalar::Float(w) => m.ty(Type::Float { width: w }),
        };
        ir::VecTypeHint { elem, len, signed }
    });
    // spirv-ir: the VecTypeHint execution-mode literal.
    let vec_type_hint = match (vec_type_hint, k.vec_type_hint_code) {
        (Some(h), _) => Some(h),
        (None, Some(code)) => Some(ir::VecTypeHint::from_spirv_code(m, code).ok_or_else(|| {
            Error::malformed(format!("VecTypeHint code 0x{code:x}")).in_function(&k.name)
        })?),
        (None, None) => None,
    };
    if k.reqd_work_group_size.is_some_and(|s| s.contains(&0)) {
        return Err(Error::malformed(format!(
            "reqd_work_group_size {:?}: a work-group has at least one work-item per dimension",
            k.reqd_work_group_size.unwrap_or_default()
        )));
    }
    // Read and write pipes of the one legacy type: the body cannot tell them apart, so the
    // arguments keep the type the body gives them (read-only; SPIR-V's pipe instructions do
    // not check the access, and the Intel runtime runs them).
    if image_access.get("opencl.pipe_t") == Some(&None) {
        param_types.retain(|_, t| !matches!(t, Type::Pipe(_)));
    }
    Ok(KernelInfo {
        args,
        reqd_work_group_size: k.reqd_work_group_size,
        work_group_size_hint: k.work_group_size_hint,
        vec_type_hint,
        reqd_sub_group_size: k.reqd_sub_group_size,
        other_modes: k.other_modes.clone(),
        param_types,
        image_access: image_access
            .into_iter()
            .filter_map(|(k, v)| Some((k, v?)))
            .collect(),
    })
}
