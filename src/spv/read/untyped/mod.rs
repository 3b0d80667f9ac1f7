//! SPV_KHR_untyped_pointers, read as typed pointers.
//!
//! An untyped pointer (`OpTypeUntypedPointerKHR SC`) says where memory is, not what is in it:
//! each load, store, atomic and access chain names the type it works on. SPIR's pointers are
//! typed, so before the reader proper sees the module, this pass rewrites it into the typed
//! form the rest of the reader knows, keeping every id:
//!
//! * an untyped pointer type becomes a pointer to `uchar` in its storage class (a value of
//!   that type is an `i8*`, as clang spells a pointer whose pointee it does not know);
//! * an untyped variable becomes an `OpVariable` of its data type;
//! * an untyped access chain becomes the typed chain of its base type, its base cast to a
//!   pointer to that type (`OpBitcast`);
//! * where an instruction works on memory of a type (a load, a store, an atomic, an
//!   OpenCL.std `vload`/`vstore`, `frexp`, `modf`, ...), its pointer is cast to a pointer to
//!   that type; where types must agree (a phi, whose operand is cast at the end of its
//!   predecessor, a select, a call's arguments, a stored value, a pointer cast) a value is
//!   cast back to the type the producer declared for it; elsewhere an instruction sees the
//!   most precise type known;
//! * a parameter is given the type it points to where the module says it (`signatures.rs`):
//!   a by-value one from what the calls pass it, any other from the one type its function
//!   loads, stores or indexes it as.
//!
//! The casts are what a producer of typed SPIR-V would write; the driver folds them. Modules
//! without the extension are not touched.

use crate::hash::HashMap;

use rspirv::dr::{Instruction, Operand};
use spirv::{Op as S, StorageClass, Word};

use crate::diag::{Error, Result};

mod body;
mod signatures;

/// Rewrite `insts` (a parsed module, `bound` its id bound) from untyped to typed pointers, if
/// it has untyped pointers.
pub(super) fn retype(insts: &mut Vec<(usize, Instruction)>, bound: Word) -> Result<()> {
    if !insts
        .iter()
        .any(|(_, i)| i.class.opcode == S::TypeUntypedPointerKHR)
    {
        return Ok(());
    }
    let mut r = Retype {
        next: bound,
        ..Default::default()
    };
    let first_fn = insts
        .iter()
        .position(|(_, i)| i.class.opcode == S::Function)
        .unwrap_or(insts.len());
    let mut out = Vec::with_capacity(insts.len() + insts.len() / 4);
    for (at, inst) in insts.drain(..first_fn) {
        r.module_scope(at, inst, &mut out)?;
    }
    r.parameter_types(insts, &mut out);
    let mut body = Vec::with_capacity(insts.len());
    let mut function = Vec::new();
    for (at, inst) in insts.drain(..) {
        let end = inst.class.opcode == S::FunctionEnd;
        function.push((at, inst));
        if end {
            r.function(std::mem::take(&mut function), &mut body)?;
        }
    }
    body.append(&mut function);
    // Types the function bodies needed, after every type the module declared.
    let at = out.last().map_or(0, |(at, _)| *at);
    out.extend(r.new_types.drain(..).map(|i| (at, i)));
    out.append(&mut body);
    *insts = out;
    Ok(())
}

#[derive(Default)]
struct Retype {
    next: Word,
    /// Type declarations by id (to walk access chains and find component types).
    types: HashMap<Word, Instruction>,
    /// Pointer types: (storage class, pointee) by id, and the first id of each.
    pointer_of: HashMap<Word, (StorageClass, Word)>,
    pointers: HashMap<(StorageClass, Word), Word>,
    /// Integer constants' values (struct member indices).
    consts: HashMap<Word, u64>,
    /// The type the module declared for each value.
    declared: HashMap<Word, Word>,
    /// The type a rewritten value has now, where it is not the declared one.
    now: HashMap<Word, Word>,
    /// OpenCL.std's import.
    opencl_std: Option<Word>,
    /// Types made for function bodies, declared before the first function.
    new_types: Vec<Instruction>,
    /// Whether types made now go to `new_types` (in a function) or out at once.
    in_functions: bool,
    /// Parameters decorated ByVal or Sret: LLVM's attribute copies or returns an object of
    /// the pointee's type, which an untyped pointer does not say.
    by_value: Vec<Word>,
    /// Data types of variables (what a by-value parameter is passed).
    data_types: HashMap<Word, Word>,
    /// Each function's parameter types where a by-value parameter's changed, and the
    /// function type made for them.
    signatures: HashMap<Word, (Vec<Word>, Word)>,
    /// The `uchar` an untyped pointer points to here.
    uchar: Option<Word>,
}

