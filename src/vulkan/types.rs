//! The new module being built, and the copy of types, constants and globals into it with
//! OpenCL's address spaces moved to Vulkan's storage:
//!
//! | OpenCL                       | shader form                                   |
//! |------------------------------|-----------------------------------------------|
//! | `__global`, `__constant` ptr | PhysicalStorageBuffer (a device address), or  |
//! |                              | StorageBuffer under `descriptors` (logical)    |
//! | `__local`                    | Workgroup (unchanged: `AddressSpace::Local`)  |
//! | `__private` (allocas)        | Function (unchanged: `AddressSpace::Private`) |
//! | program-scope data           | Private (`AddressSpace::ModulePrivate`)       |
//!
//! A `void*` becomes an `i8*`: a shader has no pointer to void.

use crate::hash::HashMap;

use crate::diag::{Error, Result};
use crate::ir::{self, AddressSpace, Constant, ConstantKind, Global, Handle, Type};
use crate::options::VulkanPointers;

pub(super) struct Lowerer<'a> {
    pub src: &'a ir::Module,
    pub out: ir::Module,
    /// How global and constant pointers are spelled (`--vulkan-pointers`).
    pub pointers: VulkanPointers,
    types: HashMap<Handle<Type>, Handle<Type>>,
    consts: HashMap<Handle<Constant>, Handle<Constant>>,
    globals: HashMap<Handle<Global>, Handle<Global>>,
    /// The next free specialization-constant id (0..=2 are the work-group size).
    pub next_spec_id: u32,
    /// `get_work_dim()`'s specialization constant, once a kernel reads it.
    pub work_dim_spec: Option<u32>,
    /// Sampler globals (arguments' and constants'): whether their coordinates are
    /// normalized, or where the host says so.
    pub samplers: HashMap<Handle<Global>, super::state::SamplerSource>,
    /// Image globals whose channel order / data type the kernel asks: the push-constant
    /// members holding the host's words.
    pub image_words: HashMap<Handle<Global>, (Option<u32>, Option<u32>)>,
    /// The module's sampler constants, in binding order (descriptor set 1).
    pub literal_samplers: Vec<ir::interface::LiteralSampler>,
    /// The sampler constants whose host sampler takes unnormalized coordinates
    /// (`super::survey::direct_samplers`).
    pub direct_samplers: crate::hash::HashSet<Handle<Constant>>,
    /// The printf buffer and formats, once a kernel prints.
    pub printf: Option<super::state::Printf>,
    /// The printf buffer's size in bytes (`--printf-buffer-size`).
    pub printf_buffer_size: u32,
    /// Whether the kernel being lowered keeps its private memory addressed (`addressed`):
    /// a pointer to private memory is then a 32-bit byte offset.
    pub private_addressed: bool,
    /// Likewise for local memory: a pointer to it is then a byte offset into the kernel's
    /// one region of local memory.
    pub local_addressed: bool,
    /// The cache entries made since the last `checkpoint`, which `rollback` undoes.
    journal: Vec<Undo>,
    /// Structs whose addressed form is being made (`addressed_ty`).
    addressed_structs: Vec<Handle<Type>>,
    /// Program-scope `__global` variables that are written or whose address escapes, with
    /// what does so (`super::program_scope`): they live in the program's buffer; the
    /// others are read-only tables.
    written_globals: Vec<(Handle<Global>, &'static str)>,
    /// Under physical pointers, the buffer the written ones live in (`plan_program_scope`).
    pub program_scope: Option<super::state::Layout>,
    /// What the module's kernels share in their interface (`super::plan_shared`).
    pub shared: super::state::Shared,
    /// The work-group size of the kernel being lowered, where it is fixed and the entry
    /// point runs with it (its `reqd_work_group_size`): the kernel reads it as constants.
    pub fixed_workgroup: Option<[u32; 3]>,
}

/// A cache entry `rollback` removes.
enum Undo {
    Type(Handle<Type>),
    Const(Handle<Constant>),
    Global(Handle<Global>),
}

/// What `Lowerer::rollback` restores: the lowering as it was before a kernel.
pub(super) struct Checkpoint {
    globals: usize,
    next_spec_id: u32,
    work_dim_spec: Option<u32>,
    literal_samplers: usize,
    printf: Option<super::state::Mark>,
}

