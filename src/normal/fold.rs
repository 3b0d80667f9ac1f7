//! Folding of vector element operations whose operands are all constants, as LLVM's IR
//! builder folds them. Readers of SPIR-V apply it so that a module means one graph whichever
//! side it comes from: LLVM never keeps `insertelement`/`shufflevector`/`extractelement` of
//! constants as instructions, SPIR-V producers do (splats of scalar arguments).

use crate::ir::constant::{Constant, ConstantKind};
use crate::ir::function::{Op, Value};
use crate::ir::{Handle, Module, Type};

impl Module {
    /// The constant `op` computes, when it is a vector element operation on constants.
    pub fn fold(&mut self, ty: Handle<Type>, op: &Op) -> Option<Handle<Constant>> {
        let konst = |v: &Value| match v {
            Value::Const(c) => Some(*c),
            _ => None,
        };
        let lanes = match op {
            Op::InsertElement {
                vector,
                element,
                index,
            } => {
                let mut lanes = self.lanes_of(konst(vector)?)?;
                let i = self.index_of(konst(index)?)?;
                *lanes.get_mut(i)? = konst(element)?;
                lanes
            }
            Op::Shuffle { a, b, mask } => {
                let a = self.lanes_of(konst(a)?)?;
                let b = self.lanes_of(konst(b)?)?;
                let undef = self.constant(Constant {
                    ty: self.scalar_of(ty),
                    kind: ConstantKind::Undef,
                });
                mask.iter()
                    .map(|m| match m {
                        None => Some(undef),
                        Some(i) => a.iter().chain(&b).nth(*i as usize).copied(),
                    })
                    .collect::<Option<Vec<_>>>()?
            }
            Op::ExtractElement { vector, index } => {
                let lanes = self.lanes_of(konst(vector)?)?;
                return lanes.get(self.index_of(konst(index)?)?).copied();
            }
            _ => return None,
        };
        Some(self.vector_constant(ty, lanes))
    }

    /// A vector constant from its lanes, spelled as LLVM spells it: `undef` if every lane is,
    /// `zeroinitializer` if every lane is zero.
    fn vector_constant(
        &mut self,
        ty: Handle<Type>,
        lanes: Vec<Handle<Constant>>,
    ) -> Handle<Constant> {
        let all = |k: fn(&ConstantKind) -> bool, m: &Module| {
            lanes.iter().all(|&l| k(&m.constants[l].kind))
        };
        let kind = if all(|k| matches!(k, ConstantKind::Undef), self) {
            ConstantKind::Undef
        } else if all(
            |k| {
                matches!(
                    k,
                    ConstantKind::Int(0) | ConstantKind::Float(0) | ConstantKind::Null
                )
            },
            self,
        ) {
            ConstantKind::Null
        } else {
            ConstantKind::Composite(lanes)
        };
        self.constant(Constant { ty, kind })
    }

    /// The lanes of a vector constant.
    fn lanes_of(&mut self, c: Handle<Constant>) -> Option<Vec<Handle<Constant>>> {
        let Constant { ty, kind } = self.constants[c].clone();
        let Type::Vector { elem, len } = self.types[ty] else {
            return None;
        };
        let lane = match kind {
            ConstantKind::Composite(lanes) => return Some(lanes),
            ConstantKind::Undef => ConstantKind::Undef,
            ConstantKind::Null => match self.types[elem] {
                Type::Int { .. } | Type::Bool => ConstantKind::Int(0),
                Type::Float { .. } => ConstantKind::Float(0),
                _ => ConstantKind::Null,
            },
            _ => return None,
        };
        let l = self.constant(Constant {
            ty: elem,
            kind: lane,
        });
        Some(vec![l; len as usize])
    }

    fn index_of(&self, c: Handle<Constant>) -> Option<usize> {
        match self.constants[c].kind {
            ConstantKind::Int(i) => usize::try_from(i).ok(),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Addressing;

    /// A splat of a constant (insertelement into undef, then a zero mask) folds to the
    /// constant vector; extracting from it folds to the scalar.
    #[test]
    fn constant_splats_fold() {
        let mut m = Module::new(Addressing::Physical64);
        let i32t = m.int_type(32);
        let v4 = m.ty(Type::Vector { elem: i32t, len: 4 });
        let undef = m.constant(Constant {
            ty: v4,
            kind: ConstantKind::Undef,
        });
        let seven = m.int_const(i32t, 7);
        let zero = m.int_const(i32t, 0);
        let ins = Op::InsertElement {
            vector: Value::Const(undef),
            element: Value::Const(seven),
            index: Value::Const(zero),
        };
        let one_lane = m.fold(v4, &ins).unwrap();
        let splat = Op::Shuffle {
            a: Value::Const(one_lane),
            b: Value::Const(undef),
            mask: vec![Some(0); 4],
        };
        let s = m.fold(v4, &splat).unwrap();
        assert_eq!(m.constants[s].kind, ConstantKind::Composite(vec![seven; 4]));
        let two = m.int_const(i32t, 2);
        let ext = Op::ExtractElement {
            vector: Value::Const(s),
            index: Value::Const(two),
        };
        assert_eq!(m.fold(i32t, &ext), Some(seven));
        let zeros = Op::Shuffle {
            a: Value::Const(s),
            b: Value::Const(undef),
            mask: vec![None; 4],
        };
        let u = m.fold(v4, &zeros).unwrap();
        assert_eq!(m.constants[u].kind, ConstantKind::Undef);
        let not_const = Op::ExtractElement {
            vector: Value::Param(0),
            index: Value::Const(two),
        };
        assert_eq!(m.fold(i32t, &not_const), None);
    }
}
