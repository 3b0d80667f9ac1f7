//! Kernel entry points with everything OpenCL says about them: argument info and attributes.

use super::arena::Handle;
use super::function::Function;
use super::types::{Access, AddressSpace, Type};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TypeQualifiers {
    pub is_const: bool,
    pub is_restrict: bool,
    pub is_volatile: bool,
    pub is_pipe: bool,
}

/// `kernel_arg_*` metadata of one argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgInfo {
    pub name: Option<String>,
    /// `kernel_arg_type`: the type as written (`float4*`, `image2d_t`, `mytypedef`).
    pub type_name: String,
    /// `kernel_arg_base_type`: typedefs resolved; `None` if the input did not say.
    pub base_type_name: Option<String>,
    /// `kernel_arg_addr_space`: for pointers the space pointed to; `Private` for values.
    pub space: AddressSpace,
    /// `kernel_arg_access_qual` (images and pipes).
    pub access: Option<Access>,
    pub qualifiers: TypeQualifiers,
}

/// `vec_type_hint(<type>)`: element type, lane count, and the signedness that only the
/// source spelling carries (SPIR-V's VecTypeHint cannot encode it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VecTypeHint {
    pub elem: Handle<Type>,
    pub len: u32,
    pub signed: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kernel {
    pub function: Handle<Function>,
    pub args: Vec<ArgInfo>,
    pub reqd_work_group_size: Option<[u32; 3]>,
    pub work_group_size_hint: Option<[u32; 3]>,
    pub vec_type_hint: Option<VecTypeHint>,
}
