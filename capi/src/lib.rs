//! The C interface of spir-xlate: [`spir_xlate_translate`] over bytes, with options set by
//! name, and a result object holding the output, the facts it does not keep and, on
//! failure, a message that names the input's construct. Everything a call returns is owned
//! by the object it came from and freed with it; nothing is global, so calls may run on
//! any number of threads at once (each translation runs in a contained child process, as
//! the Rust library's does).
//!
//! `spir_xlate.h` is generated from this file by cbindgen (build.rs); the C test in
//! `tests/` calls every function under valgrind.
//!
//! # Safety
//!
//! Every function takes what C hands it. Each one checks for null pointers and answers an
//! error (or does nothing) where one is given; beyond that it relies on the contract its
//! comment states (a pointer to `len` readable bytes, a NUL-terminated string, an object this
//! library made and has not freed). The objects are Rust boxes turned into raw pointers and
//! back exactly once, in their `_free` function.

#![allow(clippy::missing_safety_doc)]

use std::ffi::{c_char, CStr, CString};
use std::ptr;

use xlate::{ErrorKind, Input, OpenclCOptions, Options, SpirOptions, Translation};

/// The direction of a translation.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum SpirXlateDirection {
    /// SPIR (LLVM bitcode or text; SPIR-V is read too) to SPIR-V.
    SPIR_XLATE_TO_SPIRV = 0,
    /// SPIR-V to SPIR bitcode (or LLVM IR text with the option `text`).
    SPIR_XLATE_TO_SPIR = 1,
    /// SPIR or SPIR-V to OpenCL C source, for drivers that take only source (its first
    /// line names the `-cl-std=` to build it with).
    SPIR_XLATE_TO_OPENCL_C = 2,
}

/// What became of a translation.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum SpirXlateStatus {
    /// The output is there.
    SPIR_XLATE_OK = 0,
    /// The input is not a well-formed module.
    SPIR_XLATE_MALFORMED = 1,
    /// The input uses something the target cannot say (the message names it).
    SPIR_XLATE_UNSUPPORTED = 2,
    /// The translation ran past its time or memory limit.
    SPIR_XLATE_LIMIT = 3,
    /// A bad argument: a null pointer, an unknown option or value.
    SPIR_XLATE_INVALID_ARGUMENT = 4,
    /// A fault of spir-xlate's (please report it, with the input).
    SPIR_XLATE_INTERNAL = 5,
}

/// A translation's direction and options, made by [`spir_xlate_options_new`].
pub struct SpirXlateOptions {
    translation: Translation,
}

/// A translation's outcome, made by [`spir_xlate_translate`].
pub struct SpirXlateResult {
    status: SpirXlateStatus,
    bytes: Vec<u8>,
    message: Option<CString>,
    lost: Vec<CString>,
    reflection: Option<CString>,
}

/// Text for C: interior NULs (which no message of ours holds) become spaces.
fn c_text(s: String) -> CString {
    CString::new(s.replace('\0', " ")).unwrap_or_default()
}

fn failure(status: SpirXlateStatus, message: String) -> *mut SpirXlateResult {
    Box::into_raw(Box::new(SpirXlateResult {
        status,
        bytes: Vec::new(),
        message: Some(c_text(message)),
        lost: Vec::new(),
        reflection: None,
    }))
}

/// The library's version, `MAJOR.MINOR.PATCH` (a static string).
#[no_mangle]
pub extern "C" fn spir_xlate_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

/// New options for a translation in `direction`, all at their defaults (those of the
/// command line). Free them with [`spir_xlate_options_free`].
#[no_mangle]
pub extern "C" fn spir_xlate_options_new(direction: SpirXlateDirection) -> *mut SpirXlateOptions {
    let translation = match direction {
        SpirXlateDirection::SPIR_XLATE_TO_SPIRV => Translation::ToSpirv(Options::default()),
        SpirXlateDirection::SPIR_XLATE_TO_SPIR => Translation::ToSpir(SpirOptions::default()),
        SpirXlateDirection::SPIR_XLATE_TO_OPENCL_C => {
            Translation::ToOpenclC(OpenclCOptions::default())
        }
    };
    Box::into_raw(Box::new(SpirXlateOptions { translation }))
}

