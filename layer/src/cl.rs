//! The parts of the OpenCL API the layer speaks: types, the query and status numbers it
//! uses, and the dispatch table (`cl_icd_dispatch` of `CL/cl_icd.h`: one function pointer
//! per API function, in the header's order; `tests/dispatch.rs` checks the indices here
//! against the header).

#![allow(non_camel_case_types)]

use std::ffi::{c_char, c_void};

pub type cl_int = i32;
pub type cl_uint = u32;
pub type Handle = *mut c_void;

pub const CL_SUCCESS: cl_int = 0;
pub const CL_INVALID_VALUE: cl_int = -30;
pub const CL_INVALID_BINARY: cl_int = -42;
pub const CL_INVALID_ARG_INDEX: cl_int = -49;
pub const CL_KERNEL_ARG_INFO_NOT_AVAILABLE: cl_int = -19;

pub const CL_PLATFORM_EXTENSIONS: cl_uint = 0x0904;
pub const CL_DEVICE_VERSION: cl_uint = 0x102F;
pub const CL_DEVICE_NAME: cl_uint = 0x102B;
pub const CL_DEVICE_EXTENSIONS: cl_uint = 0x1030;
pub const CL_DEVICE_IL_VERSION: cl_uint = 0x105B;
pub const CL_DEVICE_EXTENSIONS_WITH_VERSION: cl_uint = 0x1060;
pub const CL_DEVICE_SPIR_VERSIONS: cl_uint = 0x40E0;
pub const CL_PROGRAM_BUILD_LOG: cl_uint = 0x1183;
pub const CL_DEVICE_TYPE_ALL: u64 = 0xFFFF_FFFF;
pub const CL_KERNEL_FUNCTION_NAME: cl_uint = 0x1190;
pub const CL_KERNEL_PROGRAM: cl_uint = 0x1194;
pub const CL_KERNEL_ARG_ADDRESS_QUALIFIER: cl_uint = 0x1196;
pub const CL_KERNEL_ARG_ACCESS_QUALIFIER: cl_uint = 0x1197;
pub const CL_KERNEL_ARG_TYPE_NAME: cl_uint = 0x1198;
pub const CL_KERNEL_ARG_TYPE_QUALIFIER: cl_uint = 0x1199;
pub const CL_KERNEL_ARG_NAME: cl_uint = 0x119A;
pub const CL_KERNEL_ARG_ADDRESS_GLOBAL: cl_uint = 0x119B;
pub const CL_KERNEL_ARG_ADDRESS_LOCAL: cl_uint = 0x119C;
pub const CL_KERNEL_ARG_ADDRESS_CONSTANT: cl_uint = 0x119D;
pub const CL_KERNEL_ARG_ADDRESS_PRIVATE: cl_uint = 0x119E;
pub const CL_KERNEL_ARG_ACCESS_READ_ONLY: cl_uint = 0x11A0;
pub const CL_KERNEL_ARG_ACCESS_WRITE_ONLY: cl_uint = 0x11A1;
pub const CL_KERNEL_ARG_ACCESS_READ_WRITE: cl_uint = 0x11A2;
pub const CL_KERNEL_ARG_ACCESS_NONE: cl_uint = 0x11A3;

/// Indices in `cl_icd_dispatch` of the entries the layer calls or replaces.
pub const GET_PLATFORM_INFO: usize = 1;
pub const GET_DEVICE_IDS: usize = 2;
pub const GET_DEVICE_INFO: usize = 3;
pub const CREATE_PROGRAM_WITH_SOURCE: usize = 26;
pub const CREATE_PROGRAM_WITH_BINARY: usize = 27;
pub const BUILD_PROGRAM: usize = 30;
pub const GET_PROGRAM_BUILD_INFO: usize = 33;
pub const GET_KERNEL_INFO: usize = 39;
pub const COMPILE_PROGRAM: usize = 98;
pub const GET_KERNEL_ARG_INFO: usize = 101;
pub const CREATE_PROGRAM_WITH_IL: usize = 138;

pub type GetPlatformInfo =
    unsafe extern "C" fn(Handle, cl_uint, usize, *mut c_void, *mut usize) -> cl_int;
pub type GetDeviceIds =
    unsafe extern "C" fn(Handle, u64, cl_uint, *mut Handle, *mut cl_uint) -> cl_int;
