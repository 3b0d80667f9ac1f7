//! LLVM types -> graph types. SPIR spells OpenCL objects as pointers to opaque structs named
//! `opencl.*`; those become first-class object types here.

use crate::hash::HashMap;

use llvm_ir::types::NamedStructDef;
use llvm_ir::{Name, TypeRef};

use super::kernels::KernelInfo;
use crate::diag::{Error, Result};
use crate::ir::{self, Access, ImageType, Type};
use crate::mappings;

pub(crate) fn name_str(n: &Name) -> String {
    match n {
        Name::Name(s) => s.to_string(),
        Name::Number(n) => n.to_string(),
    }
}

pub(crate) fn linkage(l: llvm_ir::module::Linkage, has_definition: bool) -> ir::Linkage {
    use llvm_ir::module::Linkage as L;
    match l {
        L::Private | L::Internal => ir::Linkage::Internal,
        _ if !has_definition => ir::Linkage::Import,
        _ => ir::Linkage::Export,
    }
}

/// The OpenCL object an opaque struct name denotes: SPIR's `opencl.image2d_ro_t`,
/// `opencl.sampler_t`, or the spirv-ir flavor's `spirv.Image._void_1_0_0_0_0_0_0`.
pub(crate) fn opencl_object(name: &str) -> Option<Type> {
    if let Some(t) = crate::spir::friendly::parse_type_name(name) {
        return Some(t);
    }
    let base = name.strip_prefix("opencl.")?.strip_suffix("_t")?;
    Some(match base {
        "sampler" => Type::Sampler,
        "event" => Type::Event,
        "clk_event" => Type::DeviceEvent,
        "queue" => Type::Queue,
        "reserve_id" => Type::ReserveId,
        "pipe" | "pipe_ro" => Type::Pipe(Access::ReadOnly),
        "pipe_wo" => Type::Pipe(Access::WriteOnly),
        _ => Type::Image(crate::spir::opencl_names::image_from_name(base)?),
    })
}

/// Whether a lowered type is, or points to, an image without access or a pipe, whose graph
/// type the kernel being lowered decides (legacy SPIR's access in `kernel_arg_access_qual`).
fn depends_on_function(m: &ir::Module, h: ir::Handle<Type>) -> bool {
    match &m.types[h] {
        Type::Image(ImageType { access: None, .. }) | Type::Pipe(_) => true,
        Type::Pointer { pointee: t, .. } | Type::Array { elem: t, .. } => {
            depends_on_function(m, *t)
        }
        _ => false,
    }
}

pub(crate) struct TypeLowering<'a> {
    llvm: &'a llvm_ir::Module,
    cache: HashMap<TypeRef, ir::Handle<Type>>,
    /// Access qualifier for images whose SPIR type has none (legacy SPIR), per struct name,
    /// taken from the kernel argument info of the function being lowered.
    pub image_access: HashMap<String, Access>,
    /// Named structs lowered (or being lowered: a recursive struct's placeholder), by name.
    named: HashMap<String, ir::Handle<Type>>,
    /// Not a type: the kernels made for SPIR 2.0's enqueued blocks (blocks.rs), by invoke
    /// function, captured size and alignment, kept with the module's other lowering state.
    pub block_kernels: HashMap<(ir::Handle<ir::Function>, u64, u64), ir::Handle<ir::Function>>,
}

impl<'a> TypeLowering<'a> {
    pub fn new(llvm: &'a llvm_ir::Module) -> Self {
        TypeLowering {
            llvm,
            cache: HashMap::default(),
            image_access: HashMap::default(),
            named: HashMap::default(),
            block_kernels: HashMap::default(),
        }
    }

    pub fn lower(&mut self, m: &mut ir::Module, ty: &TypeRef) -> Result<ir::Handle<Type>> {
        if let Some(&h) = self.cache.get(ty) {
            return Ok(h);
        }
        let h = self.lower_uncached(m, ty)?;
        // Images without access and pipes (SPIR 2.0's one `%opencl.pipe_t`) depend on the
        // function being lowered: never cache them.
        if !depends_on_function(m, h) && self.image_access.is_empty() {
            self.cache.insert(ty.clone(), h);
        }
        Ok(h)
    }