impl<'a> Lowerer<'a> {
    pub fn new(src: &'a ir::Module, pointers: VulkanPointers) -> Self {
        let mut out = ir::Module::new(src.addressing);
        out.source = src.source.clone();
        Lowerer {
            src,
            out,
            pointers,
            types: HashMap::default(),
            consts: HashMap::default(),
            globals: HashMap::default(),
            next_spec_id: 3,
            work_dim_spec: None,
            samplers: HashMap::default(),
            image_words: HashMap::default(),
            literal_samplers: Vec::new(),
            direct_samplers: super::survey::direct_samplers(src),
            printf: None,
            printf_buffer_size: crate::options::DEFAULT_PRINTF_BUFFER_SIZE,
            private_addressed: false,
            local_addressed: false,
            journal: Vec::new(),
            addressed_structs: Vec::new(),
            written_globals: super::survey::not_read_only(src),
            program_scope: None,
            shared: super::state::Shared {
                global_offset: false,
                push_constant_limit: crate::options::DEFAULT_PUSH_CONSTANTS as u64,
                workgroup: super::state::WorkgroupPlan::Builtin {
                    defaults: [1, 1, 1],
                },
            },
            fixed_workgroup: None,
        }
    }

    /// Under physical pointers, lay out the written program-scope `__global` variables in
    /// the buffer the host keeps for the program (`super::state::Layout`).
    pub fn plan_program_scope(&mut self) -> Result<()> {
        if self.written_globals.is_empty() {
            return Ok(());
        }
        let vars: Vec<Handle<Global>> = self.written_globals.iter().map(|w| w.0).collect();
        let mut layout = super::survey::layout(self.src, &vars)?;
        if self.pointers == VulkanPointers::Descriptors {
            let members = vars
                .iter()
                .map(|&g| self.ty(self.src.globals[g].ty))
                .collect::<Result<Vec<_>>>()?;
            layout.buffer = Some(self.storage_buffer(
                "program_scope".into(),
                "program_scope.buffer".into(),
                members,
            ));
        }
        self.program_scope = Some(layout);
        Ok(())
    }

    /// A storage buffer: the StorageBuffer global `name` of a Block struct `block` with
    /// `members` (a kernel argument's buffer, the printf buffer, the program's buffer).
    pub fn storage_buffer(
        &mut self,
        name: String,
        block: String,
        members: Vec<Handle<Type>>,
    ) -> Handle<Global> {
        let ty = self.out.ty(Type::Struct {
            name: Some(block),
            members: Some(members),
            packed: false,
        });
        self.out.globals.append(Global {
            name,
            ty,
            space: AddressSpace::StorageBuffer,
            init: None,
            is_constant: false,
            align: None,
            linkage: ir::Linkage::Internal,
        })
    }

    /// Where program-scope `__global` variable `g` (of the source) lives in the program's
    /// buffer, if it lives there.
    pub fn program_scope_offset(&self, g: Handle<Global>) -> Option<u64> {
        let layout = self.program_scope.as_ref()?;
        layout.vars.iter().find(|v| v.0 == g).map(|v| v.1)
    }

    /// Mark the lowering's state before a kernel, for `rollback` (a second attempt at the
    /// kernel in another memory model).
    pub fn checkpoint(&mut self) -> Checkpoint {
        self.journal.clear();
        Checkpoint {
            globals: self.out.globals.len(),
            next_spec_id: self.next_spec_id,
            work_dim_spec: self.work_dim_spec,
            literal_samplers: self.literal_samplers.len(),
            printf: self.printf.as_ref().map(|p| p.mark()),
        }
    }

    /// Undo everything a failed kernel added since `cp`: its globals (and every cached
    /// mapping made since, which may name them), specialization ids, samplers and printf
    /// formats. Types and constants it added stay in the module's unique arenas, unused.
    pub fn rollback(&mut self, cp: Checkpoint) {
        for u in self.journal.drain(..) {
            match u {
                Undo::Type(t) => {
                    self.types.remove(&t);
                }
                Undo::Const(c) => {
                    self.consts.remove(&c);
                }
                Undo::Global(g) => {
                    self.globals.remove(&g);
                }
            }
        }
        self.out.globals.truncate(cp.globals);
        self.samplers.retain(|g, _| g.index() < cp.globals);
        self.image_words.retain(|g, _| g.index() < cp.globals);
        self.next_spec_id = cp.next_spec_id;
        self.work_dim_spec = cp.work_dim_spec;
        self.literal_samplers.truncate(cp.literal_samplers);
        match (cp.printf, self.printf.as_mut()) {
            (Some(mark), Some(p)) => p.rollback(mark),
            _ => self.printf = None,
        }
    }

    pub fn finish(self) -> ir::Module {
        self.out
    }

