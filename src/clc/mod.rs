//! The OpenCL C writer: a graph as OpenCL C source, for the drivers that take neither SPIR
//! nor SPIR-V (NVIDIA's, AMD's ROCm, Qualcomm's, Apple's OpenCL) and for people who hold a
//! binary whose source is lost.
//!
//! The program keeps the input's names (made legal and unique, `names`) and computes as the
//! graph says: integers are held unsigned and read as signed only where an operation does
//! (`ops`), vectors of truth values are int vectors of -1/0 as OpenCL C's relational results
//! are, every float keeps its bits (`constants`). Control flow is structured where the graph
//! allows (`control`: `if`/`else`, `for (;;)` loops, `switch`), with `goto` only for the
//! edges no structure holds. Values used once in their block become part of their user's
//! expression; values used later in the same block are declared there; the rest are
//! declared at the top of the function (`function`). `#pragma OPENCL FP_CONTRACT OFF`
//! keeps the driver from fusing what the graph keeps apart: contraction the input allowed is
//! in the graph already, as `mad`.
//!
//! The OpenCL C version written is the lowest the module needs (`Needs`): 1.2, or 2.0 where
//! it uses generic pointers, program-scope global variables, C11 atomics at other scopes or
//! orders, pipes or device-side enqueue.

mod atomics;
mod builtins;
mod constants;
mod control;
mod definition;
mod effects;
mod enqueue;
mod expressions;
mod function;
mod helpers;
mod imports;
mod lanes;
mod names;
mod ops;
mod pipes;
mod precedence;
mod printf;
mod types;

use std::collections::BTreeSet;

use crate::diag::{Error, Lost, Result};
use crate::hash::{HashMap, HashSet};
use crate::ir::{self, AddressSpace, ConstantKind, Handle, Linkage, Module, Type};
use names::Scope;
use types::Types;

/// What the program needs from the compiler that builds it.
#[derive(Clone, Debug)]
pub struct Needs {
    /// The OpenCL C version, and the first construct that needed more than 1.2.
    pub version: (u32, u32),
    /// Why the version is above 1.2.
    pub why: Option<String>,
    /// `#pragma OPENCL EXTENSION <name> : enable` lines.
    pub extensions: BTreeSet<&'static str>,
}

impl Default for Needs {
    fn default() -> Self {
        Needs {
            version: (1, 2),
            why: None,
            extensions: BTreeSet::new(),
        }
    }
}

impl Needs {
    /// At least OpenCL C `major.minor`, for `why`.
    pub fn version(&mut self, major: u32, minor: u32, why: &str) {
        if (major, minor) > self.version {
            self.version = (major, minor);
            self.why = Some(why.to_string());
        }
    }

    /// The extension `name` enabled.
    pub fn extension(&mut self, name: &'static str) {
        self.extensions.insert(name);
    }
}

/// The program written: its text, the OpenCL C version it declares (for `-cl-std=`), and the
/// facts of the input it does not keep.
#[derive(Debug)]
pub struct Program {
    /// The OpenCL C source.
    pub text: String,
    /// The OpenCL C version it needs (`(2, 0)` for `-cl-std=CL2.0`).
    pub version: (u32, u32),
    /// Facts of the input the program does not keep.
    pub lost: Vec<Lost>,
}

/// The module-wide state of writing one program.
pub struct Writer<'m> {
    m: &'m Module,
    /// Program-scope names: functions, variables, struct tags, typedefs, samplers.
    scope: Scope,
    types: Types,
    needs: Needs,
    globals: HashMap<Handle<ir::Global>, String>,
    functions: HashMap<Handle<ir::Function>, String>,
    samplers: HashMap<Handle<ir::Constant>, String>,
    /// Program-scope declarations (samplers, variables), in order.
    globals_text: Vec<String>,
    /// Helper functions the program calls (memory copies and fills), by name.
    helpers: std::collections::BTreeMap<String, String>,
    helper_names: HashMap<String, String>,
    /// Writing a program-scope initializer (constant expressions only).
    in_initializer: bool,
    lost: Vec<Lost>,
    /// Kernels enqueued by blocks (`enqueue::invoked`): written as plain functions.
    invoked: HashSet<Handle<ir::Function>>,
    /// The `__local` variables each function other than a kernel takes as parameters
    /// (`definition::LocalPlan::passed`).
    passed_locals: HashMap<Handle<ir::Function>, Vec<Handle<ir::Global>>>,
    /// The integer parameters of the function being written that are declared signed (and
    /// held unsigned in its body through a cast).
    signed_params: HashSet<String>,
}

