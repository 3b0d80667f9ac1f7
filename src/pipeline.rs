//! The two translations under [`crate::translate`], each as the steps it takes: read into the
//! graph, lower to shader form for a Vulkan target, write, validate; all inside one contained
//! child process (`contain`). Also the readers of the graph and of SPIR-V's words that the
//! inspection commands ([`crate::inspect`]) and `migrate` share.

use std::borrow::Cow;

use crate::contain::{self, Wire};
use crate::diag::{self, Error, ErrorKind, Result};
use crate::input::{self, Format, Input};
use crate::options::{OpenclCOptions, Options, SpirOptions};
use crate::{clc, ir, spir, spv, vulkan};

/// The SPIR-V module's words of `input` (either byte order in a file or bytes).
pub fn words<'a>(input: impl Into<Input<'a>>) -> Result<Cow<'a, [u32]>> {
    let input = input.into();
    if let Input::Words(w) = input {
        return Ok(Cow::Borrowed(w));
    }
    let bytes = input.bytes()?;
    if input::format(&bytes) == Format::Bitcode {
        return Err(Error::malformed(
            "this is LLVM bitcode, not a SPIR-V module (use `to-spirv`)",
        ));
    }
    spv::read::words_from_bytes(&bytes).map(Cow::Owned)
}

/// Read either input kind (decided by content) into the graph. LLVM's reader runs in a
/// contained child first (`spir::read::read_bytes`).
pub fn graph<'a>(input: impl Into<Input<'a>>) -> Result<ir::Module> {
    let input = input.into();
    if let Input::Words(w) = input {
        return spv::read::read(w);
    }
    let bytes = input.bytes()?;
    if input::format(&bytes) == Format::Spirv {
        spv::read::read(&spv::read::words_from_bytes(&bytes)?)
    } else {
        spir::read::read_bytes(&bytes)
    }
}

/// Either input kind (decided by content) read into the graph in this process: inside a
/// contained child, where LLVM's reader may die.
fn read_in_process(bytes: &[u8]) -> Result<ir::Module> {
    if input::format(bytes) == Format::Spirv {
        spv::read::read(&spv::read::words_from_bytes(bytes)?)
    } else {
        spir::read::read_bytes_in_process(bytes)
    }
}

/// A SPIR-V module and, for a Vulkan target, its kernel interface as JSON.
#[derive(Debug)]
pub struct SpirvOutput {
    /// The module.
    pub words: Vec<u32>,
    /// For a Vulkan target, the kernel interface as JSON.
    pub reflection: Option<String>,
    /// Facts of the input the module does not keep, each once (see [`diag::Lost`]).
    pub lost: Vec<diag::Lost>,
}

/// Translate SPIR, or a SPIR-V module (decided by content), to SPIR-V for `options.target`:
/// for a Vulkan target the graph is lowered to shader form first (`vulkan::lower`) and the
/// kernel interface comes back as JSON too. The whole translation runs in a contained child
/// process (`contain`): no input can abort the caller.
pub fn translate_to_spirv<'a>(
    input: impl Into<Input<'a>>,
    options: &Options,
) -> Result<SpirvOutput> {
    let input = input.into();
    let bytes = input.bytes()?;
    let limits = options.limits.for_input(bytes.len() as u64);
    contain::run(contain::Work::ReadBitcode, limits, || {
        blamed(&bytes, || {
            let module = read_in_process(&bytes)?;
            let out = assemble_spirv(&module, options)?;
            // The graph is freed before SPIRV-Tools builds its own view of the words.
            drop(module);
            spv::validate::validate(&out.words, options.target)?;
            Ok(out)
        })
    })
}

/// A graph as SPIR-V words for `options.target` (lowered to shader form for Vulkan), not
/// yet validated.
pub fn assemble_spirv(module: &ir::Module, options: &Options) -> Result<SpirvOutput> {
    if !options.target.is_vulkan() {
        let (words, lost) = spv::write::assemble(module, options)?;
        return Ok(SpirvOutput {
            words,
            reflection: None,
            lost: diag::sorted_losses([&module.lost[..], &lost].concat()),
        });
    }
    let mut shader = vulkan::lower(module, options)?;
    let (words, lost) = spv::write::assemble(&shader, options)?;
    vulkan::keep_declared_features(&mut shader, &spv::capabilities(&words));
    Ok(SpirvOutput {
        words,
        reflection: Some(vulkan::reflection::json(&shader)),
        lost: diag::sorted_losses([&shader.lost[..], &lost].concat()),
    })
}

/// A SPIR module (bitcode, or LLVM IR text).
#[derive(Debug)]
pub struct SpirOutput {
    /// Bitcode, or LLVM IR text.
    pub bytes: Vec<u8>,
    /// Facts of the input the module does not keep, each once (see [`diag::Lost`]).
    pub lost: Vec<diag::Lost>,
}

/// Translate SPIR-V (a file, bytes or words) to SPIR bitcode (or text), with the facts of
/// the input the output does not keep. The translation runs in a contained child process
/// (`contain`): LLVM builds the output, and nothing it does can abort the caller.
pub fn translate_to_spir<'a>(
    input: impl Into<Input<'a>>,
    options: &SpirOptions,
) -> Result<SpirOutput> {
    let input = input.into();
    let words = words(input)?;
    let limits = options.limits.for_input(words.len() as u64 * 4);
    contain::run(contain::Work::WriteBitcode, limits, || {
        let module = spv::read::read(&words)?;
        let (bytes, lost) = spir::write::write_reporting(&module, options)
            .map_err(|e| blame_invalid_input(e, &words))?;
        let lost = diag::sorted_losses([&module.lost[..], &lost].concat());
        contain::discard(module);
        Ok(SpirOutput { bytes, lost })
    })
}

