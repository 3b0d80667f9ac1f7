//! The typing rules of instructions, for `verify`: what LLVM's verifier and SPIR-V's
//! validator would each refuse, checked on the graph, so that a reader that let an ill-typed
//! instruction through (a mutated SPIR-V module, say) is caught before a writer hands it to
//! LLVM's C API, which does not check and may crash.

use crate::ir::function::{CastOp, Function, Op, Value};
use crate::ir::module::Module;
use crate::ir::operands::for_each_operand;
use crate::ir::types::{Access, ImageType, Type};
use crate::ir::Handle;

impl Module {
    /// Whether a value of type `arg` may be passed for a parameter of type `param`: the same
    /// type, or a read-only image for an image parameter that states no access (legacy SPIR
    /// spells no access in types, and OpenCL C's default is `read_only`).
    pub fn passes_as(&self, arg: Handle<Type>, param: Handle<Type>) -> bool {
        if arg == param {
            return true;
        }
        match (&self.types[arg], &self.types[param]) {
            (Type::Image(a), Type::Image(p)) => {
                p.access.is_none()
                    && matches!(a.access, None | Some(Access::ReadOnly))
                    && ImageType { access: None, ..*a } == *p
            }
            _ => false,
        }
    }

    /// A boolean, or a vector of booleans of `lanes` lanes.
    fn is_condition(&self, t: Handle<Type>, lanes: u32) -> bool {
        match self.types[t] {
            Type::Bool => true,
            Type::Vector { elem, len } => len == lanes && self.types[elem] == Type::Bool,
            _ => false,
        }
    }
}

/// What is wrong with the types of an instruction of result type `ty`, if anything. The
/// operands must exist (the caller checks that first).
pub(super) fn type_error(m: &Module, f: &Function, ty: Handle<Type>, op: &Op) -> Option<String> {
    op_type_error(m, ty, op, |v| m.value_type(f, v))
}

