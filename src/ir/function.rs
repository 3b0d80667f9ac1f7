//! Functions, blocks and instructions in SSA form. Operations are LLVM-level plus semantic
//! builtins ([`super::builtin::Builtin`]); nothing here is a mangled name or a SPIR-V id.

use super::arena::{Arena, Handle};
use super::builtin::Builtin;
use super::constant::Constant;
use super::types::Type;

/// An operand: where a value comes from. Values are immutable (SSA): each instruction's
/// result is defined once, by that instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The n-th parameter of the enclosing function.
    Param(u32),
    /// The result of an instruction of the enclosing function's body.
    Inst(Handle<Inst>),
    /// A constant of the module.
    Const(Handle<Constant>),
}

/// Index of a block in its function's `blocks`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);

/// A two-operand arithmetic or bitwise operation, as LLVM names them: integer operations
/// on signless integers (the `U`/`S` prefix says how the operands are read), `F` ones on
/// floats; both operands and the result have one type (a scalar or a vector of lanes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// Integer addition (wrapping).
    Add,
    /// Integer subtraction (wrapping).
    Sub,
    /// Integer multiplication (the low half).
    Mul,
    /// Unsigned division.
    UDiv,
    /// Signed division (rounds toward zero).
    SDiv,
    /// Unsigned remainder.
    URem,
    /// Signed remainder (the sign of the dividend).
    SRem,
    /// Shift left.
    Shl,
    /// Logical (zero-filling) shift right.
    LShr,
    /// Arithmetic (sign-filling) shift right.
    AShr,
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise exclusive or.
    Xor,
    /// Float addition.
    FAdd,
    /// Float subtraction.
    FSub,
    /// Float multiplication.
    FMul,
    /// Float division.
    FDiv,
    /// Float remainder (C's `fmod`).
    FRem,
}

impl BinaryOp {
    /// Whether it is one of the float operations (`FAdd` ... `FRem`).
    pub fn is_float(self) -> bool {
        matches!(
            self,
            BinaryOp::FAdd | BinaryOp::FSub | BinaryOp::FMul | BinaryOp::FDiv | BinaryOp::FRem
        )
    }
}

/// A conversion of one value to another type, as LLVM names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastOp {
    /// An integer to a narrower one (the low bits).
    Trunc,
    /// An integer to a wider one, zero-filled.
    ZExt,
    /// An integer to a wider one, sign-filled.
    SExt,
    /// A float to a narrower float (rounded to nearest even).
    FPTrunc,
    /// A float to a wider float (exact).
    FPExt,
    /// A float to an unsigned integer (rounded toward zero).
    FPToUI,
    /// A float to a signed integer (rounded toward zero).
    FPToSI,
    /// An unsigned integer to a float.
    UIToFP,
    /// A signed integer to a float.
    SIToFP,
    /// A pointer to an integer (its address).
    PtrToInt,
    /// An integer to a pointer.
    IntToPtr,
    /// The same bits as another type of the same size (pointers to pointers of one space).
    Bitcast,
    /// A pointer to a pointer of another address space (to and from `Generic`).
    AddrSpaceCast,
}

/// An integer (or pointer) comparison: equality, then unsigned and signed orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntPredicate {
    /// Equal.
    Eq,
    /// Not equal.
    Ne,
    /// Unsigned greater than.
    Ugt,
    /// Unsigned greater or equal.
    Uge,
    /// Unsigned less than.
    Ult,
    /// Unsigned less or equal.
    Ule,
    /// Signed greater than.
    Sgt,
    /// Signed greater or equal.
    Sge,
    /// Signed less than.
    Slt,
    /// Signed less or equal.
    Sle,
}

/// A float comparison, as LLVM names them: `O` (ordered) predicates are false when an
/// operand is NaN, `U` (unordered) ones true.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatPredicate {
    /// Always false.
    False,
    /// Ordered and equal.
    Oeq,
    /// Ordered and greater than.
    Ogt,
    /// Ordered and greater or equal.
    Oge,
    /// Ordered and less than.
    Olt,
    /// Ordered and less or equal.
    Ole,
    /// Ordered and not equal.
    One,
    /// Neither operand is NaN.
    Ord,
    /// Either operand is NaN.
    Uno,
    /// Unordered or equal.
    Ueq,
    /// Unordered or greater than.
    Ugt,
    /// Unordered or greater or equal.
    Uge,
    /// Unordered or less than.
    Ult,
    /// Unordered or less or equal.
    Ule,
    /// Unordered or not equal.
    Une,
    /// Always true.
    True,
}

