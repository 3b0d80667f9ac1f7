//! `clGetKernelArgInfo` for the kernels of programs the layer made: a driver's own SPIR path
//! answers from the SPIR's argument metadata (`kernel_arg_addr_space`, `_access_qual`,
//! `_type`, `_type_qual`, `_name`), while a program from SPIR-V or from our OpenCL C built
//! without `-cl-kernel-arg-info` has none (CL_KERNEL_ARG_INFO_NOT_AVAILABLE). So the layer
//! answers from the same metadata, read from the SPIR when an application first asks.
//! Kernels of any other program, and queries the metadata cannot answer, go to the driver.

use std::ffi::c_void;

use xlate::ir::{Access, AddressSpace, ArgInfo};

use crate::cl::*;
use crate::{answer, ask, next};

/// `clGetKernelArgInfo`.
pub(crate) unsafe extern "C" fn get_kernel_arg_info(
    kernel: Handle,
    arg_index: cl_uint,
    param: cl_uint,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    // SAFETY: the API's function at its index.
    let Some(f) = (unsafe { next().get::<GetKernelArgInfo>(GET_KERNEL_ARG_INFO) }) else {
        return CL_INVALID_VALUE;
    };
    let through = || unsafe { f(kernel, arg_index, param, size, value, size_ret) };
    // SAFETY: the application's kernel.
    let Some(args) = (unsafe { args_of(kernel) }) else {
        return through();
    };
    // An index past the last: what the specification says (the Intel runtime's answers
    // vary: CL_INVALID_VALUE on its SPIR path, CL_INVALID_ARG_INDEX or
    // CL_KERNEL_ARG_INFO_NOT_AVAILABLE for a program from SPIR-V).
    let Some(arg) = args.get(arg_index as usize) else {
        return CL_INVALID_ARG_INDEX;
    };
    let bytes = match param {
        CL_KERNEL_ARG_ADDRESS_QUALIFIER => address_qualifier(arg.space).to_ne_bytes().to_vec(),
        CL_KERNEL_ARG_ACCESS_QUALIFIER => access_qualifier(arg.access).to_ne_bytes().to_vec(),
        CL_KERNEL_ARG_TYPE_NAME => c_string(&arg.type_name),
        CL_KERNEL_ARG_TYPE_QUALIFIER => type_qualifier(arg).to_ne_bytes().to_vec(),
        CL_KERNEL_ARG_NAME => match &arg.name {
            Some(name) => c_string(name),
            // The SPIR kept no names (it was made without `-cl-kernel-arg-info`).
            None => return CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
        },
        _ => return through(),
    };
    // SAFETY: the caller's buffer and size (the API's contract).
    unsafe { answer(&bytes, size, value, size_ret) }
}

/// The arguments of `kernel` as its program's SPIR says them, where the layer made the
/// program.
unsafe fn args_of(kernel: Handle) -> Option<Vec<ArgInfo>> {
    // SAFETY: the API's function at its index.
    let info = unsafe { next().get::<GetKernelInfo>(GET_KERNEL_INFO) }?;
    // SAFETY: the application's kernel, asked with buffers `ask` sizes.
    let program = unsafe { ask(|n, v, r| info(kernel, CL_KERNEL_PROGRAM, n, v, r)) }.ok()?;
    let program = usize::from_ne_bytes(program.get(..size_of::<usize>())?.try_into().ok()?);
    let name = unsafe { ask(|n, v, r| info(kernel, CL_KERNEL_FUNCTION_NAME, n, v, r)) }.ok()?;
    let name = String::from_utf8_lossy(name.split(|&b| b == 0).next().unwrap_or_default());
    crate::program::kernel_args(program as Handle, &name)
}

/// `CL_KERNEL_ARG_ADDRESS_*` of an argument in `space` (the space pointed to; images are
/// global, values private).
fn address_qualifier(space: AddressSpace) -> cl_uint {
    match space {
        AddressSpace::Global => CL_KERNEL_ARG_ADDRESS_GLOBAL,
        AddressSpace::Local => CL_KERNEL_ARG_ADDRESS_LOCAL,
        AddressSpace::Constant => CL_KERNEL_ARG_ADDRESS_CONSTANT,
        _ => CL_KERNEL_ARG_ADDRESS_PRIVATE,
    }
}

/// `CL_KERNEL_ARG_ACCESS_*` (images and pipes say one; other arguments none).
fn access_qualifier(access: Option<Access>) -> cl_uint {
    match access {
        Some(Access::ReadOnly) => CL_KERNEL_ARG_ACCESS_READ_ONLY,
        Some(Access::WriteOnly) => CL_KERNEL_ARG_ACCESS_WRITE_ONLY,
        Some(Access::ReadWrite) => CL_KERNEL_ARG_ACCESS_READ_WRITE,
        None => CL_KERNEL_ARG_ACCESS_NONE,
    }
}

/// The `cl_kernel_arg_type_qualifier` bits: CONST 1, RESTRICT 2, VOLATILE 4, PIPE 8.
fn type_qualifier(arg: &ArgInfo) -> u64 {
    let q = &arg.qualifiers;
    u64::from(q.is_const)
        | u64::from(q.is_restrict) << 1
        | u64::from(q.is_volatile) << 2
        | u64::from(q.is_pipe) << 3
}

/// `text` as the NUL-terminated bytes the API answers strings with.
fn c_string(text: &str) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    bytes.push(0);
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qualifiers_have_the_api_numbers() {
        assert_eq!(address_qualifier(AddressSpace::Global), 0x119B);
        assert_eq!(address_qualifier(AddressSpace::Private), 0x119E);
        assert_eq!(access_qualifier(Some(Access::WriteOnly)), 0x11A1);
        assert_eq!(access_qualifier(None), 0x11A3);
        assert_eq!(c_string("float*"), b"float*\0");
    }
}