/// `type_error` for an instruction not yet in a function (a reader checking what it is
/// about to emit): `value_type` gives each operand's type.
pub fn op_type_error(
    m: &Module,
    ty: Handle<Type>,
    op: &Op,
    value_type: impl Fn(Value) -> Handle<Type>,
) -> Option<String> {
    let t = |v: &Value| value_type(*v);
    let fail = |what: &str| Some(what.to_string());
    let mut void_operand = false;
    for_each_operand(op, |v| void_operand |= m.types[t(&v)] == Type::Void);
    if void_operand {
        return fail("a value of type void is an operand");
    }
    match op {
        Op::Alloca { align, .. } | Op::Load { align, .. } | Op::Store { align, .. } => {
            align_error(*align)
        }
        Op::Builtin { builtin, args } => {
            let types: Vec<_> = args.iter().map(t).collect();
            super::builtins::builtin_error(m, builtin, &types, ty)
                .map(|e| format!("{}: {e}", builtin_name(builtin)))
        }
        Op::ExtractValue { aggregate, indices } => (member(m, t(aggregate), indices) != Some(ty))
            .then(|| "extractvalue indices do not lead to the result type".to_string()),
        Op::InsertValue {
            aggregate,
            element,
            indices,
        } => (t(aggregate) != ty || member(m, ty, indices) != Some(t(element)))
            .then(|| "insertvalue types do not agree".to_string()),
        Op::Binary { lhs, rhs, .. } if t(lhs) != ty || t(rhs) != ty => {
            fail("binary operands are not of the result type")
        }
        Op::Binary { op, .. } if !binary_kind_fits(m, *op, ty) => Some(format!(
            "{op:?} on operands of the other kind (integer or float)"
        )),
        Op::FNeg(x) if t(x) != ty || !is_float(m, ty) => {
            fail("fneg operand is not a float of the result type")
        }
        Op::ICmp { lhs, rhs, .. } | Op::FCmp { lhs, rhs, .. }
            if t(lhs) != t(rhs) || !m.is_condition(ty, m.lanes(t(lhs))) =>
        {
            fail("compare operands differ in type, or the result is not their boolean")
        }
        Op::FCmp { lhs, .. } if !is_float(m, t(lhs)) => {
            fail("fcmp of operands that are not floats")
        }
        Op::ICmp { lhs, .. }
            if !matches!(
                m.types[m.scalar_of(t(lhs))],
                Type::Int { .. } | Type::Bool | Type::Pointer { .. }
            ) =>
        {
            fail("icmp of operands that are not integers or pointers")
        }
        Op::Select {
            cond,
            on_true,
            on_false,
        } if t(on_true) != ty
            || t(on_false) != ty
            || !(m.types[t(cond)] == Type::Bool || m.is_condition(t(cond), m.lanes(ty))) =>
        {
            fail("select arms are not of the result type, or the condition is no boolean")
        }
        Op::Phi { incoming } if incoming.iter().any(|(v, _)| t(v) != ty) => {
            fail("a phi value is not of the phi's type")
        }
        Op::Call { callee, args } => {
            let g = &m.functions[*callee];
            if g.params.len() != args.len() {
                return fail("call argument count differs from the callee's parameters");
            }
            if g.ret != ty {
                return fail("call result type is not the callee's return type");
            }
            g.params
                .iter()
                .zip(args)
                .any(|(p, a)| !m.passes_as(t(a), p.ty))
                .then(|| "a call argument is not of its parameter's type".to_string())
        }
        Op::Shuffle { a, b, mask } => {
            let (Type::Vector { elem, len }, Type::Vector { elem: re, len: rl }) =
                (&m.types[t(a)], &m.types[ty])
            else {
                return fail("shufflevector of a non-vector, or to a non-vector");
            };
            let fits = t(a) == t(b)
                && elem == re
                && *rl as usize == mask.len()
                && mask.iter().flatten().all(|&i| i < 2 * len);
            (!fits).then(|| "shufflevector operands, mask and result do not agree".to_string())
        }
        Op::Cast { op, value } => {
            (!cast_fits(m, *op, t(value), ty)).then(|| format!("{op:?} from this type to that"))
        }
        Op::ExtractElement { vector, .. } => match m.types[t(vector)] {
            Type::Vector { elem, .. } if elem == ty => None,
            _ => fail("extractelement of a non-vector, or of another element type"),
        },
        Op::InsertElement {
            vector, element, ..
        } => match m.types[t(vector)] {
            Type::Vector { elem, .. } if t(vector) == ty && t(element) == elem => None,
            _ => fail("insertelement types do not agree"),
        },
        Op::Gep { base, indices, .. } => {
            if indices
                .iter()
                .any(|i| !matches!(m.types[t(i)], Type::Int { .. }))
            {
                return fail("a getelementptr index is not a scalar integer");
            }
            let consts = m.const_indices(indices);
            if !struct_steps_i32(m, t(base), indices) {
                return fail("a getelementptr struct index is not an i32 constant");
            }
            let pointee = m.gep_pointee(t(base), &consts);
            (pointee.is_none() || pointee != m.pointee(ty))
                .then(|| "getelementptr indices do not lead to the result type".to_string())
        }
        _ => None,
    }
}

/// Floats, or vectors of them.
fn is_float(m: &Module, t: Handle<Type>) -> bool {
    matches!(m.types[m.scalar_of(t)], Type::Float { .. })
}

/// Integer operations take integers (booleans too), float operations floats.
fn binary_kind_fits(m: &Module, op: crate::ir::function::BinaryOp, ty: Handle<Type>) -> bool {
    use crate::ir::function::BinaryOp as B;
    match op {
        B::FAdd | B::FSub | B::FMul | B::FDiv | B::FRem => is_float(m, ty),
        _ => matches!(m.types[m.scalar_of(ty)], Type::Int { .. } | Type::Bool),
    }
}