/// A writer's internal error on a SPIR-V module the validator rejects is the module's fault:
/// the reader takes invalid modules (other producers write them), and a writer may still find
/// one it cannot write. Reported as malformed input, where it happened, in both the writer's
/// and the validator's words.
fn blame_invalid_input(e: Error, words: &[u32]) -> Error {
    let ErrorKind::Internal(what) = &e.kind else {
        return e;
    };
    match spv::validate::check_input(words) {
        Err(invalid) => {
            let said = invalid.kind.to_string();
            let said = said.trim_start_matches("malformed input: ");
            // Where the writer's words are the validator's (the output repeats the input's
            // fault), the validator's say it once.
            let detail = said.split_once(": ").map_or(said, |(_, d)| d);
            let message = if what.contains(detail) {
                said.to_string()
            } else {
                format!("{what}; {said}")
            };
            Error {
                kind: ErrorKind::Malformed(message),
                location: e.location,
            }
        }
        Ok(()) => e,
    }
}

/// `translate` of input `bytes`, its internal error blamed on the input where that is a
/// SPIR-V module the validator rejects (see [`blame_invalid_input`]); SPIR input is checked
/// by LLVM's verifier where it is read.
fn blamed<T>(bytes: &[u8], translate: impl FnOnce() -> Result<T>) -> Result<T> {
    translate().map_err(|e| {
        if !matches!(e.kind, ErrorKind::Internal(_)) || input::format(bytes) != Format::Spirv {
            return e;
        }
        match spv::read::words_from_bytes(bytes) {
            Ok(words) => blame_invalid_input(e, &words),
            Err(_) => e,
        }
    })
}

/// An OpenCL C program.
#[derive(Debug)]
pub struct OpenclCOutput {
    /// The source.
    pub text: String,
    /// The OpenCL C version it needs.
    pub version: (u32, u32),
    /// Facts of the input the program does not keep, each once (see [`diag::Lost`]).
    pub lost: Vec<diag::Lost>,
}

/// Translate SPIR or SPIR-V (decided by content) to OpenCL C source. The whole translation
/// runs in a contained child process (`contain`).
pub fn translate_to_opencl_c<'a>(
    input: impl Into<Input<'a>>,
    options: &OpenclCOptions,
) -> Result<OpenclCOutput> {
    let input = input.into();
    let bytes = input.bytes()?;
    let limits = options.limits.for_input(bytes.len() as u64);
    contain::run(contain::Work::ReadBitcode, limits, || {
        blamed(&bytes, || {
            let module = read_in_process(&bytes)?;
            let program = clc::write(&module)?;
            let lost = diag::sorted_losses([&module.lost[..], &program.lost[..]].concat());
            Ok(OpenclCOutput {
                text: program.text,
                version: program.version,
                lost,
            })
        })
    })
}

impl Wire for OpenclCOutput {
    fn encode(&self, out: &mut Vec<u8>) {
        contain::put_lost(out, &self.lost);
        out.extend(self.version.0.to_le_bytes());
        out.extend(self.version.1.to_le_bytes());
        out.extend_from_slice(self.text.as_bytes());
    }
    fn decode(mut bytes: &[u8]) -> Option<Self> {
        let lost = contain::take_lost(&mut bytes)?;
        let major = u32::from_le_bytes(bytes.get(..4)?.try_into().ok()?);
        let minor = u32::from_le_bytes(bytes.get(4..8)?.try_into().ok()?);
        let text = String::from_utf8(bytes.get(8..)?.to_vec()).ok()?;
        Some(OpenclCOutput {
            text,
            version: (major, minor),
            lost,
        })
    }
}

impl Wire for SpirOutput {
    fn encode(&self, out: &mut Vec<u8>) {
        contain::put_lost(out, &self.lost);
        out.extend_from_slice(&self.bytes);
    }
    fn decode(mut bytes: &[u8]) -> Option<Self> {
        let lost = contain::take_lost(&mut bytes)?;
        Some(SpirOutput {
            bytes: bytes.to_vec(),
            lost,
        })
    }
}

impl Wire for SpirvOutput {
    fn encode(&self, out: &mut Vec<u8>) {
        contain::put_lost(out, &self.lost);
        let json = self.reflection.as_deref().map(str::as_bytes);
        out.extend((json.map_or(u32::MAX, |j| j.len() as u32)).to_le_bytes());
        out.extend(json.unwrap_or_default());
        self.words.encode(out);
    }
    fn decode(mut bytes: &[u8]) -> Option<Self> {
        let lost = contain::take_lost(&mut bytes)?;
        let n = u32::from_le_bytes(bytes.get(..4)?.try_into().ok()?);
        let (reflection, rest) = if n == u32::MAX {
            (None, &bytes[4..])
        } else {
            let end = 4usize.checked_add(n as usize)?;
            let json = String::from_utf8(bytes.get(4..end)?.to_vec()).ok()?;
            (Some(json), &bytes[end..])
        };
        Some(SpirvOutput {
            words: Vec::<u32>::decode(rest)?,
            reflection,
            lost,
        })
    }
}
