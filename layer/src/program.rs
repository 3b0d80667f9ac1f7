//! Programs from SPIR binaries: translated as the application creates them, to SPIR-V for a
//! device that takes it, else to OpenCL C source (the source road: NVIDIA's, AMD's, Apple's
//! drivers); built without the SPIR-only options (with the `-cl-std=` the source needs), their
//! warnings shown in the build log.

use std::collections::HashMap;
use std::ffi::{c_char, c_void, CStr, CString};
use std::io::Write;
use std::ptr;
use std::sync::Mutex;
use std::time::Instant;

use xlate::ir::ArgInfo;
use xlate::{Input, OpenclCOptions, Options, TargetEnv, Translation};

use crate::cl::*;
use crate::device::{facts, Facts, Road};
use crate::{answer, ask, next};

/// What the layer keeps of a program it made from SPIR.
struct Made {
    /// The facts its translation did not keep.
    lost: Vec<String>,
    /// For a program of OpenCL C source, the `-cl-std=` option its build needs.
    cl_std: Option<String>,
    /// The SPIR binary, read again for its kernels' argument metadata when an application
    /// first asks for it (`kernel_args`).
    spir: Vec<u8>,
    /// Each kernel's arguments as the SPIR's metadata says them, once read.
    args: Option<HashMap<String, Vec<ArgInfo>>>,
}

/// The programs the layer made from SPIR.
static PROGRAMS: Mutex<Option<HashMap<usize, Made>>> = Mutex::new(None);

/// The `-cl-std=CLx.y` the first line of our OpenCL C names.
fn cl_std_of(source: &[u8]) -> String {
    let first = source.split(|&b| b == b'\n').next().unwrap_or_default();
    String::from_utf8_lossy(first)
        .split("-cl-std=")
        .nth(1)
        .and_then(|r| r.split(')').next())
        .map_or_else(|| "-cl-std=CL1.2".to_string(), |v| format!("-cl-std={v}"))
}

/// Whether `bytes` are LLVM bitcode (raw, or in the wrapper SPIR producers write).
fn is_bitcode(bytes: &[u8]) -> bool {
    bytes.starts_with(b"BC\xC0\xDE") || bytes.starts_with(&[0xDE, 0xC0, 0x17, 0x0B])
}

/// Append `line` to `SPIR_XLATE_LAYER_LOG`, if it names a file: in one write, so that the
/// lines of threads and processes logging at once never run into each other.
pub(crate) fn log(line: &str) {
    if let Some(path) = std::env::var_os("SPIR_XLATE_LAYER_LOG") {
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            let _ = f.write_all(format!("{line}\n").as_bytes());
        }
    }
}

/// The translation a device takes: SPIR-V for its OpenCL version, no newer than its IL.
fn options_for(f: &Facts) -> Options {
    let target = match f.version {
        (3, _) => TargetEnv::OpenCl30,
        (2, 2) => TargetEnv::OpenCl22,
        _ => TargetEnv::OpenCl21,
    };
    let mut o = Options {
        target,
        ..Options::default()
    };
    if let Some(v) = f.spirv {
        o.spirv_version = Some(v.min(target.max_version()));
    }
    o
}

