//! spir-xlate: a bidirectional SPIR <-> SPIR-V translator for OpenCL device code.
//!
//! [`translate`] is the entry point: an [`Input`] and a [`Translation`] (the direction and
//! its options) in, an [`Output`] (the module, the facts it does not keep, a Vulkan
//! module's kernel interface) out.
//!
//! Inside, readers lower their input into the semantic graph ([`ir`]); writers emit the
//! other side from it. No reader calls a writer.

pub mod contain;
pub mod diag;
pub(crate) mod hash;
pub mod ir;
pub(crate) mod mappings;
pub mod migrate;
pub mod options;
pub mod roundtrip;
pub mod spir;
pub mod spirv;
pub mod vulkan;

pub use diag::{Error, ErrorKind, Result};

/// README.md's library example, compiled and run by `cargo test`.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeExample;
pub use options::{Flavor, KernelInfo, Options, SpirOptions, TargetEnv, VulkanPointers};

use std::path::Path;

/// Read SPIR bitcode or LLVM text IR from a file into the graph.
pub fn read_spir(path: &Path) -> Result<ir::Module> {
    spir::read::read_path(path)
}

/// Read a SPIR-V module from a file into the graph.
pub fn read_spirv(path: &Path) -> Result<ir::Module> {
    spirv::read::read(&read_spirv_words(path)?)
}

/// The words of a SPIR-V file (either byte order).
pub fn read_spirv_words(path: &Path) -> Result<Vec<u32>> {
    let bytes = std::fs::read(path).map_err(|e| Error::new(ErrorKind::Io(diag::io_words(&e))))?;
    if spir::read::is_bitcode(&bytes) {
        return Err(Error::malformed(
            "this is LLVM bitcode, not a SPIR-V module (use `to-spirv`)",
        ));
    }
    spirv::read::words_from_bytes(&bytes)
}

/// True if the file starts with the SPIR-V magic number (either byte order).
pub fn is_spirv_file(path: &Path) -> bool {
    let mut magic = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut magic))
        .is_ok()
        && (magic == [0x03, 0x02, 0x23, 0x07] || magic == [0x07, 0x23, 0x02, 0x03])
}

/// Read either input kind (decided by content, not by extension) into the graph.
pub fn read_any(path: &Path) -> Result<ir::Module> {
    if is_spirv_file(path) {
        read_spirv(path)
    } else {
        read_spir(path)
    }
}

/// What a translation reads: a file, or a module already in memory. Converted from a path
/// (`&Path`, `&PathBuf`), bytes (`&[u8]`, `&Vec<u8>`: bitcode, LLVM IR text or SPIR-V) or a
/// SPIR-V module's words (`&[u32]`, `&Vec<u32>`).
#[derive(Clone, Copy, Debug)]
pub enum Input<'a> {
    Path(&'a Path),
    Bytes(&'a [u8]),
    Words(&'a [u32]),
}

impl<'a> From<&'a Path> for Input<'a> {
    fn from(p: &'a Path) -> Self {
        Input::Path(p)
    }
}

impl<'a> From<&'a std::path::PathBuf> for Input<'a> {
    fn from(p: &'a std::path::PathBuf) -> Self {
        Input::Path(p)
    }
}

impl<'a> From<&'a [u8]> for Input<'a> {
    fn from(b: &'a [u8]) -> Self {
        Input::Bytes(b)
    }
}

impl<'a> From<&'a Vec<u8>> for Input<'a> {
    fn from(b: &'a Vec<u8>) -> Self {
        Input::Bytes(b)
    }
}

impl<'a> From<&'a [u32]> for Input<'a> {
    fn from(w: &'a [u32]) -> Self {
        Input::Words(w)
    }
}

impl<'a> From<&'a Vec<u32>> for Input<'a> {
    fn from(w: &'a Vec<u32>) -> Self {
        Input::Words(w)
    }
}

impl Input<'_> {
    /// The module's bytes (a file is read; words are their little-endian bytes).
    fn bytes(&self) -> Result<std::borrow::Cow<'_, [u8]>> {
        use std::borrow::Cow;
        match *self {
            Input::Path(p) => std::fs::read(p)
                .map(Cow::Owned)
                .map_err(|e| Error::new(ErrorKind::Io(diag::io_words(&e)))),
            Input::Bytes(b) => Ok(Cow::Borrowed(b)),
            Input::Words(w) => Ok(Cow::Owned(w.iter().flat_map(|w| w.to_le_bytes()).collect())),
        }
    }

    /// The SPIR-V module's words (either byte order in a file or bytes).
    fn words(&self) -> Result<std::borrow::Cow<'_, [u32]>> {
        use std::borrow::Cow;
        if let Input::Words(w) = *self {
            return Ok(Cow::Borrowed(w));
        }
        let bytes = self.bytes()?;
        if spir::read::is_bitcode(&bytes) {
            return Err(Error::malformed(
                "this is LLVM bitcode, not a SPIR-V module (use `to-spirv`)",
            ));
        }
        spirv::read::words_from_bytes(&bytes).map(Cow::Owned)
    }
}

