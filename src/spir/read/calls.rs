//! Calls: user functions stay calls; OpenCL builtins (SPIR-mangled names), `printf`, sampler
//! initializers and LLVM intrinsics become semantic builtin ops.

use either::Either;
use llvm_ir::instruction::Call;
use llvm_ir::{Constant as C, Operand};

use super::lowering::{enumerant, ext, unknown, FnLowering, Lowered};
use super::sampler_operands::sampler_operand;
use super::sampler_operands::{is_runtime_bits, sampler_constant};
use super::types::name_str;
use crate::diag::{Error, ErrorKind, Result};
use crate::ir::builtin::OpenclOp;
use crate::ir::{self, Builtin, ConstantKind, ConvertKind, Op, Primitive, Sign, Type, Value};
use crate::mappings;
use crate::spir::demangle::{demangle, Demangled};
use crate::spir::friendly;
use spirv::Scope;

/// Declarations with these names are builtins, not functions of the module.
pub(crate) fn is_builtin_name(name: &str) -> bool {
    name.starts_with(super::half_constants::MARKER)
        || name.starts_with("_Z")
        || name.starts_with("__spirv_")
        || name.starts_with("llvm.")
        || name == "printf"
        || name == "__translate_sampler_initializer"
        || matches!(name, "__to_global" | "__to_local" | "__to_private")
        || mappings::pipe_by_clang_name(name).is_some()
        || super::enqueue::is_clang_name(name)
        || super::block_table::is_block_function(name)
}

pub(crate) fn lower_call(l: &mut FnLowering, call: &Call) -> Result<Lowered> {
    let name = match &call.function {
        Either::Right(Operand::ConstantOperand(c)) => match c.as_ref() {
            C::GlobalReference { name, .. } => name_str(name),
            _ => return Err(Error::unsupported("call through a constant expression")),
        },
        Either::Right(Operand::LocalOperand { name, .. })
            if l.block_literals.is_invoke_pointer(name) =>
        {
            return super::blocks::block_call(l, call, name)
                .map_err(|e| e.at_value("a block call (spir_get_block_invoke)"));
        }
        Either::Right(_) => {
            return Err(Error::unsupported(
                "indirect call (OpenCL C has no function pointers)",
            ))
        }
        Either::Left(_) => return Err(Error::unsupported("inline assembly")),
    };
    let at = format!("call to '{name}'");
    let lowered = lower_named_call(l, call, &name).map_err(|e| e.at_value(at.clone()))?;
    // A declaration whose types contradict its mangled name (`vload8` returning 16 lanes):
    // what it lowers to is ill-typed.
    if let Lowered::Inst(ty, op) | Lowered::Spelling(ty, op) = &lowered {
        if let Some(e) = crate::verify::op_type_error(l.m, *ty, op, |v| l.value_type(v)) {
            return Err(Error::unsupported(format!(
                "a call to '{}' with operands or a result of types it does not take ({e})",
                name.escape_debug()
            ))
            .at_value(at));
        }
    }
    Ok(lowered)
}

