//! A function's definition: its signature (kernel attributes, argument qualifiers, pipe
//! packet types), the variables OpenCL C declares in it, and its body.

use super::expr::Expr;
use super::function::FnWriter;
use super::types::declare;
use super::Writer;
use crate::diag::{Error, Result};
use crate::hash::HashSet;
use crate::ir::{self, AddressSpace, ConstantKind, Function, Handle, Type, Value};

/// A program-scope variable OpenCL C declares in functions, and the functions that do.
pub type LocalUsers = (Handle<ir::Global>, HashSet<Handle<Function>>);

/// The functions that declare each program-scope variable OpenCL C cannot hold at program
/// scope: a `__local` one in each kernel that uses it (a use from another function is an
/// error), a private one (SPIR 1.2 producers' tables and strings) as a copy in each function
/// that uses it, which is exact for constants and for a variable one kernel alone uses.
pub fn local_variable_users(m: &ir::Module) -> Result<Vec<LocalUsers>> {
    let mut users: Vec<LocalUsers> = Vec::new();
    for (g, gv) in m.globals.iter() {
        if !matches!(gv.space, AddressSpace::Local | AddressSpace::Private) {
            continue;
        }
        let mut set = HashSet::default();
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
                if !f.is_kernel && gv.space == AddressSpace::Local {
                    return Err(Error::unsupported(format!(
                        "function '{}' uses the __local variable '{}', which OpenCL C can \
                         only declare in a kernel",
                        f.name, gv.name
                    )));
                }
                set.insert(h);
            }
        }
        let one_kernel = set.len() <= 1 && set.iter().all(|&h| m.functions[h].is_kernel);
        if gv.space == AddressSpace::Private && !gv.is_constant && !one_kernel {
            return Err(Error::unsupported(format!(
                "the private program-scope variable '{}', written and used by several functions \
                 (OpenCL C has private variables only in functions)",
                gv.name
            )));
        }
        users.push((g, set));
    }
    Ok(users)
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
        decl_params.push(declare(&ty, &name));
        params.push(expr);
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
    for &g in locals {
        let gv = &m.globals[g];
        // clang names a kernel's `__local` variable `<kernel>.<name>`.
        let short = gv
            .name
            .strip_prefix(&format!("{}.", f.name))
            .unwrap_or(&gv.name)
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
    for &g in locals {
        fw.w.globals.remove(&g);
    }
    let mut text = format!("{proto} {{\n");
    for d in &fw.decls {
        text.push_str(&format!("  {d}\n"));
    }
    text.push_str(&code);
    text.push_str("}\n");
    Ok((proto, Some(text)))
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