pub type GetDeviceInfo =
    unsafe extern "C" fn(Handle, cl_uint, usize, *mut c_void, *mut usize) -> cl_int;
pub type CreateProgramWithBinary = unsafe extern "C" fn(
    Handle,
    cl_uint,
    *const Handle,
    *const usize,
    *const *const u8,
    *mut cl_int,
    *mut cl_int,
) -> Handle;
pub type BuildProgram = unsafe extern "C" fn(
    Handle,
    cl_uint,
    *const Handle,
    *const c_char,
    *const c_void,
    *mut c_void,
) -> cl_int;
pub type CompileProgram = unsafe extern "C" fn(
    Handle,
    cl_uint,
    *const Handle,
    *const c_char,
    cl_uint,
    *const Handle,
    *const *const c_char,
    *const c_void,
    *mut c_void,
) -> cl_int;
pub type GetProgramBuildInfo =
    unsafe extern "C" fn(Handle, Handle, cl_uint, usize, *mut c_void, *mut usize) -> cl_int;
pub type CreateProgramWithSource = unsafe extern "C" fn(
    Handle,
    cl_uint,
    *const *const c_char,
    *const usize,
    *mut cl_int,
) -> Handle;
pub type GetKernelInfo =
    unsafe extern "C" fn(Handle, cl_uint, usize, *mut c_void, *mut usize) -> cl_int;
pub type GetKernelArgInfo =
    unsafe extern "C" fn(Handle, cl_uint, cl_uint, usize, *mut c_void, *mut usize) -> cl_int;
pub type CreateProgramWithIl =
    unsafe extern "C" fn(Handle, *const c_void, usize, *mut cl_int) -> Handle;

/// A dispatch table: the function pointers, in the header's order.
pub struct Dispatch(Vec<*const c_void>);

// SAFETY: function pointers into loaded libraries, never written after the table is made.
unsafe impl Send for Dispatch {}
// SAFETY: as above; shared reads only.
unsafe impl Sync for Dispatch {}

impl Dispatch {
    /// A table with no entries.
    pub fn empty() -> Dispatch {
        Dispatch(Vec::new())
    }

    /// A copy of the `n` entries at `table`.
    ///
    /// # Safety
    /// `table` points to `n` function pointers.
    pub unsafe fn copy(table: *const c_void, n: usize) -> Dispatch {
        // SAFETY: `n` pointers at `table`, by the contract.
        Dispatch(unsafe { std::slice::from_raw_parts(table.cast::<*const c_void>(), n) }.to_vec())
    }

    /// This table with the layer's functions in the entries it intercepts (where the table
    /// has them).
    pub fn with_overrides(&self) -> Dispatch {
        let mut t = self.0.clone();
        let ours: [(usize, *const c_void); 7] = [
            (
                GET_PLATFORM_INFO,
                crate::device::get_platform_info as *const c_void,
            ),
            (
                GET_DEVICE_INFO,
                crate::device::get_device_info as *const c_void,
            ),
            (
                CREATE_PROGRAM_WITH_BINARY,
                crate::program::create_program_with_binary as *const c_void,
            ),
            (
                BUILD_PROGRAM,
                crate::program::build_program as *const c_void,
            ),
            (
                GET_PROGRAM_BUILD_INFO,
                crate::program::get_program_build_info as *const c_void,
            ),
            (
                COMPILE_PROGRAM,
                crate::program::compile_program as *const c_void,
            ),
            (
                GET_KERNEL_ARG_INFO,
                crate::kernel::get_kernel_arg_info as *const c_void,
            ),
        ];
        for (i, f) in ours {
            if let Some(slot) = t.get_mut(i) {
                *slot = f;
            }
        }
        Dispatch(t)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn as_ptr(&self) -> *const c_void {
        self.0.as_ptr().cast()
    }

    /// Entry `i` as a function of type `F`, where the table has a non-null one.
    ///
    /// # Safety
    /// `F` is the type of the API function at index `i`.
    pub unsafe fn get<F: Copy>(&self, i: usize) -> Option<F> {
        let p = *self.0.get(i)?;
        if p.is_null() {
            return None;
        }
        // SAFETY: a function pointer of type `F` (the contract), as a pointer-sized value.
        Some(unsafe { std::mem::transmute_copy::<*const c_void, F>(&p) })
    }
}