fn lower_named_call(l: &mut FnLowering, call: &Call, name: &str) -> Result<Lowered> {
    // Markers without meaning: their operands (often constant expressions) are not lowered.
    if name
        .strip_prefix("llvm.")
        .is_some_and(super::memory_casts::is_marker_intrinsic)
    {
        return Ok(Lowered::Nothing);
    }
    if name.starts_with(super::half_constants::MARKER) {
        let bits = l.operand(&call.arguments[0].0)?;
        let Value::Const(bits) = bits else {
            return Err(Error::internal("a half-constant marker of a non-constant"));
        };
        return Ok(Lowered::Value(Value::Const(half_constant(l.m, bits))));
    }
    // SPIR 2.0's blocks: resolved to their binds, never lowered as values.
    if let Some(lowered) = super::blocks::call(l, call, name)? {
        return Ok(lowered);
    }
    let mut args = Vec::with_capacity(call.arguments.len());
    // The pointers a memory intrinsic reads or writes through (memory_casts.rs).
    let pointers = super::memory_casts::pointer_args(name) as usize;
    for (i, (a, _)) in call.arguments.iter().enumerate() {
        args.push(if i < pointers {
            l.memory_operand(a)?
        } else {
            l.operand(a)?
        });
    }
    let ret_llvm = llvm_ir::types::Typed::get_type(call, &l.types.llvm_module().types);
    let ret = l.lower_type(&ret_llvm)?;
    if let Some(&callee) = l.symbols.functions.get(name) {
        // A legacy i32 sampler bit-field passed to a helper whose parameter is a sampler.
        for (i, a) in args.iter_mut().enumerate() {
            let param = l.m.functions[callee].params.get(i).map(|p| p.ty);
            // A run-time bit-field (not a constant) is passed on as it is.
            if param.is_some_and(|t| matches!(l.m.types[t], Type::Sampler))
                && !is_runtime_bits(l, *a)
            {
                *a = sampler_operand(l, *a)?;
            }
        }
        check_call(l, name, callee, &args)?;
        return Ok(Lowered::Inst(ret, Op::Call { callee, args }));
    }
    // A builtin would see the upper bits of an integer the graph holds wider (narrow.rs).
    if let Some((bits, _)) = call
        .arguments
        .iter()
        .find_map(|(a, _)| l.narrow_of(a).map(|b| (b, a)))
    {
        return Err(Error::unsupported(format!(
            "a call to builtin '{}' with an i{bits} argument (a width SPIR does not have)",
            name.escape_debug()
        )));
    }
    if let Some(intr) = name.strip_prefix("llvm.") {
        return super::intrinsics::intrinsic(l, intr, ret, args, memory_align(call));
    }
    if name == "printf" {
        return Ok(ext(ret, OpenclOp::printf, None, args));
    }
    // clang's unmangled to_global / to_local / to_private.
    if matches!(name, "__to_global" | "__to_local" | "__to_private") {
        return Ok(super::c11::generic_cast_explicit(ret, args));
    }
    if let Some(row) = mappings::pipe_by_clang_name(name) {
        return super::pipes::lower(l, row, ret, args);
    }
    if super::enqueue::is_clang_name(name) {
        return super::enqueue::clang_call(l, name, ret, args)?
            .ok_or_else(|| Error::unsupported(format!("unknown enqueue function '{name}'")));
    }
    if name == "__translate_sampler_initializer" {
        // A run-time bit-field (a SPIR `i32` sampler argument) stays the value it is.
        if let Some(v) = args.first().copied().filter(|&v| is_runtime_bits(l, v)) {
            return Ok(Lowered::Value(v));
        }
        let c = sampler_constant(l, args.first().copied())?;
        return Ok(Lowered::Value(Value::Const(c)));
    }
    if let Some(call) = friendly::unmangled(name).and_then(friendly::parse_call) {
        return super::friendly::lower(l, call, ret, args);
    }
    let d = demangle(name).ok_or_else(|| {
        Error::new(ErrorKind::UnknownBuiltin {
            name: name.to_string(),
            demangled: "(not a SPIR-mangled name)".into(),
        })
    })?;
    builtin(l, &d, name, ret, args)
}

fn sign(s: Option<bool>) -> Option<Sign> {
    s.map(|s| if s { Sign::Signed } else { Sign::Unsigned })
}

/// The alignment a memcpy/memmove/memset call states for its pointers (the smaller of the
/// two for copies); `align 1` says nothing.
fn memory_align(call: &Call) -> Option<u32> {
    call.arguments
        .iter()
        .take(2)
        .filter_map(|(_, attrs)| {
            attrs.iter().find_map(|a| match a {
                llvm_ir::function::ParameterAttribute::Alignment(n) => u32::try_from(*n).ok(),
                _ => None,
            })
        })
        .min()
        .filter(|&a| a > 1)
}

/// Memory semantics of `cl_mem_fence_flags` (CLK_LOCAL_MEM_FENCE = 1, CLK_GLOBAL_MEM_FENCE = 2,
/// CLK_IMAGE_MEM_FENCE = 4) combined with an ordering.
fn fence_semantics(l: &FnLowering, flags: Value, ordering: spirv::MemorySemantics) -> Result<u32> {
    let Value::Const(c) = flags else {
        return Err(Error::unsupported(
            "memory fence flags that are not a constant",
        ));
    };
    let ConstantKind::Int(bits) = l.m.constants[c].kind else {
        return Err(Error::unsupported(
            "memory fence flags that are not an integer constant",
        ));
    };
    let mut s = ordering;
    for &(bit, storage) in mappings::FENCE_FLAGS {
        if bits & bit as u64 != 0 {
            s |= storage;
        }
    }
    Ok(s.bits())
}