/// `clCreateProgramWithBinary`: SPIR bitcode for devices the layer serves becomes a program
/// of its SPIR-V translation; anything else goes to the driver untouched.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe extern "C" fn create_program_with_binary(
    context: Handle,
    num_devices: cl_uint,
    devices: *const Handle,
    lengths: *const usize,
    binaries: *const *const u8,
    binary_status: *mut cl_int,
    errcode_ret: *mut cl_int,
) -> Handle {
    // SAFETY: the API's functions at their indices.
    let (Some(pass), with_il, with_source) = (unsafe {
        (
            next().get::<CreateProgramWithBinary>(CREATE_PROGRAM_WITH_BINARY),
            next().get::<CreateProgramWithIl>(CREATE_PROGRAM_WITH_IL),
            next().get::<CreateProgramWithSource>(CREATE_PROGRAM_WITH_SOURCE),
        )
    }) else {
        return ptr::null_mut();
    };
    let through = || unsafe {
        pass(
            context,
            num_devices,
            devices,
            lengths,
            binaries,
            binary_status,
            errcode_ret,
        )
    };
    if num_devices == 0 || devices.is_null() || lengths.is_null() || binaries.is_null() {
        return through();
    }
    // SAFETY: `num_devices` entries in each array (the API's contract).
    let (devs, bins) = unsafe {
        let n = num_devices as usize;
        let devs = std::slice::from_raw_parts(devices, n);
        let lens = std::slice::from_raw_parts(lengths, n);
        let ptrs = std::slice::from_raw_parts(binaries, n);
        let bins: Vec<&[u8]> = ptrs
            .iter()
            .zip(lens)
            .map(|(&p, &l)| {
                if p.is_null() {
                    &[][..]
                } else {
                    std::slice::from_raw_parts(p, l)
                }
            })
            .collect();
        (devs, bins)
    };
    // Every device served, every binary SPIR, and one module for all (a program from IL is
    // one module for the context).
    let all_facts: Vec<Facts> = devs.iter().map(|&d| unsafe { facts(d) }).collect();
    let one = bins.iter().all(|b| *b == bins[0]);
    let road = all_facts[0].road;
    let one_road = all_facts.iter().all(|f| f.road == road);
    if !all_facts.iter().all(|f| f.served)
        || !bins.iter().all(|b| is_bitcode(b))
        || !one
        || !one_road
    {
        return through();
    }
    let started = Instant::now();
    let (outcome, how) = translate_cached(bins[0], &all_facts[0]);
    let ms = started.elapsed().as_millis();
    let head = format!(
        "spir-xlate layer: {} devices, binary of {} bytes (fnv {:016x})",
        devs.len(),
        bins[0].len(),
        crate::cache::fnv(crate::cache::FNV_OFFSET, bins[0])
    );
    let (program, status) = match outcome {
        Ok(entry) => {
            let mut err = CL_INVALID_VALUE;
            let (program, call, cl_std) = match (road, with_il, with_source) {
                // SAFETY: the context and the module's bytes.
                (Road::Il, Some(f), _) => (
                    unsafe {
                        f(
                            context,
                            entry.program.as_ptr().cast(),
                            entry.program.len(),
                            &mut err,
                        )
                    },
                    "clCreateProgramWithIL",
                    None,
                ),
                (Road::Source, _, Some(f)) => {
                    let text = entry.program.as_ptr().cast::<c_char>();
                    let len = entry.program.len();
                    // SAFETY: the context and one string of `len` bytes.
                    let p = unsafe { f(context, 1, &text, &len, &mut err) };
                    let std = cl_std_of(&entry.program);
                    (p, "clCreateProgramWithSource", Some(std))
                }
                _ => (
                    ptr::null_mut(),
                    "the driver's program creation (missing)",
                    None,
                ),
            };
            let road_words = match &cl_std {
                Some(std) => format!(" to OpenCL C ({std})"),
                None => String::new(),
            };
            log(&format!(
                "{head}: {how}{road_words} in {ms} ms; {call} status {err}"
            ));
            if !program.is_null() {
                if let Ok(mut m) = PROGRAMS.lock() {
                    m.get_or_insert_with(HashMap::new).insert(
                        program as usize,
                        Made {
                            lost: entry.lost,
                            cl_std,
                            spir: bins[0].to_vec(),
                            args: None,
                        },
                    );
                }
            }
            (program, err)
        }
        Err(e) => {
            log(&format!("{head}: refused in {ms} ms: {e}"));
            eprintln!("spir-xlate layer: a SPIR binary cannot be translated: {e}");
            (ptr::null_mut(), CL_INVALID_BINARY)
        }
    };
    if !binary_status.is_null() {
        let each = if status == CL_SUCCESS {
            CL_SUCCESS
        } else {
            CL_INVALID_BINARY
        };
        // SAFETY: `num_devices` statuses (the API's contract).
        unsafe { std::slice::from_raw_parts_mut(binary_status, devs.len()) }.fill(each);
    }
    if !errcode_ret.is_null() {
        // SAFETY: the caller's place for the status.
        unsafe { *errcode_ret = status };
    }
    program
}

