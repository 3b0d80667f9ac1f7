//! What the input let float arithmetic relax, written: `ir::FastMath` on an operation as its
//! `FPFastMathMode` (spelled in `spv::fast_math`), and the contraction `--mad contract`
//! and `contract-intel` allow `mad`.
//!
//! `FPFastMathMode` is a Kernel decoration: a Vulkan module computes every operation
//! strictly, which is reported, but for contraction, which it leaves to the driver by not
//! forbidding it (no NoContraction). Relaxations SPIR-V 1.0 has no bit for (contraction,
//! reassociation, approximation alone) are written in the extension `--mad contract` or
//! `contract-intel` chose, and otherwise reported as not kept: no extension is declared for
//! them alone, so the module loads wherever it did without them.

use rspirv::dr::Operand;
use spirv::{Capability, Word};

use super::Writer;
use crate::diag::Lost;
use crate::ir::FastMath;
use crate::options::MadForm;
use crate::spv::fast_math::{self as spell, Bits};

impl Writer<'_> {
    /// Let the driver contract a product and the sum that takes it (`--mad contract` and
    /// `contract-intel`): both decorated `FPFastMathMode AllowContract`, in the extension
    /// the form names; nothing for the other forms. The kernel's ContractionOff stays: it
    /// is the default these decorations override, instruction by instruction.
    pub(crate) fn allow_contraction(&mut self, ids: &[Word]) {
        if self.declare_fast_math_bits() == Bits::Core {
            return;
        }
        for &id in ids {
            // The two extensions give the bit the same value (AllowContractFastINTEL).
            self.b.decorate(
                id,
                spirv::Decoration::FPFastMathMode,
                [Operand::FPFastMathMode(
                    spirv::FPFastMathMode::ALLOW_CONTRACT,
                )],
            );
        }
    }

    /// The bits past SPIR-V 1.0's the `--mad` form allows, with its capability and extension
    /// declared.
    fn declare_fast_math_bits(&mut self) -> Bits {
        let (bits, capability, extension) = match self.mad {
            MadForm::Contract => (
                Bits::FloatControls2,
                Capability::FloatControls2,
                "SPV_KHR_float_controls2",
            ),
            MadForm::ContractIntel => (
                Bits::Intel,
                Capability::FPFastMathModeINTEL,
                "SPV_INTEL_fp_fast_math_mode",
            ),
            MadForm::Mad | MadForm::Fma | MadForm::Split => return Bits::Core,
        };
        self.cap(capability);
        self.extension(extension);
        bits
    }

    /// Float operation `id` made exact as the target requires, or relaxed as `fast` allows.
    pub(crate) fn float_operation(&mut self, id: Word, fast: FastMath) {
        if !fast.allow_contract {
            self.no_contraction(id);
        }
        if !fast.any() {
            return;
        }
        if !self.policy.kernel_modes {
            let kept = FastMath {
                allow_contract: fast.allow_contract,
                ..FastMath::default()
            };
            self.drop_fast_math(fast, kept);
            return;
        }
        // An extension only for what SPIR-V 1.0 cannot say; but under SPV_KHR_float_controls2
        // (`--mad contract`) never Fast, which that extension retires, as a `mad` may declare
        // it later in the module.
        let bits = match self.mad {
            MadForm::Contract => Bits::FloatControls2,
            _ => Bits::Core,
        };
        let (mut mode, mut dropped) = spell::mode_of(fast, bits);
        if dropped.any() || !spell::is_core(mode) {
            (mode, dropped) = spell::mode_of(fast, self.declare_fast_math_bits());
        }
        self.drop_fast_math(dropped, FastMath::default());
        if mode != spirv::FPFastMathMode::NONE {
            self.b.decorate(
                id,
                spirv::Decoration::FPFastMathMode,
                [Operand::FPFastMathMode(mode)],
            );
        }
    }

    /// Note the relaxations of `fast` but those `kept` as not written.
    fn drop_fast_math(&mut self, fast: FastMath, kept: FastMath) {
        let d = &mut self.fast_math_dropped;
        d.no_nans |= fast.no_nans && !kept.no_nans;
        d.no_infs |= fast.no_infs && !kept.no_infs;
        d.no_signed_zeros |= fast.no_signed_zeros && !kept.no_signed_zeros;
        d.allow_recip |= fast.allow_recip && !kept.allow_recip;
        d.allow_contract |= fast.allow_contract && !kept.allow_contract;
        d.allow_reassoc |= fast.allow_reassoc && !kept.allow_reassoc;
        d.approx_func |= fast.approx_func && !kept.approx_func;
    }

    /// One report of the relaxations the module does not say.
    pub(super) fn report_fast_math(&mut self) {
        let dropped = std::mem::take(&mut self.fast_math_dropped);
        if !dropped.any() {
            return;
        }
        let why = if self.policy.kernel_modes {
            "SPIR-V has bits for them only in SPV_KHR_float_controls2 and \
             SPV_INTEL_fp_fast_math_mode (`--mad contract`, `contract-intel`)"
        } else {
            "FPFastMathMode is a Kernel decoration"
        };
        self.lost.push(Lost::module(format!(
            "fast-math relaxations of float arithmetic ({}): {why}; the operations are written \
             without them, stricter than the input",
            spell::describe(dropped)
        )));
    }
}
