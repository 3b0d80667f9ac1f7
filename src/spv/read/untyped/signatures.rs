//! Parameters of untyped pointer type given the type they point to, where the module says
//! it: a by-value parameter (ByVal, Sret) from what the calls pass it, any other from what
//! the function's loads, stores and access chains take it for (one type only); and the
//! function types that say so. Kernels keep their arguments' element types this way
//! (argument info, a Vulkan buffer's element type).

use crate::hash::HashMap;

use rspirv::dr::{Instruction, Operand};
use spirv::{Op as S, Word};

use super::Retype;

impl Retype {
    /// The pointee types of untyped parameters where the module says them, and the function
    /// types that say so.
    pub(super) fn parameter_types(
        &mut self,
        insts: &[(usize, Instruction)],
        out: &mut Vec<(usize, Instruction)>,
    ) {
        self.in_functions = true;
        // What each parameter is taken for in its function: the types it is loaded, stored
        // and indexed as.
        let mut taken_as: HashMap<Word, Vec<Word>> = HashMap::default();
        let mut value_types: HashMap<Word, Word> = HashMap::default();
        // Variables of functions, and each function's parameters in order.
        let mut params: HashMap<Word, Vec<(Word, Word)>> = HashMap::default();
        let mut current = None;
        for (_, i) in insts {
            if let (Some(t), Some(v)) = (i.result_type, i.result_id) {
                value_types.insert(v, t);
            }
            let ids = |k: usize| match i.operands.get(k) {
                Some(Operand::IdRef(x)) => Some(*x),
                _ => None,
            };
            let use_as = match i.class.opcode {
                S::Load => ids(0).zip(i.result_type),
                S::Store => ids(0).zip(ids(1).and_then(|v| {
                    value_types
                        .get(&v)
                        .or_else(|| self.declared.get(&v))
                        .copied()
                })),
                _ => None,
            };
            // A chain takes its base for its base type, and reaches an object of the type
            // its indices lead to (what a by-value parameter may be passed).
            let chain = self.chain(i).and_then(Result::ok);
            let use_as = use_as.or(chain.as_ref().map(|c| (c.base, c.base_type)));
            if let (Some(c), Some(v)) = (&chain, i.result_id) {
                self.data_types.insert(v, c.reached);
            }
            if let Some((p, t)) = use_as {
                let seen = taken_as.entry(p).or_default();
                if !seen.contains(&t) {
                    seen.push(t);
                }
            }
            match (i.class.opcode, i.result_id, i.result_type) {
                (S::Function, f, _) => current = f,
                (S::FunctionParameter, Some(p), Some(t)) => {
                    params
                        .entry(current.unwrap_or_default())
                        .or_default()
                        .push((p, t));
                }
                (S::UntypedVariableKHR, Some(v), _) => {
                    if let Some(Operand::IdRef(d)) = i.operands.get(1) {
                        self.data_types.insert(v, *d);
                    }
                }
                (S::Variable, Some(v), Some(t)) => {
                    if let Some(&(_, d)) = self.pointer_of.get(&t) {
                        self.data_types.insert(v, d);
                    }
                }
                _ => {}
            }
        }
        let mut pointee: HashMap<Word, Word> = HashMap::default();
        for (_, i) in insts
            .iter()
            .filter(|(_, i)| i.class.opcode == S::FunctionCall)
        {
            let Some(Operand::IdRef(f)) = i.operands.first() else {
                continue;
            };
            let Some(list) = params.get(f) else { continue };
            for ((p, _), arg) in list.iter().zip(&i.operands[1..]) {
                if let (true, Operand::IdRef(a)) = (self.by_value.contains(p), arg) {
                    if let Some(&d) = self.data_types.get(a) {
                        pointee.entry(*p).or_insert(d);
                    }
                }
            }
        }
        // Any other untyped parameter: the one type its function takes it for.
        for &(p, t) in params.values().flatten() {
            let untyped = self
                .pointer_of
                .get(&t)
                .is_some_and(|&(_, d)| Some(d) == self.uchar);
            if let (true, Some([only])) = (untyped, taken_as.get(&p).map(Vec::as_slice)) {
                pointee.entry(p).or_insert(*only);
            }
        }
        for (_, i) in insts.iter().filter(|(_, i)| i.class.opcode == S::Function) {
            let (Some(f), Some(ret)) = (i.result_id, i.result_type) else {
                continue;
            };
            let Some(list) = params.get(&f) else { continue };
            if !list.iter().any(|(p, _)| pointee.contains_key(p)) {
                continue;
            }
            let mut types = Vec::new();
            for &(p, t) in list {
                let typed = match (pointee.get(&p), self.pointer_of.get(&t)) {
                    (Some(&d), Some(&(sc, _))) => self.pointer(sc, d, out, 0),
                    _ => t,
                };
                types.push(typed);
            }
            let fty = self.fresh();
            let mut operands = vec![Operand::IdRef(ret)];
            operands.extend(types.iter().map(|&t| Operand::IdRef(t)));
            self.declare(
                Instruction::new(S::TypeFunction, None, Some(fty), operands),
                out,
                0,
            );
            self.signatures.insert(f, (types, fty));
        }
    }
}
