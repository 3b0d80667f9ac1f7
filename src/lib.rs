//! spir-xlate: a bidirectional SPIR <-> SPIR-V translator for OpenCL device code.
//!
//! [`translate`] is the entry point: an [`Input`] and a [`Translation`] (the direction and
//! its options) in, an [`Output`] (the module, the facts it does not keep, a Vulkan
//! module's kernel interface) out. [`inspect`] looks inside a module (its graph, SPIR-V's
//! canonical text, a round trip's first difference) and [`migrate`] translates whole
//! directory trees.
//!
//! Inside, readers lower their input into the semantic graph ([`ir`], checked by
//! [`verify`]); writers emit the other side from it. No reader calls a writer. The readers,
//! writers and the Vulkan lowering are private: what they keep and drop is documented in
//! `docs/conventions.md`, and their output reaches users only through [`translate`].
//!
//! The API is versioned by the crate's version: a release that changes anything public here
//! is a new minor version while the crate is 0.x. The `internals` feature opens the stages
//! under `translate` to the crate's own tests; it is not part of that API.

#![warn(missing_docs)]

pub mod diag;
pub mod inspect;
pub mod ir;
pub mod migrate;
pub mod options;
pub mod output;
pub mod settings;
pub mod verify;

mod clc;
mod contain;
mod hash;
mod input;
mod llvm;
mod mappings;
mod normal;
mod pipeline;
mod roundtrip;
mod spir;
mod spv;
mod structurize;
mod vulkan;

#[cfg(feature = "internals")]
pub mod internals;

/// The `spirv` crate (SPIR-V's enumerations, generated from SPIRV-Headers), whose enumerants
/// the graph ([`ir`]) uses where SPIR-V's names are OpenCL's too: built-in variables
/// (`BuiltIn`), scopes, rounding modes, group operations, execution modes. (The graph's
/// operations are its own closed sets, no SPIR-V opcode among them.) It is
/// part of this API on purpose, re-exported so that a user names the same version: a release
/// that moves to another `spirv` version is a breaking release.
pub use ::spirv as spirv_headers;
pub use diag::{Error, ErrorKind, Lost, Result};
pub use input::Input;
pub use options::{
    DebugInfoFormat, Flavor, KernelInfo, Limits, MadForm, OpenclCOptions, Options, SpirForm,
    SpirOptions, TargetEnv, VulkanPointers, DEFAULT_PRINTF_BUFFER_SIZE, DEFAULT_PUSH_CONSTANTS,
    DEFAULT_TIME_LIMIT_SECS,
};

/// README.md's library example, compiled and run by `cargo test`.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeExample;

/// Which way a translation goes, with its options ([`translate`]).
#[derive(Clone, Debug)]
pub enum Translation {
    /// SPIR (bitcode or LLVM IR text; a SPIR-V module is read too) to SPIR-V for
    /// `Options::target`: an OpenCL environment, or a Vulkan one.
    ToSpirv(Options),
    /// SPIR-V to SPIR bitcode (LLVM IR text with `SpirOptions::text`), real SPIR or the
    /// SPIR-V friendly flavor.
    ToSpir(SpirOptions),
    /// SPIR or SPIR-V (decided by content) to OpenCL C source, for drivers that take neither
    /// (`Output::bytes` is the program's UTF-8 text; `Output::opencl_c_version` the
    /// `-cl-std=` it needs).
    ToOpenclC(OpenclCOptions),
}

impl Translation {
    /// Set the option `name` (the command line's long option without `--`) to `value`. To
    /// SPIR-V: `target`, `vulkan-pointers`, `printf-buffer-size`, `max-push-constants`,
    /// `spirv-version`, `debug-info`, `mad`; to SPIR: `flavor`, `spir-version`,
    /// `kernel-info`, `builtins-as-globals`, `text` (the command line's `-S`); either way:
    /// `time-limit`. An option of the other direction, an unknown
    /// one or a bad value is an error saying so.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        match (self, name) {
            (Translation::ToSpirv(o), "time-limit") => o.limits.time = settings::time_limit(value)?,
            (Translation::ToSpir(o), "time-limit") => o.limits.time = settings::time_limit(value)?,
            (Translation::ToOpenclC(o), "time-limit") => {
                o.limits.time = settings::time_limit(value)?
            }
            (Translation::ToSpirv(o), "target") => {
                let target = settings::target(value)?;
                if let Some(v) = o.spirv_version.filter(|&v| v > target.max_version()) {
                    return Err(version_above(v, target));
                }
                o.target = target
            }
            (Translation::ToSpirv(o), "vulkan-pointers") => {
                o.vulkan_pointers = settings::vulkan_pointers(value)?
            }
            (Translation::ToSpirv(o), "printf-buffer-size") => {
                o.printf_buffer_size = Some(settings::printf_buffer_size(value)?)
            }
            (Translation::ToSpirv(o), "max-push-constants") => {
                o.max_push_constants = Some(settings::max_push_constants(value)?)
            }
            (Translation::ToSpirv(o), "spirv-version") => {
                let v = settings::spirv_version(value)?;
                if v > o.target.max_version() {
                    return Err(version_above(v, o.target));
                }
                o.spirv_version = Some(v)
            }
            (Translation::ToSpirv(o), "debug-info") => o.debug_info = settings::debug_info(value)?,
            (Translation::ToSpirv(o), "mad") => o.mad = settings::mad(value)?,
            (Translation::ToSpir(o), "flavor") => o.flavor = settings::flavor(value)?,
            (Translation::ToSpir(o), "spir-version") => {
                o.spir_version = Some(settings::spir_version(value)?)
            }
            (Translation::ToSpir(o), "kernel-info") => {
                o.kernel_info = Some(settings::kernel_info(value)?)
            }
            (Translation::ToSpir(o), "spir-form") => o.form = settings::spir_form(value)?,
            (Translation::ToSpir(o), "builtins-as-globals") => {
                o.builtins_as_globals = settings::switch(value)?
            }
            (Translation::ToSpir(o), "text") => o.text = settings::switch(value)?,
            (t, _) => {
                let direction = match t {
                    Translation::ToSpirv(_) => "to SPIR-V",
                    Translation::ToSpir(_) => "to SPIR",
                    Translation::ToOpenclC(_) => "to OpenCL C",
                };
                return Err(format!(
                    "'{name}' is not an option of a translation {direction}"
                ));
            }
        }
        Ok(())
    }
}

