//! Looking inside a module rather than translating it: the semantic graph an input reads
//! into, SPIR-V's canonical text, and the round trips that check the two directions agree.
//! These are what the `dump-ir`, `canonical` and `roundtrip` commands print.
//!
//! ```
//! use spir_xlate::inspect;
//!
//! let bitcode = std::fs::read("tests/fixtures/modern/vector_add.spir64.bc").unwrap();
//! let graph = inspect::graph(&bitcode).unwrap();
//! assert!(spir_xlate::verify::verify(&graph).is_empty());
//! assert!(spir_xlate::ir::print::print_module(&graph).contains("vector_add"));
//! ```

use std::path::Path;

use crate::diag::Result;
use crate::input::Input;
use crate::options::Options;
use crate::{ir, pipeline, roundtrip, spv};

pub use crate::roundtrip::Check;

/// The graph `input` reads into (SPIR or SPIR-V, told by content), checked by the verifier.
/// LLVM's reader runs in a contained child process first, so bad bitcode is an error here.
pub fn graph<'a>(input: impl Into<Input<'a>>) -> Result<ir::Module> {
    pipeline::graph(input)
}

/// The canonical text of a SPIR-V module (a file, bytes or words): ids named by what they
/// are, types, decorations and functions in one order, so that two modules that mean the
/// same compare equal as text.
pub fn canonical_text<'a>(input: impl Into<Input<'a>>) -> Result<String> {
    spv::canon::canonical_text(&pipeline::words(input)?)
}

/// The round trips that apply to the file at `input` (decided by its content), each with the
/// first difference it found, if any (roundtrip/README.md says what "the same" means):
/// SPIR-V through the SPIR-V friendly LLVM IR and back, or SPIR through SPIR-V and back.
pub fn roundtrip(input: &Path, options: &Options) -> Result<Vec<Check>> {
    roundtrip::check(input, options)
}
