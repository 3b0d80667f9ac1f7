//! The mapping tables of mappings/*.toml, compiled into `match` functions by the build script (build/), and
//! the lookups over them and over SPIR-V's grammar that the readers, writers and the
//! verifier share: how the graph's operations are spelled, kept out of `ir/`.

use crate::ir::AddressSpace;

/// A table entry that depends on the numeric class of the first argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ByClass<T> {
    pub any: Option<T>,
    pub float: Option<T>,
    pub signed: Option<T>,
    pub unsigned: Option<T>,
}

impl<T: Copy> ByClass<T> {
    /// Pick the entry for an argument class (`None` = float).
    pub fn pick(&self, sign: Option<crate::ir::Sign>) -> Option<T> {
        self.any.or(match sign {
            None => self.float,
            Some(crate::ir::Sign::Signed) => self.signed,
            Some(crate::ir::Sign::Unsigned) => self.unsigned,
        })
    }
}

/// One OpenCL C spelling of a work-group or sub-group collective (a row of
/// mappings/groups.toml; the file says what each field means).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupSpelling {
    /// The name after `work_group_`/`sub_group_`; `*` stands for the collective.
    pub name: &'static str,
    pub ops: ByClass<crate::ir::GroupOp>,
    pub operation: Option<spirv::GroupOperation>,
    pub work_group: bool,
    pub predicate: bool,
    pub boolean: bool,
}

/// The SPIR spellings of one SPIR-V pipe instruction (a row of mappings/pipes.toml; the file
/// says what each field means).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PipeSpelling {
    pub op: crate::ir::Primitive,
    pub scope: Option<spirv::Scope>,
    pub clang: Option<&'static str>,
    pub clang_wo: Option<&'static str>,
    pub spir: &'static str,
    pub args: u32,
}

/// The row of a pipe function clang calls by an unmangled name (`__read_pipe_2`).
pub fn pipe_by_clang_name(name: &str) -> Option<&'static PipeSpelling> {
    PIPE_SPELLINGS
        .iter()
        .find(|p| p.clang == Some(name) || p.clang_wo == Some(name))
}

/// The row of a mangled OpenCL C pipe function with `args` operands (SPIR 2.0's spelling,
/// and clang's `is_valid_reserve_id`).
pub fn pipe_by_opencl_name(name: &str, args: usize) -> Option<&'static PipeSpelling> {
    PIPE_SPELLINGS
        .iter()
        .find(|p| p.spir == name && p.args as usize == args)
}

/// The row of a SPIR-V pipe instruction (with its scope, for the group forms); without one,
/// the construct in words (`OpGroupReserveReadPipePackets at scope CrossDevice`).
pub fn pipe_spelling(
    op: crate::ir::Primitive,
    scope: Option<spirv::Scope>,
) -> Result<&'static PipeSpelling, String> {
    PIPE_SPELLINGS
        .iter()
        .find(|p| p.op == op && p.scope == scope)
        .ok_or_else(|| {
            let at = scope.map_or(String::new(), |s| format!(" at scope {s:?}"));
            format!("Op{:?}{at}", opcode(op))
        })
}

/// One of OpenCL's image channel queries in every spelling: the graph op (whose result is
/// OpenCL's `CL_*` value), the primitive of the SPIR-V instruction (whose result is SPIR-V's
/// enumerant, `CL_*` minus `cl_offset`) and the OpenCL C builtin. The rows are mappings/opencl_enums.toml.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChannelQuery {
    pub op: crate::ir::ImageOp,
    pub primitive: crate::ir::Primitive,
    pub opencl: &'static str,
    pub cl_offset: u64,
}

/// The channel query matching `pick`.
pub fn channel_query(pick: impl Fn(&ChannelQuery) -> bool) -> Option<ChannelQuery> {
    crate::mappings::CHANNEL_QUERIES
        .iter()
        .copied()
        .find(|q| pick(q))
}

include!(concat!(env!("OUT_DIR"), "/mappings.rs"));