    /// Where memory of OpenCL address space `space` lives in a shader.
    pub fn space(&self, space: AddressSpace) -> Result<AddressSpace> {
        Ok(match space {
            AddressSpace::Global | AddressSpace::Constant => match self.pointers {
                VulkanPointers::Physical => AddressSpace::PhysicalStorageBuffer,
                VulkanPointers::Descriptors => AddressSpace::StorageBuffer,
            },
            AddressSpace::Generic => {
                return Err(Error::unsupported(
                    "the generic address space (OpenCL C 2.0) has no Vulkan form yet",
                ))
            }
            s => s,
        })
    }

    /// Whether source pointer type `t` points to addressed memory (`addressed`).
    pub fn is_addressed(&self, t: Handle<Type>) -> bool {
        self.addressed_space(t).is_some()
    }

    /// The space of addressed memory source pointer type `t` points into, if it does.
    pub fn addressed_space(&self, t: Handle<Type>) -> Option<AddressSpace> {
        let Type::Pointer { space, pointee } = self.src.types[t] else {
            return None;
        };
        let on = match space {
            AddressSpace::Private => self.private_addressed,
            AddressSpace::Local => self.local_addressed,
            _ => false,
        };
        let opaque = matches!(
            self.src.types[pointee],
            Type::Image(_) | Type::SampledImage(_) | Type::Sampler
        );
        (on && !opaque).then_some(space)
    }

    /// Whether source type `t` holds an addressed pointer (itself, or in an array, a
    /// function's signature or the pointee of another pointer).
    fn holds_addressed(&self, t: Handle<Type>, seen: &mut Vec<Handle<Type>>) -> bool {
        if seen.contains(&t) {
            return false;
        }
        seen.push(t);
        match &self.src.types[t] {
            Type::Pointer { .. } if self.is_addressed(t) => true,
            Type::Pointer { pointee, .. } => self.holds_addressed(*pointee, seen),
            Type::Array { elem, .. } | Type::Vector { elem, .. } => {
                self.holds_addressed(*elem, seen)
            }
            Type::Struct {
                members: Some(ms), ..
            } => ms.iter().any(|&m| self.holds_addressed(m, seen)),
            Type::Function { ret, params, .. } => {
                self.holds_addressed(*ret, seen)
                    || params.iter().any(|&p| self.holds_addressed(p, seen))
            }
            _ => false,
        }
    }

    /// Under addressed private memory, the shader form of a type that holds a pointer to
    /// it (such a pointer is a 32-bit byte offset; these forms are not cached, being the
    /// kernel's own); `None` for any other type.
    fn addressed_ty(&mut self, t: Handle<Type>) -> Result<Option<Handle<Type>>> {
        if !self.holds_addressed(t, &mut Vec::new()) {
            return Ok(None);
        }
        let new = match self.src.types[t].clone() {
            Type::Pointer { .. } if self.is_addressed(t) => return Ok(Some(self.out.int_type(32))),
            Type::Pointer { pointee, space } => Type::Pointer {
                pointee: self.ty(pointee)?,
                space: self.space(space)?,
            },
            Type::Array { elem, len } => Type::Array {
                elem: self.ty(elem)?,
                len,
            },
            Type::Function {
                ret,
                params,
                varargs,
            } => Type::Function {
                ret: self.ty(ret)?,
                params: params
                    .iter()
                    .map(|&p| self.ty(p))
                    .collect::<Result<Vec<_>>>()?,
                varargs,
            },
            Type::Struct {
                name,
                members: Some(ms),
                packed,
            } => {
                // Its own form, members mapped; a struct reached again while its members
                // are mapped (through a buffer pointer) has none.
                if self.addressed_structs.contains(&t) {
                    return Err(Error::unsupported(
                        "a struct that points to itself through a buffer pointer and holds a \
                         pointer to private memory, in a kernel whose private pointers need \
                         addresses",
                    ));
                }
                self.addressed_structs.push(t);
                let members = ms.iter().map(|&m| self.ty(m)).collect::<Result<Vec<_>>>();
                self.addressed_structs.pop();
                Type::Struct {
                    name,
                    members: Some(members?),
                    packed,
                }
            }
            _ => {
                return Err(Error::unsupported(
                    "a type holding a pointer to private memory, in a kernel whose private \
                     pointers need addresses",
                ))
            }
        };

        Ok(Some(self.out.ty(new)))
    }

