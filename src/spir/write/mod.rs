//! Semantic graph -> LLVM 14 module in SPIR conventions.
//!
//! The module is made through `crate::llvm` (the one room that calls LLVM): a
//! [`llvm::Module`](crate::llvm::Module) owns the context, a [`Builder`](crate::llvm::Builder)
//! appends instructions, and the writer keeps the graph's types and values as the room's
//! handles. The graph's operations (vector selects, GEPs with any index type, typed-pointer
//! casts) map one to one onto LLVM's.
//!
//! `types` owns types, constants and globals; `body` functions and instructions; `builtins`
//! the OpenCL C spelling of semantic builtins; `metadata` the `opencl.*` metadata.

mod atomics;
mod body;
mod builtins;
mod debug;
mod enqueue;
mod fences;
mod friendly;
mod groups;
mod metadata;
mod pipes;
mod primitives;
mod types;

use crate::hash::HashMap;

use crate::diag::{Error, Result};
use crate::ir;
use crate::llvm;
use crate::options::{Flavor, SpirOptions};

/// The SPIR data layouts (SPIR 1.2/2.0 specification, section 2.1).
const LAYOUT_SPIR: &str = "e-p:32:32:32-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-\
f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-\
v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024";
const LAYOUT_SPIR64: &str = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-\
f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-\
v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024";

/// LLVM calling conventions of SPIR.
const CC_SPIR_FUNC: u32 = 75;
const CC_SPIR_KERNEL: u32 = 76;

/// A building call the LLVM layer refused: the writer made ill-typed IR, a fault of ours, or
/// the input asks for more than LLVM's C API can build.
impl From<llvm::Refused> for Error {
    fn from(r: llvm::Refused) -> Error {
        if r.is_limit() {
            return Error::unsupported(format!("{r}: SPIR cannot hold it"));
        }
        Error::internal(format!("LLVM cannot build {r}"))
    }
}

pub(crate) struct Writer<'a> {
    m: &'a ir::Module,
    opts: &'a SpirOptions,
    /// The SPIR version written (`SpirOptions::spir_version`, resolved).
    spir_version: (u32, u32),
    llvm: &'a llvm::Module,
    b: llvm::Builder<'a>,
    types: HashMap<ir::Handle<ir::Type>, llvm::Type<'a>>,
    consts: HashMap<ir::Handle<ir::Constant>, llvm::Value<'a>>,
    globals: HashMap<ir::Handle<ir::Global>, llvm::Value<'a>>,
    funcs: HashMap<ir::Handle<ir::Function>, llvm::Value<'a>>,
    /// Declared builtins by symbol.
    decls: HashMap<String, llvm::Value<'a>>,
    /// Debug information made so far (`None`: the graph has none).
    debug: Option<debug::SpirDebug<'a>>,
}

impl Writer<'_> {
    /// A kernel's name is its entry-point name: where LLVM gave it a `.N` suffix because a
    /// helper has the same name (llvm-spirv-14 emits such pairs), the helper takes the suffix.
    fn keep_kernel_names(&self) {
        for (h, f) in self.m.functions.iter().filter(|(_, f)| f.is_kernel) {
            let k = self.funcs[&h];
            if k.name() == f.name {
                continue;
            }
            let other = self.llvm.function_named(&f.name);
            if let Some(o) = other {
                o.set_name("");
            }
            k.set_name(&f.name);
            if let Some(o) = other {
                // The name is taken now: LLVM gives the helper a fresh `.N`.
                o.set_name(&f.name);
            }
        }
    }
}

/// Translate the graph into SPIR bitcode (or text with `opts.text`).
/// The SPIR version a module is written as unless the options say: 2.0 for OpenCL C 2.0 (or
/// later) source, whose constructs SPIR 1.2 cannot spell, 1.2 otherwise.
fn default_spir_version(m: &ir::Module) -> (u32, u32) {
    match m.source.ocl_version {
        Some((major, _)) if major >= 2 => (2, 0),
        _ => (1, 2),
    }
}

