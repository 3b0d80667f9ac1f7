//! `spir-xlate roundtrip`: go to the other side and back, and report the first difference
//! from the module itself. roundtrip/README.md states what "the same" means for each
//! direction; this is that statement as code.
//!
//! * SPIR-V in: SPIR-V → `--flavor spirv-ir` → SPIR-V must be the same module as SPIR-V →
//!   graph → SPIR-V, compared in canonical SPIR-V text (`spv::canon`).
//! * SPIR in: SPIR → SPIR-V → graph must be the same graph as SPIR → graph, compared in
//!   canonical graph text (`ir::print::canonical_module`).

use std::path::Path;

use crate::diag::Result;
use crate::options::{Flavor, Options, SpirOptions};
use crate::spv::canon::{canonical_text, first_difference};

/// One round trip and what it found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    /// The path taken, e.g. `SPIR-V -> spirv-ir -> SPIR-V`.
    pub path: &'static str,
    /// The first difference, `None` if the module came back the same.
    pub difference: Option<String>,
}

/// Run the round trips that apply to the input (decided by its content).
pub fn check(input: &Path, options: &Options) -> Result<Vec<Check>> {
    if crate::input::file_format(input) == crate::input::Format::Spirv {
        Ok(vec![spirv_through_spirv_ir(input, options)?])
    } else {
        Ok(vec![spir_through_spirv(input, options)?])
    }
}

fn spirv_through_spirv_ir(input: &Path, options: &Options) -> Result<Check> {
    let m = crate::spv::read::read(&crate::pipeline::words(input)?)?;
    let direct = crate::spv::write::write(&m, options)?;
    let ir = crate::spir::write::write(
        &m,
        &SpirOptions {
            flavor: Flavor::SpirvIr,
            ..Default::default()
        },
    )?;
    let back = crate::spv::write::write(&crate::spir::read::read_bytes(&ir)?, options)?;
    Ok(Check {
        path: "SPIR-V -> spirv-ir -> SPIR-V",
        difference: first_difference(&canonical_text(&direct)?, &canonical_text(&back)?),
    })
}

fn spir_through_spirv(input: &Path, options: &Options) -> Result<Check> {
    let mut m = crate::spir::read::read_path(input)?;
    let words = crate::spv::write::write(&m, options)?;
    let back = crate::spv::read::read(&words)?;
    // SPIR-V's OpenCL environment has no parameter attribute for `writeonly`
    // (roundtrip/README.md, Lossiness): the comparison forgets it.
    let functions: Vec<_> = m.functions.iter().map(|(h, _)| h).collect();
    for f in functions {
        for p in &mut m.functions[f].params {
            p.attrs.writeonly = false;
        }
    }
    // Wrap flags are written for OpenCL targets from SPIR-V 1.4 on, fast-math flags as far
    // as FPFastMathMode can say them under the `--mad` form's extension (Lossiness).
    let bits = match options.mad {
        _ if options.target.is_vulkan() => None,
        crate::options::MadForm::Contract => Some(crate::spv::fast_math::Bits::FloatControls2),
        crate::options::MadForm::ContractIntel => Some(crate::spv::fast_math::Bits::Intel),
        _ => Some(crate::spv::fast_math::Bits::Core),
    };
    forget_unwritten_flags(&mut m, !options.keeps_1_4_forms(), bits);
    Ok(Check {
        path: "SPIR -> SPIR-V -> graph",
        difference: first_difference(
            &crate::ir::print::canonical_module(&m),
            &crate::ir::print::canonical_module(&back),
        ),
    })
}

/// In `m`: `nsw`, `nuw` and `exact` forgotten everywhere where `wraps`, and the fast-math
/// flags FPFastMathMode cannot say with `bits` (`None`: a Vulkan module, which says only
/// that contraction is allowed).
fn forget_unwritten_flags(
    m: &mut crate::ir::Module,
    wraps: bool,
    bits: Option<crate::spv::fast_math::Bits>,
) {
    use crate::spv::fast_math::{fast_of, mode_of};
    let functions: Vec<_> = m.functions.iter().map(|(h, _)| h).collect();
    for f in functions {
        let Some(body) = m.functions[f].body.as_mut() else {
            continue;
        };
        for (_, inst) in body.insts.iter_mut() {
            if let crate::ir::Op::Binary { flags, .. } = &mut inst.op {
                if wraps {
                    (flags.nsw, flags.nuw, flags.exact) = (false, false, false);
                }
                flags.fast = match bits {
                    Some(bits) => fast_of(mode_of(flags.fast, bits).0),
                    None => crate::ir::FastMath {
                        allow_contract: flags.fast.allow_contract,
                        ..Default::default()
                    },
                };
            }
        }
    }
}