    /// The shader-form copy of type `t`.
    pub fn ty(&mut self, t: Handle<Type>) -> Result<Handle<Type>> {
        if self.private_addressed {
            if let Some(n) = self.addressed_ty(t)? {
                return Ok(n);
            }
        }
        if let Some(&n) = self.types.get(&t) {
            return Ok(n);
        }
        let src = self.src;
        let new = match &src.types[t] {
            // Wider than 4 lanes: computed lane by lane (`lanes`), an array to the writer.
            Type::Vector { elem, len } => {
                let elem = self.ty(*elem)?;
                Type::Vector { elem, len: *len }
            }
            Type::Array { elem, len } => {
                let elem = self.ty(*elem)?;
                Type::Array { elem, len: *len }
            }
            Type::Struct {
                name,
                members: Some(ms),
                packed,
            } => {
                // A placeholder first: the members may point back to this struct.
                let placeholder = self.out.ty(Type::Opaque(format!(
                    "spir-xlate.placeholder.{}",
                    t.index()
                )));
                self.types.insert(t, placeholder);
                self.journal.push(Undo::Type(t));
                let members = ms.iter().map(|&m| self.ty(m)).collect::<Result<Vec<_>>>()?;
                for &m in &members {
                    if matches!(
                        self.out.types[m],
                        Type::Pointer {
                            space: AddressSpace::StorageBuffer,
                            ..
                        }
                    ) {
                        return Err(Error::unsupported(
                            "a struct holding a pointer to a buffer (under --vulkan-pointers \
                             descriptors a buffer has no address to store; physical gives it \
                             one)",
                        ));
                    }
                }
                self.out.types.define(
                    placeholder,
                    Type::Struct {
                        name: name.clone(),
                        members: Some(members),
                        packed: *packed,
                    },
                );
                return Ok(placeholder);
            }
            Type::Pointer { pointee, space } => {
                let space = self.space(*space)?;
                let pointee = match src.types[*pointee] {
                    Type::Void => self.out.int_type(8),
                    _ => self.ty(*pointee)?,
                };
                Type::Pointer { pointee, space }
            }
            Type::Function {
                ret,
                params,
                varargs,
            } => {
                let ret = self.ty(*ret)?;
                let params = params
                    .iter()
                    .map(|&p| self.ty(p))
                    .collect::<Result<Vec<_>>>()?;
                Type::Function {
                    ret,
                    params,
                    varargs: *varargs,
                }
            }
            t @ (Type::Image(_) | Type::SampledImage(_) | Type::Sampler) => {
                return Err(Error::unsupported(format!(
                    "{} other than a kernel argument or a sampler constant used directly (in \
                     Vulkan it is a descriptor, which cannot be kept in a variable, selected \
                     or stored)",
                    describe(t)
                )))
            }
            // An async copy completes before it returns (`library::async_copy`): its event
            // is a plain number nobody looks into.
            Type::Event => Type::Int { width: 32 },
            t @ (Type::DeviceEvent
            | Type::ReserveId
            | Type::Queue
            | Type::Pipe(_)
            | Type::Opaque(_)
            | Type::SpecArray { .. }
            | Type::Struct { members: None, .. }) => {
                return Err(Error::unsupported(format!(
                    "{} has no Vulkan form",
                    describe(t)
                )))
            }
            other => other.clone(),
        };
        self.check_buffer_pointers(&new)?;
        let n = self.out.ty(new);
        self.types.insert(t, n);
        self.journal.push(Undo::Type(t));
        Ok(n)
    }

    /// Refuse a pointer to a storage buffer kept in memory other than a function's own
    /// variable (or in an aggregate): a logical pointer has no representation in memory.
    fn check_buffer_pointers(&self, t: &Type) -> Result<()> {
        let is_buffer_pointer = |h: Handle<Type>| {
            matches!(
                self.out.types[h],
                Type::Pointer {
                    space: AddressSpace::StorageBuffer,
                    ..
                }
            )
        };
        let held = match t {
            Type::Pointer { pointee, space } => {
                *space != AddressSpace::Private && is_buffer_pointer(*pointee)
            }
            Type::Array { elem, .. } | Type::Vector { elem, .. } => is_buffer_pointer(*elem),
            _ => false,
        };
        if held {
            return Err(Error::unsupported(
                "a pointer to a buffer kept in memory (under --vulkan-pointers descriptors a \
                 buffer has no address to store; physical gives it one)",
            ));
        }
        Ok(())
    }

