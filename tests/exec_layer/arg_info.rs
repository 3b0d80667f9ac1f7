//! What `clGetKernelArgInfo` says of a kernel's arguments, one line each (address, access
//! and type qualifiers, type name, name), for the layer tier to compare a program the layer
//! made from SPIR with the kernel's source built with `-cl-kernel-arg-info`.

use std::ffi::{c_void, CString};
use std::ptr::null_mut;

use super::cl::Program;

type Handle = *mut c_void;

#[link(name = "OpenCL")]
extern "C" {
    fn clCreateKernel(p: Handle, name: *const i8, err: *mut i32) -> Handle;
    fn clReleaseKernel(k: Handle) -> i32;
    fn clGetKernelInfo(
        k: Handle,
        param: u32,
        size: usize,
        value: *mut c_void,
        size_ret: *mut usize,
    ) -> i32;
    fn clGetKernelArgInfo(
        k: Handle,
        i: u32,
        param: u32,
        size: usize,
        value: *mut c_void,
        size_ret: *mut usize,
    ) -> i32;
}

const CL_KERNEL_NUM_ARGS: u32 = 0x1191;
const CL_KERNEL_ARG_ADDRESS_QUALIFIER: u32 = 0x1196;
const CL_KERNEL_ARG_ACCESS_QUALIFIER: u32 = 0x1197;
const CL_KERNEL_ARG_TYPE_NAME: u32 = 0x1198;
const CL_KERNEL_ARG_TYPE_QUALIFIER: u32 = 0x1199;
const CL_KERNEL_ARG_NAME: u32 = 0x119A;
const CL_KERNEL_ARG_INFO_NOT_AVAILABLE: i32 = -19;

/// The answers for each argument of `kernel` in `program`; `None` where the driver has no
/// argument info at all.
pub fn of(program: &Program, kernel: &str) -> Result<Option<Vec<String>>, String> {
    let name = CString::new(kernel).unwrap();
    let mut err = 0;
    // SAFETY: a built program and a NUL-terminated name.
    let k = unsafe { clCreateKernel(program.handle(), name.as_ptr(), &mut err) };
    if err != 0 {
        return Err(format!("clCreateKernel({kernel}): {err}"));
    }
    let result = lines(k);
    // SAFETY: the kernel made above.
    unsafe { clReleaseKernel(k) };
    result
}

fn lines(k: Handle) -> Result<Option<Vec<String>>, String> {
    let mut count = 0u32;
    // SAFETY: 4 bytes for a cl_uint.
    let st = unsafe {
        clGetKernelInfo(
            k,
            CL_KERNEL_NUM_ARGS,
            4,
            (&mut count as *mut u32).cast(),
            null_mut(),
        )
    };
    if st != 0 {
        return Err(format!("CL_KERNEL_NUM_ARGS: {st}"));
    }
    let mut out = Vec::new();
    for i in 0..count {
        let address = match word(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, 4) {
            Err(CL_KERNEL_ARG_INFO_NOT_AVAILABLE) => return Ok(None),
            w => w.map_err(|st| format!("argument {i}: CL_KERNEL_ARG_ADDRESS_QUALIFIER: {st}"))?,
        };
        let access = word(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, 4)
            .map_err(|st| format!("argument {i}: CL_KERNEL_ARG_ACCESS_QUALIFIER: {st}"))?;
        let quals = word(k, i, CL_KERNEL_ARG_TYPE_QUALIFIER, 8)
            .map_err(|st| format!("argument {i}: CL_KERNEL_ARG_TYPE_QUALIFIER: {st}"))?;
        let type_name = text(k, i, CL_KERNEL_ARG_TYPE_NAME)
            .map_err(|st| format!("argument {i}: CL_KERNEL_ARG_TYPE_NAME: {st}"))?;
        let name = match text(k, i, CL_KERNEL_ARG_NAME) {
            Err(CL_KERNEL_ARG_INFO_NOT_AVAILABLE) => "(not available)".to_string(),
            n => n.map_err(|st| format!("argument {i}: CL_KERNEL_ARG_NAME: {st}"))?,
        };
        out.push(format!(
            "argument {i}: address {address:#x} access {access:#x} qualifiers {quals:#x} \
             type {type_name} name {name}"
        ));
    }
    Ok(Some(out))
}

/// A number-valued answer of `bytes` bytes.
fn word(k: Handle, i: u32, param: u32, bytes: usize) -> Result<u64, i32> {
    let mut v = 0u64;
    // SAFETY: `bytes` (at most 8) writable bytes at `v`.
    let st =
        unsafe { clGetKernelArgInfo(k, i, param, bytes, (&mut v as *mut u64).cast(), null_mut()) };
    if st == 0 {
        Ok(v)
    } else {
        Err(st)
    }
}

/// A string answer.
fn text(k: Handle, i: u32, param: u32) -> Result<String, i32> {
    let mut buf = vec![0u8; 1024];
    let mut len = 0;
    // SAFETY: `buf.len()` writable bytes.
    let st =
        unsafe { clGetKernelArgInfo(k, i, param, buf.len(), buf.as_mut_ptr().cast(), &mut len) };
    if st != 0 {
        return Err(st);
    }
    buf.truncate(len.saturating_sub(1));
    Ok(String::from_utf8_lossy(&buf).into_owned())
}
