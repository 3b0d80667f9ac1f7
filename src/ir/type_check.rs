//! The typing rules of instructions, for `verify`: what LLVM's verifier and SPIR-V's
//! validator would each refuse, checked on the graph, so that a reader that let an ill-typed
//! instruction through (a mutated SPIR-V module, say) is caught before a writer hands it to
//! LLVM's C API, which does not check and may crash.

use super::function::{Function, Op, Value};
use super::module::Module;
use super::types::{Access, ImageType, Type};
use super::Handle;

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
    let t = |v: &Value| m.value_type(f, *v);
    let fail = |what: &str| Some(what.to_string());
    match op {
        Op::Binary { lhs, rhs, .. } if t(lhs) != ty || t(rhs) != ty => {
            fail("binary operands are not of the result type")
        }
        Op::FNeg(x) if t(x) != ty => fail("fneg operand is not of the result type"),
        Op::ICmp { lhs, rhs, .. } | Op::FCmp { lhs, rhs, .. }
            if t(lhs) != t(rhs) || !m.is_condition(ty, m.lanes(t(lhs))) =>
        {
            fail("compare operands differ in type, or the result is not their boolean")
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
            let consts: Vec<Option<u64>> = indices
                .iter()
                .map(|v| match v {
                    Value::Const(c) => match m.constants[*c].kind {
                        super::ConstantKind::Int(i) => Some(i),
                        _ => None,
                    },
                    _ => None,
                })
                .collect();
            let pointee = m.gep_pointee(t(base), &consts);
            (pointee.is_none() || pointee != m.pointee(ty))
                .then(|| "getelementptr indices do not lead to the result type".to_string())
        }
        _ => None,
    }
}