/// An untyped access chain, read ([`Retype::chain`]).
struct Chain {
    /// The typed chain instruction it stands for.
    typed: S,
    base_type: Word,
    base: Word,
    indices: Vec<Word>,
    /// The type the indices reach from `base_type`.
    reached: Word,
}

fn id(inst: &Instruction, i: usize) -> Result<Word> {
    match inst.operands.get(i) {
        Some(Operand::IdRef(v)) => Ok(*v),
        _ => Err(Error::malformed(format!(
            "Op{:?}: operand {i} is not an id",
            inst.class.opcode
        ))),
    }
}

impl Retype {
    fn fresh(&mut self) -> Word {
        self.next += 1;
        self.next - 1
    }

    /// A type made here (before the first function, or at once at module scope).
    fn declare(&mut self, inst: Instruction, out: &mut Vec<(usize, Instruction)>, at: usize) {
        let id = inst.result_id.unwrap_or_default();
        self.types.insert(id, inst.clone());
        if self.in_functions {
            self.new_types.push(inst);
        } else {
            out.push((at, inst));
        }
    }

    /// The id of a type the module declares that satisfies `is`, or one made by `make`.
    fn find_or_make(
        &mut self,
        is: impl Fn(&Instruction) -> bool,
        make: impl FnOnce(Word) -> Instruction,
        out: &mut Vec<(usize, Instruction)>,
        at: usize,
    ) -> Word {
        let mut found: Vec<Word> = self
            .types
            .iter()
            .filter(|(_, t)| is(t))
            .map(|(id, _)| *id)
            .collect();
        found.sort_unstable();
        if let Some(&id) = found.first() {
            return id;
        }
        let id = self.fresh();
        self.declare(make(id), out, at);
        id
    }

    fn int_type(&mut self, width: u32, out: &mut Vec<(usize, Instruction)>, at: usize) -> Word {
        self.find_or_make(
            |t| {
                t.class.opcode == S::TypeInt
                    && matches!(t.operands[..], [Operand::LiteralBit32(w), Operand::LiteralBit32(0)] if w == width)
            },
            |id| {
                Instruction::new(
                    S::TypeInt,
                    None,
                    Some(id),
                    vec![Operand::LiteralBit32(width), Operand::LiteralBit32(0)],
                )
            },
            out,
            at,
        )
    }

    fn half_type(&mut self, out: &mut Vec<(usize, Instruction)>, at: usize) -> Word {
        self.find_or_make(
            |t| {
                t.class.opcode == S::TypeFloat
                    && matches!(t.operands.first(), Some(Operand::LiteralBit32(16)))
            },
            |id| {
                Instruction::new(
                    S::TypeFloat,
                    None,
                    Some(id),
                    vec![Operand::LiteralBit32(16)],
                )
            },
            out,
            at,
        )
    }

    /// `elem`, or a vector of `lanes` of it.
    fn shaped(
        &mut self,
        elem: Word,
        lanes: Option<u32>,
        out: &mut Vec<(usize, Instruction)>,
        at: usize,
    ) -> Word {
        let Some(n) = lanes else { return elem };
        self.find_or_make(
            |t| {
                t.class.opcode == S::TypeVector
                    && matches!(t.operands[..], [Operand::IdRef(e), Operand::LiteralBit32(k)] if e == elem && k == n)
            },
            |id| {
                Instruction::new(
                    S::TypeVector,
                    None,
                    Some(id),
                    vec![Operand::IdRef(elem), Operand::LiteralBit32(n)],
                )
            },
            out,
            at,
        )
    }