/// What the input promised about an arithmetic instruction and what it allowed: the wrap
/// and exactness flags of integer arithmetic, the fast-math flags of float arithmetic (kept so
/// that a round trip loses nothing, and so that a driver may use them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ArithFlags {
    /// No signed wrap: the result is poison if signed arithmetic would overflow.
    pub nsw: bool,
    /// No unsigned wrap.
    pub nuw: bool,
    /// An exact division or shift: no remainder, no bits shifted out.
    pub exact: bool,
    /// What float arithmetic may assume or relax.
    pub fast: FastMath,
}

/// What a float operation may assume or relax beyond IEEE-754's rules — OpenCL C's
/// `-cl-fast-relaxed-math`, `-cl-finite-math-only`, `-cl-no-signed-zeros` as the compiler
/// put them on each operation (LLVM's fast-math flags, SPIR-V's `FPFastMathMode`). None set
/// is the strict default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FastMath {
    /// No operand or result is a NaN (the result is undefined if one is).
    pub no_nans: bool,
    /// No operand or result is an infinity.
    pub no_infs: bool,
    /// The sign of a zero operand or result does not matter.
    pub no_signed_zeros: bool,
    /// `x / y` may be computed as `x * (1 / y)`.
    pub allow_recip: bool,
    /// May be fused with another operation (a product and the sum that takes it into an fma).
    pub allow_contract: bool,
    /// May be reassociated (`(a + b) + c` as `a + (b + c)`).
    pub allow_reassoc: bool,
    /// May be computed by an approximation.
    pub approx_func: bool,
}

impl FastMath {
    /// Every relaxation at once (`-cl-fast-relaxed-math`; LLVM's `fast`).
    pub const ALL: FastMath = FastMath {
        no_nans: true,
        no_infs: true,
        no_signed_zeros: true,
        allow_recip: true,
        allow_contract: true,
        allow_reassoc: true,
        approx_func: true,
    };

    /// Whether any relaxation is allowed.
    pub fn any(self) -> bool {
        self != FastMath::default()
    }
}