    fn lower_uncached(&mut self, m: &mut ir::Module, ty: &TypeRef) -> Result<ir::Handle<Type>> {
        use llvm_ir::types::FPType;
        let t = match ty.as_ref() {
            llvm_ir::Type::VoidType => Type::Void,
            llvm_ir::Type::IntegerType { bits: 1 } => Type::Bool,
            // Widths SPIR does not have are held in the next it has (narrow.rs).
            llvm_ir::Type::IntegerType { bits } => match super::types::held_in(*bits) {
                Some(width) => Type::Int { width },
                None => {
                    return Err(Error::unsupported(format!(
                        "integer type i{bits} (SPIR allows i1, i8, i16, i32, i64)"
                    )))
                }
            },
            llvm_ir::Type::FPType(fp) => match fp {
                FPType::Half => Type::Float { width: 16 },
                FPType::Single => Type::Float { width: 32 },
                FPType::Double => Type::Float { width: 64 },
                other => return Err(Error::unsupported(format!("floating-point type {other:?}"))),
            },
            llvm_ir::Type::PointerType {
                pointee_type,
                addr_space,
            } => return self.pointer(m, ty, pointee_type, *addr_space),
            llvm_ir::Type::FuncType {
                result_type,
                param_types,
                is_var_arg,
            } => {
                let ret = self.lower(m, result_type)?;
                let params = param_types
                    .iter()
                    .map(|p| self.lower(m, p))
                    .collect::<Result<Vec<_>>>()?;
                Type::Function {
                    ret,
                    params,
                    varargs: *is_var_arg,
                }
            }
            llvm_ir::Type::VectorType {
                element_type,
                num_elements,
                scalable,
            } => {
                if *scalable {
                    return Err(Error::unsupported("scalable vector type"));
                }
                if !u32::try_from(*num_elements).is_ok_and(|n| ir::types::VECTOR_LANES.contains(&n))
                {
                    return Err(Error::unsupported(format!(
                        "vector of {num_elements} elements (OpenCL C and SPIR-V have 2, 3, 4, 8 \
                         and 16)"
                    )));
                }
                let elem = self.lower(m, element_type)?;
                Type::Vector {
                    elem,
                    len: *num_elements as u32,
                }
            }
            llvm_ir::Type::ArrayType {
                element_type,
                num_elements,
            } => {
                refuse_in_memory(element_type, "an array of")?;
                let elem = self.lower(m, element_type)?;
                let len = *num_elements as u64;
                m.check_array(elem, len)?;
                Type::Array { elem, len }
            }
            llvm_ir::Type::StructType {
                element_types,
                is_packed,
            } => {
                let members = self.members(m, element_types)?;
                Type::Struct {
                    name: None,
                    members: Some(members),
                    packed: *is_packed,
                }
            }
            llvm_ir::Type::NamedStructType { name } => return self.named_struct(m, name),
            other => return Err(Error::unsupported(format!("LLVM type {other}"))),
        };
        Ok(m.ty(t))
    }

    /// A pointer type: an OpenCL object (`%opencl.image2d_t*`, with the access the kernel's
    /// metadata gives it) or a pointer in an OpenCL address space; SPIR 2.0's block type
    /// where it may not stand is refused.
    fn pointer(
        &mut self,
        m: &mut ir::Module,
        ty: &TypeRef,
        pointee_type: &TypeRef,
        addr_space: u32,
    ) -> Result<ir::Handle<Type>> {
        if is_block_type(ty) {
            return Err(Error::unsupported(
                "a block (%opencl.block*) held where SPIR 2.0 section 2.1.3.7 does not \
                 allow one (a parameter, phi, select or aggregate); blocks are read \
                 where spir_block_bind makes them",
            ));
        }
        if let llvm_ir::Type::NamedStructType { name } = pointee_type.as_ref() {
            if let Some(mut obj) = opencl_object(name) {
                if let Type::Image(img) = &mut obj {
                    if img.access.is_none() {
                        img.access = self.image_access.get(name).copied();
                    }
                }
                if name == "opencl.pipe_t" {
                    if let Some(&a) = self.image_access.get(name) {
                        obj = Type::Pipe(a);
                    }
                }
                return Ok(m.ty(obj));
            }
        }
        let space = mappings::space_from_llvm(addr_space)
            .ok_or_else(|| Error::unsupported(format!("address space {addr_space}")))?;
        refuse_in_memory(pointee_type, "a pointer to")?;
        let pointee = self.lower(m, pointee_type)?;
        Ok(m.ty(Type::Pointer { pointee, space }))
    }

