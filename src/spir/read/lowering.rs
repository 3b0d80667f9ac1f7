//! The context a function is lowered in ([`FnLowering`]) and what every part of the lowering
//! shares: operands (constant expressions made instructions), types, emitting and binding
//! instructions, and what a call lowers to ([`Lowered`]). The instruction walk is in body/,
//! calls in calls.rs, and each family of builtins in a file of its own; each of those uses
//! this file, and this file uses none of them.

use crate::hash::{HashMap, HashSet};

use llvm_ir::{Name, Operand};

use super::block_table::BlockTable;
use super::constants::lower_constant;
use super::local_names::LocalNames;
use super::types::TypeLowering;
use super::Symbols;
use crate::diag::{Error, ErrorKind, Result};
use crate::ir::builtin::OpenclOp;
use crate::ir::{self, BlockId, Body, Builtin, CastOp, ConstantKind, Inst, Op, Type, Value};
use crate::spir::demangle::Demangled;

/// A phi whose incoming values are resolved once every block has been lowered.
type PendingPhi = (ir::Handle<Inst>, Vec<(Operand, Name)>);

/// One function being lowered: the module it lowers into, the LLVM names seen so far
/// (locals, blocks), the body being built and the current place in it.
pub(crate) struct FnLowering<'a, 'b> {
    pub m: &'a mut ir::Module,
    pub types: &'a mut TypeLowering<'b>,
    pub symbols: &'a Symbols,
    /// What the source called the function's local values (local_names.rs).
    pub names: &'a LocalNames,
    pub func: ir::Handle<ir::Function>,
    pub(super) locals: HashMap<Name, Value>,
    pub(super) blocks: HashMap<Name, BlockId>,
    pub body: Body,
    pub(super) current: usize,
    pub(super) pending_phis: Vec<PendingPhi>,
    /// Stack slots (clang -O0 allocas) that hold an image or sampler parameter, with the
    /// parameter's graph type: legacy SPIR spells every image `%opencl.image2d_t` whatever its
    /// access, and every sampler `i32`, so the slot's LLVM type does not say which it holds.
    pub(super) slot_types: HashMap<Name, ir::Handle<Type>>,
    /// Loads of a vector builtin variable (`@__spirv_BuiltIn*`, spirv-ir): lanes read by
    /// extractelement become per-dimension work-item queries.
    pub(super) builtin_loads: HashMap<Name, (spirv::BuiltIn, ir::Handle<Type>)>,
    /// Constant expressions made instructions, by block (see [`FnLowering::operand`]).
    pub(super) materialized: HashMap<(usize, ir::Handle<ir::Constant>), Value>,
    /// (block, instruction) of the casts that only feed memory intrinsics (memory_casts.rs),
    /// and the instruction being lowered.
    pub(super) memory_casts: HashSet<(usize, usize)>,
    pub(super) inst_index: usize,
    /// The source position of the instruction being lowered: every graph instruction made
    /// for it carries it.
    pub(super) loc: Option<ir::Handle<ir::Location>>,
    /// Instructions that only spell SPIR's form (`Lowered::Spelling`), dropped if unused.
    pub(super) spellings: Vec<ir::Handle<Inst>>,
    /// SPIR 2.0's blocks (`spir_block_bind`) and the names that stand for them (blocks.rs).
    pub(super) block_literals: BlockTable,
    /// Vectors of booleans bitcast to the bits of an integer (`bool_vector_bits`): the
    /// integer, and the vector and its lane count, so that a test of all or none of the
    /// bits is read as `all` or `any` of the lanes.
    pub(super) bool_bits: HashMap<Value, (Value, u32)>,
}

impl FnLowering<'_, '_> {
    /// LLVM allows alignments up to 2^32; the graph (and SPIR-V's 32-bit literal) holds up to
    /// 2^29. Stating less than the truth is always correct.
    pub(crate) fn align(a: u32) -> Option<u32> {
        (a > 0).then_some(a.min(1 << 29))
    }