/// Set option `name` to `value`, both as the command line spells them (`"target"`,
/// `"vulkan1.2"`; `"flavor"`, `"spirv-ir"`; `"text"`, `"yes"`; docs/c-api.md lists them).
/// Answers `SPIR_XLATE_OK`, or `SPIR_XLATE_INVALID_ARGUMENT` for an unknown option, a value
/// it does not take or a null pointer; with `message` not null, `*message` is then a string
/// saying why, to free with [`spir_xlate_string_free`] (null on success).
///
/// `options` comes from [`spir_xlate_options_new`]; `name` and `value` are NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn spir_xlate_options_set(
    options: *mut SpirXlateOptions,
    name: *const c_char,
    value: *const c_char,
    message: *mut *mut c_char,
) -> SpirXlateStatus {
    let outcome = if options.is_null() || name.is_null() || value.is_null() {
        Err("a null options, name or value".to_string())
    } else {
        // SAFETY: non-null, and by the contract an object of ours and two C strings.
        let (o, n, v) = unsafe { (&mut *options, CStr::from_ptr(name), CStr::from_ptr(value)) };
        match (n.to_str(), v.to_str()) {
            (Ok(n), Ok(v)) => o.translation.set(n, v),
            _ => Err("an option name or value that is not UTF-8".to_string()),
        }
    };
    let (status, text) = match outcome {
        Ok(()) => (SpirXlateStatus::SPIR_XLATE_OK, None),
        Err(e) => (SpirXlateStatus::SPIR_XLATE_INVALID_ARGUMENT, Some(e)),
    };
    if !message.is_null() {
        // SAFETY: a non-null place to write a pointer to, by the contract.
        unsafe {
            *message = text.map_or(ptr::null_mut(), |t| c_text(t).into_raw());
        }
    }
    status
}

/// Free options made by [`spir_xlate_options_new`] (null: nothing happens).
#[no_mangle]
pub unsafe extern "C" fn spir_xlate_options_free(options: *mut SpirXlateOptions) {
    if !options.is_null() {
        // SAFETY: made by `Box::into_raw` in `spir_xlate_options_new`, freed once.
        drop(unsafe { Box::from_raw(options) });
    }
}

/// Free a string this library handed out (null: nothing happens).
#[no_mangle]
pub unsafe extern "C" fn spir_xlate_string_free(s: *mut c_char) {
    if !s.is_null() {
        // SAFETY: made by `CString::into_raw` here, freed once.
        drop(unsafe { CString::from_raw(s) });
    }
}

/// Translate the `len` bytes at `input` (a module: SPIR bitcode, LLVM IR text or SPIR-V)
/// as `options` say. Never null: the result holds the output or says why there is none;
/// free it with [`spir_xlate_result_free`]. The input is copied before the call returns.
#[no_mangle]
pub unsafe extern "C" fn spir_xlate_translate(
    input: *const u8,
    len: usize,
    options: *const SpirXlateOptions,
) -> *mut SpirXlateResult {
    if input.is_null() || options.is_null() {
        return failure(
            SpirXlateStatus::SPIR_XLATE_INVALID_ARGUMENT,
            "a null input or options".to_string(),
        );
    }
    // SAFETY: by the contract, `len` readable bytes at `input` and options of ours.
    let (bytes, options) = unsafe { (std::slice::from_raw_parts(input, len), &*options) };
    match xlate::translate(Input::Bytes(bytes), &options.translation) {
        Ok(out) => Box::into_raw(Box::new(SpirXlateResult {
            status: SpirXlateStatus::SPIR_XLATE_OK,
            bytes: out.bytes,
            message: None,
            lost: out.lost.iter().map(|l| c_text(l.to_string())).collect(),
            reflection: out.reflection.map(c_text),
        })),
        Err(e) => {
            let status = match e.kind {
                ErrorKind::Malformed(_) | ErrorKind::Io(_) => SpirXlateStatus::SPIR_XLATE_MALFORMED,
                ErrorKind::Unsupported(_)
                | ErrorKind::UnknownBuiltin { .. }
                | ErrorKind::VersionTooLow { .. } => SpirXlateStatus::SPIR_XLATE_UNSUPPORTED,
                ErrorKind::Limit(_) => SpirXlateStatus::SPIR_XLATE_LIMIT,
                _ => SpirXlateStatus::SPIR_XLATE_INTERNAL,
            };
            // The caller says it is an error in its own words: no "error: " of ours.
            let text = e.to_string();
            let text = text.strip_prefix("error: ").unwrap_or(&text).to_string();
            failure(status, text)
        }
    }
}