/// An OpenCL C relational builtin is its SPIR-V form: the boolean test, then its extension to
/// OpenCL's integer result (1/0 for scalars, -1/0 lane-wise for vectors). `any`/`all` test the
/// sign bit of each lane.
fn relational(
    l: &mut FnLowering,
    op: spirv::Op,
    ret: ir::Handle<Type>,
    args: Vec<Value>,
) -> Result<Lowered> {
    let bool_t = l.m.ty(Type::Bool);
    let bools = |l: &mut FnLowering, lanes: u32| match lanes {
        1 => bool_t,
        len => l.m.ty(Type::Vector { elem: bool_t, len }),
    };
    let test = if let Some(pred) = crate::normal::float_predicate(op) {
        let t = bools(l, l.m.lanes(ret));
        let cmp = Op::FCmp {
            pred,
            lhs: args[0],
            rhs: args[1],
        };
        Value::Inst(l.emit(None, t, cmp))
    } else if let Some(reduce @ (Primitive::Any | Primitive::All)) = mappings::primitive(op) {
        let arg_t = l.value_type(args[0]);
        let lanes = l.m.lanes(arg_t);
        let zero = Value::Const(l.m.zero_of(arg_t));
        let neg_t = bools(l, lanes);
        let slt = ir::IntPredicate::Slt;
        let neg = match l.extension_test(slt, args[0], zero) {
            Some(b) => b,
            None => {
                let neg = Op::ICmp {
                    pred: slt,
                    lhs: args[0],
                    rhs: zero,
                };
                Value::Inst(l.emit(None, neg_t, neg))
            }
        };
        if lanes == 1 {
            neg
        } else {
            let any = Op::Builtin {
                builtin: Builtin::Primitive(reduce),
                args: vec![neg],
            };
            Value::Inst(l.emit(None, bool_t, any))
        }
    } else {
        let t = bools(l, l.m.lanes(ret));
        let test = mappings::primitive(op)
            .ok_or_else(|| Error::internal(format!("relational Op{op:?} is no primitive")))?;
        let test = Op::Builtin {
            builtin: Builtin::Primitive(test),
            args,
        };
        Value::Inst(l.emit(None, t, test))
    };
    let op = if l.m.lanes(ret) > 1 {
        ir::CastOp::SExt
    } else {
        ir::CastOp::ZExt
    };
    Ok(Lowered::Spelling(ret, Op::Cast { op, value: test }))
}

/// The `half` (vector) constant with the bits of integer constant `bits` (half_constants.rs).
fn half_constant(m: &mut ir::Module, bits: ir::Handle<ir::Constant>) -> ir::Handle<ir::Constant> {
    let half = m.ty(Type::Float { width: 16 });
    let c = m.constants[bits].clone();
    let (ty, kind) = match c.kind {
        ConstantKind::Composite(lanes) => {
            let lanes: Vec<_> = lanes.into_iter().map(|l| half_constant(m, l)).collect();
            let ty = m.ty(Type::Vector {
                elem: half,
                len: lanes.len() as u32,
            });
            (ty, ConstantKind::Composite(lanes))
        }
        ConstantKind::Int(b) => (half, ConstantKind::Float(b)),
        other => {
            let ty = match m.types[c.ty] {
                Type::Vector { len, .. } => m.ty(Type::Vector { elem: half, len }),
                _ => half,
            };
            (ty, other)
        }
    };
    m.constant(ir::Constant { ty, kind })
}