    /// The pointer type to `pointee` in `sc`, declared if the module has none.
    fn pointer(
        &mut self,
        sc: StorageClass,
        pointee: Word,
        out: &mut Vec<(usize, Instruction)>,
        at: usize,
    ) -> Word {
        if let Some(&p) = self.pointers.get(&(sc, pointee)) {
            return p;
        }
        let p = self.fresh();
        self.pointers.insert((sc, pointee), p);
        self.pointer_of.insert(p, (sc, pointee));
        let t = Instruction::new(
            S::TypePointer,
            None,
            Some(p),
            vec![Operand::StorageClass(sc), Operand::IdRef(pointee)],
        );
        self.declare(t, out, at);
        p
    }

    /// A vector type's component type and lane count; a scalar's own type.
    fn components(&self, ty: Word) -> (Word, Option<u32>) {
        match self.types.get(&ty) {
            Some(t) if t.class.opcode == S::TypeVector => match t.operands[..] {
                [Operand::IdRef(e), Operand::LiteralBit32(n)] => (e, Some(n)),
                _ => (ty, None),
            },
            _ => (ty, None),
        }
    }

    fn module_scope(
        &mut self,
        at: usize,
        mut inst: Instruction,
        out: &mut Vec<(usize, Instruction)>,
    ) -> Result<()> {
        if let (Some(t), Some(v)) = (inst.result_type, inst.result_id) {
            self.declared.insert(v, t);
        }
        match inst.class.opcode {
            S::ExtInstImport => {
                if matches!(inst.operands.first(), Some(Operand::LiteralString(s)) if s == "OpenCL.std")
                {
                    self.opencl_std = inst.result_id;
                }
            }
            S::TypeUntypedPointerKHR => {
                let (Some(u), Some(Operand::StorageClass(sc))) =
                    (inst.result_id, inst.operands.first().cloned())
                else {
                    return Err(Error::malformed(
                        "OpTypeUntypedPointerKHR without a storage class",
                    ));
                };
                let uchar = self.int_type(8, out, at);
                self.uchar = Some(uchar);
                self.pointer_of.insert(u, (sc, uchar));
                self.pointers.entry((sc, uchar)).or_insert(u);
                inst = Instruction::new(
                    S::TypePointer,
                    None,
                    Some(u),
                    vec![Operand::StorageClass(sc), Operand::IdRef(uchar)],
                );
                self.types.insert(u, inst.clone());
            }
            S::TypePointer => {
                if let (Some(p), Some(Operand::StorageClass(sc)), Some(Operand::IdRef(t))) = (
                    inst.result_id,
                    inst.operands.first().cloned(),
                    inst.operands.get(1).cloned(),
                ) {
                    self.pointer_of.insert(p, (sc, t));
                    self.pointers.entry((sc, t)).or_insert(p);
                }
                self.types
                    .insert(inst.result_id.unwrap_or_default(), inst.clone());
            }
            S::Constant => {
                if let (Some(v), Some(Operand::LiteralBit32(k))) =
                    (inst.result_id, inst.operands.first())
                {
                    self.consts.insert(v, u64::from(*k));
                }
                if let (Some(v), Some(Operand::LiteralBit64(k))) =
                    (inst.result_id, inst.operands.first())
                {
                    self.consts.insert(v, *k);
                }
            }
            S::Decorate => {
                use spirv::FunctionParameterAttribute as A;
                if let [Operand::IdRef(target), Operand::Decoration(spirv::Decoration::FuncParamAttr), Operand::FunctionParameterAttribute(A::ByVal | A::Sret)] =
                    inst.operands[..]
                {
                    self.by_value.push(target);
                }
            }
            S::UntypedVariableKHR => inst = self.variable(at, inst, out)?,
            // Types (and the other module-scope results without a type, harmlessly).
            _ if inst.result_type.is_none() && inst.result_id.is_some() => {
                self.types
                    .insert(inst.result_id.unwrap_or_default(), inst.clone());
            }
            _ => {}
        }
        out.push((at, inst));
        Ok(())
    }

