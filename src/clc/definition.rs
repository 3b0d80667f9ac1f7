//! A function's definition: its signature (kernel attributes, argument qualifiers, pipe
//! packet types), the variables OpenCL C declares in it, and its body.

use super::function::{derived_pointers, FnWriter};
use super::precedence::Expr;
use super::types::declare;
use super::Writer;
use crate::diag::{Error, Result};
use crate::hash::{HashMap, HashSet};
use crate::ir::{self, AddressSpace, ConstantKind, Function, Handle, Type, Value};

/// A program-scope variable OpenCL C declares in functions, and the functions that do.
pub type LocalUsers = (Handle<ir::Global>, HashSet<Handle<Function>>);

/// Where the program-scope variables OpenCL C cannot hold at program scope are declared.
pub struct LocalPlan {
    /// Each such variable, and the functions that declare it: a `__local` one in each kernel
    /// that uses it or calls a function that does, a private one (SPIR 1.2 producers' tables
    /// and strings) as a copy in each function that uses it, which is exact for constants
    /// and for a variable one kernel alone uses.
    pub declared: Vec<LocalUsers>,
    /// The `__local` variables a function other than a kernel uses, itself or through what it
    /// calls (as the Khronos translator's wrapper kernels call their bodies): it takes each
    /// as a trailing parameter, a pointer to it, in this order, and its callers pass theirs.
    pub passed: HashMap<Handle<Function>, Vec<Handle<ir::Global>>>,
}

/// The functions that use each program-scope `__local` or private variable directly.
fn direct_users(m: &ir::Module, g: Handle<ir::Global>) -> Vec<Handle<Function>> {
    let mut users = Vec::new();
    for (h, f) in m.functions.iter() {
        let Some(body) = &f.body else { continue };
        let mut uses = false;
        for (_, inst) in body.insts.iter() {
            ir::operands::for_each_operand(&inst.op, |v| {
                if let Value::Const(c) = v {
                    uses |= mentions_global(m, c, g);
                }
            });
        }
        if uses {
            users.push(h);
        }
    }
    users
}

/// `f` and the functions it calls, and they call, that are not kernels (a kernel called as a
/// function declares its own `__local` variables).
fn non_kernel_reach(m: &ir::Module, f: Handle<Function>) -> Vec<Handle<Function>> {
    let mut seen = vec![f];
    let mut i = 0;
    while let Some(&g) = seen.get(i) {
        i += 1;
        let Some(body) = &m.functions[g].body else {
            continue;
        };
        for (_, inst) in body.insts.iter() {
            if let ir::Op::Call { callee, .. } = &inst.op {
                if !m.functions[*callee].is_kernel && !seen.contains(callee) {
                    seen.push(*callee);
                }
            }
        }
    }
    seen
}

/// Where each program-scope variable OpenCL C cannot hold at program scope is declared, and
/// which functions take `__local` ones as parameters.
pub fn local_plan(m: &ir::Module) -> Result<LocalPlan> {
    let mut declared: Vec<LocalUsers> = Vec::new();
    let mut passed: HashMap<Handle<Function>, Vec<Handle<ir::Global>>> = HashMap::default();
    let reach: Vec<(Handle<Function>, Vec<Handle<Function>>)> = m
        .functions
        .iter()
        .map(|(h, _)| (h, non_kernel_reach(m, h)))
        .collect();
    for (g, gv) in m.globals.iter() {
        if !matches!(gv.space, AddressSpace::Local | AddressSpace::Private) {
            continue;
        }
        let direct = direct_users(m, g);
        let mut set = HashSet::default();
        if gv.space == AddressSpace::Local {
            for (h, reached) in &reach {
                if !reached.iter().any(|r| direct.contains(r)) {
                    continue;
                }
                if m.functions[*h].is_kernel {
                    set.insert(*h);
                } else {
                    passed.entry(*h).or_default().push(g);
                }
            }
        } else {
            set.extend(direct);
            let one_kernel = set.len() <= 1 && set.iter().all(|&h| m.functions[h].is_kernel);
            if !gv.is_constant && !one_kernel {
                return Err(Error::unsupported(format!(
                    "the private program-scope variable '{}', written and used by several \
                     functions (OpenCL C has private variables only in functions)",
                    gv.name
                )));
            }
        }
        declared.push((g, set));
    }
    Ok(LocalPlan { declared, passed })
}

