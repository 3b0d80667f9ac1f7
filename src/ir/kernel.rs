//! Kernel entry points with everything OpenCL says about them: argument info and attributes.

use super::arena::Handle;
use super::function::Function;
use super::types::{Access, AddressSpace, Type};

/// `kernel_arg_type_qual`: the type qualifiers an argument was declared with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TypeQualifiers {
    /// `const`.
    pub is_const: bool,
    /// `restrict`.
    pub is_restrict: bool,
    /// `volatile`.
    pub is_volatile: bool,
    /// `pipe`.
    pub is_pipe: bool,
}

impl TypeQualifiers {
    /// The qualifier words in `kernel_arg_type_qual` order.
    pub fn words(&self) -> Vec<&'static str> {
        [
            (self.is_const, "const"),
            (self.is_restrict, "restrict"),
            (self.is_volatile, "volatile"),
            (self.is_pipe, "pipe"),
        ]
        .into_iter()
        .filter_map(|(on, w)| on.then_some(w))
        .collect()
    }

    /// The `kernel_arg_type_qual` spelling (`"const volatile"`, `""`).
    pub fn spelling(&self) -> String {
        self.words().join(" ")
    }

    /// Parse a `kernel_arg_type_qual` spelling: the qualifiers and the words it did not know
    /// (callers decide whether those are fatal).
    pub fn parse(s: &str) -> (Self, Vec<&str>) {
        let mut q = TypeQualifiers::default();
        let mut unknown = Vec::new();
        for word in s.split_whitespace() {
            match word {
                "const" => q.is_const = true,
                "restrict" => q.is_restrict = true,
                "volatile" => q.is_volatile = true,
                "pipe" => q.is_pipe = true,
                other => unknown.push(other),
            }
        }
        (q, unknown)
    }
}

impl Access {
    /// The `kernel_arg_access_qual` spelling.
    pub fn qualifier(access: Option<Access>) -> &'static str {
        match access {
            Some(Access::ReadOnly) => "read_only",
            Some(Access::WriteOnly) => "write_only",
            Some(Access::ReadWrite) => "read_write",
            None => "none",
        }
    }

    /// Parse a `kernel_arg_access_qual` spelling (`none` or empty: no qualifier).
    pub fn parse_qualifier(s: &str) -> Result<Option<Access>, String> {
        Ok(match s {
            "none" | "" => None,
            "read_only" => Some(Access::ReadOnly),
            "write_only" => Some(Access::WriteOnly),
            "read_write" => Some(Access::ReadWrite),
            other => return Err(other.to_string()),
        })
    }
}

/// `kernel_arg_*` metadata of one argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgInfo {
    /// `kernel_arg_name`, if the input kept it (`-cl-kernel-arg-info`).
    pub name: Option<String>,
    /// `kernel_arg_type`: the type as written (`float4*`, `image2d_t`, `mytypedef`).
    pub type_name: String,
    /// `kernel_arg_base_type`: typedefs resolved; `None` if the input did not say.
    pub base_type_name: Option<String>,
    /// `kernel_arg_addr_space`: for pointers the space pointed to; `Private` for values.
    pub space: AddressSpace,
    /// `kernel_arg_access_qual` (images and pipes).
    pub access: Option<Access>,
    /// `kernel_arg_type_qual`.
    pub qualifiers: TypeQualifiers,
    /// The input stated the type (`kernel_arg_type`); else `type_name` is spelled from the
    /// parameter's own type (`from_param`).
    pub stated: bool,
}

impl ArgInfo {
    /// What a parameter of type `ty` says about itself, for kernels whose input has no
    /// argument info: the space pointed to, images read-only, signed OpenCL C spellings.
    pub fn from_param(m: &super::Module, ty: Handle<Type>, name: Option<String>) -> ArgInfo {
        let (space, access) = match &m.types[ty] {
            Type::Pointer { space, .. } => (*space, None),
            Type::Image(img) => (
                AddressSpace::Global,
                Some(img.access.unwrap_or(Access::ReadOnly)),
            ),
            Type::Pipe(a) => (AddressSpace::Global, Some(*a)),
            _ => (AddressSpace::Private, None),
        };
        ArgInfo {
            name,
            type_name: m
                .opencl_type_name(ty, true)
                .unwrap_or_else(|| "void".into()),
            base_type_name: None,
            space,
            access,
            qualifiers: TypeQualifiers {
                is_const: space == AddressSpace::Constant,
                ..Default::default()
            },
            stated: false,
        }
    }
}

/// `vec_type_hint(<type>)`: element type, lane count, and the signedness that only the
/// source spelling carries (SPIR-V's VecTypeHint cannot encode it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VecTypeHint {
    /// The element type.
    pub elem: Handle<Type>,
    /// The lane count (1 for a scalar).
    pub len: u32,
    /// A signed integer element (`int4` rather than `uint4`).
    pub signed: bool,
}

/// Element codes of SPIR-V's VecTypeHint literal (low 16 bits; the lane count is above).
const VEC_HINT_ELEMS: [Type; 7] = [
    Type::Int { width: 8 },
    Type::Int { width: 16 },
    Type::Int { width: 32 },
    Type::Int { width: 64 },
    Type::Float { width: 16 },
    Type::Float { width: 32 },
    Type::Float { width: 64 },
];

impl VecTypeHint {
    /// The VecTypeHint execution-mode literal; `None` for an element SPIR-V cannot encode.
    pub fn spirv_code(&self, m: &super::Module) -> Option<u32> {
        let code = VEC_HINT_ELEMS
            .iter()
            .position(|t| *t == m.types[self.elem])?;
        Some((self.len << 16) | code as u32)
    }

    /// Decode a VecTypeHint literal. SPIR-V cannot say whether an integer hint was unsigned;
    /// it reads back signed. Float hints have no sign (`signed` is false, as SPIR reads them).
    pub fn from_spirv_code(m: &mut super::Module, code: u32) -> Option<Self> {
        let elem = VEC_HINT_ELEMS.get((code & 0xffff) as usize)?.clone();
        Some(VecTypeHint {
            signed: matches!(elem, Type::Int { .. }),
            elem: m.ty(elem),
            len: (code >> 16).max(1),
        })
    }
}

/// A kernel entry point with everything OpenCL says about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kernel {
    /// The kernel's function.
    pub function: Handle<Function>,
    /// What OpenCL says of each argument, in order.
    pub args: Vec<ArgInfo>,
    /// `reqd_work_group_size(x, y, z)`.
    pub reqd_work_group_size: Option<[u32; 3]>,
    /// `work_group_size_hint(x, y, z)`.
    pub work_group_size_hint: Option<[u32; 3]>,
    /// `vec_type_hint(type)`.
    pub vec_type_hint: Option<VecTypeHint>,
    /// `intel_reqd_sub_group_size` / SubgroupSize.
    pub reqd_sub_group_size: Option<u32>,
    /// Execution modes no OpenCL C attribute spells, kept as SPIR-V says them (mode, literal
    /// operands); only the modes of `mappings::kept_execution_mode` (execution_modes.toml).
    pub other_modes: Vec<(spirv::ExecutionMode, Vec<u32>)>,
}