/// The builtins known by their exact name: barriers, fences, `get_fence`, `dot` and the
/// asynchronous copies (`None` for any other name).
fn by_name(
    l: &mut FnLowering,
    n: &str,
    ret: ir::Handle<Type>,
    args: &[Value],
) -> Result<Option<Lowered>> {
    let inst = |b: Builtin, args: Vec<Value>| {
        Ok(Some(Lowered::Inst(ret, Op::Builtin { builtin: b, args })))
    };
    match n {
        "barrier" | "work_group_barrier" | "sub_group_barrier" => {
            let semantics =
                fence_semantics(l, args[0], spirv::MemorySemantics::SEQUENTIALLY_CONSISTENT)?;
            let exec = if n == "sub_group_barrier" {
                Scope::Subgroup
            } else {
                Scope::Workgroup
            };
            // Without a memory_scope, the barrier's own scope (OpenCL C 2.0, 6.13.8).
            let mem = match args.get(1) {
                Some(&s) => enumerant(l, s, mappings::MEMORY_SCOPES, "memory_scope")?,
                None => exec,
            };
            return inst(
                Builtin::ControlBarrier {
                    exec,
                    mem,
                    semantics,
                },
                vec![],
            );
        }
        // SPIR 2.0's mangled spelling of to_global / to_local / to_private.
        "to_global" | "to_local" | "to_private" => {
            return Ok(Some(super::c11::generic_cast_explicit(ret, args.to_vec())))
        }
        "get_fence" => {
            // OpGenericPtrMemSemantics' storage bits, WorkgroupMemory (0x100) and
            // CrossWorkgroupMemory (0x200), are CLK_LOCAL_MEM_FENCE (1) and
            // CLK_GLOBAL_MEM_FENCE (2) shifted by 8.
            let u32t = l.m.int_type(32);
            let sem = Value::Inst(l.emit(
                None,
                u32t,
                Op::Builtin {
                    builtin: Builtin::Primitive(Primitive::GenericPtrMemSemantics),
                    args: args.to_vec(),
                },
            ));
            let eight = Value::Const(l.m.int_const(u32t, 8));
            let shifted = Value::Inst(l.emit(
                None,
                u32t,
                Op::Binary {
                    op: ir::BinaryOp::LShr,
                    lhs: sem,
                    rhs: eight,
                    flags: Default::default(),
                },
            ));
            let three = Value::Const(l.m.int_const(u32t, 3));
            return Ok(Some(Lowered::Inst(
                ret,
                Op::Binary {
                    op: ir::BinaryOp::And,
                    lhs: shifted,
                    rhs: three,
                    flags: Default::default(),
                },
            )));
        }
        "atomic_work_item_fence" => {
            let order = enumerant(l, args[1], mappings::MEMORY_ORDERS, "memory_order")?;
            let mem = enumerant(l, args[2], mappings::MEMORY_SCOPES, "memory_scope")?;
            let semantics = fence_semantics(l, args[0], order)?;
            return inst(Builtin::MemoryBarrier { mem, semantics }, vec![]);
        }
        "mem_fence" | "read_mem_fence" | "write_mem_fence" => {
            let order = match n {
                "read_mem_fence" => spirv::MemorySemantics::ACQUIRE,
                "write_mem_fence" => spirv::MemorySemantics::RELEASE,
                _ => spirv::MemorySemantics::ACQUIRE_RELEASE,
            };
            let semantics = fence_semantics(l, args[0], order)?;
            return inst(
                Builtin::MemoryBarrier {
                    mem: Scope::Workgroup,
                    semantics,
                },
                vec![],
            );
        }
        "dot" => {
            if l.m.lanes(l.value_type(args[0])) == 1 {
                return Ok(Some(Lowered::Inst(
                    ret,
                    Op::Binary {
                        op: ir::BinaryOp::FMul,
                        lhs: args[0],
                        rhs: args[1],
                        flags: Default::default(),
                    },
                )));
            }
            return inst(Builtin::Primitive(Primitive::Dot), args.to_vec());
        }
        "async_work_group_copy" => {
            return inst(Builtin::AsyncCopy { strided: false }, args.to_vec())
        }
        "async_work_group_strided_copy" => {
            // Stride 1 is the unstrided copy (`Builtin::from_spirv_form` reads SPIR-V so).
            let one = matches!(args[3], Value::Const(c)
                if matches!(l.m.constants[c].kind, ConstantKind::Int(1)));
            if one {
                let unstrided = vec![args[0], args[1], args[2], args[4]];
                return inst(Builtin::AsyncCopy { strided: false }, unstrided);
            }
            return inst(Builtin::AsyncCopy { strided: true }, args.to_vec());
        }
        "wait_group_events" => return inst(Builtin::WaitEvents, args.to_vec()),
        _ => {}
    }
    Ok(None)
}