fn mentions_global(m: &ir::Module, c: Handle<ir::Constant>, g: Handle<ir::Global>) -> bool {
    match &m.constants[c].kind {
        ConstantKind::GlobalAddress(x) => *x == g,
        ConstantKind::Cast(_, inner) => mentions_global(m, *inner, g),
        ConstantKind::Gep { base, .. } => mentions_global(m, *base, g),
        ConstantKind::Composite(parts) => parts.iter().any(|&p| mentions_global(m, p, g)),
        _ => false,
    }
}

/// Write function `h`: its prototype, and its definition if it has a body. `locals` are the
/// `__local` program-scope variables it declares (a kernel's).
pub fn write(
    w: &mut Writer<'_>,
    h: Handle<Function>,
    locals: &[Handle<ir::Global>],
) -> Result<(String, Option<String>)> {
    let m = w.m;
    let f = &m.functions[h];
    let fname = w.functions[&h].clone();
    let mut scope = w.scope.clone();
    let kernel = m.kernels.iter().find(|k| k.function == h);
    let pipe_packets = super::pipes::packet_types(m, f, kernel)?;
    w.signed_params.clear();
    let mut params = Vec::new();
    let mut decl_params = Vec::new();
    let mut const_params = HashSet::default();
    for (i, p) in f.params.iter().enumerate() {
        let info = kernel.and_then(|k| k.args.get(i));
        let wanted = info.and_then(|a| a.name.as_deref()).or(p.name.as_deref());
        let name = scope.fresh(wanted, &format!("arg{i}"));
        let mut ty = match (&m.types[p.ty], pipe_packets.get(&(i as u32))) {
            (Type::Pipe(access), Some(packet)) => {
                w.needs.version(2, 0, "pipes");
                let q = match access {
                    ir::Access::WriteOnly => "write_only",
                    _ => "read_only",
                };
                format!("{q} pipe {packet}")
            }
            _ => w.type_name(p.ty)?,
        };
        let mut expr = Expr::atom(name.clone());
        if let (Some(a), Type::Pointer { .. }) = (info, &m.types[p.ty]) {
            // The argument's qualifiers as the source wrote them; the body uses the pointer
            // without them (a cast), as the graph's types do.
            let q = &a.qualifiers;
            // A `const` pointer stays one in the body (`tainted` in `function`); a
            // `volatile` one is used through a cast, as the graph's accesses say.
            let pointee_is_pointer = matches!(m.types[p.ty], Type::Pointer { pointee, .. }
                if matches!(m.types[pointee], Type::Pointer { .. }));
            if (q.is_const || q.is_volatile) && !pointee_is_pointer {
                let plain = ty.clone();
                let star = ty.rfind('*').unwrap_or(ty.len());
                let mut pointee = ty[..star].trim_end().to_string();
                if q.is_volatile {
                    pointee = format!("volatile {pointee}");
                }
                let is_const = q.is_const && a.space != AddressSpace::Constant;
                if is_const {
                    pointee = format!("const {pointee}");
                }
                ty = format!("{pointee} *");
                if q.is_volatile {
                    expr = Expr::cast(&plain, &Expr::atom(name.clone()));
                } else if is_const {
                    const_params.insert(i as u32);
                }
            }
            if q.is_restrict {
                ty = format!("{ty}restrict ");
            }
        }
        // A signed integer argument (`int n`, `__global int *p`, `char4 c`) keeps its type,
        // which hosts see (clGetKernelArgInfo); the body holds it unsigned, as every graph
        // integer, through a cast. A kernel enqueued by blocks is written as a function no
        // host sees, which the blocks call with the graph's types.
        let seen = info.filter(|_| !w.invoked.contains(&h));
        if let Some((held, signed)) = seen.and_then(|a| signed_spelling(w, a, p.ty)) {
            if let Some(decl) = replace_token(&ty, &held, &signed) {
                expr = match &m.types[p.ty] {
                    Type::Pointer { .. } => {
                        let plain = ty.trim_end_matches("restrict ").trim_end();
                        Expr::cast(plain, &expr)
                    }
                    _ => {
                        w.signed_params.insert(name.clone());
                        w.unsigned(p.ty, &expr)?
                    }
                };
                ty = decl;
            }
        }
        // A kernel argument whose type the input did not state (LLVM 22's modules) is
        // declared as what the body reads it as; the body keeps the graph's type.
        let unstated = w.is_kernel(h) && info.is_some_and(|a| !a.stated);
        if let Some(t) = unstated.then(|| local_arg_element(m, f, i)).flatten() {
            let plain = w.type_name(p.ty)?;
            expr = Expr::cast(&plain, &Expr::atom(name.clone()));
            ty = format!("__local {} *", w.type_name(t)?);
        }
        decl_params.push(declare(&ty, &name));
        params.push(expr);
    }
    // The `__local` variables it takes from its callers (`LocalPlan::passed`), as pointers:
    // its body says `(*tile)` where a kernel says `tile`.
    let passed = w.passed_locals.get(&h).cloned().unwrap_or_default();
    let mut passed_names = Vec::new();
    for &g in &passed {
        let gv = &m.globals[g];
        let short = short_local_name(&gv.name);
        let name = scope.fresh(Some(short), "local");
        let ty = w.type_name(gv.ty)?;
        decl_params.push(declare(&format!("__local {ty} *"), &name));
        passed_names.push((g, format!("(*{name})")));
    }
    let ret = w.type_name(f.ret)?;
    let mut proto = String::new();
    if w.is_kernel(h) {
        proto.push_str("__kernel ");
        if let Some(k) = kernel {
            proto.push_str(&kernel_attributes(w, k)?);
        }
    }
    let params_text = if decl_params.is_empty() {
        "void".to_string()
    } else {
        decl_params.join(", ")
    };
    proto.push_str(&format!("{ret} {fname}({params_text})"));
    let Some(body) = &f.body else {
        return Ok((proto, None));
    };
    let mut fw = FnWriter::new(w, f, body, scope, params, pipe_packets, const_params);
    for (g, name) in &passed_names {
        fw.w.globals.insert(*g, name.clone());
    }
    for &g in locals {
        let gv = &m.globals[g];
        // clang names a kernel's `__local` variable `<kernel>.<name>`.
        let short = gv
            .name
            .strip_prefix(&format!("{}.", f.name))
            .unwrap_or(short_local_name(&gv.name))
            .to_string();
        let name = fw.fresh_name(&short, "local");
        let ty = fw.w.type_name(gv.ty)?;
        let decl = if gv.space == AddressSpace::Local {
            format!("__local {};", declare(&ty, &name))
        } else {
            let init = match gv.init {
                Some(c) => format!(" = {}", fw.w.initializer(c)?),
                None => String::new(),
            };
            format!("{}{init};", declare(&ty, &name))
        };
        fw.decls.push(decl);
        fw.w.globals.insert(g, name);
    }
    fw.place_values()?;
    let code = super::control::write_body(&mut fw)?;
    for &g in locals.iter().chain(&passed) {
        fw.w.globals.remove(&g);
    }
    fw.w.signed_params.clear();
    let mut text = format!("{proto} {{\n");
    for d in &fw.decls {
        text.push_str(&format!("  {d}\n"));
    }
    text.push_str(&code);
    text.push_str("}\n");
    Ok((proto, Some(text)))
}