    /// `OpUntypedVariableKHR %U %v SC %data [%init]` as `OpVariable %ptr(SC, data) %v SC
    /// [%init]`.
    fn variable(
        &mut self,
        at: usize,
        inst: Instruction,
        out: &mut Vec<(usize, Instruction)>,
    ) -> Result<Instruction> {
        let v = inst.result_id.unwrap_or_default();
        let (Some(Operand::StorageClass(sc)), Some(Operand::IdRef(data))) = (
            inst.operands.first().cloned(),
            inst.operands.get(1).cloned(),
        ) else {
            return Err(Error::unsupported(format!(
                "the untyped variable %{v} has no data type: SPIR cannot allocate memory of \
                 no type"
            )));
        };
        let ptr = self.pointer(sc, data, out, at);
        self.now.insert(v, ptr);
        self.data_types.insert(v, data);
        let mut operands = vec![Operand::StorageClass(sc)];
        operands.extend(inst.operands.get(2).cloned());
        Ok(Instruction::new(S::Variable, Some(ptr), Some(v), operands))
    }

    /// The type `v` has in the rewritten module.
    fn now_type(&self, v: Word) -> Option<Word> {
        self.now.get(&v).or_else(|| self.declared.get(&v)).copied()
    }

    /// `v` as a pointer of type `want`: itself, or a bitcast made before the instruction.
    fn cast(&mut self, v: Word, want: Word, before: &mut Vec<Instruction>) -> Word {
        if self.now_type(v) == Some(want) {
            return v;
        }
        let c = self.fresh();
        self.declared.insert(c, want);
        before.push(Instruction::new(
            S::Bitcast,
            Some(want),
            Some(c),
            vec![Operand::IdRef(v)],
        ));
        c
    }

    /// `p` cast to a pointer to `pointee` in its own storage class.
    fn cast_to(
        &mut self,
        p: Word,
        pointee: Word,
        before: &mut Vec<Instruction>,
        out: &mut Vec<(usize, Instruction)>,
    ) -> Result<Word> {
        let Some(&(sc, _)) = self.now_type(p).and_then(|t| self.pointer_of.get(&t)) else {
            return Err(Error::malformed(format!(
                "%{p} is used as a pointer but is none"
            )));
        };
        let want = self.pointer(sc, pointee, out, 0);
        Ok(self.cast(p, want, before))
    }

    /// An untyped access chain's parts: its base type, its base, its indices (the element
    /// first for the Ptr forms), the typed chain instruction it stands for, and the type the
    /// indices reach. None for other instructions.
    fn chain(&self, inst: &Instruction) -> Option<Result<Chain>> {
        let typed = match inst.class.opcode {
            S::UntypedAccessChainKHR => S::AccessChain,
            S::UntypedInBoundsAccessChainKHR => S::InBoundsAccessChain,
            S::UntypedPtrAccessChainKHR => S::PtrAccessChain,
            S::UntypedInBoundsPtrAccessChainKHR => S::InBoundsPtrAccessChain,
            _ => return None,
        };
        let parts = || -> Result<Chain> {
            let base_type = id(inst, 0)?;
            let base = id(inst, 1)?;
            let indices = (2..inst.operands.len())
                .map(|i| id(inst, i))
                .collect::<Result<Vec<_>>>()?;
            let element = usize::from(matches!(
                typed,
                S::PtrAccessChain | S::InBoundsPtrAccessChain
            ));
            let reached = self.walk(base_type, indices.get(element..).unwrap_or_default())?;
            Ok(Chain {
                typed,
                base_type,
                base,
                indices,
                reached,
            })
        };
        Some(parts())
    }

    /// The type reached from `base` by the (non-first) indices of an access chain.
    fn walk(&self, base: Word, indices: &[Word]) -> Result<Word> {
        let mut t = base;
        for &i in indices {
            let def = self
                .types
                .get(&t)
                .ok_or_else(|| Error::malformed(format!("%{t} is not a type")))?;
            t = match (def.class.opcode, &def.operands[..]) {
                (S::TypeStruct, members) => {
                    let k = *self.consts.get(&i).ok_or_else(|| {
                        Error::malformed(format!("a struct member index %{i} is not a constant"))
                    })?;
                    match members.get(k as usize) {
                        Some(Operand::IdRef(m)) => *m,
                        _ => return Err(Error::malformed(format!("no member {k} of %{t}"))),
                    }
                }
                (
                    S::TypeArray | S::TypeRuntimeArray | S::TypeVector | S::TypeMatrix,
                    [Operand::IdRef(e), ..],
                ) => *e,
                _ => {
                    return Err(Error::malformed(format!(
                        "an access chain indexes into %{t}, which is not an aggregate"
                    )))
                }
            };
        }
        Ok(t)
    }
}
