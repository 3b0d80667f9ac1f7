//! SPIR bitcode or text IR -> semantic graph.
//!
//! Two views of one parse of the input: llvm-sys for verification and metadata
//! (`metadata.rs`), llvm-ir's conversion of the same module for function bodies
//! (`handoff.rs`). Lowering is split by what it owns: types, constants,
//! instructions, builtin calls, kernel info.

mod block_kernels;
mod block_table;
mod blocks;
mod body;
mod c11;
mod calls;
mod constants;
mod debug;
mod enqueue;
mod friendly;
mod groups;
pub(crate) mod half_constants;
mod handoff;
mod images;
mod integer_dot;
mod intrinsics;
mod kernels;
mod local_names;
mod lowering;
mod memory_casts;
pub mod metadata;
mod narrow;
mod pipes;
mod program_scope;
mod sampler_operands;
mod samplers;
mod types;

use crate::hash::HashMap;
use std::path::Path;

use crate::diag::{Error, ErrorKind, Result};
use crate::input::Format;
use crate::ir;

/// Read a SPIR module from a file. LLVM's reader first reads it in a contained child process
/// (`crate::contain`): bitcode that would make LLVM abort is an error here, not a crash.
pub fn read_path(path: &Path) -> Result<ir::Module> {
    read_bytes(
        &std::fs::read(path).map_err(|e| Error::new(ErrorKind::Io(crate::diag::io_words(&e))))?,
    )
}

/// Read a SPIR module (bitcode or LLVM IR text) from memory, LLVM's reader first run in a
/// contained child process as [`read_path`] does.
pub fn read_bytes(bytes: &[u8]) -> Result<ir::Module> {
    crate::contain::run(
        crate::contain::Work::ReadBitcode,
        crate::options::Limits::default().for_input(bytes.len() as u64),
        || read_bytes_in_process(bytes).map(|_| ()),
    )?;
    read_bytes_in_process(bytes)
}

/// Read a SPIR module from memory in this process: only for input known to be safe for
/// LLVM's reader, or inside a contained child.
pub fn read_bytes_in_process(bytes: &[u8]) -> Result<ir::Module> {
    if bytes.is_empty() {
        return Err(Error::malformed("the file is empty"));
    }
    let format = crate::input::format(bytes);
    let bitcode = format == Format::Bitcode;
    if format == Format::Spirv {
        return Err(Error::malformed(
            "this is a SPIR-V module, not SPIR bitcode (use `to-spir`)",
        ));
    }
    if !bitcode && std::str::from_utf8(bytes).is_err() {
        return Err(Error::malformed(
            "neither LLVM bitcode (no 'BC' magic) nor LLVM IR text",
        ));
    }
    let (md, mut module) = metadata::read_metadata(bytes, bitcode)?;
    // Debug information, from the module as llvm-ir will convert it (positions agree).
    let mut debug_info = ir::DebugInfo::default();
    let debug_tables = debug::read(&module, &mut debug_info);
    // LLVM accepted and verified the module, and llvm-ir converts that same module
    // (`handoff.rs`), with half constants made marker calls (half_constants.rs); the
    // conversion can still panic on constructs it does not model, which we report.
    let (parsed, taken) = handoff::convert(&mut module);
    drop(module);
    let llvm = parsed.map_err(|panic| {
        Error::unsupported(format!(
            "the bitcode reader cannot model this module: {}",
            unmodelled(&crate::diag::panic_message(panic.as_ref()))
        ))
    })?;
    let unheld_fast_math: usize = taken.iter().map(|t| t.unheld_fast_math).sum();
    let names = local_names::LocalNames::build(&llvm, taken)?;
    let mut module = lower(&llvm, &md, &names, (debug_info, &debug_tables))?;
    if unheld_fast_math > 0 {
        module.lost.push(crate::diag::Lost::module(format!(
            "fast-math flags of {unheld_fast_math} operation(s) other than float arithmetic \
             (negations, comparisons, calls of builtins, selects, phis): kept on float \
             arithmetic only, so those are translated strict"
        )));
    }
    Ok(module)
}

