//! Graph types and module-scope variables -> SPIR-V type and variable instructions (the
//! constants are `constants.rs`).

use rspirv::dr::{Instruction, Operand};
use spirv::{Capability, Op, Word};

use super::Writer;
use crate::diag::{Error, Result};
use crate::ir::{self, ConstantKind, ImageDim, Type};
use crate::mappings;

impl Writer<'_> {
    pub(super) fn ty(&mut self, t: ir::Handle<Type>) -> Result<Word> {
        if let Some(&w) = self.types.ids.get(&t) {
            return Ok(w);
        }
        let m = self.m;
        let id = match &m.types[t] {
            Type::Void => self.b.type_void(),
            Type::Bool => self.b.type_bool(),
            Type::Int { width } => {
                match width {
                    8 => self.cap(Capability::Int8),
                    16 => self.cap(Capability::Int16),
                    64 => self.cap(Capability::Int64),
                    _ => {}
                }
                self.storage_capabilities(*width)?;
                self.b.type_int(*width, 0)
            }
            Type::Float { width } => {
                match width {
                    16 if self.policy.storage_capabilities => self.cap(Capability::Float16),
                    16 => self.cap(Capability::Float16Buffer),
                    64 => self.cap(Capability::Float64),
                    _ => {}
                }
                self.storage_capabilities(*width)?;
                self.b.type_float(*width, None)
            }
            Type::Vector { elem, len } if *len > 4 && self.policy.wide_vectors_as_arrays => {
                let e = self.ty(*elem)?;
                let u32t = self.b.type_int(32, 0);
                let n = self.scalar_constant(u32t, 32, *len as u64);
                self.fresh_type(Op::TypeArray, vec![e, n])
            }
            Type::Vector { elem, len } => {
                if *len > 4 {
                    self.cap(Capability::Vector16);
                }
                if matches!(m.types[*elem], Type::Float { width: 16 }) {
                    self.cap(Capability::Float16);
                }
                let e = self.ty(*elem)?;
                self.b.type_vector(e, *len)
            }
            Type::Array { elem, len } => {
                let e = self.ty(*elem)?;
                let size_t = self.m.addressing.pointer_bits();
                if size_t == 64 {
                    self.cap(Capability::Int64);
                }
                let i = self.b.type_int(size_t, 0);
                let n = self.scalar_constant(i, size_t, *len);
                if self.policy.explicit_layout {
                    // Its own id: a laid-out array of the same operands (layout.rs) has one.
                    self.fresh_type(Op::TypeArray, vec![e, n])
                } else {
                    self.b.type_array(e, n)
                }
            }
            Type::SpecArray { elem, len, .. } => {
                let e = self.ty(*elem)?;
                let n = self.constant(*len)?;
                self.b.type_array(e, n)
            }
            // Only ever in a storage buffer: laid out (layout.rs).
            Type::RuntimeArray { .. } => self.ty_laid(t)?,
            Type::Struct {
                name,
                members: Some(ms),
                packed,
            } => {
                // A pointer back to this struct among its members is forward-declared
                // (OpTypeForwardPointer) and defined right after the struct.
                self.types.open_structs.push(t);
                let ids = ms.iter().map(|&x| self.ty(x)).collect::<Result<Vec<_>>>();
                self.types.open_structs.pop();
                let ids = ids?;
                // Named structs must stay distinct even when their members agree.
                let id = self.fresh_type(Op::TypeStruct, ids);
                if let Some(n) = name {
                    self.b.name(id, n.clone());
                }
                if *packed {
                    self.decorate(id, spirv::Decoration::CPacked, []);
                }
                self.define_forward_pointers(t, id, false);
                id
            }
            Type::Struct {
                name,
                members: None,
                ..
            } => self.b.type_opaque(name.clone().unwrap_or_default()),
            Type::Opaque(n) => self.b.type_opaque(n.clone()),
            Type::Function { ret, params, .. } => {
                let r = self.ty(*ret)?;
                let ps = params
                    .iter()
                    .map(|&p| self.ty(p))
                    .collect::<Result<Vec<_>>>()?;
                self.b.type_function(r, ps)
            }
            Type::Sampler => self.b.type_sampler(),
            Type::Event => self.b.type_event(),
            Type::DeviceEvent => {
                self.cap(Capability::DeviceEnqueue);
                self.b.type_device_event()
            }
            Type::ReserveId => {
                self.cap(Capability::Pipes);
                self.b.type_reserve_id()
            }
            Type::Queue => {
                self.cap(Capability::DeviceEnqueue);
                self.b.type_queue()
            }
            Type::Pipe(a) => {
                self.cap(Capability::Pipes);
                self.b.type_pipe(match a {
                    ir::Access::ReadOnly => spirv::AccessQualifier::ReadOnly,
                    ir::Access::WriteOnly => spirv::AccessQualifier::WriteOnly,
                    ir::Access::ReadWrite => spirv::AccessQualifier::ReadWrite,
                })
            }
            Type::Image(_) | Type::SampledImage(_) | Type::ShaderImage { .. } => {
                self.image_type(t)?
            }
            Type::Pointer { .. } => self.pointer_type(t)?,
        };
        self.types.ids.insert(t, id);
        Ok(id)
    }

    /// A pointer type: a laid-out one for buffer memory, a forward pointer to a struct still being
    /// declared, or a plain one. (A laid-out or forward pointer records its own id.)
    fn pointer_type(&mut self, t: ir::Handle<Type>) -> Result<Word> {
        let m = self.m;
        Ok(match &m.types[t] {
            Type::Pointer { pointee, space } => {
                let sc = mappings::space_storage_class(*space);
                if sc == spirv::StorageClass::Generic {
                    self.cap(Capability::GenericPointer);
                }
                if let Type::Float { width: 16 } = m.types[*pointee] {
                    if self.policy.storage_capabilities {
                        self.cap(Capability::Float16);
                    } else {
                        self.cap(Capability::Float16Buffer);
                    }
                }
                if self.policy.explicit_layout && super::layout::is_laid_out(sc) {
                    let id = self.laid_pointer(t, *pointee, sc)?;
                    self.types.ids.insert(t, id);
                    return Ok(id);
                }
                if self.types.open_structs.contains(pointee) {
                    let id = self.b.id();
                    self.b.insert_types_global_values(
                        rspirv::dr::InsertPoint::End,
                        Instruction::new(
                            Op::TypeForwardPointer,
                            None,
                            None,
                            vec![Operand::IdRef(id), Operand::StorageClass(sc)],
                        ),
                    );
                    self.types.forward_pointers.push((id, *pointee, sc));
                    self.types.ids.insert(t, id);
                    return Ok(id);
                }
                let p = self.ty(*pointee)?;
                self.b.type_pointer(None, sc, p)
            }
            _ => return Err(Error::internal("not a type of this kind")),
        })
    }

    /// An image type (OpenCL's, or the shader form's sampled or storage image).
    fn image_type(&mut self, t: ir::Handle<Type>) -> Result<Word> {
        let m = self.m;
        Ok(match &m.types[t] {
            Type::Image(img) | Type::SampledImage(img) => {
                self.cap(Capability::ImageBasic);
                let void = self.b.type_void();
                let dim = match img.dim {
                    ImageDim::Dim1D => {
                        self.cap(Capability::Sampled1D);
                        spirv::Dim::Dim1D
                    }
                    ImageDim::Dim2D => spirv::Dim::Dim2D,
                    ImageDim::Dim3D => spirv::Dim::Dim3D,
                    ImageDim::Buffer => {
                        self.cap(Capability::SampledBuffer);
                        spirv::Dim::DimBuffer
                    }
                };
                let access = match img.access.unwrap_or(ir::Access::ReadOnly) {
                    ir::Access::ReadOnly => spirv::AccessQualifier::ReadOnly,
                    ir::Access::WriteOnly => spirv::AccessQualifier::WriteOnly,
                    ir::Access::ReadWrite => {
                        self.cap(Capability::ImageReadWrite);
                        spirv::AccessQualifier::ReadWrite
                    }
                };
                let image = self.b.type_image(
                    void,
                    dim,
                    img.depth as u32,
                    img.arrayed as u32,
                    img.multisampled as u32,
                    0,
                    spirv::ImageFormat::Unknown,
                    Some(access),
                );
                if matches!(m.types[t], Type::SampledImage(_)) {
                    self.b.type_sampled_image(image)
                } else {
                    image
                }
            }
            Type::ShaderImage {
                image,
                texel,
                storage,
            } => {
                let sampled_type = self.texel_type(*texel);
                let dim = match (image.dim, storage) {
                    (ImageDim::Dim1D, false) => {
                        self.cap(Capability::Sampled1D);
                        spirv::Dim::Dim1D
                    }
                    (ImageDim::Dim1D, true) => {
                        self.cap(Capability::Image1D);
                        spirv::Dim::Dim1D
                    }
                    (ImageDim::Dim2D, _) => spirv::Dim::Dim2D,
                    (ImageDim::Dim3D, _) => spirv::Dim::Dim3D,
                    (ImageDim::Buffer, false) => {
                        self.cap(Capability::SampledBuffer);
                        spirv::Dim::DimBuffer
                    }
                    (ImageDim::Buffer, true) => {
                        self.cap(Capability::ImageBuffer);
                        spirv::Dim::DimBuffer
                    }
                };
                if *storage {
                    // OpenCL's images carry their format at run time.
                    self.cap(Capability::StorageImageWriteWithoutFormat);
                    if image.access == Some(ir::Access::ReadWrite) {
                        self.cap(Capability::StorageImageReadWithoutFormat);
                    }
                }
                self.b.type_image(
                    sampled_type,
                    dim,
                    0,
                    image.arrayed as u32,
                    image.multisampled as u32,
                    if *storage { 2 } else { 1 },
                    spirv::ImageFormat::Unknown,
                    None,
                )
            }
            _ => return Err(Error::internal("not a type of this kind")),
        })
    }

    /// A type instruction with an id of its own (the builder would reuse an equal one).
    pub(super) fn fresh_type(&mut self, op: Op, operands: Vec<Word>) -> Word {
        let id = self.b.id();
        self.b.insert_types_global_values(
            rspirv::dr::InsertPoint::End,
            Instruction::new(
                op,
                None,
                Some(id),
                operands.into_iter().map(Operand::IdRef).collect(),
            ),
        );
        id
    }

    /// Define the pointers forward-declared to struct `t` (plain or, with `laid`, its
    /// laid-out copy) now that the struct is `id`.
    pub(super) fn define_forward_pointers(&mut self, t: ir::Handle<Type>, id: Word, laid: bool) {
        let pending = if laid {
            &mut self.types.forward_laid
        } else {
            &mut self.types.forward_pointers
        };
        let (done, open): (Vec<_>, Vec<_>) =
            std::mem::take(pending).into_iter().partition(|f| f.1 == t);
        *pending = open;
        for (ptr, _, sc) in done {
            self.b.type_pointer(Some(ptr), sc, id);
        }
    }

    /// A shader's capabilities to keep 8- and 16-bit values in buffer and push-constant
    /// memory (declared with the type: the lowering puts OpenCL's buffers there).
    fn storage_capabilities(&mut self, width: u32) -> Result<()> {
        if !self.policy.storage_capabilities {
            return Ok(());
        }
        let (caps, ext, core) = match width {
            8 => (
                [
                    Capability::StorageBuffer8BitAccess,
                    Capability::StoragePushConstant8,
                ],
                "SPV_KHR_8bit_storage",
                (1, 5),
            ),
            16 => (
                [
                    Capability::StorageBuffer16BitAccess,
                    Capability::StoragePushConstant16,
                ],
                "SPV_KHR_16bit_storage",
                (1, 3),
            ),
            _ => return Ok(()),
        };
        for c in caps {
            self.cap(c);
        }
        self.core_or_extension(core, ext)
    }

    /// A shader's capabilities to keep the 8- and 16-bit values of uniform buffer type `t`
    /// (a kernel's argument buffer) there.
    fn uniform_capabilities(&mut self, t: ir::Handle<Type>) -> Result<()> {
        for width in [8, 16] {
            if !self.m.holds_width(t, width) {
                continue;
            }
            let (cap, ext, core) = match width {
                8 => (
                    Capability::UniformAndStorageBuffer8BitAccess,
                    "SPV_KHR_8bit_storage",
                    (1, 5),
                ),
                _ => (
                    Capability::StorageUniform16,
                    "SPV_KHR_16bit_storage",
                    (1, 3),
                ),
            };
            self.cap(cap);
            self.core_or_extension(core, ext)?;
        }
        Ok(())
    }

    /// The id of a module-scope variable, declared on first use.
    pub(super) fn global(&mut self, g: ir::Handle<ir::Global>) -> Result<Word> {
        if let Some(&w) = self.global_ids.get(&g) {
            return Ok(w);
        }
        let glob = &self.m.globals[g];
        let value_ty = glob.ty;
        let ptr = self.m.types.find(&Type::Pointer {
            pointee: value_ty,
            space: glob.space,
        });
        let sc = mappings::space_storage_class(glob.space);
        // The push-constant block, storage and uniform buffers are Blocks (interface structs).
        let interface = matches!(
            sc,
            spirv::StorageClass::PushConstant
                | spirv::StorageClass::StorageBuffer
                | spirv::StorageClass::Uniform
        );
        if sc == spirv::StorageClass::Uniform {
            self.uniform_capabilities(value_ty)?;
        }
        let ptr_ty = match ptr {
            Some(p) => self.ty(p)?,
            // A variable nothing takes the address of (a kernel that never reads its
            // arguments): its pointer type made here, to the laid-out type where the
            // storage needs one, as `ty` would make it.
            None => {
                let p = if self.policy.explicit_layout && interface {
                    self.ty_laid(value_ty)?
                } else {
                    self.ty(value_ty)?
                };
                self.b.type_pointer(None, sc, p)
            }
        };
        // An undef initializer says nothing (and OpUndef is not a constant initializer; a
        // Workgroup variable may not have one at all): the variable is declared without it.
        let init = match glob.init {
            Some(i) if !matches!(self.m.constants[i].kind, ConstantKind::Undef) => {
                Some(self.constant(i)?)
            }
            _ => None,
        };
        if self.policy.explicit_layout && interface {
            let block = self.ty_laid(value_ty)?;
            if self.types.block_ids.insert(block) {
                self.b.decorate(block, spirv::Decoration::Block, []);
            }
        }
        let id = self.module_variable(ptr_ty, sc, init);
        self.global_ids.insert(g, id);
        if let Some((set, binding)) = self.binding_of(g) {
            self.b.decorate(
                id,
                spirv::Decoration::DescriptorSet,
                [Operand::LiteralBit32(set)],
            );
            self.b.decorate(
                id,
                spirv::Decoration::Binding,
                [Operand::LiteralBit32(binding)],
            );
        }
        if let Some(access) = self.buffer_access_of(g) {
            for (on, d) in [
                (access.non_writable, spirv::Decoration::NonWritable),
                (access.non_readable, spirv::Decoration::NonReadable),
                (access.restrict, spirv::Decoration::Restrict),
            ] {
                if on {
                    self.b.decorate(id, d, []);
                }
            }
        }
        if !glob.name.is_empty() {
            self.b.name(id, glob.name.clone());
        }
        if glob.is_constant {
            self.decorate(id, spirv::Decoration::Constant, []);
        }
        if let Some(a) = glob.align {
            self.decorate(id, spirv::Decoration::Alignment, [Operand::LiteralBit32(a)]);
        }
        match glob.linkage {
            ir::Linkage::Internal => {}
            ir::Linkage::Export | ir::Linkage::Import => {
                self.cap(Capability::Linkage);
                let lt = if glob.linkage == ir::Linkage::Export {
                    spirv::LinkageType::Export
                } else {
                    spirv::LinkageType::Import
                };
                self.decorate(
                    id,
                    spirv::Decoration::LinkageAttributes,
                    [
                        Operand::LiteralString(glob.name.clone()),
                        Operand::LinkageType(lt),
                    ],
                );
            }
        }
        Ok(id)
    }

    /// A module-scope variable of pointer type `pt` in `sc`, with initializer `init`; it may
    /// be made while a body is written (it goes among the module's globals all the same), and
    /// it is listed for the entry points' interfaces (`kernel`). Every OpVariable outside a
    /// function is made here.
    pub(super) fn module_variable(
        &mut self,
        pt: Word,
        sc: spirv::StorageClass,
        init: Option<Word>,
    ) -> Word {
        let id = self.b.id();
        let mut operands = vec![Operand::StorageClass(sc)];
        operands.extend(init.map(Operand::IdRef));
        self.b.insert_types_global_values(
            rspirv::dr::InsertPoint::End,
            Instruction::new(Op::Variable, Some(pt), Some(id), operands),
        );
        self.global_vars.push((id, sc));
        id
    }

    /// How each argument of each kernel arrives (none outside the shader form).
    fn arg_kinds(&self) -> impl Iterator<Item = &ir::interface::ArgKind> {
        self.m
            .shader
            .iter()
            .flat_map(|s| &s.kernels)
            .flat_map(|k| &k.args)
            .map(|a| &a.kind)
    }

    /// What the kernel argument bound to storage buffer `g` promises about it.
    fn buffer_access_of(&self, g: ir::Handle<ir::Global>) -> Option<ir::interface::BufferAccess> {
        self.arg_kinds().find_map(|k| match *k {
            ir::interface::ArgKind::StorageBuffer { global, access, .. } if global == g => {
                Some(access)
            }
            _ => None,
        })
    }

    /// The descriptor set and binding of a storage buffer a kernel argument is bound to
    /// (the shader interface says which).
    fn binding_of(&self, g: ir::Handle<ir::Global>) -> Option<(u32, u32)> {
        let shader = self.m.shader.as_ref()?;
        self.arg_kinds()
            .find_map(|k| match *k {
                ir::interface::ArgKind::StorageBuffer {
                    descriptor_set,
                    binding,
                    global,
                    ..
                } if global == g => Some((descriptor_set, binding)),
                ir::interface::ArgKind::PodStorageBuffer(r)
                | ir::interface::ArgKind::PodUniform(r)
                | ir::interface::ArgKind::PointerUniform { range: r, .. }
                    if r.global == g =>
                {
                    Some((r.descriptor_set, r.binding))
                }
                ir::interface::ArgKind::SampledImage(ir::interface::ImageArg {
                    binding: b,
                    ..
                })
                | ir::interface::ArgKind::StorageImage(ir::interface::ImageArg {
                    binding: b,
                    ..
                })
                | ir::interface::ArgKind::Sampler { binding: b, .. }
                    if b.global == g =>
                {
                    Some((b.descriptor_set, b.binding))
                }
                _ => None,
            })
            .or_else(|| {
                shader
                    .literal_samplers
                    .iter()
                    .find(|l| l.binding.global == g)
                    .map(|l| (l.binding.descriptor_set, l.binding.binding))
            })
            .or_else(|| {
                let p = shader.printf.as_ref()?;
                (p.binding.global == g).then_some((p.binding.descriptor_set, p.binding.binding))
            })
            .or_else(|| match shader.program_scope.as_ref()?.place {
                ir::interface::ProgramScopePlace::StorageBuffer(b) if b.global == g => {
                    Some((b.descriptor_set, b.binding))
                }
                _ => None,
            })
    }

    /// The 32-bit scalar type a shader image of texel kind `k` is sampled as (a signed
    /// integer type of its own: Vulkan ties the sampled type's signedness to the format's).
    pub(super) fn texel_type(&mut self, k: ir::builtin::TexelKind) -> Word {
        use ir::builtin::TexelKind as K;
        match k {
            K::Float | K::Half => self.b.type_float(32, None),
            K::Signed => self.b.type_int(32, 1),
            K::Unsigned => self.b.type_int(32, 0),
        }
    }
}