/// Whether `op` casts `from` to `to` as LLVM allows (lane counts agree; the kinds fit).
fn cast_fits(m: &Module, op: CastOp, from: Handle<Type>, to: Handle<Type>) -> bool {
    if m.lanes(from) != m.lanes(to) && op != CastOp::Bitcast {
        return false;
    }
    let (f, g) = (&m.types[m.scalar_of(from)], &m.types[m.scalar_of(to)]);
    let int = |t: &Type| matches!(t, Type::Int { .. } | Type::Bool);
    let float = |t: &Type| matches!(t, Type::Float { .. });
    let ptr = |t: &Type| matches!(t, Type::Pointer { .. });
    let width = |t: &Type| match t {
        Type::Int { width } | Type::Float { width } => *width,
        Type::Bool => 1,
        _ => 0,
    };
    match op {
        CastOp::Trunc => int(f) && int(g) && width(f) > width(g),
        CastOp::ZExt | CastOp::SExt => int(f) && int(g) && width(f) < width(g),
        CastOp::FPTrunc => float(f) && float(g) && width(f) > width(g),
        CastOp::FPExt => float(f) && float(g) && width(f) < width(g),
        CastOp::FPToUI | CastOp::FPToSI => float(f) && int(g),
        CastOp::UIToFP | CastOp::SIToFP => int(f) && float(g),
        CastOp::PtrToInt => ptr(f) && int(g),
        CastOp::IntToPtr => int(f) && ptr(g),
        CastOp::AddrSpaceCast => ptr(f) && ptr(g),
        // Same size, or pointers (a SPIR-V bitcast may also change the storage class).
        CastOp::Bitcast => {
            (ptr(f) && ptr(g))
                || (!ptr(f) && !ptr(g) && m.size_of(from) == m.size_of(to) && m.size_of(to) > 0)
        }
    }
}

/// The type at `path` inside aggregate `ty` (struct members, array and vector elements).
fn member(m: &Module, ty: Handle<Type>, path: &[u32]) -> Option<Handle<Type>> {
    path.iter().try_fold(ty, |t, &i| match &m.types[t] {
        Type::Struct {
            members: Some(ms), ..
        } => ms.get(i as usize).copied(),
        Type::Array { elem, len } if u64::from(i) < *len => Some(*elem),
        Type::Vector { elem, len } if i < *len => Some(*elem),
        _ => None,
    })
}

/// An alignment must be a power of two that LLVM can hold (at most 2^29 bytes).
pub(super) fn align_error(align: Option<u32>) -> Option<String> {
    align
        .filter(|&a| !a.is_power_of_two() || a > 1 << 29)
        .map(|a| format!("alignment {a} is not a power of two up to 2^29"))
}

/// What is wrong with a constant, if anything: a scalar of its kind's type; a composite with
/// one part per member, lane or element, each of its type.
pub fn constant_error(m: &Module, c: &crate::ir::Constant) -> Option<String> {
    let parts = match &c.kind {
        crate::ir::ConstantKind::Int(_) => {
            return (!matches!(m.types[c.ty], Type::Int { .. } | Type::Bool))
                .then(|| "an integer constant of a non-integer type".into())
        }
        crate::ir::ConstantKind::Float(_) => {
            return (!matches!(m.types[c.ty], Type::Float { .. }))
                .then(|| "a floating-point constant of a non-float type".into())
        }
        crate::ir::ConstantKind::Composite(parts) => parts,
        crate::ir::ConstantKind::Cast(op, inner) => {
            return (!cast_fits(m, *op, m.constants[*inner].ty, c.ty))
                .then(|| format!("a constant {op:?} between types it does not convert"))
        }
        _ => return None,
    };
    let fits = match &m.types[c.ty] {
        Type::Struct {
            members: Some(ms), ..
        } => parts.len() == ms.len() && parts.iter().zip(ms).all(|(p, &t)| m.constants[*p].ty == t),
        Type::Array { elem, len } => {
            parts.len() as u64 == *len && parts.iter().all(|p| m.constants[*p].ty == *elem)
        }
        Type::Vector { elem, len } => {
            parts.len() == *len as usize && parts.iter().all(|p| m.constants[*p].ty == *elem)
        }
        _ => return Some("a composite constant of a non-aggregate type".into()),
    };
    (!fits).then(|| "a composite constant's parts do not match its type".into())
}