/// The SPIR-V (or OpenCL C) of `binary` for a device with facts `f`, from the cache or
/// translated now (and kept), with which of the two it was.
fn translate_cached(
    binary: &[u8],
    f: &Facts,
) -> (xlate::Result<crate::cache::Entry>, &'static str) {
    let (translation, ext) = match f.road {
        Road::Il => (Translation::ToSpirv(options_for(f)), "spv"),
        Road::Source => (Translation::ToOpenclC(OpenclCOptions::default()), "cl"),
    };
    let key = format!("{translation:?}");
    if let Some(entry) = crate::cache::get(binary, &key, ext) {
        return (Ok(entry), "taken from the cache");
    }
    let outcome = xlate::translate(Input::Bytes(binary), &translation).map(|out| {
        let entry = crate::cache::Entry {
            program: out.bytes,
            lost: out.lost.iter().map(|l| l.to_string()).collect(),
        };
        crate::cache::put(binary, &key, ext, &entry);
        entry
    });
    (outcome, "translated")
}

/// What the SPIR of `program` says of kernel `kernel`'s arguments: `None` where the layer
/// did not make the program, or its SPIR has no such kernel (the driver answers then).
pub(crate) fn kernel_args(program: Handle, kernel: &str) -> Option<Vec<ArgInfo>> {
    let key = program as usize;
    let spir = {
        let guard = PROGRAMS.lock().ok()?;
        let made = guard.as_ref()?.get(&key)?;
        if let Some(args) = &made.args {
            return args.get(kernel).cloned();
        }
        made.spir.clone()
    };
    // Read outside the lock (the reader runs in a child process); the translation read the
    // same bytes, so this read succeeds as it did.
    let graph = xlate::inspect::graph(Input::Bytes(&spir)).ok()?;
    let args: HashMap<String, Vec<ArgInfo>> = graph
        .kernels
        .iter()
        .map(|k| (graph.functions[k.function].name.clone(), k.args.clone()))
        .collect();
    let answer = args.get(kernel).cloned();
    if let Ok(mut guard) = PROGRAMS.lock() {
        if let Some(made) = guard.as_mut().and_then(|m| m.get_mut(&key)) {
            made.args = Some(args);
            made.spir = Vec::new();
        }
    }
    answer
}

/// Whether the layer made `program` from SPIR.
fn ours(program: Handle) -> bool {
    PROGRAMS.lock().ok().is_some_and(|m| {
        m.as_ref()
            .is_some_and(|m| m.contains_key(&(program as usize)))
    })
}

/// `options` without the SPIR-only ones (`-x spir`, `-spir-std=...`).
unsafe fn without_spir_options(options: *const c_char) -> Option<CString> {
    if options.is_null() {
        return None;
    }
    // SAFETY: a NUL-terminated string (the API's contract).
    let text = unsafe { CStr::from_ptr(options) }
        .to_string_lossy()
        .into_owned();
    let mut kept = Vec::new();
    let mut words = text.split_whitespace().peekable();
    while let Some(w) = words.next() {
        if w == "-x" && words.peek() == Some(&"spir") {
            words.next();
        } else if w == "-xspir" || w.starts_with("-spir-std=") {
        } else {
            kept.push(w);
        }
    }
    CString::new(kept.join(" ")).ok()
}