fn builtin(
    l: &mut FnLowering,
    d: &Demangled,
    mangled: &str,
    ret: ir::Handle<Type>,
    args: Vec<Value>,
) -> Result<Lowered> {
    let n = d.name.as_str();
    let inst =
        |b: Builtin, args: Vec<Value>| Ok(Lowered::Inst(ret, Op::Builtin { builtin: b, args }));
    if let Some((var, _, _)) = mappings::work_item(n) {
        return inst(Builtin::WorkItem(var), args);
    }
    let signs = (d.param_sign(0), d.param_sign(1));
    if let Some((dot, _)) = crate::spir::opencl_names::integer_dot_from_name(n, signs) {
        return super::integer_dot::lower(dot, ret, args).ok_or_else(|| unknown(mangled, d));
    }
    if let Some(lowered) = by_name(l, n, ret, &args)? {
        return Ok(lowered);
    }
    if let Some(op) = super::enqueue::one_to_one(n) {
        return inst(Builtin::Primitive(op), args);
    }
    if let Some(d) = n.strip_prefix("ndrange_").and_then(|r| r.strip_suffix('D')) {
        if let Ok(dims @ 1..=3) = d.parse::<u32>() {
            return super::enqueue::ndrange(l, dims, ret, args);
        }
    }
    if let Some(row) = mappings::pipe_by_opencl_name(n, args.len()) {
        return super::pipes::lower(l, row, ret, args);
    }
    if let Some(r) = super::c11::c11_atomic(l, d, mangled, ret, &args)? {
        return Ok(r);
    }
    if let Some(op) = n
        .strip_prefix("atomic_")
        .or_else(|| n.strip_prefix("atom_"))
        .and_then(mappings::atomic)
    {
        let op = op
            .pick(sign(d.first_sign()))
            .ok_or_else(|| unknown(mangled, d))?;
        return inst(
            Builtin::Atomic {
                op,
                scope: Scope::Device,
                semantics: 0,
            },
            args,
        );
    }
    if let Some(g) = crate::spir::groups::parse(n) {
        return super::groups::lower(l, g, sign(d.first_sign()), ret, args)
            .ok_or_else(|| unknown(mangled, d));
    }
    if let Some(rest) = n.strip_prefix("convert_") {
        return convert(l, d, mangled, rest, ret, args);
    }
    if n.starts_with("as_") {
        return Ok(Lowered::Inst(
            ret,
            Op::Cast {
                op: ir::CastOp::Bitcast,
                value: args[0],
            },
        ));
    }
    if let Some(op) = mappings::relational(n) {
        return relational(l, op, ret, args);
    }
    if let Some(op) = mappings::extended_bit_op(n) {
        return inst(Builtin::Primitive(op), args);
    }
    if let Some(r) = vload_vstore(n) {
        let (op, literal) = r;
        return inst(Builtin::ExtInst { op, literal }, args);
    }
    if let Some(op) = super::images::image(l, n, args.clone())? {
        if let Op::Builtin { builtin, args } = &op {
            if let [img, smp, coord] = args[..] {
                if let Some(v) = super::images::sample_each(l, ret, builtin, [img, smp, coord]) {
                    return Ok(Lowered::Value(v));
                }
            }
        }
        return Ok(Lowered::Inst(ret, op));
    }
    if let Some(e) = mappings::opencl_std(n) {
        let op = e
            .pick(sign(d.first_sign()))
            .ok_or_else(|| unknown(mangled, d))?;
        // OpenCL C overloads such as fmax(float4, float), clamp(int4, int, int), mix(.., float),
        // step/smoothstep with scalar edges and ldexp(float4, int) take scalars where OpenCL.std
        // wants vectors of the result's width: widen them.
        let lanes = l.m.lanes(ret);
        let mut args = args;
        if lanes > 1 {
            for a in args.iter_mut() {
                let t = l.value_type(*a);
                if matches!(l.m.types[t], Type::Int { .. } | Type::Float { .. }) {
                    *a = l.splat(*a, lanes);
                }
            }
        }
        return Ok(ext(ret, op, None, args));
    }
    Err(unknown(mangled, d))
}

fn convert(
    l: &mut FnLowering,
    d: &Demangled,
    mangled: &str,
    rest: &str,
    ret: ir::Handle<Type>,
    args: Vec<Value>,
) -> Result<Lowered> {
    let mut parts = rest.split('_');
    let ty = parts.next().unwrap_or("");
    let mut saturate = false;
    let mut round = None;
    for p in parts {
        match p {
            "sat" => saturate = true,
            r => round = Some(mappings::rounding(r).ok_or_else(|| unknown(mangled, d))?),
        }
    }
    let base = ty.trim_end_matches(|c: char| c.is_ascii_digit());
    let to = match base {
        "float" | "double" | "half" => ConvertKind::Float,
        "char" | "short" | "int" | "long" => ConvertKind::Int(Sign::Signed),
        "uchar" | "ushort" | "uint" | "ulong" => ConvertKind::Int(Sign::Unsigned),
        _ => return Err(unknown(mangled, d)),
    };
    let from = match d.first_sign() {
        None => ConvertKind::Float,
        Some(s) => ConvertKind::Int(if s { Sign::Signed } else { Sign::Unsigned }),
    };
    let Some(&arg) = args.first() else {
        return Err(unknown(mangled, d));
    };
    let from_ty = l.value_type(arg);
    // The mangled parameter class must be the argument's (a float parameter for a float).
    let float_arg = matches!(l.m.types[l.m.scalar_of(from_ty)], Type::Float { .. });
    let numeric = matches!(
        l.m.types[l.m.scalar_of(from_ty)],
        Type::Float { .. } | Type::Int { .. }
    );
    if float_arg != (from == ConvertKind::Float) || !numeric {
        return Err(Error::unsupported(format!(
            "a call to '{}' whose argument is not of the type its mangled name says",
            mangled.escape_debug()
        )));
    }
    Ok(
        match l
            .m
            .convert_op(ret, (from, to, saturate, round), args[0], from_ty)
        {
            crate::normal::Converted::Op(op) => Lowered::Inst(ret, op),
            crate::normal::Converted::Same(v) => Lowered::Value(v),
        },
    )
}