/// Parameter attributes must fit their parameters, as LLVM requires: extensions on integers,
/// memory attributes on pointers (OpenCL objects are pointers in LLVM), one `sret` on the
/// first or second parameter.
pub(super) fn param_attr_error(m: &Module, f: &Function) -> Option<String> {
    for (i, p) in f.params.iter().enumerate() {
        let t = &m.types[p.ty];
        let int = matches!(t, Type::Int { .. } | Type::Bool);
        let ptr = matches!(t, Type::Pointer { .. }) || t.is_opencl_object();
        let a = p.attrs;
        if (a.zext || a.sext) && !int {
            return Some(format!("parameter {i}: zext/sext on a non-integer"));
        }
        if a.zext && a.sext {
            return Some(format!("parameter {i}: both zext and sext"));
        }
        if (a.noalias
            || a.nocapture
            || a.readonly
            || a.readnone
            || a.writeonly
            || a.byval
            || a.sret
            || a.align.is_some())
            && !ptr
        {
            return Some(format!(
                "parameter {i}: a pointer attribute on a non-pointer"
            ));
        }
        if a.align.is_some_and(|n| !n.is_power_of_two()) {
            return Some(format!(
                "parameter {i}: an alignment that is no power of two"
            ));
        }
        if a.readonly && a.readnone {
            return Some(format!("parameter {i}: both readonly and readnone"));
        }
        if a.writeonly && (a.readonly || a.readnone) {
            return Some(format!(
                "parameter {i}: writeonly with readonly or readnone"
            ));
        }
        if a.sret && (a.byval || f.is_kernel) {
            return Some(format!("parameter {i}: sret with byval, or on a kernel"));
        }
        if a.sret && i > 1 {
            return Some(format!("parameter {i}: sret past the second parameter"));
        }
        if a.sret && m.types[f.ret] != Type::Void {
            return Some(format!(
                "parameter {i}: sret in a function that returns a value"
            ));
        }
    }
    (f.params.iter().filter(|p| p.attrs.sret).count() > 1)
        .then(|| "more than one sret parameter".into())
}

/// Whether every index that steps into a struct is an `i32` constant (LLVM's rule).
fn struct_steps_i32(m: &Module, base: Handle<Type>, indices: &[Value]) -> bool {
    let Some(mut t) = m.pointee(base) else {
        return true;
    };
    for idx in indices.iter().skip(1) {
        t = match &m.types[t] {
            Type::Array { elem, .. } | Type::Vector { elem, .. } => *elem,
            Type::Struct {
                members: Some(ms), ..
            } => {
                let Value::Const(c) = idx else { return false };
                let (crate::ir::ConstantKind::Int(i), Type::Int { width: 32 }) =
                    (&m.constants[*c].kind, &m.types[m.constants[*c].ty])
                else {
                    return false;
                };
                match ms.get(*i as usize) {
                    Some(&m) => m,
                    None => return true,
                }
            }
            _ => return true,
        };
    }
    true
}

/// A builtin as messages name it: the SPIR-V instruction (or extended instruction, or
/// built-in variable) it stands for, a name users of either format can look up.
pub fn builtin_name(b: &crate::ir::Builtin) -> String {
    use crate::ir::{Builtin as B, ImageOp as I};
    match b {
        B::ExtInst { op, .. } => format!("OpenCL.std {op:?}"),
        B::Glsl(op) => format!("GLSL.std.450 {op:?}"),
        B::Atomic { op, .. } => format!("Op{:?}", crate::mappings::atomic_opcode(*op)),
        B::Group { op, .. } => format!("Op{:?}", crate::mappings::group_opcode(*op)),
        B::Primitive(p) => format!("Op{:?}", crate::mappings::opcode(*p)),
        B::WorkItem(v) => format!("the {v:?} built-in variable"),
        B::Convert {
            from, to, saturate, ..
        } => format!(
            "Op{:?}",
            crate::mappings::conversion_opcode((*from, *to, *saturate))
        ),
        B::ControlBarrier { .. } => "OpControlBarrier".to_string(),
        B::MemoryBarrier { .. } => "OpMemoryBarrier".to_string(),
        B::AsyncCopy { .. } => "OpGroupAsyncCopy".to_string(),
        B::WaitEvents => "OpGroupWaitEvents".to_string(),
        B::Image(op) => match op {
            I::Read(_) => "OpImageRead",
            I::Sample(_) => "OpImageSampleExplicitLod",
            I::Write(_) => "OpImageWrite",
            I::QuerySize { .. } => "OpImageQuerySize",
            I::QueryChannelDataType => "OpImageQueryFormat",
            I::QueryChannelOrder => "OpImageQueryOrder",
        }
        .to_string(),
    }
}