/// The options the driver gets for `program`: for the layer's programs, `options` without the
/// SPIR-only ones; `None` (the caller's options unchanged) for any other.
unsafe fn driver_options(program: Handle, options: *const c_char) -> Option<CString> {
    if !ours(program) {
        return None;
    }
    let cl_std = PROGRAMS.lock().ok().and_then(|m| {
        m.as_ref()?
            .get(&(program as usize))
            .and_then(|made| made.cl_std.clone())
    });
    let kept = unsafe { without_spir_options(options) };
    match cl_std {
        // The source road: `-x spir -spir-std=` become the `-cl-std=` the source needs.
        Some(std) => {
            let rest = kept
                .map(|k| k.to_string_lossy().into_owned())
                .unwrap_or_default();
            let rest: Vec<&str> = rest
                .split_whitespace()
                .filter(|w| !w.starts_with("-cl-std="))
                .collect();
            CString::new(format!("{std} {}", rest.join(" ")).trim_end()).ok()
        }
        None => kept,
    }
}

/// `clBuildProgram`, without the SPIR-only options for the layer's programs.
pub(crate) unsafe extern "C" fn build_program(
    program: Handle,
    num_devices: cl_uint,
    devices: *const Handle,
    options: *const c_char,
    notify: *const c_void,
    user_data: *mut c_void,
) -> cl_int {
    // SAFETY: the API's function at its index.
    let Some(f) = (unsafe { next().get::<BuildProgram>(BUILD_PROGRAM) }) else {
        return CL_INVALID_VALUE;
    };
    let cleaned = unsafe { driver_options(program, options) };
    let opts = cleaned.as_ref().map_or(options, |c| c.as_ptr());
    unsafe { f(program, num_devices, devices, opts, notify, user_data) }
}

/// `clCompileProgram`, without the SPIR-only options for the layer's programs.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe extern "C" fn compile_program(
    program: Handle,
    num_devices: cl_uint,
    devices: *const Handle,
    options: *const c_char,
    num_headers: cl_uint,
    headers: *const Handle,
    header_names: *const *const c_char,
    notify: *const c_void,
    user_data: *mut c_void,
) -> cl_int {
    // SAFETY: the API's function at its index.
    let Some(f) = (unsafe { next().get::<CompileProgram>(COMPILE_PROGRAM) }) else {
        return CL_INVALID_VALUE;
    };
    let cleaned = unsafe { driver_options(program, options) };
    let opts = cleaned.as_ref().map_or(options, |c| c.as_ptr());
    unsafe {
        f(
            program,
            num_devices,
            devices,
            opts,
            num_headers,
            headers,
            header_names,
            notify,
            user_data,
        )
    }
}

/// `clGetProgramBuildInfo`: for the layer's programs, the build log starts with the facts
/// the translation did not keep.
pub(crate) unsafe extern "C" fn get_program_build_info(
    program: Handle,
    device: Handle,
    param: cl_uint,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    // SAFETY: the API's function at its index.
    let Some(f) = (unsafe { next().get::<GetProgramBuildInfo>(GET_PROGRAM_BUILD_INFO) }) else {
        return CL_INVALID_VALUE;
    };
    let lost = PROGRAMS
        .lock()
        .ok()
        .and_then(|m| Some(m.as_ref()?.get(&(program as usize))?.lost.clone()));
    let (Some(lost), CL_PROGRAM_BUILD_LOG) = (lost, param) else {
        return unsafe { f(program, device, param, size, value, size_ret) };
    };
    // SAFETY: the application's program and device, asked with buffers `ask` sizes.
    let driver = match unsafe { ask(|n, v, r| f(program, device, param, n, v, r)) } {
        Ok(d) => d,
        Err(status) => return status,
    };
    let mut text: String = lost
        .iter()
        .map(|l| format!("spir-xlate: warning: not kept: {l}\n"))
        .collect();
    text.push_str(&String::from_utf8_lossy(
        driver.split(|&b| b == 0).next().unwrap_or(&[]),
    ));
    let mut bytes = text.into_bytes();
    bytes.push(0);
    // SAFETY: the caller's buffer and size (the API's contract).
    unsafe { answer(&bytes, size, value, size_ret) }
}
