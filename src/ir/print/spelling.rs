//! How the dump spells types and constants: structurally at each use, address spaces by name.

use super::super::arena::Handle;
use super::super::constant::{Constant, ConstantKind};
use super::super::types::{AddressSpace, ImageDim, Type};
use super::Printer;

impl Printer<'_> {
    pub(super) fn space(&self, s: AddressSpace) -> &'static str {
        match s {
            AddressSpace::Private => "private",
            AddressSpace::Global => "global",
            AddressSpace::Constant => "constant",
            AddressSpace::Local => "local",
            AddressSpace::Generic => "generic",
            AddressSpace::Input => "input",
            AddressSpace::PhysicalStorageBuffer => "physical_storage_buffer",
            AddressSpace::PushConstant => "push_constant",
            AddressSpace::ModulePrivate => "module_private",
            AddressSpace::StorageBuffer => "storage_buffer",
            AddressSpace::Uniform => "uniform",
        }
    }

    /// Structural type spelling. A struct met again inside its own members (a recursive
    /// struct, through a pointer) is spelled by its name alone.
    pub fn ty(&self, t: Handle<Type>) -> String {
        self.ty_within(t, &mut Vec::new())
    }

    fn ty_within(&self, t: Handle<Type>, outer: &mut Vec<Handle<Type>>) -> String {
        match &self.m.types[t] {
            Type::Void => "void".into(),
            Type::Bool => "bool".into(),
            Type::Int { width } => format!("i{width}"),
            Type::Float { width } => format!("f{width}"),
            Type::Vector { elem, len } => format!("<{len} x {}>", self.ty_within(*elem, outer)),
            Type::Array { elem, len } => format!("[{len} x {}]", self.ty_within(*elem, outer)),
            Type::SpecArray {
                elem, default_len, ..
            } => format!("[spec {default_len} x {}]", self.ty_within(*elem, outer)),
            Type::RuntimeArray { elem } => format!("[? x {}]", self.ty_within(*elem, outer)),
            Type::Struct {
                name,
                members,
                packed,
            } => {
                let name = name.as_deref().unwrap_or("");
                match members {
                    None => format!("opaque %{name}"),
                    Some(_) if outer.contains(&t) => format!("%{name}"),
                    Some(ms) => {
                        outer.push(t);
                        let ms: Vec<String> =
                            ms.iter().map(|&m| self.ty_within(m, outer)).collect();
                        outer.pop();
                        let (l, r) = if *packed { ("<{", "}>") } else { ("{", "}") };
                        format!("%{name} {l}{}{r}", ms.join(", "))
                    }
                }
            }
            Type::Pointer { pointee, space } => {
                format!(
                    "{}* {}",
                    self.ty_within(*pointee, outer),
                    self.space(*space)
                )
            }
            Type::Function {
                ret,
                params,
                varargs,
            } => {
                let ps: Vec<String> = params.iter().map(|&p| self.ty_within(p, outer)).collect();
                format!(
                    "fn({}{}) -> {}",
                    ps.join(", "),
                    if *varargs { ", ..." } else { "" },
                    self.ty_within(*ret, outer)
                )
            }
            Type::ShaderImage {
                image,
                texel,
                storage,
            } => format!(
                "{}_image{}d{} {texel:?}",
                if *storage { "storage" } else { "sampled" },
                image.dims(),
                if image.arrayed { "_array" } else { "" },
            ),
            Type::Image(i) | Type::SampledImage(i) => {
                let dim = match i.dim {
                    ImageDim::Dim1D => "1d",
                    ImageDim::Dim2D => "2d",
                    ImageDim::Dim3D => "3d",
                    ImageDim::Buffer => "buffer",
                };
                format!(
                    "{}image{dim}{}{}{}{}",
                    if matches!(self.m.types[t], Type::SampledImage(_)) {
                        "sampled_"
                    } else {
                        ""
                    },
                    if i.arrayed { "_array" } else { "" },
                    if i.depth { "_depth" } else { "" },
                    if i.multisampled { "_msaa" } else { "" },
                    match i.access {
                        Some(a) => format!(" {a:?}"),
                        None => String::new(),
                    }
                )
            }
            Type::Sampler => "sampler".into(),
            Type::Event => "event".into(),
            Type::DeviceEvent => "clk_event".into(),
            Type::ReserveId => "reserve_id".into(),
            Type::Queue => "queue".into(),
            Type::Pipe(a) => format!("pipe {a:?}"),
            Type::Opaque(n) => format!("opaque {n}"),
        }
    }

    pub(super) fn constant(&self, c: Handle<Constant>) -> String {
        let k = &self.m.constants[c];
        let ty = self.ty(k.ty);
        match &k.kind {
            ConstantKind::Int(v) => format!("{ty} {v}"),
            ConstantKind::Float(bits) => match self.m.types[k.ty] {
                Type::Float { width: 32 } => format!("{ty} {:?}", f32::from_bits(*bits as u32)),
                Type::Float { width: 64 } => format!("{ty} {:?}", f64::from_bits(*bits)),
                _ => format!("{ty} 0x{bits:x}"),
            },
            ConstantKind::Null => format!("{ty} null"),
            ConstantKind::Undef => format!("{ty} undef"),
            ConstantKind::Composite(elems) => {
                let es: Vec<String> = elems.iter().map(|&e| self.constant(e)).collect();
                format!("{ty} {{{}}}", es.join(", "))
            }
            ConstantKind::GlobalAddress(g) => format!("@{}", self.m.globals[*g].name),
            ConstantKind::FunctionAddress(f) => format!("@{}", self.m.functions[*f].name),
            ConstantKind::Cast(op, x) => format!("{op:?}({} to {ty})", self.constant(*x)),
            ConstantKind::Gep {
                inbounds,
                base,
                indices,
            } => {
                let is: Vec<String> = indices.iter().map(|&e| self.constant(e)).collect();
                format!(
                    "gep{}({}, [{}])",
                    if *inbounds { " inbounds" } else { "" },
                    self.constant(*base),
                    is.join(", ")
                )
            }
            ConstantKind::Sampler {
                addressing,
                normalized,
                filter,
            } => {
                format!("sampler({addressing:?}, normalized={normalized}, {filter:?})")
            }
            ConstantKind::Spec { spec_id, default } => {
                format!("spec({spec_id}, {})", self.constant(*default))
            }
            ConstantKind::SpecOp { op, lhs, rhs } => {
                format!(
                    "spec_op({op:?}, {}, {})",
                    self.constant(*lhs),
                    self.constant(*rhs)
                )
            }
        }
    }
}
