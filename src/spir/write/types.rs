//! Types, constants and globals in SPIR's encoding: OpenCL objects are pointers to
//! `%opencl.*_t` opaque structs, samplers are `i32` bit-fields.

use super::Writer;
use crate::diag::{Error, Result};
use crate::ir::{self, ConstantKind, Type};
use crate::llvm::{self, Linkage, Opcode};
use crate::mappings;
use crate::options::{Flavor, SpirForm};
use crate::spir::friendly;
use crate::spir::opencl_names::spir_image_names;

impl<'a> Writer<'a> {
    fn named_opaque(&mut self, name: &str) -> llvm::Type<'a> {
        match self.llvm.type_named(name) {
            Some(t) => t,
            None => self.llvm.new_named_struct(name),
        }
    }

    pub(super) fn opaque_ptr(&mut self, name: &str, space: u32) -> Result<llvm::Type<'a>> {
        Ok(self.named_opaque(name).pointer_to(space)?)
    }

    /// Whether samplers are objects (clang's `%opencl.sampler_t addrspace(2)*`, or spirv-ir's
    /// `%spirv.Sampler`), made from their bits by `__translate_sampler_initializer` calls, or
    /// the SPIR specifications' `i32` bit-fields.
    pub(super) fn samplers_are_objects(&self) -> bool {
        self.opts.flavor == Flavor::SpirvIr || self.opts.form == SpirForm::Clang
    }

    /// An OpenCL object type in the flavor's encoding: SPIR's `%opencl.*_t` pointers and
    /// samplers (objects in clang's form, `i32` in the specification's), or the spirv-ir
    /// `%spirv.*` pointers.
    pub(super) fn object_type(&mut self, t: &Type) -> Result<llvm::Type<'a>> {
        if self.opts.flavor == Flavor::SpirvIr {
            if let Some(name) = friendly::type_name(t) {
                return self.opaque_ptr(&name, friendly::object_space(t));
            }
        }
        match t {
            Type::Image(i) => self.opaque_ptr(&spir_image_names(i, self.opts.form).0, 1),
            Type::Sampler if self.opts.form == SpirForm::Clang => {
                self.opaque_ptr("opencl.sampler_t", 2)
            }
            Type::Sampler => Ok(self.llvm.int_type(32)?),
            Type::Event => self.opaque_ptr("opencl.event_t", 0),
            Type::DeviceEvent => self.opaque_ptr("opencl.clk_event_t", 0),
            Type::ReserveId => self.opaque_ptr("opencl.reserve_id_t", 0),
            Type::Queue => self.opaque_ptr("opencl.queue_t", 0),
            Type::Pipe(_) => self.opaque_ptr("opencl.pipe_t", 1),
            Type::SampledImage(_) => Err(Error::unsupported(
                "a sampled image as a value (SPIR has no such type; --flavor spirv-ir has)",
            )),
            _ => Err(Error::internal(
                "a type that is no OpenCL object taken for one",
            )),
        }
    }

    pub(super) fn ty(&mut self, h: ir::Handle<Type>) -> Result<llvm::Type<'a>> {
        if let Some(&t) = self.types.get(&h) {
            return Ok(t);
        }
        let t = {
            match &self.m.types[h] {
                Type::Void => self.llvm.void_type(),
                Type::Bool => self.llvm.int_type(1)?,
                Type::Int { width } => self.llvm.int_type(*width)?,
                Type::Float { width: 16 } => self.llvm.half_type(),
                Type::Float { width: 64 } => self.llvm.double_type(),
                Type::Float { .. } => self.llvm.float_type(),
                Type::Vector { elem, len } => self.ty(*elem)?.vector_of(*len)?,
                Type::Array { elem, len } => self.ty(*elem)?.array_of(*len)?,
                Type::Struct {
                    name,
                    members,
                    packed,
                } => {
                    // A struct that points to itself has a name in LLVM (a literal struct
                    // cannot be recursive): one from SPIR-V without OpName gets `struct.anon`.
                    let name = match name {
                        None if self.m.is_recursive(h) => Some("struct.anon".to_string()),
                        n => n.clone(),
                    };
                    // Named: the type exists (and is cached) before its members, which may
                    // point back to it.
                    let named = name.as_ref().map(|n| self.llvm.new_named_struct(n));
                    if let Some(s) = named {
                        self.types.insert(h, s);
                    }
                    let ms = match members {
                        Some(ms) => ms.iter().map(|&m| self.ty(m)).collect::<Result<Vec<_>>>()?,
                        None => Vec::new(),
                    };
                    match named {
                        Some(s) => {
                            if members.is_some() {
                                s.set_body(&ms, *packed)?;
                            }
                            s
                        }
                        None => self.llvm.struct_type(&ms, *packed)?,
                    }
                }
                Type::Pointer { pointee, space } => {
                    let p = match self.m.types[*pointee] {
                        // `void*` is `i8*` in LLVM.
                        Type::Void => self.llvm.int_type(8)?,
                        _ => self.ty(*pointee)?,
                    };
                    p.pointer_to(llvm_space(*space)?)?
                }
                Type::Function {
                    ret,
                    params,
                    varargs,
                } => {
                    let r = self.ty(*ret)?;
                    let ps = params
                        .iter()
                        .map(|&p| self.ty(p))
                        .collect::<Result<Vec<_>>>()?;
                    self.llvm.function_type(r, &ps, *varargs)?
                }
                t @ (Type::Image(_)
                | Type::Sampler
                | Type::Event
                | Type::DeviceEvent
                | Type::ReserveId
                | Type::Queue
                | Type::Pipe(_)
                | Type::SampledImage(_)) => {
                    let t = t.clone();
                    self.object_type(&t)?
                }
                Type::Opaque(n) => self.named_opaque(n),
                Type::SpecArray { .. } | Type::RuntimeArray { .. } | Type::ShaderImage { .. } => {
                    return Err(Error::unsupported(
                        "a shader-form array or image (a graph lowered for Vulkan) has no SPIR \
                         spelling",
                    ))
                }
            }
        };
        self.types.insert(h, t);
        Ok(t)
    }

    /// A constant of any graph type. Floats are written from their bit pattern, exactly.
    pub(super) fn constant(&mut self, h: ir::Handle<ir::Constant>) -> Result<llvm::Value<'a>> {
        if let Some(&v) = self.consts.get(&h) {
            return Ok(v);
        }
        let k = &self.m.constants[h];
        let t = self.ty(k.ty)?;
        let v = {
            match &k.kind {
                ConstantKind::Int(bits) => self.llvm.const_int(t, *bits)?,
                ConstantKind::Float(bits) => {
                    let width = match self.m.types[k.ty] {
                        Type::Float { width } => width,
                        _ => return Err(Error::internal("float constant of a non-float type")),
                    };
                    let i = self.llvm.const_int(self.llvm.int_type(width)?, *bits)?;
                    self.llvm.const_cast(Opcode::LLVMBitCast, i, t)?
                }
                ConstantKind::Null => self.llvm.const_null(t)?,
                ConstantKind::Undef => self.llvm.undef(t)?,
                ConstantKind::Composite(parts) => {
                    let vs = parts
                        .iter()
                        .map(|&p| self.constant(p))
                        .collect::<Result<Vec<_>>>()?;
                    match &self.m.types[k.ty] {
                        Type::Vector { .. } => self.llvm.const_vector(&vs)?,
                        Type::Array { elem, .. } => {
                            let et = self.ty(*elem)?;
                            self.llvm.const_array(et, &vs)?
                        }
                        Type::Struct { name: Some(_), .. } => {
                            self.llvm.const_named_struct(t, &vs)?
                        }
                        Type::Struct { packed, .. } => self.llvm.const_struct(&vs, *packed)?,
                        _ => return Err(Error::internal("composite constant of a scalar type")),
                    }
                }
                ConstantKind::GlobalAddress(g) => {
                    let gv = self.globals[g];
                    self.llvm.const_cast(Opcode::LLVMBitCast, gv, t)?
                }
                ConstantKind::FunctionAddress(f) => self.funcs[f],
                ConstantKind::Cast(op, inner) => {
                    let iv = self.constant(*inner)?;
                    self.llvm.const_cast(super::body::cast_opcode(*op), iv, t)?
                }
                ConstantKind::Gep {
                    inbounds,
                    base,
                    indices,
                } => {
                    let b = self.constant(*base)?;
                    let bt = self.m.constants[*base].ty;
                    let pointee = self
                        .m
                        .pointee(bt)
                        .ok_or_else(|| Error::internal("constant GEP of a non-pointer"))?;
                    let pt = self.ty(pointee)?;
                    let is = indices
                        .iter()
                        .map(|&i| self.constant(i))
                        .collect::<Result<Vec<_>>>()?;
                    self.llvm.const_gep(pt, b, &is, *inbounds)?
                }
                // Real SPIR cannot be specialized: the default is what an unspecialized
                // module computes.
                ConstantKind::Spec { default, .. } if self.opts.flavor == Flavor::Spir => {
                    return self.constant(*default);
                }
                ConstantKind::SpecOp { .. } => {
                    return Err(Error::internal(
                        "an operation on specialization constants (shader form) reached the \
                         LLVM writer",
                    ))
                }
                ConstantKind::Spec { .. } => {
                    return Err(Error::unsupported(
                        "a specialization constant inside an aggregate or constant expression \
                         (spirv-ir specialization constants are __spirv_SpecConstant calls)",
                    ))
                }
                ConstantKind::Sampler { .. } if self.samplers_are_objects() => {
                    return Err(Error::unsupported(
                        "a sampler inside an aggregate constant (samplers are \
                         __translate_sampler_initializer calls here, not constants; \
                         --spir-form spec writes them as i32 constants)",
                    ))
                }
                ConstantKind::Sampler {
                    addressing,
                    normalized,
                    filter,
                } => self.llvm.const_int(
                    t,
                    ir::constant::encode_sampler(*addressing, *normalized, *filter) as u64,
                )?,
            }
        };
        self.consts.insert(h, v);
        Ok(v)
    }

    pub(super) fn declare_global(&mut self, h: ir::Handle<ir::Global>) -> Result<()> {
        let g = &self.m.globals[h];
        let t = self.ty(g.ty)?;
        let space = llvm_space(g.space)?;
        let v = self.llvm.add_global(t, &g.name, space)?;
        if let Some(a) = g.align {
            v.set_alignment(a)?;
        }
        v.set_global_constant(g.is_constant)?;
        v.set_linkage(match g.linkage {
            ir::Linkage::Internal => Linkage::LLVMInternalLinkage,
            _ => Linkage::LLVMExternalLinkage,
        })?;
        self.globals.insert(h, v);
        Ok(())
    }

    pub(super) fn init_global(&mut self, h: ir::Handle<ir::Global>) -> Result<()> {
        let g = &self.m.globals[h];
        let v = self.globals[&h];
        let init = match (g.init, g.linkage) {
            (Some(i), _) => Some(self.constant(i)?),
            (None, ir::Linkage::Import) => None,
            // A definition needs an initializer; work-group memory starts undefined.
            (None, _) => {
                let t = self.ty(g.ty)?;
                Some(if g.space == ir::AddressSpace::Local {
                    self.llvm.undef(t)?
                } else {
                    self.llvm.const_null(t)?
                })
            }
        };
        if let Some(i) = init {
            v.set_initializer(i)?;
        }
        Ok(())
    }
}

/// The LLVM address-space number of `space`; the shader-form spaces of a graph lowered for
/// Vulkan have none.
pub(super) fn llvm_space(space: ir::AddressSpace) -> Result<u32> {
    mappings::space_to_llvm(space).ok_or_else(|| {
        Error::unsupported(format!(
            "the {space:?} address space (a graph lowered for Vulkan) has no SPIR spelling"
        ))
    })
}