/// What an instruction computes. Operands are [`Value`]s; the result type is the
/// instruction's ([`Inst::ty`]), `Void` for those without a result (stores, copies).
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// `lhs op rhs`.
    Binary {
        /// The operation.
        op: BinaryOp,
        /// The first operand.
        lhs: Value,
        /// The second operand (the shift amount of shifts).
        rhs: Value,
        /// What the input promised about overflow and exactness.
        flags: ArithFlags,
    },
    /// Float negation (flips the sign bit, NaNs included).
    FNeg(Value),
    /// An integer or pointer comparison; the result is `Bool` (or a vector of them).
    ICmp {
        /// The comparison.
        pred: IntPredicate,
        /// The first operand.
        lhs: Value,
        /// The second operand.
        rhs: Value,
    },
    /// A float comparison; the result is `Bool` (or a vector of them).
    FCmp {
        /// The comparison.
        pred: FloatPredicate,
        /// The first operand.
        lhs: Value,
        /// The second operand.
        rhs: Value,
    },
    /// `value` converted to the instruction's type.
    Cast {
        /// The conversion.
        op: CastOp,
        /// What is converted.
        value: Value,
    },
    /// `cond ? on_true : on_false`, lane by lane where `cond` is a vector.
    Select {
        /// The condition (`Bool` or a vector of them).
        cond: Value,
        /// The result where it holds.
        on_true: Value,
        /// The result where it does not.
        on_false: Value,
    },
    /// Allocates one `allocated` in private memory; the result is a pointer to it.
    Alloca {
        /// The type of the object.
        allocated: Handle<Type>,
        /// Its alignment in bytes, if the input stated one.
        align: Option<u32>,
    },
    /// The value `ptr` points to.
    Load {
        /// Where from.
        ptr: Value,
        /// The alignment the input stated for the access, in bytes.
        align: Option<u32>,
        /// A `volatile` access.
        volatile: bool,
    },
    /// Write `value` where `ptr` points.
    Store {
        /// Where to.
        ptr: Value,
        /// What (its type is the pointee's).
        value: Value,
        /// The alignment the input stated for the access, in bytes.
        align: Option<u32>,
        /// A `volatile` access.
        volatile: bool,
    },
    /// `getelementptr`: the first index steps over the pointer, the rest into aggregates.
    Gep {
        /// The input promised the address stays inside the object.
        inbounds: bool,
        /// The pointer stepped from.
        base: Value,
        /// The steps: elements of the pointee, then members or elements inside it (struct
        /// member indices are `i32` constants).
        indices: Vec<Value>,
    },
    /// The value that came from the predecessor control arrived from.
    Phi {
        /// (value, predecessor block) for each predecessor.
        incoming: Vec<(Value, BlockId)>,
    },
    /// A call of a function of the module.
    Call {
        /// The function called.
        callee: Handle<super::function::Function>,
        /// Its arguments, in order.
        args: Vec<Value>,
    },
    /// An OpenCL C builtin, by what it means.
    Builtin {
        /// Which builtin, with what fixes its form (signedness, rounding, scope, ...).
        builtin: Builtin,
        /// Its operands, in the builtin's order (see [`Builtin`]).
        args: Vec<Value>,
    },
    /// One lane of a vector.
    ExtractElement {
        /// The vector.
        vector: Value,
        /// The lane (an integer; out of range is undefined).
        index: Value,
    },
    /// A vector with one lane replaced.
    InsertElement {
        /// The vector.
        vector: Value,
        /// The new lane's value.
        element: Value,
        /// Which lane.
        index: Value,
    },
    /// Lanes of `a` and `b` picked by `mask` (`a`'s lanes first, then `b`'s).
    /// `None` in the mask is an undefined lane.
    Shuffle {
        /// The first vector.
        a: Value,
        /// The second vector (of the same type).
        b: Value,
        /// The lane each result lane takes.
        mask: Vec<Option<u32>>,
    },
    /// A member or element of a struct or array value.
    ExtractValue {
        /// The struct or array.
        aggregate: Value,
        /// The path of member / element indices into it.
        indices: Vec<u32>,
    },
    /// A struct or array value with one member or element replaced.
    InsertValue {
        /// The struct or array.
        aggregate: Value,
        /// The new member's value.
        element: Value,
        /// The path of member / element indices to it.
        indices: Vec<u32>,
    },
    /// `llvm.memcpy`/`llvm.memmove`: copy `size` bytes.
    CopyMemory {
        /// Where to.
        dst: Value,
        /// Where from.
        src: Value,
        /// How many bytes (an integer).
        size: Value,
        /// The alignment both pointers have, in bytes.
        align: Option<u32>,
        /// A `volatile` copy.
        volatile: bool,
    },
    /// Debug information: from here on the source variable `var` lives in memory at
    /// `address` (LLVM `llvm.dbg.declare`, SPIR-V `DebugDeclare`). Computes nothing.
    DebugDeclare {
        /// The variable.
        var: Handle<super::debug::Variable>,
        /// Where it lives (a pointer).
        address: Value,
        /// How its value is found from there.
        expr: super::debug::DebugExpression,
    },
    /// Debug information: from here on the source variable `var` has the value `value`
    /// (LLVM `llvm.dbg.value`, SPIR-V `DebugValue`); an undefined `value` says it is not
    /// known. Computes nothing.
    DebugValue {
        /// The variable.
        var: Handle<super::debug::Variable>,
        /// Its value.
        value: Value,
        /// How its value is found from `value`.
        expr: super::debug::DebugExpression,
    },
    /// `llvm.memset`: set `size` bytes to `byte`.
    FillMemory {
        /// Where to.
        dst: Value,
        /// The byte value (an `i8`).
        byte: Value,
        /// How many bytes (an integer).
        size: Value,
        /// The alignment of `dst`, in bytes.
        align: Option<u32>,
        /// A `volatile` fill.
        volatile: bool,
    },
}

