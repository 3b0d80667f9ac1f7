//! `FPFastMathMode`, SPIR-V's spelling of what float arithmetic may relax (`ir::FastMath`:
//! LLVM's fast-math flags, OpenCL C's `-cl-fast-relaxed-math` and kin), both ways.
//!
//! SPIR-V 1.0's bits say NotNaN, NotInf, NSZ and AllowRecip, and Fast: every relaxation at
//! once. Contraction, reassociation and approximation alone have bits only in extensions:
//! SPV_KHR_float_controls2 (AllowContract, AllowReassoc, AllowTransform, which needs the two
//! others; Fast is then not to be used) and SPV_INTEL_fp_fast_math_mode (AllowContractFastINTEL
//! and AllowReassocINTEL, with the same values as the first two).

use spirv::FPFastMathMode as M;

use crate::ir::FastMath;

/// Which bits past SPIR-V 1.0's a module may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bits {
    /// SPIR-V 1.0's alone.
    Core,
    /// SPV_KHR_float_controls2's.
    FloatControls2,
    /// SPV_INTEL_fp_fast_math_mode's.
    Intel,
}

/// The mode that says `fast` with `bits`, and the relaxations it cannot say (which the
/// operation is then written without: stricter than its input).
pub fn mode_of(fast: FastMath, bits: Bits) -> (M, FastMath) {
    if fast == FastMath::ALL && bits != Bits::FloatControls2 {
        return (M::FAST, FastMath::default());
    }
    let mut m = M::NONE;
    let mut dropped = FastMath::default();
    for (on, bit) in [
        (fast.no_nans, M::NOT_NAN),
        (fast.no_infs, M::NOT_INF),
        (fast.no_signed_zeros, M::NSZ),
        (fast.allow_recip, M::ALLOW_RECIP),
    ] {
        if on {
            m |= bit;
        }
    }
    match bits {
        Bits::Core => {
            dropped.allow_contract = fast.allow_contract;
            dropped.allow_reassoc = fast.allow_reassoc;
            dropped.approx_func = fast.approx_func;
        }
        Bits::Intel => {
            m.set(M::ALLOW_CONTRACT, fast.allow_contract);
            m.set(M::ALLOW_REASSOC, fast.allow_reassoc);
            dropped.approx_func = fast.approx_func;
        }
        Bits::FloatControls2 => {
            m.set(M::ALLOW_CONTRACT, fast.allow_contract);
            m.set(M::ALLOW_REASSOC, fast.allow_reassoc);
            let transform = fast.approx_func && fast.allow_contract && fast.allow_reassoc;
            m.set(M::ALLOW_TRANSFORM, transform);
            dropped.approx_func = fast.approx_func && !transform;
        }
    }
    (m, dropped)
}

/// Whether mode `m` uses SPIR-V 1.0's bits alone.
pub fn is_core(m: M) -> bool {
    (M::NOT_NAN | M::NOT_INF | M::NSZ | M::ALLOW_RECIP | M::FAST).contains(m)
}

/// What mode `m` relaxes. AllowTransform is read as approximation (with the contraction
/// and reassociation it requires), as the Khronos translator writes LLVM's `afn`.
pub fn fast_of(m: M) -> FastMath {
    if m.contains(M::FAST) {
        return FastMath::ALL;
    }
    let transform = m.contains(M::ALLOW_TRANSFORM);
    FastMath {
        no_nans: m.contains(M::NOT_NAN),
        no_infs: m.contains(M::NOT_INF),
        no_signed_zeros: m.contains(M::NSZ),
        allow_recip: m.contains(M::ALLOW_RECIP),
        allow_contract: m.contains(M::ALLOW_CONTRACT) || transform,
        allow_reassoc: m.contains(M::ALLOW_REASSOC) || transform,
        approx_func: transform,
    }
}

/// The relaxations of `fast` in words (for a report of what was not kept).
pub fn describe(fast: FastMath) -> String {
    [
        (fast.no_nans, "no NaNs"),
        (fast.no_infs, "no infinities"),
        (fast.no_signed_zeros, "no signed zeros"),
        (fast.allow_recip, "reciprocals"),
        (fast.allow_contract, "contraction"),
        (fast.allow_reassoc, "reassociation"),
        (fast.approx_func, "approximation"),
    ]
    .iter()
    .filter(|(on, _)| *on)
    .map(|(_, w)| *w)
    .collect::<Vec<_>>()
    .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mode_reads_back_as_written() {
        // Every combination of the seven relaxations, written with each set of bits: what
        // is written reads back as the input less what was dropped.
        for n in 0u32..128 {
            let on = |b: u32| n & (1 << b) != 0;
            let fast = FastMath {
                no_nans: on(0),
                no_infs: on(1),
                no_signed_zeros: on(2),
                allow_recip: on(3),
                allow_contract: on(4),
                allow_reassoc: on(5),
                approx_func: on(6),
            };
            for bits in [Bits::Core, Bits::FloatControls2, Bits::Intel] {
                let (m, dropped) = mode_of(fast, bits);
                let back = fast_of(m);
                let kept = FastMath {
                    allow_contract: fast.allow_contract && !dropped.allow_contract,
                    allow_reassoc: fast.allow_reassoc && !dropped.allow_reassoc,
                    approx_func: fast.approx_func && !dropped.approx_func,
                    ..fast
                };
                assert_eq!(back, kept, "{fast:?} with {bits:?}: {m:?}");
                if bits == Bits::FloatControls2 {
                    assert!(!m.contains(M::FAST));
                }
            }
        }
    }
}
