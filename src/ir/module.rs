//! The whole translation unit.

use super::arena::{Arena, Handle, UniqueArena};
use super::constant::Constant;
use super::function::{Function, Linkage};
use super::kernel::Kernel;
use super::types::{AddressSpace, Type};

/// Pointer width of the device (SPIR triple `spir` / `spir64`, SPIR-V Physical32/64).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Addressing {
    /// 32-bit pointers and `size_t` (`spir`).
    Physical32,
    /// 64-bit pointers and `size_t` (`spir64`).
    Physical64,
}

impl Addressing {
    /// The width of a pointer and of `size_t`.
    pub fn pointer_bits(self) -> u32 {
        match self {
            Addressing::Physical32 => 32,
            Addressing::Physical64 => 64,
        }
    }
}

/// Module-level facts about the source program (SPIR `opencl.*` named metadata, SPIR-V
/// OpSource/OpSourceExtension).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceInfo {
    /// `opencl.spir.version` (major, minor).
    pub spir_version: Option<(u32, u32)>,
    /// `opencl.ocl.version` (major, minor): the OpenCL C version of the source.
    pub ocl_version: Option<(u32, u32)>,
    /// `opencl.used.extensions` (`cl_khr_fp64`, ...).
    pub used_extensions: Vec<String>,
    /// `opencl.used.optional.core.features` (`cl_images`, `cl_doubles`).
    pub used_optional_core_features: Vec<String>,
    /// `opencl.compiler.options` (`-cl-fast-relaxed-math`, ...).
    pub compiler_options: Vec<String>,
    /// `opencl.enable.FP_CONTRACT` present: floating-point contraction allowed.
    pub fp_contract: bool,
}

/// A module-scope variable: a program-scope variable of the source (`__constant` tables,
/// `__local` variables of kernels, OpenCL C 2.0's `__global` variables), a builtin input,
/// or in shader form a descriptor, push-constant block or buffer the lowering made.
#[derive(Clone, Debug)]
pub struct Global {
    /// Its name.
    pub name: String,
    /// The type of the value stored (the global's address has type pointer-to-this).
    pub ty: Handle<Type>,
    /// Where it lives.
    pub space: AddressSpace,
    /// Its initial value, if it has one.
    pub init: Option<Handle<Constant>>,
    /// Never written (LLVM `constant`).
    pub is_constant: bool,
    /// Its alignment in bytes, if the input stated one.
    pub align: Option<u32>,
    /// Whether other modules see or define it.
    pub linkage: Linkage,
}

/// A translation unit: every type, constant, global and function, the kernels, and what
/// the source said about itself. See the [module documentation](super) for a tour.
#[derive(Clone, Debug)]
pub struct Module {
    /// 32- or 64-bit pointers.
    pub addressing: Addressing,
    /// What the source said about itself (SPIR's `opencl.*` metadata, SPIR-V's OpSource).
    pub source: SourceInfo,
    /// Every type, once.
    pub types: UniqueArena<Type>,
    /// Every constant, once.
    pub constants: UniqueArena<Constant>,
    /// The module-scope variables.
    pub globals: Arena<Global>,
    /// The functions (kernels, helpers, declarations).
    pub functions: Arena<Function>,
    /// The kernels, with what OpenCL says of each.
    pub kernels: Vec<Kernel>,
    /// Shader form only (the Vulkan lowering): how each kernel's arguments arrive.
    pub shader: Option<super::interface::ShaderInterface>,
    /// Debug information: source positions, scopes, variables and the source's types
    /// (empty for a module without it).
    pub debug: super::debug::DebugInfo,
    /// What the input said that this graph does not hold (debug information, metadata no
    /// format here gives a meaning, decorations without an OpenCL C counterpart): not part of
    /// the program, carried only so the user is told (`diag::Lost`). Writers add their own.
    pub lost: Vec<crate::diag::Lost>,
}