    /// A named struct: an OpenCL object's opaque struct, or the module's struct, made before
    /// its members so that a member pointing back to it finds it.
    fn named_struct(&mut self, m: &mut ir::Module, name: &str) -> Result<ir::Handle<Type>> {
        if let Some(obj) = opencl_object(name) {
            // The opaque struct itself (not behind a pointer) only appears as a pointee.
            return Ok(m.ty(obj));
        }
        if let Some(&h) = self.named.get(name) {
            return Ok(h);
        }
        match self.llvm.types.named_struct_def(name) {
            Some(NamedStructDef::Defined(def)) => match def.as_ref() {
                llvm_ir::Type::StructType {
                    element_types,
                    is_packed,
                } => {
                    // The handle exists before the members are lowered, so a member
                    // that points back to this struct finds it (ir::arena::define).
                    let placeholder = m.ty(Type::Struct {
                        name: Some(name.to_string()),
                        members: None,
                        packed: *is_packed,
                    });
                    self.named.insert(name.to_string(), placeholder);
                    let members = self.members(m, element_types)?;
                    m.types.define(
                        placeholder,
                        Type::Struct {
                            name: Some(name.to_string()),
                            members: Some(members),
                            packed: *is_packed,
                        },
                    );
                    Ok(placeholder)
                }
                _ => Err(Error::malformed(format!(
                    "named struct %{name} is not a struct"
                ))),
            },
            // Opaque: no body in the module.
            _ => Ok(m.ty(Type::Struct {
                name: Some(name.to_string()),
                members: None,
                packed: false,
            })),
        }
    }

    /// A struct's member types (a narrow integer there is refused: it would change the layout).
    fn members(
        &mut self,
        m: &mut ir::Module,
        element_types: &[TypeRef],
    ) -> Result<Vec<ir::Handle<Type>>> {
        element_types
            .iter()
            .map(|e| {
                refuse_in_memory(e, "a struct member of type")?;
                self.lower(m, e)
            })
            .collect()
    }

    /// The value type of a global (llvm-ir gives the global's pointer type).
    pub fn lower_pointee(&mut self, m: &mut ir::Module, ty: &TypeRef) -> Result<ir::Handle<Type>> {
        match ty.as_ref() {
            llvm_ir::Type::PointerType { pointee_type, .. } => self.lower(m, pointee_type),
            _ => self.lower(m, ty),
        }
    }

    pub fn lower_signature(
        &mut self,
        m: &mut ir::Module,
        f: &llvm_ir::Function,
        names: &super::local_names::LocalNames,
        info: Option<&KernelInfo>,
        samplers: Option<&std::collections::BTreeSet<usize>>,
    ) -> Result<ir::Function> {
        let is_kernel = matches!(
            f.calling_convention,
            llvm_ir::function::CallingConvention::SPIR_KERNEL
        ) || info.is_some();
        self.image_access = info.map(|i| i.image_access.clone()).unwrap_or_default();
        let mut params = Vec::new();
        for (i, p) in f.parameters.iter().enumerate() {
            let mut ty = self.lower(m, &p.ty)?;
            let legacy_pipe = matches!(p.ty.as_ref(), llvm_ir::Type::PointerType { pointee_type, .. }
                if matches!(pointee_type.as_ref(), llvm_ir::Type::NamedStructType { name } if name == "opencl.pipe_t"));
            let over = info
                .and_then(|k| k.param_types.get(&i))
                // A pipe's access comes from the metadata only for SPIR 2.0's one pipe type
                // (clang's `pipe_ro_t`/`pipe_wo_t` say it themselves).
                .filter(|t| !matches!(t, Type::Pipe(_)) || legacy_pipe);
            if let Some(over) = over {
                ty = m.ty(over.clone());
            } else if samplers.is_some_and(|s| s.contains(&i))
                && matches!(p.ty.as_ref(), llvm_ir::Type::IntegerType { bits: 32 })
            {
                // A legacy i32 sampler handed down from a kernel (see samplers.rs).
                ty = m.ty(Type::Sampler);
            }
            params.push(ir::Param {
                name: names
                    .name(&p.name)
                    .filter(|n| !n.chars().all(|c| c.is_ascii_digit()))
                    .map(str::to_string),
                ty,
                attrs: param_attrs(&p.attributes),
            });
        }
        let ret = self.lower(m, &f.return_type)?;
        self.image_access.clear();
        Ok(ir::Function {
            name: f.name.clone(),
            ret,
            params,
            is_kernel,
            linkage: linkage(f.linkage, true),
            body: None,
        })
    }

    pub fn lower_declaration(
        &mut self,
        m: &mut ir::Module,
        d: &llvm_ir::function::FunctionDeclaration,
    ) -> Result<ir::Function> {
        let mut params = Vec::new();
        for p in &d.parameters {
            let ty = self.lower(m, &p.ty)?;
            params.push(ir::Param {
                name: None,
                ty,
                attrs: param_attrs(&p.attributes),
            });
        }
        let ret = self.lower(m, &d.return_type)?;
        Ok(ir::Function {
            name: d.name.clone(),
            ret,
            params,
            is_kernel: false,
            linkage: ir::Linkage::Import,
            body: None,
        })
    }
}