/// What llvm-ir's panic on a module says, in words: its leading phrase, without the Rust
/// debug text of the value it could not convert (`; got Foo { .. }`, `: Utf8Error { .. }`).
fn unmodelled(panic: &str) -> String {
    if panic.starts_with("Failed to convert CStr") {
        return "a name or string that is not valid UTF-8".into();
    }
    let cut = [" {", " (", "; got", ", got", ": ", " Some(", " ["]
        .iter()
        .filter_map(|p| panic.find(p))
        .min()
        .unwrap_or(panic.len());
    panic[..cut].trim().to_string()
}

/// Where each LLVM global name went in the graph.
#[derive(Default)]
pub(crate) struct Symbols {
    pub functions: HashMap<String, ir::Handle<ir::Function>>,
    pub globals: HashMap<String, ir::Handle<ir::Global>>,
}

fn lower(
    llvm: &llvm_ir::Module,
    md: &metadata::RawMetadata,
    names: &[local_names::LocalNames],
    (debug_info, debug_tables): (ir::DebugInfo, &debug::DebugTables),
) -> Result<ir::Module> {
    // The local names of `llvm.functions[i]` (none where llvm-ir kept them itself).
    let no_names = local_names::LocalNames::default();
    let names_of = |i: usize| names.get(i).unwrap_or(&no_names);
    let mut module = ir::Module::new(addressing(llvm, md)?);
    module.source = ir::SourceInfo {
        spir_version: md.spir_version,
        ocl_version: md.ocl_version,
        used_extensions: md.used_extensions.clone(),
        used_optional_core_features: md.used_optional_core_features.clone(),
        compiler_options: md.compiler_options.clone(),
        fp_contract: md.fp_contract,
    };
    module.debug = debug_info;
    debug_notes(&mut module, md, debug_tables);
    for name in &md.unread_named {
        module.lost.push(crate::diag::Lost::module(format!(
            "named metadata `!{name}`: no meaning in SPIR or SPIR-V known here, not translated"
        )));
    }
    let kernel_info = kernels::interpret(&mut module, md)?;
    let sampler_params = samplers::sampler_params(llvm, &kernel_info);
    let mut types = types::TypeLowering::new(llvm);
    let mut symbols = Symbols::default();

    // Globals first (without initializers, which may refer to each other).
    let promoted = program_scope::promoted(llvm);
    for g in &llvm.global_vars {
        let name = types::name_str(&g.name);
        // spirv-ir builtin variables are not globals of the program: loads of them are
        // work-item queries (body.rs).
        if friendly::builtin_variable(&name).is_some() {
            continue;
        }
        let ty = types
            .lower_pointee(&mut module, &g.ty)
            .map_err(|e| e.at_value(format!("global @{name}")))?;
        let space = match promoted.get(&name) {
            Some(&space) => space,
            None => crate::mappings::space_from_llvm(g.addr_space).ok_or_else(|| {
                Error::unsupported(format!("address space {} of global @{name}", g.addr_space))
            })?,
        };
        let h = module.globals.append(ir::Global {
            // An LLVM-numbered global (`@0`) has no name of its own.
            name: match &g.name {
                llvm_ir::Name::Number(_) => String::new(),
                llvm_ir::Name::Name(_) => name.clone(),
            },
            ty,
            space,
            init: None,
            is_constant: g.is_constant,
            align: lowering::FnLowering::align(g.alignment),
            linkage: types::linkage(g.linkage, g.initializer.is_some()),
        });
        symbols.globals.insert(name, h);
    }
    debug_tables.link_globals(&mut module.debug, &symbols.globals);
    // Function signatures (bodies may call any of them).
    for (i, f) in llvm.functions.iter().enumerate() {
        let info = kernel_info.get(&f.name);
        let samplers = sampler_params.get(&f.name);
        let func = types
            .lower_signature(&mut module, f, names_of(i), info, samplers)
            .map_err(|e| e.in_function(&f.name))?;
        let h = module.functions.append(func);
        // LLVM names may hold NUL bytes, which the conversion cuts at: two functions of
        // one name would share one graph function.
        if symbols.functions.insert(f.name.clone(), h).is_some() {
            return Err(Error::malformed(format!(
                "two functions named '{}' (as far as a NUL byte in their names)",
                f.name.escape_debug()
            )));
        }
    }
    for d in &llvm.func_declarations {
        if calls::is_builtin_name(&d.name) {
            continue;
        }
        let func = types
            .lower_declaration(&mut module, d)
            .map_err(|e| e.in_function(&d.name))?;
        let h = module.functions.append(func);
        if symbols.functions.insert(d.name.clone(), h).is_some() {
            return Err(Error::malformed(format!(
                "two functions named '{}' (as far as a NUL byte in their names)",
                d.name.escape_debug()
            )));
        }
    }
    // Parameter attributes llvm-ir does not expose, read through llvm-sys.
    for (name, flags) in &md.param_memory {
        if let Some(&h) = symbols.functions.get(name) {
            for (p, f) in module.functions[h].params.iter_mut().zip(flags) {
                p.attrs.readonly |= f.readonly;
                p.attrs.readnone |= f.readnone;
                p.attrs.writeonly |= f.writeonly;
            }
        }
    }
    // LLVM's verifier lets some attributes through on parameters they say nothing about
    // (`writeonly` on an `i32`): keep what applies.
    for (_, f) in module.functions.iter_mut() {
        for p in &mut f.params {
            p.attrs = p.attrs.applicable_to(&module.types[p.ty]);
        }
    }
    for g in &llvm.global_vars {
        if let Some(init) = &g.initializer {
            let name = types::name_str(&g.name);
            if friendly::builtin_variable(&name).is_some() {
                continue;
            }
            let at = || format!("initializer of global @{name}");
            let c = constants::lower_constant(&mut module, &mut types, &symbols, init)
                .map_err(|e| e.at_value(at()))?;
            let h = symbols.globals[&name];
            let ty = module.globals[h].ty;
            let c = constants::coerce(&mut module, c, ty).map_err(|e| e.at_value(at()))?;
            // Work-group memory cannot be initialized: `undef` there means none.
            let undef = matches!(module.constants[c].kind, ir::ConstantKind::Undef);
            if !(undef && module.globals[h].space == ir::AddressSpace::Local) {
                module.globals[h].init = Some(c);
            }
        }
    }
    for (i, f) in llvm.functions.iter().enumerate() {
        let h = symbols.functions[&f.name];
        let access = kernel_info
            .get(&f.name)
            .map(|k| k.image_access.clone())
            .unwrap_or_default();
        let casts = md.memory_casts.get(&f.name).cloned().unwrap_or_default();
        let facts = body::BodyFacts {
            image_access: access,
            memory_casts: casts,
            debug: debug_tables.functions.get(&f.name),
        };
        let mut body = body::lower_body(
            &mut module,
            &mut types,
            &symbols,
            (f, names_of(i)),
            h,
            facts,
        )
        .map_err(|e| e.in_function(&f.name))?;
        friendly::drop_sampled_images(&mut body).map_err(|e| e.in_function(&f.name))?;
        refuse_function_pointers(&module, h, &body).map_err(|e| e.in_function(&f.name))?;
        // Debug declarations follow what the steps above kept.
        ir::cfg::prune_debug(&mut body);
        module.functions[h].body = Some(body);
    }
    attach_kernels(&mut module, kernel_info, &symbols)?;
    debug_tables.link_functions(&mut module, &symbols.functions);
    module.kernels.sort_by_key(|k| k.function);
    let errors = crate::verify::verify(&module);
    if let Some(e) = errors.first() {
        return Err(Error::internal(format!(
            "reader produced an invalid graph: {e}"
        )));
    }
    Ok(module)
}