/// The element type a kernel's `__local` pointer argument `i` is read and written as
/// (through casts of it and of steps from it), the most aligned of them where it is more
/// aligned than the pointee, for an argument whose type the input did not state (a stated
/// `uchar *` stays one). NVIDIA's OpenCL places a `__local` argument's memory by the type
/// it is declared with (LLVM 22's modules carry no pointee types, docs/logs/h100/): floats
/// read through memory declared `char` faulted there (`bounds_partial` of
/// tests/kernels/app_physics.cl), and so did a `float4` read through memory declared
/// `float` placed after 37 bytes (`local_mixed`).
fn local_arg_element(m: &ir::Module, f: &Function, i: usize) -> Option<Handle<Type>> {
    let body = f.body.as_ref()?;
    let Type::Pointer {
        pointee,
        space: AddressSpace::Local,
    } = m.types[f.params.get(i)?.ty]
    else {
        return None;
    };
    let declared = m.align_of(pointee);
    let derived = derived_pointers(m, body, &[i as u32].into_iter().collect());
    // In the body's order, so that of equally aligned types the first is taken.
    let mut best: Option<(u64, Handle<Type>)> = None;
    for &ih in body.blocks.iter().flat_map(|b| &b.insts) {
        if !derived.contains(&ih) {
            continue;
        }
        let Type::Pointer { pointee: t, .. } = m.types[body.insts[ih].ty] else {
            continue;
        };
        let readable = matches!(
            m.types[t],
            Type::Int { .. } | Type::Float { .. } | Type::Vector { .. }
        );
        let align = m.align_of(t);
        if readable && align > best.map_or(declared, |(a, _)| a) {
            best = Some((align, t));
        }
    }
    best.map(|(_, t)| t)
}