fn is_spirv_bytes(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x03, 0x02, 0x23, 0x07]) || bytes.starts_with(&[0x07, 0x23, 0x02, 0x03])
}

/// Translate SPIR (a file or bytes: bitcode or LLVM IR text) to SPIR-V words, validated for
/// `options.target`. The whole translation runs in a contained child process ([`contain`]):
/// no input can abort the caller. No temporary file is written, no global state is kept, and
/// translations may run on several threads at once.
///
/// ```
/// let bitcode = std::fs::read("tests/fixtures/modern/vector_add.spir64.bc").unwrap();
/// let words = spir_xlate::to_spirv(&bitcode, &spir_xlate::Options::default()).unwrap();
/// assert_eq!(words[0], 0x0723_0203); // the SPIR-V magic number
///
/// // Bad input is an error, never a crash.
/// let err = spir_xlate::to_spirv(&bitcode[..100], &Default::default()).unwrap_err();
/// assert!(matches!(err.kind, spir_xlate::ErrorKind::Malformed(_)), "{err}");
///
/// // From several threads.
/// std::thread::scope(|s| {
///     let a = s.spawn(|| spir_xlate::to_spirv(&bitcode, &Default::default()));
///     let b = s.spawn(|| spir_xlate::to_spirv(&bitcode, &Default::default()));
///     assert_eq!(a.join().unwrap().unwrap(), b.join().unwrap().unwrap());
/// });
/// ```
pub fn to_spirv<'a>(input: impl Into<Input<'a>>, options: &Options) -> Result<Vec<u32>> {
    Ok(translate_to_spirv(input, options)?.words)
}

/// A SPIR-V module and, for a Vulkan target, its kernel interface as JSON.
#[derive(Debug)]
pub struct SpirvOutput {
    pub words: Vec<u32>,
    pub reflection: Option<String>,
    /// Facts of the input the module does not keep, each once (see [`diag::Lost`]).
    pub lost: Vec<diag::Lost>,
}

/// Translate SPIR, or a SPIR-V module (decided by content), to SPIR-V for `options.target`:
/// for a Vulkan target the graph is lowered to shader form first ([`vulkan::lower`]) and the
/// kernel interface comes back as JSON too.
///
/// ```
/// use spir_xlate::{Options, TargetEnv};
/// let bitcode = std::fs::read("tests/fixtures/legacy/vector_add.spir64.bc").unwrap();
/// let options = Options { target: TargetEnv::parse("vulkan1.2").unwrap(), ..Default::default() };
/// let out = spir_xlate::translate_to_spirv(&bitcode, &options).unwrap();
/// assert!(out.reflection.unwrap().contains("vector_add"));
/// ```
pub fn translate_to_spirv<'a>(
    input: impl Into<Input<'a>>,
    options: &Options,
) -> Result<SpirvOutput> {
    let input = input.into();
    let bytes = input.bytes()?;
    let limits = options.limits.for_input(bytes.len() as u64);
    contain::run(contain::Work::ReadBitcode, limits, || {
        let module = if is_spirv_bytes(&bytes) {
            spirv::read::read(&spirv::read::words_from_bytes(&bytes)?)?
        } else {
            spir::read::read_bytes_in_process(&bytes)?
        };
        let out = assemble_spirv(&module, options)?;
        // The graph is freed before SPIRV-Tools builds its own view of the words.
        drop(module);
        spirv::validate::validate(&out.words, options.target)?;
        Ok(out)
    })
}

/// Write a graph as SPIR-V for `options.target` (lowered to shader form for Vulkan).
pub fn write_spirv(module: &ir::Module, options: &Options) -> Result<SpirvOutput> {
    let out = assemble_spirv(module, options)?;
    spirv::validate::validate(&out.words, options.target)?;
    Ok(out)
}

