//! `libspir_xlate_layer.so`: an OpenCL loader layer (`cl_loader_layers`) that gives
//! `cl_khr_spir` to drivers that take SPIR-V but not SPIR. Loaded with
//! `OPENCL_LAYERS=/path/to/libspir_xlate_layer.so` (ocl-icd and the Khronos loader), it sits
//! between an unmodified application and the driver:
//!
//! * `clGetPlatformInfo`/`clGetDeviceInfo` list `cl_khr_spir` and answer
//!   `CL_DEVICE_SPIR_VERSIONS` for every device it serves (`device.rs`);
//! * `clCreateProgramWithBinary` given SPIR bitcode translates it to SPIR-V for the device
//!   and creates the program with `clCreateProgramWithIL`; other binaries pass through
//!   (`program.rs`);
//! * `clBuildProgram`/`clCompileProgram` of such a program drop `-x spir` and `-spir-std=`,
//!   and `clGetProgramBuildInfo` puts the translation's warnings before the driver's log;
//! * `clGetKernelArgInfo` of its kernels answers from the SPIR's argument metadata, as a
//!   driver's own SPIR path does (`kernel.rs`).
//!
//! A device is served when it takes SPIR-V (`CL_DEVICE_IL_VERSION`) and lacks `cl_khr_spir`,
//! or, with `SPIR_XLATE_LAYER=always`, whenever it takes SPIR-V. Every other call goes
//! straight to the next layer or driver. `SPIR_XLATE_LAYER_LOG=<file>` appends one line per
//! intercepted program; translations are kept across runs (`cache.rs`, `SPIR_XLATE_CACHE`).
//!
//! # Safety
//!
//! The layer is C called by C: the loader hands it the next dispatch table once
//! (`clInitLayer`), and the application's calls arrive with the OpenCL API's contracts
//! (valid handles, `param_value_size` bytes at `param_value`, `num_devices` entries in each
//! array). The layer forwards them unchanged except where it writes results itself, and it
//! writes only within the sizes the caller gave.

#![allow(clippy::missing_safety_doc)]

mod cache;
mod cl;
mod device;
mod kernel;
mod program;

use std::ffi::c_void;
use std::sync::OnceLock;

use cl::{cl_int, cl_uint, Dispatch, CL_INVALID_VALUE, CL_SUCCESS};

/// The next layer's (or the driver's) dispatch table, copied at `clInitLayer`.
static NEXT: OnceLock<Dispatch> = OnceLock::new();
/// This layer's table: the next one with the intercepted entries replaced.
static OURS: OnceLock<Dispatch> = OnceLock::new();

/// `clGetLayerInfo` query names and the API version answered.
const CL_LAYER_API_VERSION: cl_uint = 0x4240;
const CL_LAYER_NAME: cl_uint = 0x4241;
const CL_LAYER_API_VERSION_100: cl_uint = 100;

/// The next table (the loader initializes the layer before any call reaches it; should one
/// arrive first, an empty table makes it fail with an error instead of a crash).
pub(crate) fn next() -> &'static Dispatch {
    static EMPTY: OnceLock<Dispatch> = OnceLock::new();
    NEXT.get()
        .unwrap_or_else(|| EMPTY.get_or_init(Dispatch::empty))
}

/// Answer a query's value: its size in `*size_ret`, its bytes in `value` where `size`
/// holds them (`CL_INVALID_VALUE` where it is too small).
pub(crate) unsafe fn answer(
    bytes: &[u8],
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    if !size_ret.is_null() {
        // SAFETY: the caller's place for the size (the API's contract).
        unsafe { *size_ret = bytes.len() };
    }
    if !value.is_null() {
        if size < bytes.len() {
            return CL_INVALID_VALUE;
        }
        // SAFETY: `size` writable bytes at `value`, at least `bytes.len()` (checked).
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), value.cast::<u8>(), bytes.len()) };
    }
    CL_SUCCESS
}

/// A query's whole answer: its size asked first, then its bytes (`query(size, value,
/// size_ret)` as the API's `clGet*Info` functions take them), or the status that failed.
pub(crate) unsafe fn ask(
    query: impl Fn(usize, *mut c_void, *mut usize) -> cl_int,
) -> Result<Vec<u8>, cl_int> {
    let mut n = 0usize;
    let status = query(0, std::ptr::null_mut(), &mut n);
    if status != CL_SUCCESS {
        return Err(status);
    }
    let mut buf = vec![0u8; n];
    let status = query(n, buf.as_mut_ptr().cast(), std::ptr::null_mut());
    if status != CL_SUCCESS {
        return Err(status);
    }
    Ok(buf)
}

/// `clGetLayerInfo`: the layer API version and the layer's name.
#[no_mangle]
pub unsafe extern "C" fn clGetLayerInfo(
    param_name: cl_uint,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    let bytes: Vec<u8> = match param_name {
        CL_LAYER_API_VERSION => CL_LAYER_API_VERSION_100.to_ne_bytes().to_vec(),
        CL_LAYER_NAME => b"spir-xlate: cl_khr_spir for SPIR-V drivers\0".to_vec(),
        _ => return CL_INVALID_VALUE,
    };
    unsafe { answer(&bytes, param_value_size, param_value, param_value_size_ret) }
}

/// `clInitLayer`: keep the next table, hand back ours.
#[no_mangle]
pub unsafe extern "C" fn clInitLayer(
    num_entries: cl_uint,
    target_dispatch: *const c_void,
    num_entries_ret: *mut cl_uint,
    layer_dispatch_ret: *mut *const c_void,
) -> cl_int {
    if target_dispatch.is_null() || num_entries_ret.is_null() || layer_dispatch_ret.is_null() {
        return CL_INVALID_VALUE;
    }
    // SAFETY: the loader's table of `num_entries` function pointers.
    let next = unsafe { Dispatch::copy(target_dispatch, num_entries as usize) };
    let ours = next.with_overrides();
    let _ = NEXT.set(next);
    let table = OURS.get_or_init(|| ours);
    // SAFETY: the loader's places for the answers.
    unsafe {
        *num_entries_ret = table.len() as cl_uint;
        *layer_dispatch_ret = table.as_ptr();
    }
    CL_SUCCESS
}

/// `clInitLayerWithProperties` (the Khronos loader's newer entry point): as `clInitLayer`;
/// the layer takes no properties.
#[no_mangle]
pub unsafe extern "C" fn clInitLayerWithProperties(
    num_entries: cl_uint,
    target_dispatch: *const c_void,
    num_entries_ret: *mut cl_uint,
    layer_dispatch_ret: *mut *const c_void,
    _properties: *const u64,
) -> cl_int {
    unsafe {
        clInitLayer(
            num_entries,
            target_dispatch,
            num_entries_ret,
            layer_dispatch_ret,
        )
    }
}

/// `clDeinitLayer`: nothing to release (the tables live as long as the process).
#[no_mangle]
pub extern "C" fn clDeinitLayer() -> cl_int {
    CL_SUCCESS
}