/// Where argument `a` of graph type `ty` (an integer, a vector of them, or a pointer to
/// either) is written signed in the source (`kernel_arg_type`, its typedefs resolved):
/// (the unsigned spelling the program holds it in, the signed one the source wrote).
fn signed_spelling(w: &Writer, a: &ir::ArgInfo, ty: Handle<Type>) -> Option<(String, String)> {
    let m = w.m;
    let held = match m.types[ty] {
        Type::Pointer { pointee, .. } => pointee,
        _ => ty,
    };
    let (lanes, shape) = w.shape(held);
    let super::ops::Shape::Int(width) = shape else {
        return None;
    };
    let written = a.base_type_name.as_deref().unwrap_or(&a.type_name);
    let base = written.trim_end_matches('*').trim();
    let n = if lanes > 1 {
        lanes.to_string()
    } else {
        String::new()
    };
    let signed = format!("{}{n}", super::types::sint_name(width)?);
    (base == signed).then(|| {
        (
            format!("{}{n}", super::types::uint_name(width).unwrap_or("")),
            signed,
        )
    })
}

/// `text` with its whole word `from` (the first) made `to`, if it has one.
fn replace_token(text: &str, from: &str, to: &str) -> Option<String> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut at = 0;
    while let Some(i) = text[at..].find(from).map(|i| i + at) {
        let before = text[..i].chars().next_back().is_none_or(|c| !word(c));
        let after = text[i + from.len()..]
            .chars()
            .next()
            .is_none_or(|c| !word(c));
        if before && after {
            return Some(format!("{}{to}{}", &text[..i], &text[i + from.len()..]));
        }
        at = i + from.len();
    }
    None
}

/// A `__local` variable's own name: clang calls it `<function>.<name>`.
fn short_local_name(name: &str) -> &str {
    name.rsplit('.').next().unwrap_or(name)
}

fn kernel_attributes(w: &mut Writer<'_>, k: &ir::Kernel) -> Result<String> {
    let mut s = String::new();
    if let Some([x, y, z]) = k.reqd_work_group_size {
        s.push_str(&format!(
            "__attribute__((reqd_work_group_size({x}, {y}, {z}))) "
        ));
    }
    if let Some([x, y, z]) = k.work_group_size_hint {
        s.push_str(&format!(
            "__attribute__((work_group_size_hint({x}, {y}, {z}))) "
        ));
    }
    if let Some(h) = &k.vec_type_hint {
        let base = match w.m.types[h.elem] {
            Type::Int { width } if h.signed => super::types::sint_name(width).unwrap_or("int"),
            Type::Int { width } => super::types::uint_name(width).unwrap_or("uint"),
            Type::Float { width: 16 } => "half",
            Type::Float { width: 64 } => "double",
            _ => "float",
        };
        let n = if h.len > 1 {
            h.len.to_string()
        } else {
            String::new()
        };
        s.push_str(&format!("__attribute__((vec_type_hint({base}{n}))) "));
    }
    if let Some(n) = k.reqd_sub_group_size {
        w.needs.extension("cl_intel_required_subgroup_size");
        s.push_str(&format!("__attribute__((intel_reqd_sub_group_size({n}))) "));
    }
    Ok(s)
}