fn param_attrs(attrs: &[llvm_ir::function::ParameterAttribute]) -> ir::ParamAttrs {
    use llvm_ir::function::ParameterAttribute as A;
    let mut a = ir::ParamAttrs::default();
    for attr in attrs {
        match attr {
            A::NoAlias => a.noalias = true,
            A::NoCapture => a.nocapture = true,
            A::ByVal(_) => a.byval = true,
            A::SRet(_) => a.sret = true,
            A::ZeroExt => a.zext = true,
            A::SignExt => a.sext = true,
            // LLVM allows at most 2^32 (a larger one is not a power of two below u32::MAX).
            A::Alignment(n) => a.align = u32::try_from(*n).ok().filter(|n| n.is_power_of_two()),
            _ => {}
        }
    }
    a
}

impl<'a> TypeLowering<'a> {
    /// The llvm-ir module being lowered.
    pub fn llvm_module(&self) -> &'a llvm_ir::Module {
        self.llvm
    }
}

/// Whether `ty` is SPIR 2.0's block type, `%opencl.block*`.
pub(super) fn is_block_type(ty: &TypeRef) -> bool {
    matches!(ty.as_ref(), llvm_ir::Type::PointerType { pointee_type, .. }
        if matches!(pointee_type.as_ref(), llvm_ir::Type::NamedStructType { name } if name == "opencl.block"))
}

/// Whether a value of type `ty` holds the address of a function: `ty` is a pointer to a
/// function type, or points to, or is an aggregate of, something that holds one.
pub(super) fn holds_function_pointer(m: &ir::Module, ty: ir::Handle<Type>) -> bool {
    let mut seen = crate::hash::HashSet::default();
    let mut todo = vec![ty];
    while let Some(t) = todo.pop() {
        if !seen.insert(t) {
            continue;
        }
        match &m.types[t] {
            Type::Pointer { pointee, .. } => {
                if matches!(m.types[*pointee], Type::Function { .. }) {
                    return true;
                }
                todo.push(*pointee);
            }
            Type::Array { elem, .. } | Type::Vector { elem, .. } => todo.push(*elem),
            Type::Struct {
                members: Some(ms), ..
            } => todo.extend(ms.iter().copied()),
            _ => {}
        }
    }
    false
}

/// The graph width that holds an LLVM integer of `bits` bits (`None` past 64 bits).
pub(super) fn held_in(bits: u32) -> Option<u32> {
    match bits {
        1..=8 => Some(8),
        9..=16 => Some(16),
        17..=32 => Some(32),
        33..=64 => Some(64),
        _ => None,
    }
}

/// The width of an integer type (or vector of them) that the graph holds in a wider one.
pub(super) fn narrow_bits(t: &llvm_ir::Type) -> Option<u32> {
    match t {
        llvm_ir::Type::IntegerType { bits } if ![1, 8, 16, 32, 64].contains(bits) => Some(*bits),
        llvm_ir::Type::VectorType { element_type, .. } => narrow_bits(element_type),
        _ => None,
    }
}

/// Refuses a narrow integer where it would be laid out in memory (`what`: "a pointer to",
/// "an array of", "a struct member of type").
pub(super) fn refuse_in_memory(t: &llvm_ir::Type, what: &str) -> Result<()> {
    match narrow_bits(t) {
        Some(bits) => Err(Error::unsupported(format!(
            "{what} i{bits}: an integer of a width SPIR does not have, in memory (SPIR allows \
             i1, i8, i16, i32, i64; such integers are translated only as values)"
        ))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::ImageDim;

    #[test]
    fn opencl_object_names() {
        assert_eq!(opencl_object("opencl.sampler_t"), Some(Type::Sampler));
        let Some(Type::Image(i)) = opencl_object("opencl.image2d_array_depth_ro_t") else {
            panic!()
        };
        assert!(
            i.arrayed && i.depth && i.dim == ImageDim::Dim2D && i.access == Some(Access::ReadOnly)
        );
        let Some(Type::Image(i)) = opencl_object("opencl.image1d_buffer_t") else {
            panic!()
        };
        assert!(i.dim == ImageDim::Buffer && i.access.is_none());
        assert_eq!(opencl_object("opencl.image4d_t"), None);
        assert_eq!(opencl_object("struct.foo"), None);
    }
}