/// Refuses a value that holds the address of a function (a variable of pointer-to-function
/// type, a parameter or a load of one): OpenCL C has no function pointers, and SPIR-V has
/// none without an extension OpenCL does not require. A block's invoke function, whose
/// address SPIR 2.0 takes where it makes a block, is read there and leaves no such value.
fn refuse_function_pointers(
    m: &ir::Module,
    f: ir::Handle<ir::Function>,
    body: &ir::Body,
) -> Result<()> {
    let params = m.functions[f].params.iter().map(|p| p.ty);
    let values = body.insts.iter().map(|(_, i)| i.ty);
    if params
        .chain(values)
        .any(|t| types::holds_function_pointer(m, t))
    {
        return Err(Error::unsupported(
            "a pointer to a function (OpenCL C has no function pointers, except a block's \
             invoke function where SPIR 2.0 makes a block)",
        ));
    }
    Ok(())
}

/// What the module's debug information says that the graph does not hold.
fn debug_notes(module: &mut ir::Module, md: &metadata::RawMetadata, t: &debug::DebugTables) {
    if t.dropped_by_llvm {
        module.lost.push(crate::diag::Lost::module(
            "debug information in the format of LLVM before 3.4 (no \"Debug Info Version\" \
             module flag, as SPIR 1.2 producers on LLVM 3.2 wrote it): LLVM 14's reader drops \
             it, so it is not translated",
        ));
    }
    if md.debug_info && module.debug.is_empty() {
        module.lost.push(crate::diag::Lost::module(
            "debug information (`!llvm.dbg.cu`): none of it in a form LLVM 14 reads \
             (no compile unit, no location), not translated",
        ));
    }
    if t.unread_expressions > 0 {
        module.lost.push(crate::diag::Lost::module(format!(
            "debug information: {} variable location(s) whose DWARF expression SPIR-V's \
             debug sets cannot say (an operation they lack, or a value made of several, \
             LLVM's DIArgList): the output says the variable's value is not known there",
            t.unread_expressions
        )));
    }
}