/// An instruction: its result type and what it computes.
#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    /// The input's name for the result (LLVM's `%name`, SPIR-V's OpName), kept for readers
    /// of the output; `None` when it had none.
    pub name: Option<String>,
    /// Result type; `Void` for instructions without a result.
    pub ty: Handle<Type>,
    /// What the instruction computes.
    pub op: Op,
    /// The source position it computes, for debuggers (`None`: none said, or made by a
    /// translation step with no source of its own).
    pub loc: Option<Handle<super::debug::Location>>,
}

/// How a block ends: where control goes next.
#[derive(Clone, Debug, PartialEq)]
pub enum Terminator {
    /// Go to a block.
    Branch(BlockId),
    /// Go to `on_true` if the `Bool` `cond` holds, else to `on_false`.
    CondBranch {
        /// The condition (type `Bool`).
        cond: Value,
        /// Where a true condition goes.
        on_true: BlockId,
        /// Where a false condition goes.
        on_false: BlockId,
    },
    /// Go to the block of the case equal to the integer `value`, else to `default`.
    Switch {
        /// The integer switched on.
        value: Value,
        /// Where a value no case names goes.
        default: BlockId,
        /// (value, target) of each case, the value zero-extended from its type's width.
        cases: Vec<(u64, BlockId)>,
    },
    /// Leave the function, with its result unless it returns `Void`.
    Return(Option<Value>),
    /// Control never gets here.
    Unreachable,
}

/// The structured-control-flow construct a block heads (SPIR-V's OpSelectionMerge and
/// OpLoopMerge). OpenCL's graphs have none: SPIR and Kernel SPIR-V allow any control flow.
/// A shader (the Vulkan lowering) must be structured; its structurizer
/// (`crate::structurize`) marks every header, and `verify::verify` checks the structured
/// rules in every function that has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Construct {
    /// A conditional branch or switch whose arms meet again at `merge` (or never do: `merge`
    /// is then a block no edge reaches).
    Selection {
        /// Where the arms meet.
        merge: BlockId,
    },
    /// A loop: this block is its header, `continue_target` holds the one back edge to it,
    /// and `merge` is where every exit from the loop goes.
    Loop {
        /// Where every exit goes.
        merge: BlockId,
        /// The block that branches back to the header.
        continue_target: BlockId,
        /// A hint that the driver's compiler unroll the loop (SPIR-V's `Unroll` loop
        /// control); see `crate::structurize` for which loops get it.
        unroll: bool,
    },
}

/// A basic block: instructions run in order, then the terminator.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// The input's label for the block (`entry`, `for.body`), if it had one.
    pub name: Option<String>,
    /// The block's instructions in order, handles into the body's `insts`; phis first.
    pub insts: Vec<Handle<Inst>>,
    /// How the block ends.
    pub terminator: Terminator,
    /// The source position of the terminator, for debuggers.
    pub terminator_loc: Option<Handle<super::debug::Location>>,
    /// The construct this block heads, in a structured function (`None` in OpenCL graphs).
    pub construct: Option<Construct>,
}

/// A function's code: its instructions and its blocks (the first is the entry).
#[derive(Clone, Debug, Default)]
pub struct Body {
    /// Every instruction of the function; blocks list the ones they run, in order.
    pub insts: Arena<Inst>,
    /// The blocks in layout order; [`BlockId`] indexes them.
    pub blocks: Vec<Block>,
}