    /// An instruction's operand. A constant expression (a GEP or cast of constants) becomes
    /// instructions ahead of the use: LLVM's builder folds such instructions into constant
    /// expressions and the SPIR-V producers write them as instructions, so the graph keeps
    /// one form — instructions — and a round trip through either side does not change it.
    pub fn operand(&mut self, op: &Operand) -> Result<Value> {
        Ok(match self.operand_in_place(op)? {
            Value::Const(c) => self.materialize(c),
            v => v,
        })
    }

    /// A pointer operand of `llvm.memcpy`/`memmove`/`memset`: the `i8*` the intrinsic's
    /// signature needs is no part of the meaning (CopyMemorySized takes any pointer), so a
    /// constant bitcast of a pointer in the same address space, or a GEP to its first byte,
    /// is looked through.
    pub fn memory_operand(&mut self, op: &Operand) -> Result<Value> {
        if let Value::Const(c) = self.operand_in_place(op)? {
            let same_address = match &self.m.constants[c].kind {
                ir::ConstantKind::Cast(CastOp::Bitcast, x) => Some(*x),
                ir::ConstantKind::Gep { base, indices, .. }
                    if indices
                        .iter()
                        .all(|&i| matches!(self.m.constants[i].kind, ir::ConstantKind::Int(0))) =>
                {
                    Some(*base)
                }
                _ => None,
            };
            if let Some(x) = same_address {
                if self
                    .m
                    .same_space(self.m.constants[x].ty, self.m.constants[c].ty)
                {
                    return Ok(self.materialize(x));
                }
            }
        }
        self.operand(op)
    }

    pub(super) fn materialize(&mut self, c: ir::Handle<ir::Constant>) -> Value {
        // One instruction per expression and block: the earlier one dominates later uses.
        if let Some(&v) = self.materialized.get(&(self.current, c)) {
            return v;
        }
        let ty = self.m.constants[c].ty;
        let op = match self.m.constants[c].kind.clone() {
            // LLVM folds the integer value of a null pointer to 0.
            ir::ConstantKind::Cast(CastOp::PtrToInt, x)
                if matches!(self.m.constants[x].kind, ir::ConstantKind::Null) =>
            {
                return Value::Const(self.m.int_const(ty, 0));
            }
            // A block's invoke function cast to a data pointer stays a constant: SPIR-V's
            // writer spells it where it can (enqueue operands, a null literal field).
            ir::ConstantKind::Cast(..) if self.m.is_function_address(c) => {
                return Value::Const(c);
            }
            ir::ConstantKind::Cast(op, x) => Op::Cast {
                op,
                value: self.materialize(x),
            },
            ir::ConstantKind::Gep {
                inbounds,
                base,
                indices,
            } => Op::Gep {
                inbounds,
                base: self.materialize(base),
                indices: indices.into_iter().map(|i| self.materialize(i)).collect(),
            },
            _ => return Value::Const(c),
        };
        let is_space_cast = matches!(
            op,
            Op::Cast {
                op: CastOp::AddrSpaceCast,
                ..
            }
        );
        let h = self.emit(None, ty, op);
        // As for `cast`: dropped if nothing uses it.
        if is_space_cast {
            self.spellings.push(h);
        }
        let v = Value::Inst(h);
        self.materialized.insert((self.current, c), v);
        v
    }

    /// An operand where it is written: phi operands, whose constant expressions cannot become
    /// instructions in the phi's block, stay constants.
    pub(super) fn operand_in_place(&mut self, op: &Operand) -> Result<Value> {
        if let Operand::LocalOperand { name, .. } = op {
            if let Some(&(b, ty)) = self.builtin_loads.get(name) {
                return Ok(self.builtin_vector(b, ty));
            }
        }
        match op {
            Operand::LocalOperand { name, .. } => self.locals.get(name).copied().ok_or_else(|| {
                match self.block_literals.has_no_value(name) {
                    Some(what) => Error::unsupported(format!(
                        "{what} %{} used other than SPIR 2.0 section 2.1.3.7 allows",
                        self.names.spell(name)
                    )),
                    None => Error::malformed(format!(
                        "use of %{} before its definition",
                        self.names.spell(name)
                    )),
                }
            }),
            Operand::ConstantOperand(c) => Ok(Value::Const(lower_constant(
                self.m,
                self.types,
                self.symbols,
                c,
            )?)),
            Operand::MetadataOperand => Err(Error::unsupported("metadata operand")),
        }
    }

