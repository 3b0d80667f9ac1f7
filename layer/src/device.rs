//! Which devices the layer serves, and what their queries answer: `cl_khr_spir` in the
//! extension strings (and `CL_DEVICE_EXTENSIONS_WITH_VERSION`), and `CL_DEVICE_SPIR_VERSIONS`
//! "1.2" ("1.2 2.0" for an OpenCL 2.x or 3.0 device).

use std::collections::HashMap;
use std::ffi::c_void;
use std::ptr;
use std::sync::Mutex;

use crate::cl::*;
use crate::{answer, ask, next};

/// How the layer gives a device a SPIR binary's program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Road {
    /// As SPIR-V (`clCreateProgramWithIL`), for a device that takes it.
    Il,
    /// As OpenCL C source (`clCreateProgramWithSource`), for a device that takes no IL (or
    /// every device, with `SPIR_XLATE_LAYER=source`).
    Source,
}

/// What the layer knows of a device, asked once.
#[derive(Clone)]
pub(crate) struct Facts {
    /// The layer translates SPIR for it.
    pub served: bool,
    /// How.
    pub road: Road,
    /// Its OpenCL version (`CL_DEVICE_VERSION`'s "OpenCL M.N").
    pub version: (u32, u32),
    /// The highest SPIR-V version it takes (`CL_DEVICE_IL_VERSION`).
    pub spirv: Option<(u8, u8)>,
}

static FACTS: Mutex<Option<HashMap<usize, Facts>>> = Mutex::new(None);

/// A device query's answer from the next layer, as bytes.
unsafe fn device_info(device: Handle, param: cl_uint) -> Option<Vec<u8>> {
    // SAFETY: the API's function at its index.
    let f: GetDeviceInfo = unsafe { next().get(GET_DEVICE_INFO) }?;
    // SAFETY: the application's device, asked with buffers `ask` sizes.
    unsafe { ask(|size, value, size_ret| f(device, param, size, value, size_ret)) }.ok()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes.split(|&b| b == 0).next().unwrap_or(&[])).into_owned()
}

/// The facts of `device` (asked of the next layer the first time).
pub(crate) unsafe fn facts(device: Handle) -> Facts {
    if let Some(f) = FACTS
        .lock()
        .ok()
        .and_then(|m| m.as_ref()?.get(&(device as usize)).cloned())
    {
        return f;
    }
    // SAFETY: a device handle from the application, asked through the next layer.
    let (il, ext, ver) = unsafe {
        (
            device_info(device, CL_DEVICE_IL_VERSION)
                .map(|b| text(&b))
                .unwrap_or_default(),
            device_info(device, CL_DEVICE_EXTENSIONS)
                .map(|b| text(&b))
                .unwrap_or_default(),
            device_info(device, CL_DEVICE_VERSION)
                .map(|b| text(&b))
                .unwrap_or_default(),
        )
    };
    let spirv = il
        .split_whitespace()
        .filter_map(|v| v.strip_prefix("SPIR-V_"))
        .filter_map(|v| {
            let (a, b) = v.split_once('.')?;
            Some((a.parse().ok()?, b.parse().ok()?))
        })
        .max();
    let mode = std::env::var("SPIR_XLATE_LAYER").unwrap_or_default();
    let always = mode == "always" || mode == "source";
    let native = ext.split_whitespace().any(|e| e == "cl_khr_spir");
    // Every OpenCL device compiles source: one without SPIR-V gets OpenCL C.
    let road = if mode == "source" || spirv.is_none() {
        Road::Source
    } else {
        Road::Il
    };
    let version = ver
        .strip_prefix("OpenCL ")
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.split_once('.'))
        .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
        .unwrap_or((1, 2));
    let f = Facts {
        served: always || !native,
        road,
        version,
        spirv,
    };
    if !f.served {
        // SAFETY: as above.
        let name =
            unsafe { device_info(device, CL_DEVICE_NAME) }.map_or_else(String::new, |b| text(&b));
        crate::program::log(&format!(
            "device '{name}': the driver has cl_khr_spir itself: the layer stands aside \
             (SPIR_XLATE_LAYER=always translates for it anyway)"
        ));
    }
    if let Ok(mut m) = FACTS.lock() {
        m.get_or_insert_with(HashMap::new)
            .insert(device as usize, f.clone());
    }
    f
}