/// OpenCL.std instructions whose last operand is a literal (`n` of vloadn, the rounding mode
/// of vstore_half_r, ...), read off rspirv's copy of the grammar.
pub fn has_trailing_literal(op: crate::ir::OpenclOp) -> bool {
    rspirv::grammar::OPENCL_STD_100_INSTRUCTION_TABLE
        .lookup_opcode(opencl_std_opcode(op) as u32)
        .and_then(|inst| inst.operands.last())
        .is_some_and(|o| o.kind != rspirv::grammar::OperandKind::IdRef)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_channel_queries_have_every_spelling() {
        let order = channel_query(|q| q.op == crate::ir::ImageOp::QueryChannelOrder).unwrap();
        assert_eq!(order.primitive, crate::ir::Primitive::ImageQueryOrder);
        assert_eq!(order.opencl, "get_image_channel_order");
        assert_eq!(order.cl_offset, 0x10B0); // CL_R
        let format =
            channel_query(|q| q.primitive == crate::ir::Primitive::ImageQueryFormat).unwrap();
        assert_eq!(format.op, crate::ir::ImageOp::QueryChannelDataType);
        assert_eq!(format.cl_offset, 0x10D0); // CL_SNORM_INT8
    }

    /// Each primitive is its own SPIR-V instruction and back: no two share an opcode.
    #[test]
    fn primitives_and_opcodes_both_ways() {
        let mut seen = std::collections::HashSet::new();
        for &p in crate::ir::Primitive::ALL {
            let op = opcode(p);
            assert!(seen.insert(op), "{p:?}: Op{op:?} twice");
            assert_eq!(primitive(op), Some(p));
        }
        assert_eq!(primitive(spirv::Op::IAdd), None);
        assert_eq!(
            opcode(crate::ir::Primitive::AtomicFAdd),
            spirv::Op::AtomicFAddEXT
        );
    }

    /// Each atomic operation is its own SPIR-V instruction and back.
    #[test]
    fn atomic_operations_and_opcodes_both_ways() {
        let mut seen = std::collections::HashSet::new();
        for &a in crate::ir::AtomicOp::ALL {
            let op = atomic_opcode(a);
            assert!(seen.insert(op), "{a:?}: Op{op:?} twice");
            assert_eq!(atomic_op(op), Some(a));
        }
        assert_eq!(atomic_op(spirv::Op::AtomicCompareExchangeWeak), None);
        assert_eq!(atomic_name(crate::ir::AtomicOp::UMin), Some("min"));
    }

    /// Every conversion has an instruction that converts between the same classes and
    /// saturates no more than asked; each conversion instruction is read back as one.
    #[test]
    fn conversions_and_opcodes_both_ways() {
        use crate::ir::{ConvertKind as K, Sign};
        let kinds = [K::Float, K::Int(Sign::Signed), K::Int(Sign::Unsigned)];
        let class = |k: K| matches!(k, K::Float);
        let mut ops = std::collections::BTreeSet::new();
        for from in kinds {
            for to in kinds {
                for saturate in [false, true] {
                    let op = conversion_opcode((from, to, saturate));
                    let (f, t, sat) = conversion(op).expect("a conversion instruction");
                    assert_eq!((f, class(t)), (from, class(to)), "Op{op:?}");
                    assert!(saturate || !sat, "Op{op:?} saturates unasked");
                    ops.insert(op as u32);
                }
            }
        }
        // FConvert, the four float/integer conversions, S/UConvert, SatConvertSToU/UToS.
        assert_eq!(ops.len(), 9);
        assert_eq!(
            conversion_opcode((K::Int(Sign::Signed), K::Int(Sign::Unsigned), true)),
            spirv::Op::SatConvertSToU
        );
        assert_eq!(conversion(spirv::Op::Bitcast), None);
    }

    /// Each instruction of the two extended sets is its own graph operation, named as the
    /// grammar names it, and back; the graph's order is the set's.
    #[test]
    fn extended_sets_and_numbers_both_ways() {
        let cl = &rspirv::grammar::OPENCL_STD_100_INSTRUCTION_TABLE;
        assert_eq!(crate::ir::OpenclOp::ALL.len(), cl.iter().count());
        let mut last = None;
        for &op in crate::ir::OpenclOp::ALL {
            let n = opencl_std_opcode(op);
            assert_eq!(opencl_op(n), op);
            let inst = cl.lookup_opcode(n as u32).expect("in the grammar");
            assert_eq!(inst.opname, format!("{op:?}"));
            assert!(last < Some(n as u32), "{op:?} out of the set's order");
            last = Some(n as u32);
        }
        let glsl = &rspirv::grammar::GLSL_STD_450_INSTRUCTION_TABLE;
        assert_eq!(crate::ir::GlslOp::ALL.len(), glsl.iter().count());
        for &op in crate::ir::GlslOp::ALL {
            let inst = glsl
                .lookup_opcode(glsl_opcode(op) as u32)
                .expect("in the grammar");
            assert_eq!(inst.opname, format!("{op:?}"));
        }
    }

    /// OpenCL.std instructions the reader produces from code rather than from opencl_std.toml
    /// (their operands need rewriting).
    const HANDLED_IN_CODE: &[&str] = &[
        "vloadn",
        "vstoren",
        "vload_half",
        "vload_halfn",
        "vstore_half",
        "vstore_half_r",
        "vstore_halfn",
        "vstore_halfn_r",
        "vloada_halfn",
        "vstorea_halfn",
        "vstorea_halfn_r",
    ];

    /// Coverage: every instruction of the OpenCL.std grammar (as shipped in rspirv) is reachable
    /// from an OpenCL C name, through the table or through code.
    #[test]
    fn every_opencl_std_instruction_is_mapped() {
        let mut missing = Vec::new();
        for inst in rspirv::grammar::OPENCL_STD_100_INSTRUCTION_TABLE.iter() {
            let op = spirv::OpenclStd100Op::from_u32(inst.opcode.into()).expect("grammar opcode");
            let op = opencl_op(op);
            if opencl_std_name(op).is_none() && !HANDLED_IN_CODE.contains(&inst.opname) {
                missing.push(inst.opname);
            }
        }
        assert!(
            missing.is_empty(),
            "OpenCL.std instructions with no mapping: {missing:?}"
        );
    }

    #[test]
    fn opencl_std_dispatches_on_argument_class() {
        let e = opencl_std("max").unwrap();
        assert_eq!(
            e.pick(None),
            Some(crate::ir::builtin::OpenclOp::fmax_common)
        );
        assert_eq!(
            e.pick(Some(crate::ir::Sign::Unsigned)),
            Some(crate::ir::builtin::OpenclOp::u_max)
        );
        assert_eq!(
            e.pick(Some(crate::ir::Sign::Signed)),
            Some(crate::ir::builtin::OpenclOp::s_max)
        );
        assert_eq!(
            opencl_std_name(crate::ir::builtin::OpenclOp::u_max),
            Some("max")
        );
        assert_eq!(
            opencl_std("sqrt")
                .unwrap()
                .pick(Some(crate::ir::Sign::Signed)),
            None
        );
    }

    /// Modes with a meaning in the graph are not in the literal table; the others carry the
    /// version and capability the SPIR-V writer needs.
    #[test]
    fn kept_execution_modes_say_what_they_need() {
        use spirv::{Capability as C, ExecutionMode as M};
        for m in [
            M::LocalSize,
            M::LocalSizeHint,
            M::VecTypeHint,
            M::ContractionOff,
            M::SubgroupSize,
        ] {
            assert_eq!(kept_execution_mode(m), None, "{m:?}");
        }
        assert_eq!(
            kept_execution_mode(M::SubgroupsPerWorkgroup),
            Some(((1, 1), Some(C::SubgroupDispatch)))
        );
        assert_eq!(kept_execution_mode(M::Initializer), Some(((1, 1), None)));
        assert_eq!(
            kept_execution_mode(M::RoundingModeRTZ),
            Some(((1, 4), Some(C::RoundingModeRTZ)))
        );
    }

    #[test]
    fn address_spaces_roundtrip_through_every_encoding() {
        for s in [
            AddressSpace::Private,
            AddressSpace::Global,
            AddressSpace::Constant,
            AddressSpace::Local,
            AddressSpace::Generic,
        ] {
            assert_eq!(space_from_llvm(space_to_llvm(s).unwrap()), Some(s));
            assert_eq!(space_from_storage_class(space_storage_class(s)), Some(s));
            assert_eq!(
                space_from_kernel_arg(space_to_kernel_arg(s).unwrap()),
                Some(s)
            );
        }
    }
}