/// Borrow a result made by [`spir_xlate_translate`], or `None` for null.
unsafe fn result<'a>(r: *const SpirXlateResult) -> Option<&'a SpirXlateResult> {
    // SAFETY: null, or by the contract a result of ours not yet freed.
    unsafe { r.as_ref() }
}

/// What became of the translation (`SPIR_XLATE_INVALID_ARGUMENT` for a null result).
#[no_mangle]
pub unsafe extern "C" fn spir_xlate_result_status(r: *const SpirXlateResult) -> SpirXlateStatus {
    unsafe { result(r) }.map_or(SpirXlateStatus::SPIR_XLATE_INVALID_ARGUMENT, |r| r.status)
}

/// The output module and its length in `*len` (null and 0 when there is none). The bytes
/// belong to the result.
#[no_mangle]
pub unsafe extern "C" fn spir_xlate_result_bytes(
    r: *const SpirXlateResult,
    len: *mut usize,
) -> *const u8 {
    let (p, n) = match unsafe { result(r) } {
        Some(r) if r.status == SpirXlateStatus::SPIR_XLATE_OK => (r.bytes.as_ptr(), r.bytes.len()),
        _ => (ptr::null(), 0),
    };
    if !len.is_null() {
        // SAFETY: a non-null place for the length, by the contract.
        unsafe { *len = n };
    }
    p
}

/// Why there is no output: the error as the command line prints it, naming the construct
/// and where it is (null on success). The string belongs to the result.
#[no_mangle]
pub unsafe extern "C" fn spir_xlate_result_message(r: *const SpirXlateResult) -> *const c_char {
    unsafe { result(r) }
        .and_then(|r| r.message.as_ref())
        .map_or(ptr::null(), |m| m.as_ptr())
}

/// How many facts of the input the output does not keep (the command line's warnings).
#[no_mangle]
pub unsafe extern "C" fn spir_xlate_result_lost_count(r: *const SpirXlateResult) -> usize {
    unsafe { result(r) }.map_or(0, |r| r.lost.len())
}

/// Fact `i` the output does not keep, in words (null past the count). The string belongs
/// to the result.
#[no_mangle]
pub unsafe extern "C" fn spir_xlate_result_lost(
    r: *const SpirXlateResult,
    i: usize,
) -> *const c_char {
    unsafe { result(r) }
        .and_then(|r| r.lost.get(i))
        .map_or(ptr::null(), |l| l.as_ptr())
}

/// For a Vulkan target, the kernel interface as JSON (what the module's
/// NonSemantic.ClspvReflection says); null otherwise. The string belongs to the result.
#[no_mangle]
pub unsafe extern "C" fn spir_xlate_result_reflection(r: *const SpirXlateResult) -> *const c_char {
    unsafe { result(r) }
        .and_then(|r| r.reflection.as_ref())
        .map_or(ptr::null(), |j| j.as_ptr())
}

/// Free a result and everything borrowed from it (null: nothing happens).
#[no_mangle]
pub unsafe extern "C" fn spir_xlate_result_free(r: *mut SpirXlateResult) {
    if !r.is_null() {
        // SAFETY: made by `Box::into_raw` in this library, freed once.
        drop(unsafe { Box::from_raw(r) });
    }
}