/// [`write_spirv`]'s words before they are validated.
fn assemble_spirv(module: &ir::Module, options: &Options) -> Result<SpirvOutput> {
    if !options.target.is_vulkan() {
        let (words, lost) = spirv::write::assemble(module, options)?;
        return Ok(SpirvOutput {
            words,
            reflection: None,
            lost: diag::sorted_losses([&module.lost[..], &lost].concat()),
        });
    }
    let shader = vulkan::lower(module, options)?;
    let (words, lost) = spirv::write::assemble(&shader, options)?;
    Ok(SpirvOutput {
        words,
        reflection: Some(vulkan::reflection::json(&shader)),
        lost: diag::sorted_losses([&shader.lost[..], &lost].concat()),
    })
}

/// Translate SPIR-V (a file, bytes or words) to SPIR bitcode (or text). The translation runs
/// in a contained child process ([`contain`]): LLVM builds the output, and nothing it does can
/// abort the caller.
///
/// ```
/// let bitcode = std::fs::read("tests/fixtures/modern/vector_add.spir64.bc").unwrap();
/// let words = spir_xlate::to_spirv(&bitcode, &Default::default()).unwrap();
/// let spir = spir_xlate::to_spir(&words, &spir_xlate::SpirOptions::default()).unwrap();
/// assert_eq!(&spir[..4], b"BC\xc0\xde");
/// ```
pub fn to_spir<'a>(input: impl Into<Input<'a>>, options: &SpirOptions) -> Result<Vec<u8>> {
    Ok(translate_to_spir(input, options)?.bytes)
}

/// A SPIR module (bitcode, or LLVM IR text).
#[derive(Debug)]
pub struct SpirOutput {
    pub bytes: Vec<u8>,
    /// Facts of the input the module does not keep, each once (see [`diag::Lost`]).
    pub lost: Vec<diag::Lost>,
}

/// [`to_spir`], with the facts of the input the output does not keep.
///
/// ```
/// let bitcode = std::fs::read("tests/fixtures/modern/vector_add.spir64.bc").unwrap();
/// let words = spir_xlate::to_spirv(&bitcode, &Default::default()).unwrap();
/// let out = spir_xlate::translate_to_spir(&words, &Default::default()).unwrap();
/// assert!(out.lost.is_empty(), "{:?}", out.lost);
/// ```
pub fn translate_to_spir<'a>(
    input: impl Into<Input<'a>>,
    options: &SpirOptions,
) -> Result<SpirOutput> {
    let input = input.into();
    let words = input.words()?;
    let limits = options.limits.for_input(words.len() as u64 * 4);
    contain::run(contain::Work::WriteBitcode, limits, || {
        let module = spirv::read::read(&words)?;
        let (bytes, lost) = spir::write::write_reporting(&module, options)?;
        let lost = diag::sorted_losses([&module.lost[..], &lost].concat());
        contain::discard(module);
        Ok(SpirOutput { bytes, lost })
    })
}

/// Which way a translation goes, with its options ([`translate`]).
#[derive(Clone, Debug)]
pub enum Translation {
    /// SPIR (bitcode or LLVM IR text; a SPIR-V module is read too) to SPIR-V for
    /// `Options::target`: an OpenCL environment, or a Vulkan one.
    ToSpirv(Options),
    /// SPIR-V to SPIR bitcode (LLVM IR text with `SpirOptions::text`), real SPIR or the
    /// SPIR-V friendly flavor.
    ToSpir(SpirOptions),
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
}

/// Translate `input` (a file, bytes or SPIR-V words: [`Input`]) as `translation` says: the
/// library's entry point. Every output is validated before it is returned (SPIR-V by
/// SPIRV-Tools for its environment, SPIR by LLVM's verifier); the work runs in a contained
/// child process, bounded in time and memory ([`contain`]), so no input can abort or
/// exhaust the caller; no global state is kept, and translations may run on several threads.
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
/// ```
pub fn translate<'a>(input: impl Into<Input<'a>>, translation: &Translation) -> Result<Output> {
    match translation {
        Translation::ToSpirv(options) => {
            let out = translate_to_spirv(input, options)?;
            Ok(Output {
                bytes: out.words.iter().flat_map(|w| w.to_le_bytes()).collect(),
                lost: out.lost,
                reflection: out.reflection,
            })
        }
        Translation::ToSpir(options) => {
            let out = translate_to_spir(input, options)?;
            Ok(Output {
                bytes: out.bytes,
                lost: out.lost,
                reflection: None,
            })
        }
    }
}

/// SPIR-V disassembly text of a module: SPIRV-Tools' own (what `spirv-dis` prints).
pub fn disassemble(words: &[u32]) -> Result<String> {
    spirv::validate::disassemble(words)
}