/// `list` (a space-separated extension string, NUL-terminated) with `cl_khr_spir` in it.
fn with_spir(list: &[u8]) -> Vec<u8> {
    let mut s = text(list);
    if !s.split_whitespace().any(|e| e == "cl_khr_spir") {
        if !s.is_empty() && !s.ends_with(' ') {
            s.push(' ');
        }
        s.push_str("cl_khr_spir");
    }
    let mut out = s.into_bytes();
    out.push(0);
    out
}

/// `clGetDeviceInfo`, with `cl_khr_spir` and the SPIR versions for a served device.
pub(crate) unsafe extern "C" fn get_device_info(
    device: Handle,
    param: cl_uint,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    let patched = match param {
        CL_DEVICE_EXTENSIONS | CL_DEVICE_SPIR_VERSIONS | CL_DEVICE_EXTENSIONS_WITH_VERSION => {
            // SAFETY: the application's device.
            let f = unsafe { facts(device) };
            if !f.served {
                None
            } else if param == CL_DEVICE_SPIR_VERSIONS {
                Some(
                    if f.version.0 >= 2 {
                        &b"1.2 2.0\0"[..]
                    } else {
                        &b"1.2\0"[..]
                    }
                    .to_vec(),
                )
            } else if param == CL_DEVICE_EXTENSIONS {
                unsafe { device_info(device, param) }.map(|b| with_spir(&b))
            } else {
                // cl_name_version: a version (CL_MAKE_VERSION 1.0.0) and a 64-byte name,
                // added where the driver does not list it.
                unsafe { device_info(device, param) }.map(|mut b| {
                    let listed = b
                        .chunks_exact(4 + 64)
                        .any(|e| text(&e[4..]) == "cl_khr_spir");
                    if !listed {
                        let mut name = b"cl_khr_spir".to_vec();
                        name.resize(64, 0);
                        b.extend((1u32 << 22).to_ne_bytes());
                        b.extend(name);
                    }
                    b
                })
            }
        }
        _ => None,
    };
    match patched {
        Some(bytes) => unsafe { answer(&bytes, size, value, size_ret) },
        None => {
            // SAFETY: the API's function at its index, with the caller's arguments.
            match unsafe { next().get::<GetDeviceInfo>(GET_DEVICE_INFO) } {
                Some(f) => unsafe { f(device, param, size, value, size_ret) },
                None => CL_INVALID_VALUE,
            }
        }
    }
}

/// `clGetPlatformInfo`, with `cl_khr_spir` where the layer serves a device of the platform.
pub(crate) unsafe extern "C" fn get_platform_info(
    platform: Handle,
    param: cl_uint,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    // SAFETY: the API's functions at their indices.
    let Some(f) = (unsafe { next().get::<GetPlatformInfo>(GET_PLATFORM_INFO) }) else {
        return CL_INVALID_VALUE;
    };
    if param != CL_PLATFORM_EXTENSIONS || !unsafe { serves_a_device_of(platform) } {
        return unsafe { f(platform, param, size, value, size_ret) };
    }
    // SAFETY: the application's platform, asked with buffers `ask` sizes; where asking fails,
    // the driver answers the caller itself.
    unsafe {
        match ask(|n, v, r| f(platform, param, n, v, r)) {
            Ok(buf) => answer(&with_spir(&buf), size, value, size_ret),
            Err(_) => f(platform, param, size, value, size_ret),
        }
    }
}

/// Whether the layer serves some device of `platform`.
unsafe fn serves_a_device_of(platform: Handle) -> bool {
    // SAFETY: the API's function at its index; a count query, then that many handles.
    unsafe {
        let Some(ids) = next().get::<GetDeviceIds>(GET_DEVICE_IDS) else {
            return false;
        };
        let mut n: cl_uint = 0;
        if ids(platform, CL_DEVICE_TYPE_ALL, 0, ptr::null_mut(), &mut n) != CL_SUCCESS {
            return false;
        }
        let mut devices = vec![ptr::null_mut(); n as usize];
        if ids(
            platform,
            CL_DEVICE_TYPE_ALL,
            n,
            devices.as_mut_ptr(),
            ptr::null_mut(),
        ) != CL_SUCCESS
        {
            return false;
        }
        devices.into_iter().any(|d| facts(d).served)
    }
}