    /// The shader-form copy of a constant that is not a pointer expression (those are made
    /// as instructions where they are used: `body`).
    pub fn constant(&mut self, c: Handle<Constant>) -> Result<Handle<Constant>> {
        if let Some(&n) = self.consts.get(&c) {
            return Ok(n);
        }
        let src = self.src;
        let k = &src.constants[c];
        let (ty, kind) = match &k.kind {
            ConstantKind::GlobalAddress(g) => {
                let ng = self.global(*g)?;
                let pointee = self.out.globals[ng].ty;
                let space = self.out.globals[ng].space;
                (
                    self.out.ty(Type::Pointer { pointee, space }),
                    ConstantKind::GlobalAddress(ng),
                )
            }
            ConstantKind::Composite(cs) => {
                let ty = self.ty(k.ty)?;
                let cs = cs
                    .iter()
                    .map(|&e| self.constant(e))
                    .collect::<Result<Vec<_>>>()?;
                (ty, ConstantKind::Composite(cs))
            }
            ConstantKind::Spec { spec_id, default } => {
                let ty = self.ty(k.ty)?;
                let default = self.constant(*default)?;
                (
                    ty,
                    ConstantKind::Spec {
                        spec_id: *spec_id,
                        default,
                    },
                )
            }
            ConstantKind::Cast(..) | ConstantKind::Gep { .. } => {
                return Err(Error::unsupported(
                    "a constant expression over addresses inside another constant (a table of \
                     pointers) has no Vulkan form",
                ))
            }
            ConstantKind::FunctionAddress(_) => {
                return Err(Error::unsupported(
                    "the address of a function (a Vulkan shader has no function pointers)",
                ))
            }
            ConstantKind::Sampler { .. } => {
                return Err(Error::unsupported(
                    "a constant sampler (samplers have no Vulkan lowering yet)",
                ))
            }
            other => (self.ty(k.ty)?, other.clone()),
        };
        let n = self.out.constant(Constant { ty, kind });
        self.consts.insert(c, n);
        self.journal.push(Undo::Const(c));
        Ok(n)
    }

    /// The shader's copy of source global `g`, if the lowering made one (`global`).
    pub fn shader_global(&self, g: Handle<Global>) -> Option<Handle<Global>> {
        self.globals.get(&g).copied()
    }

    /// The shader-form copy of a global variable: `__local` stays Workgroup memory,
    /// program-scope data (`__constant` tables, private globals, and `__global` variables
    /// that nothing writes: `super::program_scope`) becomes Private memory with its
    /// initializer.
    pub fn global(&mut self, g: Handle<Global>) -> Result<Handle<Global>> {
        if let Some(&n) = self.globals.get(&g) {
            return Ok(n);
        }
        let src = &self.src.globals[g];
        let space = match src.space {
            AddressSpace::Local => AddressSpace::Local,
            AddressSpace::Constant | AddressSpace::Private => AddressSpace::ModulePrivate,
            // Read-only: a table. The written ones are the program's buffer, whose addresses
            // kernels compute (`FnBuilder::program_scope_address`); one reached here is an
            // address inside another constant.
            AddressSpace::Global => {
                if self.written_globals.iter().any(|w| w.0 == g) {
                    return Err(Error::unsupported(format!(
                        "the address of the program-scope __global variable @{} inside a \
                         constant (an initializer holding addresses has no Vulkan form)",
                        src.name
                    )));
                }
                AddressSpace::ModulePrivate
            }
            other => {
                return Err(Error::unsupported(format!(
                    "the program-scope variable @{} in the {other:?} address space has no \
                     Vulkan form yet",
                    src.name
                )))
            }
        };
        let ty = self.ty(src.ty)?;
        let init = match (space, src.init) {
            (AddressSpace::Local, _) | (_, None) => None,
            (_, Some(c)) => Some(self.constant(c)?),
        };
        let n = self.out.globals.append(Global {
            name: src.name.clone(),
            ty,
            space,
            init,
            is_constant: src.is_constant,
            align: src.align,
            linkage: ir::Linkage::Internal,
        });
        self.globals.insert(g, n);
        self.journal.push(Undo::Global(g));
        Ok(n)
    }
}

/// An OpenCL type as messages name it.
fn describe(t: &Type) -> String {
    match t {
        Type::Image(_) | Type::SampledImage(_) => "an image".into(),
        Type::Sampler => "a sampler".into(),
        Type::DeviceEvent | Type::Queue => "device-side enqueue".into(),
        Type::Pipe(_) | Type::ReserveId => "a pipe".into(),
        Type::Opaque(n) => format!("the opaque type {n}"),
        Type::Struct { name, .. } => format!(
            "the opaque struct {}",
            name.as_deref().unwrap_or("(unnamed)")
        ),
        Type::Event => "an event".into(),
        _ => "a type of no Vulkan spelling".into(),
    }
}
