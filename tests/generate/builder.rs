//! Recipe → graph module: kernels with parameters, argument info and attributes, helper
//! functions they call, a program-scope constant table. Bodies are `body.rs`.

use spir_xlate::ir::{
    Access, AddressSpace, Addressing, ArgInfo, Constant, ConstantKind, Function, Global, ImageDim,
    ImageType, Kernel, Linkage, Module, Param, ParamAttrs, Type, TypeQualifiers, Value,
    VecTypeHint,
};

use super::body::{Buffer, Callee, FnBuilder, Reach};
use super::recipe::{HelperSeed, KernelSeed, ParamSeed, Recipe, TySeed, LANES};

pub fn build(r: &Recipe) -> Module {
    let mut m = Module::new(if r.wide {
        Addressing::Physical64
    } else {
        Addressing::Physical32
    });
    // The SPIR version follows the OpenCL C one: it decides which barriers and fences exist.
    let version = if r.ocl == 0 { (1, 2) } else { (2, 0) };
    m.source.spir_version = Some(version);
    m.source.ocl_version = Some(version);
    m.source.fp_contract = r.fp_contract;
    let table = r.table.then(|| constant_table(&mut m));
    let mut callees = Vec::new();
    for (i, h) in r.helpers.iter().enumerate() {
        let callee = helper(&mut m, i, h, &callees, table);
        callees.push(callee);
    }
    for (i, k) in r.kernels.iter().enumerate() {
        kernel(&mut m, i, k, &callees, table);
    }
    m
}

fn constant_table(m: &mut Module) -> spir_xlate::ir::Handle<Global> {
    let i32t = m.int_type(32);
    let ty = m.ty(Type::Array { elem: i32t, len: 8 });
    let elems = (0..8u64).map(|i| m.int_const(i32t, i * i + 3)).collect();
    let init = m.constant(Constant {
        ty,
        kind: ConstantKind::Composite(elems),
    });
    m.globals.append(Global {
        name: "table".into(),
        ty,
        space: AddressSpace::Constant,
        init: Some(init),
        is_constant: true,
        align: Some(4),
        linkage: Linkage::Internal,
    })
}

fn helper(
    m: &mut Module,
    i: usize,
    h: &HelperSeed,
    callees: &[Callee],
    table: Option<spir_xlate::ir::Handle<Global>>,
) -> Callee {
    let params: Vec<Param> = h
        .params
        .iter()
        .enumerate()
        .map(|(j, &t)| Param {
            name: Some(format!("p{j}")),
            ty: super::body::seed_type(m, t),
            attrs: ParamAttrs::default(),
        })
        .collect();
    let ret = match h.ret {
        Some(t) => super::body::seed_type(m, t),
        None => m.void_type(),
    };
    let scope = Reach {
        values: params
            .iter()
            .enumerate()
            .map(|(j, p)| (Value::Param(j as u32), p.ty))
            .collect(),
        callees: callees.to_vec(),
        table,
        ..Default::default()
    };
    let mut b = FnBuilder::new(m, scope);
    b.regions(&h.regions);
    let body = b.finish(ret);
    let param_types = params.iter().map(|p| p.ty).collect();
    let function = m.functions.append(Function {
        name: format!("helper{i}"),
        ret,
        params,
        is_kernel: false,
        linkage: if h.export {
            Linkage::Export
        } else {
            Linkage::Internal
        },
        body: Some(body),
    });
    Callee {
        function,
        params: param_types,
        ret,
    }
}

