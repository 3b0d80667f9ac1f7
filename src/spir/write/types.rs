//! Types, constants and globals in SPIR's encoding: OpenCL objects are pointers to
//! `%opencl.*_t` opaque structs, samplers are `i32` bit-fields.

use llvm_sys::core::*;
use llvm_sys::prelude::*;

use super::{c, Writer};
use crate::diag::{Error, Result};
use crate::ir::{self, ConstantKind, Type};
use crate::mappings;
use crate::options::Flavor;
use crate::spir::friendly;
use crate::spir::opencl_names::image_base;

impl Writer<'_> {
    fn named_opaque(&mut self, name: &str) -> LLVMTypeRef {
        unsafe {
            let existing = LLVMGetTypeByName2(self.ctx, c(name).as_ptr());
            if !existing.is_null() {
                return existing;
            }
            LLVMStructCreateNamed(self.ctx, c(name).as_ptr())
        }
    }

    pub(super) fn opaque_ptr(&mut self, name: &str, space: u32) -> LLVMTypeRef {
        let s = self.named_opaque(name);
        unsafe { LLVMPointerType(s, space) }
    }

    /// An OpenCL object type in the flavor's encoding: SPIR's `%opencl.*_t` pointers and `i32`
    /// samplers, or the spirv-ir `%spirv.*` pointers.
    pub(super) fn object_type(&mut self, t: &Type) -> Result<LLVMTypeRef> {
        if self.opts.flavor == Flavor::SpirvIr {
            if let Some(name) = friendly::type_name(t) {
                return Ok(self.opaque_ptr(&name, friendly::object_space(t)));
            }
        }
        Ok(match t {
            Type::Image(i) => self.opaque_ptr(&format!("opencl.{}_t", image_base(i)), 1),
            Type::Sampler => unsafe { LLVMInt32TypeInContext(self.ctx) },
            Type::Event => self.opaque_ptr("opencl.event_t", 0),
            Type::DeviceEvent => self.opaque_ptr("opencl.clk_event_t", 0),
            Type::ReserveId => self.opaque_ptr("opencl.reserve_id_t", 0),
            Type::Queue => self.opaque_ptr("opencl.queue_t", 0),
            Type::Pipe(_) => self.opaque_ptr("opencl.pipe_t", 1),
            Type::SampledImage(_) => {
                return Err(Error::unsupported(
                    "a sampled image as a value (SPIR has no such type; --flavor spirv-ir has)",
                ))
            }
            other => {
                return Err(Error::internal(format!(
                    "{other:?} is not an OpenCL object"
                )))
            }
        })
    }

    pub(super) fn ty(&mut self, h: ir::Handle<Type>) -> Result<LLVMTypeRef> {
        if let Some(&t) = self.types.get(&h) {
            return Ok(t);
        }
        let t = unsafe {
            match &self.m.types[h] {
                Type::Void => LLVMVoidTypeInContext(self.ctx),
                Type::Bool => LLVMInt1TypeInContext(self.ctx),
                Type::Int { width } => LLVMIntTypeInContext(self.ctx, *width),
                Type::Float { width: 16 } => LLVMHalfTypeInContext(self.ctx),
                Type::Float { width: 64 } => LLVMDoubleTypeInContext(self.ctx),
                Type::Float { .. } => LLVMFloatTypeInContext(self.ctx),
                Type::Vector { elem, len } => LLVMVectorType(self.ty(*elem)?, *len),
                Type::Array { elem, len } => LLVMArrayType(self.ty(*elem)?, *len as u32),
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
                    let named = name
                        .as_ref()
                        .map(|n| LLVMStructCreateNamed(self.ctx, c(n).as_ptr()));
                    if let Some(s) = named {
                        self.types.insert(h, s);
                    }
                    let mut ms = match members {
                        Some(ms) => ms.iter().map(|&m| self.ty(m)).collect::<Result<Vec<_>>>()?,
                        None => Vec::new(),
                    };
                    match named {
                        Some(s) => {
                            if members.is_some() {
                                LLVMStructSetBody(
                                    s,
                                    ms.as_mut_ptr(),
                                    ms.len() as u32,
                                    *packed as i32,
                                );
                            }
                            s
                        }
                        None => LLVMStructTypeInContext(
                            self.ctx,
                            ms.as_mut_ptr(),
                            ms.len() as u32,
                            *packed as i32,
                        ),
                    }
                }
                Type::Pointer { pointee, space } => {
                    let p = match self.m.types[*pointee] {
                        // `void*` is `i8*` in LLVM.
                        Type::Void => LLVMInt8TypeInContext(self.ctx),
                        _ => self.ty(*pointee)?,
                    };
                    LLVMPointerType(p, llvm_space(*space)?)
                }
                Type::Function {
                    ret,
                    params,
                    varargs,
                } => {
                    let r = self.ty(*ret)?;
                    let mut ps = params
                        .iter()
                        .map(|&p| self.ty(p))
                        .collect::<Result<Vec<_>>>()?;
                    LLVMFunctionType(r, ps.as_mut_ptr(), ps.len() as u32, *varargs as i32)
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
    pub(super) fn constant(&mut self, h: ir::Handle<ir::Constant>) -> Result<LLVMValueRef> {
        if let Some(&v) = self.consts.get(&h) {
            return Ok(v);
        }
        let k = &self.m.constants[h];
        let t = self.ty(k.ty)?;
        let v = unsafe {
            match &k.kind {
                ConstantKind::Int(bits) => LLVMConstInt(t, *bits, 0),
                ConstantKind::Float(bits) => {
                    let width = match self.m.types[k.ty] {
                        Type::Float { width } => width,
                        _ => return Err(Error::internal("float constant of a non-float type")),
                    };
                    let i = LLVMConstInt(LLVMIntTypeInContext(self.ctx, width), *bits, 0);
                    LLVMConstBitCast(i, t)
                }
                ConstantKind::Null => LLVMConstNull(t),
                ConstantKind::Undef => LLVMGetUndef(t),
                ConstantKind::Composite(parts) => {
                    let mut vs = parts
                        .iter()
                        .map(|&p| self.constant(p))
                        .collect::<Result<Vec<_>>>()?;
                    match &self.m.types[k.ty] {
                        Type::Vector { .. } => LLVMConstVector(vs.as_mut_ptr(), vs.len() as u32),
                        Type::Array { elem, .. } => {
                            let et = self.ty(*elem)?;
                            LLVMConstArray(et, vs.as_mut_ptr(), vs.len() as u32)
                        }
                        Type::Struct { name: Some(_), .. } => {
                            LLVMConstNamedStruct(t, vs.as_mut_ptr(), vs.len() as u32)
                        }
                        Type::Struct { packed, .. } => LLVMConstStructInContext(
                            self.ctx,
                            vs.as_mut_ptr(),
                            vs.len() as u32,
                            *packed as i32,
                        ),
                        _ => return Err(Error::internal("composite constant of a scalar type")),
                    }
                }
                ConstantKind::GlobalAddress(g) => {
                    let gv = self.globals[g];
                    if LLVMTypeOf(gv) == t {
                        gv
                    } else {
                        LLVMConstBitCast(gv, t)
                    }
                }
                ConstantKind::FunctionAddress(f) => self.funcs[f],
                ConstantKind::Cast(op, inner) => {
                    let iv = self.constant(*inner)?;
                    const_cast(*op, iv, t)
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
                    let mut is = indices
                        .iter()
                        .map(|&i| self.constant(i))
                        .collect::<Result<Vec<_>>>()?;
                    if *inbounds {
                        LLVMConstInBoundsGEP2(pt, b, is.as_mut_ptr(), is.len() as u32)
                    } else {
                        LLVMConstGEP2(pt, b, is.as_mut_ptr(), is.len() as u32)
                    }
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
                ConstantKind::Sampler { .. } if self.opts.flavor == Flavor::SpirvIr => {
                    return Err(Error::unsupported(
                        "a sampler inside an aggregate constant (spirv-ir samplers are \
                         __translate_sampler_initializer calls, not constants)",
                    ))
                }
                ConstantKind::Sampler {
                    addressing,
                    normalized,
                    filter,
                } => LLVMConstInt(
                    t,
                    ir::constant::encode_sampler(*addressing, *normalized, *filter) as u64,
                    0,
                ),
            }
        };
        self.consts.insert(h, v);
        Ok(v)
    }

    pub(super) fn declare_global(&mut self, h: ir::Handle<ir::Global>) -> Result<()> {
        let g = &self.m.globals[h];
        let t = self.ty(g.ty)?;
        let space = llvm_space(g.space)?;
        let v = unsafe {
            let v = LLVMAddGlobalInAddressSpace(self.module, t, c(&g.name).as_ptr(), space);
            if let Some(a) = g.align {
                LLVMSetAlignment(v, a);
            }
            LLVMSetGlobalConstant(v, g.is_constant as i32);
            LLVMSetLinkage(
                v,
                match g.linkage {
                    ir::Linkage::Internal => llvm_sys::LLVMLinkage::LLVMInternalLinkage,
                    _ => llvm_sys::LLVMLinkage::LLVMExternalLinkage,
                },
            );
            v
        };
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
                Some(unsafe {
                    if g.space == ir::AddressSpace::Local {
                        LLVMGetUndef(t)
                    } else {
                        LLVMConstNull(t)
                    }
                })
            }
        };
        if let Some(i) = init {
            unsafe { LLVMSetInitializer(v, i) };
        }
        Ok(())
    }
}

/// An LLVM constant expression cast.
unsafe fn const_cast(op: ir::CastOp, v: LLVMValueRef, t: LLVMTypeRef) -> LLVMValueRef {
    use ir::CastOp as C;
    match op {
        C::Trunc => LLVMConstTrunc(v, t),
        C::ZExt => LLVMConstZExt(v, t),
        C::SExt => LLVMConstSExt(v, t),
        C::FPTrunc => LLVMConstFPTrunc(v, t),
        C::FPExt => LLVMConstFPExt(v, t),
        C::FPToUI => LLVMConstFPToUI(v, t),
        C::FPToSI => LLVMConstFPToSI(v, t),
        C::UIToFP => LLVMConstUIToFP(v, t),
        C::SIToFP => LLVMConstSIToFP(v, t),
        C::PtrToInt => LLVMConstPtrToInt(v, t),
        C::IntToPtr => LLVMConstIntToPtr(v, t),
        C::Bitcast => LLVMConstBitCast(v, t),
        C::AddrSpaceCast => LLVMConstAddrSpaceCast(v, t),
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