/// Write `m` as an OpenCL C program.
pub fn write(m: &Module) -> Result<Program> {
    if m.shader.is_some() {
        return Err(Error::internal("OpenCL C of a graph lowered for Vulkan"));
    }
    let mut w = Writer {
        m,
        scope: Scope::default(),
        types: Types::default(),
        needs: Needs::default(),
        globals: HashMap::default(),
        functions: HashMap::default(),
        samplers: HashMap::default(),
        globals_text: Vec::new(),
        helpers: Default::default(),
        helper_names: HashMap::default(),
        in_initializer: false,
        lost: Vec::new(),
        invoked: enqueue::invoked(m),
        passed_locals: HashMap::default(),
        signed_params: HashSet::default(),
    };
    // Kernels keep their names exactly (hosts look them up by name); other functions and
    // variables take theirs after them.
    let kernels: Vec<bool> = m.functions.iter().map(|(h, _)| w.is_kernel(h)).collect();
    let kernel_at = |h: Handle<ir::Function>| kernels[h.index()];
    for (h, f) in m.functions.iter().filter(|&(h, _)| kernel_at(h)) {
        if !names::is_identifier(&f.name) || !w.scope.take(&f.name) {
            return Err(Error::unsupported(format!(
                "kernel '{}': its name is not an OpenCL C identifier, or is another kernel's",
                f.name
            )));
        }
        w.functions.insert(h, f.name.clone());
    }
    for (h, f) in m.functions.iter().filter(|&(h, _)| !kernel_at(h)) {
        let n = w.scope.fresh(Some(&f.name), "function");
        w.functions.insert(h, n);
    }
    // Sampler constants take their program-scope names before any function's locals do (a
    // local `sampler` of -O0 code would otherwise shadow the program's `sampler`).
    for (_, f) in m.functions.iter() {
        let Some(body) = &f.body else { continue };
        let mut used = Vec::new();
        for (_, inst) in body.insts.iter() {
            ir::operands::for_each_operand(&inst.op, |v| {
                if let ir::Value::Const(c) = v {
                    if matches!(m.constants[c].kind, ir::ConstantKind::Sampler { .. }) {
                        used.push(c);
                    }
                }
            });
        }
        for c in used {
            w.sampler(c)?;
        }
    }
    let plan = definition::local_plan(m)?;
    w.passed_locals = plan.passed;
    let local_users = plan.declared;
    for (g, gv) in m.globals.iter() {
        if matches!(gv.space, AddressSpace::Local | AddressSpace::Private) {
            continue;
        }
        w.global_definition(g)?;
    }
    let invoke_wrappers = enqueue::invoke_wrappers(m, &w.invoked);
    let mut bodies = Vec::new();
    let mut prototypes = Vec::new();
    for (h, f) in m.functions.iter() {
        // A declaration of a builtin under its mangled name: called by its OpenCL C name.
        if imports::builtin_import(f).is_some() || invoke_wrappers.contains(&h) {
            continue;
        }
        let locals: Vec<Handle<ir::Global>> = local_users
            .iter()
            .filter(|(_, users)| users.contains(&h))
            .map(|(g, _)| *g)
            .collect();
        let (proto, body) =
            definition::write(&mut w, h, &locals).map_err(|e| e.in_function(&f.name))?;
        if !w.is_kernel(h) {
            prototypes.push(format!("{proto};\n"));
        }
        if let Some(b) = body {
            bodies.push(b);
        }
    }
    let mut text = String::new();
    let (major, minor) = w.needs.version;
    text.push_str(&format!(
        "// OpenCL C {major}.{minor} (build with -cl-std=CL{major}.{minor}), written by \
         spir-xlate.\n"
    ));
    if let Some(why) = &w.needs.why {
        text.push_str(&format!("// OpenCL C {major}.{minor} for {why}.\n"));
    }
    for e in &w.needs.extensions {
        text.push_str(&format!("#pragma OPENCL EXTENSION {e} : enable\n"));
    }
    text.push_str("#pragma OPENCL FP_CONTRACT OFF\n\n");
    for group in [
        &w.types.forward,
        &w.types.definitions,
        &w.globals_text,
        &w.helpers.values().cloned().collect::<Vec<_>>(),
        &prototypes,
    ] {
        if !group.is_empty() {
            text.push_str(&group.concat());
            text.push('\n');
        }
    }
    text.push_str(&bodies.join("\n"));
    Ok(Program {
        text,
        version: w.needs.version,
        lost: w.lost,
    })
}