/// vload/vstore families: (instruction, literal operand).
fn vload_vstore(n: &str) -> Option<(OpenclOp, Option<u32>)> {
    let width =
        |s: &str| -> Option<u32> { s.parse().ok().filter(|w| [2, 3, 4, 8, 16].contains(w)) };
    let split_round = |s: &str| -> (String, Option<u32>) {
        if let Some((b, r)) = s.rsplit_once('_') {
            if let Some(mode) = mappings::rounding(r) {
                return (b.to_string(), Some(mode as u32));
            }
        }
        (s.to_string(), None)
    };
    // The scalar `vloada_half`/`vstorea_half` (no size in the name, as some SPIR 1.2
    // producers declare them) read or write one half, whose alignment is a half's: they are
    // `vload_half`/`vstore_half`.
    if let Some(w) = n.strip_prefix("vloada_half") {
        if w.is_empty() {
            return Some((OpenclOp::vload_half, None));
        }
        return Some((OpenclOp::vloada_halfn, Some(width(w)?)));
    }
    if let Some(w) = n.strip_prefix("vload_half") {
        return Some(if w.is_empty() {
            (OpenclOp::vload_half, None)
        } else {
            (OpenclOp::vload_halfn, Some(width(w)?))
        });
    }
    if let Some(w) = n.strip_prefix("vload") {
        return Some((OpenclOp::vloadn, Some(width(w)?)));
    }
    let (base, round) = split_round(n);
    if let Some(w) = base.strip_prefix("vstorea_half") {
        if w.is_empty() {
            return Some(match round {
                None => (OpenclOp::vstore_half, None),
                Some(r) => (OpenclOp::vstore_half_r, Some(r)),
            });
        }
        width(w)?;
        return Some(match round {
            None => (OpenclOp::vstorea_halfn, None),
            Some(r) => (OpenclOp::vstorea_halfn_r, Some(r)),
        });
    }
    if let Some(w) = base.strip_prefix("vstore_half") {
        if !w.is_empty() {
            width(w)?;
        }
        return Some(match (w.is_empty(), round) {
            (true, None) => (OpenclOp::vstore_half, None),
            (true, Some(r)) => (OpenclOp::vstore_half_r, Some(r)),
            (false, None) => (OpenclOp::vstore_halfn, None),
            (false, Some(r)) => (OpenclOp::vstore_halfn_r, Some(r)),
        });
    }
    if let Some(w) = base.strip_prefix("vstore") {
        if round.is_none() {
            width(w)?;
            return Some((OpenclOp::vstoren, None));
        }
    }
    None
}

/// A call must agree with its callee: SPIR-V has no implicit conversions at calls and no
/// variadic functions (OpenCL C's only one, `printf`, is a builtin). LLVM lets a call's
/// arguments differ from the callee's parameters (a call through a cast of the function, a
/// variadic declaration); such a call is refused with what differs.
fn check_call(
    l: &FnLowering,
    name: &str,
    callee: ir::Handle<ir::Function>,
    args: &[Value],
) -> Result<()> {
    let params = &l.m.functions[callee].params;
    if params.len() != args.len() {
        return Err(Error::unsupported(format!(
            "a call with {} arguments to '{}', which takes {}",
            args.len(),
            name.escape_debug(),
            params.len()
        )));
    }
    for (i, (p, a)) in params.iter().zip(args).enumerate() {
        let at = l.value_type(*a);
        if !l.m.passes_as(at, p.ty) {
            return Err(Error::unsupported(format!(
                "a call to '{}' whose argument {i} is {}, the parameter {}",
                name.escape_debug(),
                ir::print::type_text(l.m, at),
                ir::print::type_text(l.m, p.ty)
            )));
        }
    }
    Ok(())
}