/// [`write()`], and the facts of the graph the module does not keep (`diag::Lost`).
pub fn write_reporting(
    m: &ir::Module,
    opts: &SpirOptions,
) -> Result<(Vec<u8>, Vec<crate::diag::Lost>)> {
    let mut lost = Vec::new();
    if opts.flavor == Flavor::Spir {
        for (_, c) in m.constants.iter() {
            if let ir::ConstantKind::Spec { spec_id, .. } = c.kind {
                lost.push(crate::diag::Lost::module(format!(
                    "specialization constant SpecId {spec_id}: written as its default value \
                     (SPIR cannot be specialized; --flavor spirv-ir keeps it)"
                )));
            }
        }
    }
    let (bytes, more) = write_with_lost(m, opts)?;
    lost.extend(more);
    Ok((bytes, lost))
}

/// The module as SPIR bitcode (or text), checked by LLVM's verifier; in this process (the
/// caller contains it).
pub fn write(m: &ir::Module, opts: &SpirOptions) -> Result<Vec<u8>> {
    Ok(write_with_lost(m, opts)?.0)
}

/// [`write`], and the facts of the graph the writing did not keep.
fn write_with_lost(
    m: &ir::Module,
    opts: &SpirOptions,
) -> Result<(Vec<u8>, Vec<crate::diag::Lost>)> {
    let llvm = llvm::Module::new("spir-xlate");
    let written = write_into(&llvm, m, opts);
    // A contained child about to exit leaves LLVM's memory to the process's end.
    crate::contain::discard(llvm);
    written
}

/// [`write`] into the empty module `llvm`, and the facts of the graph it does not keep.
fn write_into(
    llvm: &llvm::Module,
    m: &ir::Module,
    opts: &SpirOptions,
) -> Result<(Vec<u8>, Vec<crate::diag::Lost>)> {
    let spir_version = opts.spir_version.unwrap_or_else(|| default_spir_version(m));
    let mut w = Writer {
        m,
        opts,
        spir_version,
        llvm,
        b: llvm.builder(),
        types: HashMap::default(),
        consts: HashMap::default(),
        globals: HashMap::default(),
        funcs: HashMap::default(),
        decls: HashMap::default(),
        debug: None,
    };
    let (triple, layout) = match m.addressing {
        ir::Addressing::Physical32 => ("spir-unknown-unknown", LAYOUT_SPIR),
        ir::Addressing::Physical64 => ("spir64-unknown-unknown", LAYOUT_SPIR64),
    };
    llvm.set_target(triple);
    llvm.set_data_layout(layout);
    w.debug_start()?;
    for (h, g) in m.globals.iter() {
        w.declare_global(h)
            .map_err(|e| e.at_value(format!("global @{}", g.name)))?;
    }
    for (h, f) in m.functions.iter() {
        w.declare_function(h).map_err(|e| e.in_function(&f.name))?;
    }
    w.keep_kernel_names();
    for (h, g) in m.globals.iter() {
        w.init_global(h)
            .map_err(|e| e.at_value(format!("global @{}", g.name)))?;
    }
    for (h, f) in m.functions.iter() {
        w.define_function(h).map_err(|e| e.in_function(&f.name))?;
    }
    match opts.flavor {
        Flavor::Spir => w.metadata()?,
        Flavor::SpirvIr => w.friendly_metadata()?,
    }
    let had_debug = w.debug.is_some();
    w.debug_globals()?;
    w.debug_finish();
    let mut lost = Vec::new();
    if let Err(e) = llvm.verify() {
        // Debug information LLVM's verifier refuses is dropped rather than the module: it
        // never changes what the program computes.
        if !(had_debug && llvm.strip_debug_info() && llvm.verify().is_ok()) {
            return Err(Error::internal(format!(
                "LLVM rejects the written module: {e}"
            )));
        }
        lost.push(crate::diag::Lost::module(format!(
            "debug information: LLVM's verifier refused it as written ({}), so it is left out",
            e.lines().next().unwrap_or_default()
        )));
    }
    if m.debug.files.iter().any(|(_, f)| f.text.is_some()) {
        lost.push(crate::diag::Lost::module(
            "the source text embedded in the debug information: not kept (LLVM 14's C \
             interface cannot attach it to a file)",
        ));
    }
    Ok((
        if opts.text {
            llvm.text()
        } else {
            llvm.bitcode()
        },
        lost,
    ))
}