impl Writer<'_> {
    /// Whether function `h` is written as a kernel (a block's kernel is a plain function).
    pub fn is_kernel(&self, h: Handle<ir::Function>) -> bool {
        self.m.functions[h].is_kernel && !self.invoked.contains(&h)
    }

    /// The name function `h` is written under.
    pub fn function_name(&self, h: Handle<ir::Function>) -> Result<String> {
        self.functions
            .get(&h)
            .cloned()
            .ok_or_else(|| Error::internal("a function without a name"))
    }

    /// The spelling of a type.
    pub fn type_name(&mut self, t: Handle<Type>) -> Result<String> {
        self.types.name(self.m, &mut self.scope, &mut self.needs, t)
    }

    /// The name of a program-scope variable.
    pub fn global_name(&mut self, g: Handle<ir::Global>) -> Result<String> {
        self.globals.get(&g).cloned().ok_or_else(|| {
            Error::unsupported(format!(
                "variable '{}' in {:?} memory used where OpenCL C cannot name it",
                self.m.globals[g].name, self.m.globals[g].space
            ))
        })
    }

    /// A fact of the input the program does not keep.
    pub fn lost(&mut self, fact: String) {
        let l = Lost::module(fact);
        if !self.lost.contains(&l) {
            self.lost.push(l);
        }
    }

    /// `__constant float table[4] = {...};` and friends, for a program-scope variable.
    fn global_definition(&mut self, g: Handle<ir::Global>) -> Result<()> {
        let m = self.m;
        let gv = &m.globals[g];
        let name = self.scope.fresh(Some(&gv.name), "global");
        self.globals.insert(g, name.clone());
        let ty = self.type_name(gv.ty)?;
        let space = match gv.space {
            AddressSpace::Constant => "__constant",
            AddressSpace::Global => {
                self.needs.version(2, 0, "a program-scope global variable");
                "__global"
            }
            AddressSpace::Private if gv.is_constant => {
                // SPIR 1.2 producers' tables and string literals in the private space:
                // constant data, the same bytes in __constant memory.
                return Err(Error::unsupported(format!(
                    "program-scope constant '{}' in the private address space",
                    gv.name
                )));
            }
            other => {
                return Err(Error::unsupported(format!(
                    "program-scope variable '{}' in {other:?} memory",
                    gv.name
                )))
            }
        };
        let init = match gv.init {
            Some(c) if !matches!(m.constants[c].kind, ConstantKind::Undef) => {
                format!(" = {}", self.initializer(c)?)
            }
            _ if gv.space == AddressSpace::Constant => " = {0}".into(),
            _ => String::new(),
        };
        let stor = if gv.linkage == Linkage::Import {
            "extern "
        } else {
            ""
        };
        let align = gv
            .align
            .filter(|&a| u64::from(a) > m.align_of(gv.ty))
            .map(|a| format!(" __attribute__((aligned({a})))"))
            .unwrap_or_default();
        let decl = types::declare(&format!("{space} {ty}"), &name);
        self.globals_text
            .push(format!("{stor}{decl}{align}{init};\n"));
        Ok(())
    }
}