/// A pinned SPIR-V version above what `target` allows, in the command line's words (the
/// target is set first: a version then, checked against it).
fn version_above((major, minor): (u8, u8), target: TargetEnv) -> String {
    let (top_major, top_minor) = target.max_version();
    format!(
        "spirv-version {major}.{minor} is above what target {} allows (SPIR-V \
         {top_major}.{top_minor}); set the target first",
        target.name()
    )
}

/// What a translation made ([`translate`]).
#[derive(Debug)]
pub struct Output {
    /// The module: SPIR-V's words as little-endian bytes, SPIR bitcode, or LLVM IR text.
    pub bytes: Vec<u8>,
    /// The facts of the input the output does not keep, each once (the command line's
    /// warnings; see [`diag::Lost`]).
    pub lost: Vec<diag::Lost>,
    /// For a Vulkan target, the kernel interface as JSON: what the module's
    /// NonSemantic.ClspvReflection instructions say, for a host to bind arguments by.
    pub reflection: Option<String>,
    /// For OpenCL C output, the OpenCL C version the program needs (`(1, 2)` builds with
    /// `-cl-std=CL1.2`).
    pub opencl_c_version: Option<(u32, u32)>,
}

/// Translate `input` (a file, bytes or SPIR-V words: [`Input`]) as `translation` says: the
/// library's entry point. Every output is validated before it is returned (SPIR-V by
/// SPIRV-Tools for its environment, SPIR by LLVM's verifier); the work runs in a contained
/// child process, bounded in time and memory ([`Limits`]), so no input can abort or exhaust
/// the caller; no temporary file is written, no global state is kept, and translations may
/// run on several threads at once.
///
/// ```
/// use spir_xlate::{translate, Options, SpirOptions, TargetEnv, Translation};
///
/// let bitcode = std::fs::read("tests/fixtures/modern/vector_add.spir64.bc").unwrap();
/// // SPIR -> SPIR-V for OpenCL 2.1 drivers...
/// let spirv = translate(&bitcode, &Translation::ToSpirv(Options::default())).unwrap();
/// assert_eq!(spirv.bytes[..4], [0x03, 0x02, 0x23, 0x07]);
/// // ... and back to SPIR.
/// let spir = translate(&spirv.bytes, &Translation::ToSpir(SpirOptions::default())).unwrap();
/// assert_eq!(spir.bytes[..2], *b"BC");
/// // A Vulkan compute module comes with its kernel interface.
/// let vulkan = Options { target: TargetEnv::Vulkan12, ..Default::default() };
/// let out = translate(&bitcode, &Translation::ToSpirv(vulkan)).unwrap();
/// assert!(out.reflection.unwrap().contains("\"vector_add\""));
///
/// // Bad input is an error, never a crash.
/// let err = translate(&bitcode[..100], &Translation::ToSpirv(Options::default())).unwrap_err();
/// assert!(matches!(err.kind, spir_xlate::ErrorKind::Malformed(_)), "{err}");
///
/// // From several threads.
/// let to_spirv = Translation::ToSpirv(Options::default());
/// std::thread::scope(|s| {
///     let a = s.spawn(|| translate(&bitcode, &to_spirv).unwrap().bytes);
///     let b = s.spawn(|| translate(&bitcode, &to_spirv).unwrap().bytes);
///     assert_eq!(a.join().unwrap(), b.join().unwrap());
/// });
/// ```
pub fn translate<'a>(input: impl Into<Input<'a>>, translation: &Translation) -> Result<Output> {
    match translation {
        Translation::ToSpirv(options) => {
            let out = pipeline::translate_to_spirv(input, options)?;
            Ok(Output {
                bytes: out.words.iter().flat_map(|w| w.to_le_bytes()).collect(),
                lost: out.lost,
                reflection: out.reflection,
                opencl_c_version: None,
            })
        }
        Translation::ToSpir(options) => {
            let out = pipeline::translate_to_spir(input, options)?;
            Ok(Output {
                bytes: out.bytes,
                lost: out.lost,
                reflection: None,
                opencl_c_version: None,
            })
        }
        Translation::ToOpenclC(options) => {
            let out = pipeline::translate_to_opencl_c(input, options)?;
            Ok(Output {
                bytes: out.text.into_bytes(),
                lost: out.lost,
                reflection: None,
                opencl_c_version: Some(out.version),
            })
        }
    }
}

/// SPIR-V disassembly text of a module: SPIRV-Tools' own (what `spirv-dis` prints).
pub fn disassemble(words: &[u32]) -> Result<String> {
    spv::validate::disassemble(words)
}