/// Attributes of a parameter that both sides can express (SPIR-V FuncParamAttr).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ParamAttrs {
    /// No other pointer the function sees reaches this memory (OpenCL C `restrict`).
    pub noalias: bool,
    /// The function keeps no copy of the pointer after it returns.
    pub nocapture: bool,
    /// The function only reads through this pointer.
    pub readonly: bool,
    /// The function does not touch the memory this pointer points to.
    pub readnone: bool,
    /// The function only writes through this pointer (LLVM `writeonly`). SPIR-V's OpenCL
    /// environment has no parameter attribute for it; Vulkan storage buffers say it with
    /// NonReadable.
    pub writeonly: bool,
    /// A pointer to a copy the caller made (a struct passed by value).
    pub byval: bool,
    /// A pointer to where the function writes its (struct) result.
    pub sret: bool,
    /// A narrow integer the caller zero-extended.
    pub zext: bool,
    /// A narrow integer the caller sign-extended.
    pub sext: bool,
    /// The alignment in bytes the pointer is known to have (LLVM `align`, SPIR-V's Alignment
    /// decoration on the parameter): a power of two.
    pub align: Option<u32>,
}

impl ParamAttrs {
    /// These attributes less the ones that say nothing about a parameter of type `ty`: the
    /// pointer attributes on anything but a pointer or an OpenCL object (which LLVM passes as
    /// a pointer), `zext`/`sext` on anything but an integer, `readonly` beside `readnone`
    /// (which says more), and an alignment that is no power of two. LLVM's verifier lets some
    /// of these through (`writeonly` on an `i32`); the graph's verifier refuses them all, so
    /// each reader keeps only what applies.
    pub fn applicable_to(self, ty: &Type) -> ParamAttrs {
        let int = matches!(ty, Type::Int { .. } | Type::Bool);
        let ptr = matches!(ty, Type::Pointer { .. }) || ty.is_opencl_object();
        ParamAttrs {
            noalias: self.noalias && ptr,
            nocapture: self.nocapture && ptr,
            readonly: self.readonly && ptr && !self.readnone,
            readnone: self.readnone && ptr,
            writeonly: self.writeonly && ptr && !self.readnone && !self.readonly,
            byval: self.byval && ptr,
            sret: self.sret && ptr,
            zext: self.zext && int,
            sext: self.sext && int && !self.zext,
            align: self.align.filter(|n| ptr && n.is_power_of_two()),
        }
    }
}

/// A function parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// The input's name for it, if any.
    pub name: Option<String>,
    /// Its type.
    pub ty: Handle<Type>,
    /// What the function promises about it.
    pub attrs: ParamAttrs,
}

/// Whether a function or global is seen outside its module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Linkage {
    /// Visible only inside the module.
    Internal,
    /// Defined here and visible to others.
    Export,
    /// Declared here, defined elsewhere (a function with no body that is not a builtin).
    Import,
}

/// A function: a kernel, a helper, or a declaration of one defined elsewhere. Builtins are
/// not functions here: calls of them are [`Op::Builtin`].
#[derive(Clone, Debug)]
pub struct Function {
    /// Its name as the source wrote it (unmangled for kernels and C functions).
    pub name: String,
    /// The result type (`Void` for none).
    pub ret: Handle<Type>,
    /// The parameters, in order ([`Value::Param`] indexes them).
    pub params: Vec<Param>,
    /// An OpenCL kernel (`module.kernels` says the rest).
    pub is_kernel: bool,
    /// Whether other modules see or define it.
    pub linkage: Linkage,
    /// `None` for declarations.
    pub body: Option<Body>,
}

impl Op {
    /// Whether it is a debug declaration ([`Op::DebugDeclare`], [`Op::DebugValue`]): no
    /// computation, only where a source variable is.
    pub fn is_debug(&self) -> bool {
        matches!(self, Op::DebugDeclare { .. } | Op::DebugValue { .. })
    }
}

impl Terminator {
    /// Successor block indices, one entry per edge, in operand order.
    pub fn successors(&self) -> Vec<usize> {
        match self {
            Terminator::Branch(b) => vec![b.0 as usize],
            Terminator::CondBranch {
                on_true, on_false, ..
            } => vec![on_true.0 as usize, on_false.0 as usize],
            Terminator::Switch { default, cases, .. } => std::iter::once(default.0 as usize)
                .chain(cases.iter().map(|c| c.1 .0 as usize))
                .collect(),
            Terminator::Return(_) | Terminator::Unreachable => vec![],
        }
    }
}

impl Body {
    /// The block `id` names.
    pub fn block(&self, id: BlockId) -> &Block {
        &self.blocks[id.0 as usize]
    }
}