    pub(super) fn block(&self, name: &Name) -> Result<BlockId> {
        self.blocks.get(name).copied().ok_or_else(|| {
            Error::malformed(format!(
                "branch to unknown block %{}",
                self.names.spell(name)
            ))
        })
    }

    pub fn lower_type(&mut self, t: &llvm_ir::TypeRef) -> Result<ir::Handle<Type>> {
        self.types.lower(self.m, t)
    }

    pub fn value_type(&self, v: Value) -> ir::Handle<Type> {
        match v {
            Value::Param(i) => self.m.functions[self.func].params[i as usize].ty,
            Value::Inst(h) => self.body.insts[h].ty,
            Value::Const(c) => self.m.constants[c].ty,
        }
    }

    /// `Module::extension_test`, remembering the extension it looked through.
    pub fn extension_test(
        &mut self,
        pred: ir::IntPredicate,
        lhs: Value,
        rhs: Value,
    ) -> Option<Value> {
        let (b, ext) = self.m.extension_test(&self.body, pred, lhs, rhs)?;
        self.spellings.push(ext);
        Some(b)
    }

    /// A whole builtin vector: one work-item query per lane.
    pub(super) fn builtin_vector(&mut self, b: spirv::BuiltIn, ty: ir::Handle<Type>) -> Value {
        let elem = self.m.scalar_of(ty);
        let i32_ty = self.m.int_type(32);
        let mut acc = Value::Const(self.m.constant(ir::Constant {
            ty,
            kind: ir::ConstantKind::Undef,
        }));
        for lane in 0..self.m.lanes(ty) {
            let index = Value::Const(self.m.int_const(i32_ty, lane as u64));
            let q = Op::Builtin {
                builtin: ir::Builtin::WorkItem(b),
                args: vec![index],
            };
            let element = Value::Inst(self.emit(None, elem, q));
            let op = Op::InsertElement {
                vector: acc,
                element,
                index,
            };
            acc = Value::Inst(self.emit(None, ty, op));
        }
        acc
    }

    /// A vector element operation, or the constant it computes when its operands are
    /// constants. LLVM folds those, but an operand can become a constant in the graph only
    /// (`fcmp false`, `Module::fcmp_op`); the SPIR-V reader folds the same way.
    pub(super) fn emit_folded(&mut self, dest: &Name, ty: ir::Handle<Type>, op: Op) {
        match self.m.fold(ty, &op) {
            Some(c) => self.bind(dest, Value::Const(c)),
            None => {
                self.emit(Some(dest), ty, op);
            }
        }
    }

    /// Append an instruction to the current block and bind its result name.
    pub fn emit(&mut self, dest: Option<&Name>, ty: ir::Handle<Type>, op: Op) -> ir::Handle<Inst> {
        let name = dest.and_then(|d| self.names.name(d)).map(str::to_string);
        let h = self.body.insts.append(Inst {
            loc: self.loc,
            name,
            ty,
            op,
        });
        self.body.blocks[self.current].insts.push(h);
        if let Some(d) = dest {
            self.locals.insert(d.clone(), Value::Inst(h));
        }
        h
    }

    /// `v` (a scalar) repeated in `lanes` lanes: a constant composite for constants, else a
    /// chain of insertelement into undef (what clang emits for a scalar-to-vector widening).
    pub fn splat(&mut self, v: Value, lanes: u32) -> Value {
        if let Value::Const(c) = v {
            let elem = self.value_type(v);
            let vty = self.m.ty(Type::Vector { elem, len: lanes });
            return Value::Const(self.m.constant(ir::Constant {
                ty: vty,
                kind: ir::ConstantKind::Composite(vec![c; lanes as usize]),
            }));
        }
        self.build_vector(&vec![v; lanes as usize])
    }

