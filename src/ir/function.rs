//! Functions, blocks and instructions in SSA form. Operations are LLVM-level plus semantic
//! builtins ([`super::builtin::Builtin`]); nothing here is a mangled name or a SPIR-V id.

use super::arena::{Arena, Handle};
use super::builtin::Builtin;
use super::constant::Constant;
use super::types::Type;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The n-th parameter of the enclosing function.
    Param(u32),
    Inst(Handle<Inst>),
    Const(Handle<Constant>),
}

/// Index of a block in its function's `blocks`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    UDiv,
    SDiv,
    URem,
    SRem,
    Shl,
    LShr,
    AShr,
    And,
    Or,
    Xor,
    FAdd,
    FSub,
    FMul,
    FDiv,
    FRem,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastOp {
    Trunc,
    ZExt,
    SExt,
    FPTrunc,
    FPExt,
    FPToUI,
    FPToSI,
    UIToFP,
    SIToFP,
    PtrToInt,
    IntToPtr,
    Bitcast,
    AddrSpaceCast,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntPredicate {
    Eq,
    Ne,
    Ugt,
    Uge,
    Ult,
    Ule,
    Sgt,
    Sge,
    Slt,
    Sle,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatPredicate {
    False,
    Oeq,
    Ogt,
    Oge,
    Olt,
    Ole,
    One,
    Ord,
    Uno,
    Ueq,
    Ugt,
    Uge,
    Ult,
    Ule,
    Une,
    True,
}

/// Wrap/exactness flags of integer arithmetic (kept so that a round trip loses nothing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ArithFlags {
    pub nsw: bool,
    pub nuw: bool,
    pub exact: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    Binary {
        op: BinaryOp,
        lhs: Value,
        rhs: Value,
        flags: ArithFlags,
    },
    FNeg(Value),
    ICmp {
        pred: IntPredicate,
        lhs: Value,
        rhs: Value,
    },
    FCmp {
        pred: FloatPredicate,
        lhs: Value,
        rhs: Value,
    },
    Cast {
        op: CastOp,
        value: Value,
    },
    Select {
        cond: Value,
        on_true: Value,
        on_false: Value,
    },
    /// Allocates one `allocated` in private memory; the result is a pointer to it.
    Alloca {
        allocated: Handle<Type>,
        align: Option<u32>,
    },
    Load {
        ptr: Value,
        align: Option<u32>,
        volatile: bool,
    },
    Store {
        ptr: Value,
        value: Value,
        align: Option<u32>,
        volatile: bool,
    },
    /// `getelementptr`: the first index steps over the pointer, the rest into aggregates.
    Gep {
        inbounds: bool,
        base: Value,
        indices: Vec<Value>,
    },
    Phi {
        incoming: Vec<(Value, BlockId)>,
    },
    Call {
        callee: Handle<super::function::Function>,
        args: Vec<Value>,
    },
    Builtin {
        builtin: Builtin,
        args: Vec<Value>,
    },
    ExtractElement {
        vector: Value,
        index: Value,
    },
    InsertElement {
        vector: Value,
        element: Value,
        index: Value,
    },
    /// `None` in the mask is an undefined lane.
    Shuffle {
        a: Value,
        b: Value,
        mask: Vec<Option<u32>>,
    },
    ExtractValue {
        aggregate: Value,
        indices: Vec<u32>,
    },
    InsertValue {
        aggregate: Value,
        element: Value,
        indices: Vec<u32>,
    },
    /// `llvm.memcpy`/`llvm.memmove`: copy `size` bytes.
    CopyMemory {
        dst: Value,
        src: Value,
        size: Value,
        align: Option<u32>,
        volatile: bool,
    },
    /// `llvm.memset`.
    FillMemory {
        dst: Value,
        byte: Value,
        size: Value,
        align: Option<u32>,
        volatile: bool,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    pub name: Option<String>,
    /// Result type; `Void` for instructions without a result.
    pub ty: Handle<Type>,
    pub op: Op,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Terminator {
    Branch(BlockId),
    CondBranch {
        cond: Value,
        on_true: BlockId,
        on_false: BlockId,
    },
    Switch {
        value: Value,
        default: BlockId,
        cases: Vec<(u64, BlockId)>,
    },
    Return(Option<Value>),
    Unreachable,
}

/// The structured-control-flow construct a block heads (SPIR-V's OpSelectionMerge and
/// OpLoopMerge). OpenCL's graphs have none: SPIR and Kernel SPIR-V allow any control flow.
/// A shader (the Vulkan lowering) must be structured; its structurizer
/// (`crate::vulkan::structurize`) marks every header, and `ir::verify` checks the structured
/// rules in every function that has one ([`super::structured`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Construct {
    /// A conditional branch or switch whose arms meet again at `merge` (or never do: `merge`
    /// is then a block no edge reaches).
    Selection { merge: BlockId },
    /// A loop: this block is its header, `continue_target` holds the one back edge to it,
    /// and `merge` is where every exit from the loop goes.
    Loop {
        merge: BlockId,
        continue_target: BlockId,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub name: Option<String>,
    pub insts: Vec<Handle<Inst>>,
    pub terminator: Terminator,
    /// The construct this block heads, in a structured function (`None` in OpenCL graphs).
    pub construct: Option<Construct>,
}

#[derive(Clone, Debug, Default)]
pub struct Body {
    pub insts: Arena<Inst>,
    pub blocks: Vec<Block>,
}

/// Attributes of a parameter that both sides can express (SPIR-V FuncParamAttr).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ParamAttrs {
    pub noalias: bool,
    pub nocapture: bool,
    pub readonly: bool,
    pub readnone: bool,
    /// The function only writes through this pointer (LLVM `writeonly`). SPIR-V's OpenCL
    /// environment has no parameter attribute for it; Vulkan storage buffers say it with
    /// NonReadable.
    pub writeonly: bool,
    pub byval: bool,
    pub sret: bool,
    pub zext: bool,
    pub sext: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: Option<String>,
    pub ty: Handle<Type>,
    pub attrs: ParamAttrs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Linkage {
    /// Visible only inside the module.
    Internal,
    /// Defined here and visible to others.
    Export,
    /// Declared here, defined elsewhere (a function with no body that is not a builtin).
    Import,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub ret: Handle<Type>,
    pub params: Vec<Param>,
    pub is_kernel: bool,
    pub linkage: Linkage,
    /// `None` for declarations.
    pub body: Option<Body>,
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
    pub fn block(&self, id: BlockId) -> &Block {
        &self.blocks[id.0 as usize]
    }
}