fn kernel(
    m: &mut Module,
    i: usize,
    k: &KernelSeed,
    callees: &[Callee],
    table: Option<spir_xlate::ir::Handle<Global>>,
) {
    let mut scope = Reach {
        callees: callees.to_vec(),
        table,
        ..Default::default()
    };
    let mut params = Vec::new();
    let mut args = Vec::new();
    for (j, p) in k.params.iter().enumerate() {
        let value = Value::Param(j as u32);
        let name = Some(format!("a{j}"));
        let (ty, attrs, info) = match *p {
            ParamSeed::Buffer { elem, space, attrs } => {
                let elem = super::body::seed_type(m, elem);
                let space = [
                    AddressSpace::Global,
                    AddressSpace::Constant,
                    AddressSpace::Local,
                ][space as usize % 3];
                let ty = m.ty(Type::Pointer {
                    pointee: elem,
                    space,
                });
                let atomic = space != AddressSpace::Constant
                    && matches!(m.types[elem], Type::Int { width: 32 | 64 });
                scope.buffers.push(Buffer {
                    ptr: value,
                    ptr_ty: ty,
                    elem,
                    space,
                    writable: space != AddressSpace::Constant,
                    atomic,
                });
                let type_name = m
                    .opencl_type_name(ty, attrs & 64 == 0)
                    .expect("generated types have OpenCL names");
                (
                    ty,
                    ParamAttrs {
                        noalias: attrs & 1 != 0,
                        nocapture: attrs & 2 != 0,
                        readonly: attrs & 4 != 0,
                        ..Default::default()
                    },
                    ArgInfo {
                        stated: true,
                        name: name.clone(),
                        base_type_name: Some(type_name.clone()),
                        type_name,
                        space,
                        access: None,
                        qualifiers: TypeQualifiers {
                            is_const: space == AddressSpace::Constant || attrs & 8 != 0,
                            is_restrict: attrs & 16 != 0,
                            is_volatile: attrs & 32 != 0,
                            is_pipe: false,
                        },
                    },
                )
            }
            ParamSeed::Scalar(t) => {
                let ty = super::body::seed_type(m, t);
                scope.values.push((value, ty));
                let type_name = m
                    .opencl_type_name(ty, t.scalar % 2 == 0)
                    .expect("generated types have OpenCL names");
                (
                    ty,
                    ParamAttrs::default(),
                    ArgInfo {
                        stated: true,
                        name: name.clone(),
                        base_type_name: Some(type_name.clone()),
                        type_name,
                        space: AddressSpace::Private,
                        access: None,
                        qualifiers: TypeQualifiers::default(),
                    },
                )
            }
            ParamSeed::Image { dim, access } => {
                let access = if access % 2 == 0 {
                    Access::ReadOnly
                } else {
                    Access::WriteOnly
                };
                let it = ImageType {
                    dim: [ImageDim::Dim1D, ImageDim::Dim2D, ImageDim::Dim3D][dim as usize % 3],
                    depth: false,
                    arrayed: false,
                    multisampled: false,
                    access: Some(access),
                };
                scope.images.push((value, it));
                let ty = m.ty(Type::Image(it));
                (
                    ty,
                    ParamAttrs::default(),
                    ArgInfo {
                        stated: true,
                        name: name.clone(),
                        type_name: format!("image{}d_t", it.dims()),
                        base_type_name: Some(format!("image{}d_t", it.dims())),
                        space: AddressSpace::Global,
                        access: Some(access),
                        qualifiers: TypeQualifiers::default(),
                    },
                )
            }
            ParamSeed::Sampler => {
                scope.samplers.push(value);
                let ty = m.ty(Type::Sampler);
                (
                    ty,
                    ParamAttrs::default(),
                    ArgInfo {
                        stated: true,
                        name: name.clone(),
                        type_name: "sampler_t".into(),
                        base_type_name: Some("sampler_t".into()),
                        space: AddressSpace::Private,
                        access: None,
                        qualifiers: TypeQualifiers::default(),
                    },
                )
            }
        };
        params.push(Param { name, ty, attrs });
        args.push(info);
    }
    let void = m.void_type();
    let mut b = FnBuilder::new(m, scope);
    b.regions(&k.regions);
    let body = b.finish(void);
    let function = m.functions.append(Function {
        name: format!("k{i}"),
        ret: void,
        params,
        is_kernel: true,
        linkage: Linkage::Export,
        body: Some(body),
    });
    let size = |s: u8| [s as u32 % 16 + 1, s as u32 % 5 + 1, 1];
    let hint = |m: &mut Module, t: TySeed| {
        let ty = super::body::seed_type(m, TySeed { len: 0, ..t });
        VecTypeHint {
            elem: ty,
            len: LANES[t.len as usize % LANES.len()],
            signed: matches!(m.types[ty], Type::Int { .. }),
        }
    };
    let vec_type_hint = (k.attrs & 4 != 0).then(|| hint(m, k.hint));
    m.kernels.push(Kernel {
        function,
        args,
        reqd_work_group_size: (k.attrs & 1 != 0).then(|| size(k.sizes[0])),
        work_group_size_hint: (k.attrs & 2 != 0).then(|| size(k.sizes[1])),
        vec_type_hint,
        reqd_sub_group_size: (k.attrs & 8 != 0).then(|| [8, 16, 32][k.sizes[2] as usize % 3]),
        other_modes: vec![],
    });
}