    /// A vector of `elems` (all of one type), built lane by lane with insertelement.
    pub fn build_vector(&mut self, elems: &[Value]) -> Value {
        let elem = self.value_type(elems[0]);
        let vty = self.m.ty(Type::Vector {
            elem,
            len: elems.len() as u32,
        });
        let i32_ty = self.m.int_type(32);
        let mut acc = Value::Const(self.m.constant(ir::Constant {
            ty: vty,
            kind: ir::ConstantKind::Undef,
        }));
        for (lane, &element) in elems.iter().enumerate() {
            let index = Value::Const(self.m.int_const(i32_ty, lane as u64));
            let op = Op::InsertElement {
                vector: acc,
                element,
                index,
            };
            acc = Value::Inst(self.emit(None, vty, op));
        }
        acc
    }

    /// Drop instruction `h` at the end if nothing uses it then (`crate::normal::drop_unused`).
    pub fn drop_if_unused(&mut self, h: ir::Handle<Inst>) {
        self.spellings.push(h);
    }

    pub fn bind(&mut self, dest: &Name, v: Value) {
        self.locals.insert(dest.clone(), v);
    }
}

/// Aggregate paths (`crate::normal::extract_path`) add their steps to the current block.
impl crate::normal::StepSink for FnLowering<'_, '_> {
    fn module(&mut self) -> &mut ir::Module {
        self.m
    }
    fn type_of(&self, v: Value) -> ir::Handle<Type> {
        self.value_type(v)
    }
    fn push_step(&mut self, ty: ir::Handle<Type>, op: Op) -> Value {
        Value::Inst(self.emit(None, ty, op))
    }
}

/// What a call lowers to.
pub(crate) enum Lowered {
    /// An instruction of the given type.
    Inst(ir::Handle<Type>, Op),
    /// An instruction that only spells SPIR's form of a value the graph keeps in another
    /// (OpenCL C's integer result of a boolean test): dropped when nothing uses it.
    Spelling(ir::Handle<Type>, Op),
    /// The call computes a value that needs no instruction (e.g. a sampler constant).
    Value(Value),
    /// The call has no meaning in the graph (lifetime markers, debug intrinsics).
    Nothing,
}

/// A call that is one OpenCL.std instruction.
pub(super) fn ext(
    ret: ir::Handle<Type>,
    op: OpenclOp,
    literal: Option<u32>,
    args: Vec<Value>,
) -> Lowered {
    Lowered::Inst(
        ret,
        Op::Builtin {
            builtin: Builtin::ExtInst { op, literal },
            args,
        },
    )
}

/// A constant OpenCL C enumerant argument (`memory_order`, `memory_scope`) through its table.
pub(super) fn enumerant<T: Copy>(
    l: &FnLowering,
    v: Value,
    table: &[(u32, T)],
    what: &str,
) -> Result<T> {
    let value = match v {
        Value::Const(c) => match l.m.constants[c].kind {
            ConstantKind::Int(i) => Some(i),
            ConstantKind::Null => Some(0),
            _ => None,
        },
        _ => None,
    };
    let Some(value) = value else {
        return Err(Error::unsupported(format!(
            "a {what} that is not a constant"
        )));
    };
    table
        .iter()
        .find(|(v, _)| u64::from(*v) == value)
        .map(|(_, t)| *t)
        .ok_or_else(|| Error::unsupported(format!("{what} {value}")))
}

/// The error for a call of a function that is declared, not defined, and is no builtin.
pub(super) fn unknown(mangled: &str, d: &Demangled) -> Error {
    Error::new(ErrorKind::UnknownBuiltin {
        name: mangled.to_string(),
        demangled: format!("{}({} parameters)", d.name, d.params.len()),
    })
}