impl Module {
    /// `f` and every function it calls, directly or not, each once, `f` first (the call
    /// graph below it, in the order calls are found).
    pub fn reachable_functions(&self, f: Handle<Function>) -> Vec<Handle<Function>> {
        let mut seen = vec![f];
        let mut i = 0;
        while let Some(&g) = seen.get(i) {
            i += 1;
            let Some(body) = &self.functions[g].body else {
                continue;
            };
            for (_, inst) in body.insts.iter() {
                if let super::Op::Call { callee, .. } = &inst.op {
                    if !seen.contains(callee) {
                        seen.push(*callee);
                    }
                }
            }
        }
        seen
    }

    /// An empty module.
    pub fn new(addressing: Addressing) -> Self {
        Module {
            addressing,
            source: SourceInfo::default(),
            types: UniqueArena::new(),
            constants: UniqueArena::new(),
            globals: Arena::new(),
            functions: Arena::new(),
            kernels: Vec::new(),
            shader: None,
            debug: Default::default(),
            lost: Vec::new(),
        }
    }

    /// Find or add a type.
    pub fn ty(&mut self, ty: Type) -> Handle<Type> {
        self.types.insert(ty)
    }

    /// Find or add a constant.
    pub fn constant(&mut self, c: Constant) -> Handle<Constant> {
        self.constants.insert(c)
    }

    /// The integer type of `width` bits.
    pub fn int_type(&mut self, width: u32) -> Handle<Type> {
        self.ty(Type::Int { width })
    }

    /// `Void`.
    pub fn void_type(&mut self) -> Handle<Type> {
        self.ty(Type::Void)
    }

    /// A pointer to `pointee` in `space`.
    pub fn pointer_type(
        &mut self,
        pointee: Handle<Type>,
        space: super::AddressSpace,
    ) -> Handle<Type> {
        self.ty(Type::Pointer { pointee, space })
    }

    /// The integer type of `size_t` on this device.
    pub fn size_type(&mut self) -> Handle<Type> {
        let w = self.addressing.pointer_bits();
        self.int_type(w)
    }

    /// The integer constant `value` of type `ty`.
    pub fn int_const(&mut self, ty: Handle<Type>, value: u64) -> Handle<Constant> {
        self.constant(Constant {
            ty,
            kind: super::constant::ConstantKind::Int(value),
        })
    }

    /// The kernel whose whole body calls `f` with its own parameters and returns (an entry
    /// point wrapper, as llvm-spirv writes one per kernel): a block invoke function named by
    /// an enqueue instruction is enqueued as that kernel. `f` itself when it is a kernel.
    pub fn kernel_of(&self, f: Handle<super::Function>) -> Option<Handle<super::Function>> {
        use super::function::{Op, Terminator};
        if self.functions[f].is_kernel {
            return Some(f);
        }
        self.functions.iter().find_map(|(k, kf)| {
            let body = kf.body.as_ref().filter(|_| kf.is_kernel)?;
            let [block] = &body.blocks[..] else {
                return None;
            };
            let [call] = &block.insts[..] else {
                return None;
            };
            let Op::Call { callee, args } = &body.insts[*call].op else {
                return None;
            };
            let forwards = *callee == f
                && args.len() == kf.params.len()
                && args
                    .iter()
                    .enumerate()
                    .all(|(i, a)| *a == super::Value::Param(i as u32));
            (forwards && matches!(block.terminator, Terminator::Return(None))).then_some(k)
        })
    }

    /// Whether a constant is a function's address, possibly cast (a block literal's invoke
    /// field in OpenCL C 2.0, the one use OpenCL C makes of one).
    pub fn is_function_address(&self, c: Handle<Constant>) -> bool {
        use super::constant::ConstantKind as K;
        match self.constants[c].kind {
            K::FunctionAddress(_) => true,
            K::Cast(_, inner) => self.is_function_address(inner),
            _ => false,
        }
    }

    /// Whether a constant is, or holds, a specialization constant.
    pub fn is_spec_constant(&self, c: Handle<Constant>) -> bool {
        use super::constant::ConstantKind as K;
        match &self.constants[c].kind {
            K::Spec { .. } | K::SpecOp { .. } => true,
            K::Composite(elems) => elems.iter().any(|&e| self.is_spec_constant(e)),
            _ => false,
        }
    }
}