/// The graph's addressing: the target triple's (`spir` 32-bit, `spir64` 64-bit), else the
/// data layout's pointer size; another target is refused.
fn addressing(llvm: &llvm_ir::Module, md: &metadata::RawMetadata) -> Result<ir::Addressing> {
    Ok(match md.triple.split('-').next().unwrap_or("") {
        "spir" => ir::Addressing::Physical32,
        "spir64" => ir::Addressing::Physical64,
        "" => {
            // No triple: fall back to the data layout's pointer size.
            if llvm.data_layout.layout_str.contains("p:32") {
                ir::Addressing::Physical32
            } else {
                ir::Addressing::Physical64
            }
        }
        other => {
            return Err(Error::unsupported(format!(
                "target triple '{}' ({other}) is not SPIR; expected spir or spir64",
                md.triple
            )))
        }
    })
}

/// Each kernel the metadata names, as a graph kernel of its function: the arguments the
/// metadata describes (or what the parameters say, without any), named as the parameters
/// are where the metadata gives no names.
fn attach_kernels(
    module: &mut ir::Module,
    kernel_info: HashMap<String, kernels::KernelInfo>,
    symbols: &Symbols,
) -> Result<()> {
    for (name, info) in kernel_info {
        let Some(&h) = symbols.functions.get(&name) else {
            return Err(Error::malformed(format!(
                "kernel '{name}' named in metadata has no definition"
            )));
        };
        if !module.functions[h].is_kernel {
            return Err(Error::malformed(format!(
                "'{name}' is listed in !opencl.kernels but is not a spir_kernel function"
            )));
        }
        let mut kernel = info.into_kernel(h);
        let params = &module.functions[h].params;
        if kernel.args.is_empty() && !params.is_empty() {
            // No kernel_arg_* metadata at all: the parameters say what they can.
            kernel.args = params
                .iter()
                .map(|p| ir::ArgInfo::from_param(module, p.ty, p.name.clone()))
                .collect();
        } else if kernel.args.len() != params.len() {
            return Err(Error::malformed(format!(
                "kernel_arg_* metadata describes {} arguments, but the kernel has {} parameters",
                kernel.args.len(),
                params.len()
            ))
            .in_function(&name));
        }
        // Without `kernel_arg_name` the parameters' own names are the argument names, as
        // SPIR-V (OpName of the parameter) has them.
        for (arg, p) in kernel.args.iter_mut().zip(&module.functions[h].params) {
            if arg.name.is_none() {
                arg.name.clone_from(&p.name);
            }
        }
        module.kernels.push(kernel);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    /// llvm-ir's panics are reported by their leading phrase, never with Rust debug text.
    #[test]
    fn unmodelled_constructs_are_named_in_words() {
        let cases = [
            (
                "Failed to convert CStr: Utf8Error { valid_up_to: 7, error_len: Some(1) }",
                "a name or string that is not valid UTF-8",
            ),
            (
                "GEP on an opaque struct type (name Name(\"s\"))",
                "GEP on an opaque struct type",
            ),
            (
                "Expected a load address to be PointerType, got TypeRef(X)",
                "Expected a load address to be PointerType",
            ),
        ];
        for (panic, words) in cases {
            assert_eq!(super::unmodelled(panic), words);
        }
    }
}
