//! The generic specialization's state (the pass is `mod.rs`; tagged pointers, `tagged.rs`,
//! extend it): one home, which both name and neither defines.

use super::classes::Spaces;
use crate::hash::HashMap;
use crate::ir::{self, Handle};

/// A function's generic parameters' spaces, the key of one specialized copy.
pub(super) type Sig = Vec<Spaces>;
/// A specialized copy of a function and the spaces of its generic result.
pub(super) type Specialized = (Handle<ir::Function>, Spaces);

pub(super) struct Specializer<'a> {
    pub(super) src: &'a ir::Module,
    pub(super) out: ir::Module,
    /// (function, its generic parameters' spaces) → (the specialized copy, its result's space).
    pub(super) done: HashMap<(Handle<ir::Function>, Sig), Specialized>,
    /// The functions being specialized now (OpenCL forbids recursion; this refuses it).
    pub(super) busy: Vec<Handle<ir::Function>>,
    /// Pointers into spaces that differ by the run are tagged, not refused.
    pub(super) tagging: bool,
}
