//! `erf` and `erfc` of double, within OpenCL's 16 ulp (about 2 measured against MPFR):
//!
//! * |x| < 2: erf by its Taylor series Σ (−1)^n x^(2n+1) / (n! (2n+1)) summed in
//!   double-double (60 terms: the last is below 2^-110 at x = 2; the largest is 2.4, so the
//!   alternating sum loses none of double's bits), times 2/√π in double-double; erfc there
//!   as 1 − erf in double-double (erfc(2) is 0.0047: the subtraction keeps double-double's
//!   bits to spare). The terms are made in a loop (one iteration per term).
//! * |x| ≥ 2: erfc(|x|) = e^(−x²) / (√π · (x + ½/(x + 1/(x + 3/2/…)))), the continued
//!   fraction 100 levels deep (its truncation error at x = 2 is 6·10^-23, its rounding error
//!   below 1 ulp), e^(−x²) of x² made exact in double-double; erf as ±(1 − erfc(|x|)) and
//!   erfc of a negative x as 2 − erfc(|x|).

use crate::ir::GlslOp as G;

use crate::diag::Result;
use crate::ir::{BinaryOp as B, FloatPredicate as P, Value};

use super::double::{add, div_dd_d, exp_dd, fast_two_sum, mul_dd_dd, neg, two_prod, Dd};
use super::E;

const TWO_OVER_SQRT_PI: (f64, f64) = (std::f64::consts::FRAC_2_SQRT_PI, 1.533_545_961_316_588e-17);
const ONE_OVER_SQRT_PI: (f64, f64) = (0.564_189_583_547_756_3, 7.667_729_806_582_94e-18);
/// Terms of the Taylor series after the first.
const TERMS: u64 = 60;
/// Levels of the continued fraction.
const LEVELS: u32 = 100;

/// erf(x), or erfc(x) where `complement`, of a double lane.
pub(super) fn erf(e: &mut E, x: Value, complement: bool) -> Result<Value> {
    let two = e.dconst(2.0);
    let ax = e.dglsl(G::FAbs, x);
    let near = e.dcmp(P::Olt, ax, two);
    let series = taylor(e, x)?;
    let tail = erfc_tail(e, ax);
    let one = e.dconst(1.0);
    let zero = e.dconst(0.0);
    let negative = e.dcmp(P::Olt, x, zero);
    Ok(if complement {
        // Near: 1 − erf in double-double, rounded once.
        let minus_hi = neg(e, series.0);
        let (h, l) = fast_two_sum(e, one, minus_hi);
        let l = e.dbin(B::FSub, l, series.1);
        let c_near = e.dbin(B::FAdd, h, l);
        let c_neg = e.dbin(B::FSub, two, tail);
        let far = e.dsel(negative, c_neg, tail);
        e.dsel(near, c_near, far)
    } else {
        let r_near = e.dbin(B::FAdd, series.0, series.1);
        let sign = e.dglsl(G::FSign, x);
        let t = e.dbin(B::FSub, one, tail);
        let far = e.dbin(B::FMul, sign, t);
        let r = e.dsel(near, r_near, far);
        // erf(−0) is −0, which the series' sum does not carry.
        super::specials::zero_keeps(e, x, r)
    })
}

/// erf(x) in double-double for |x| < 2 (x clamped to [−2, 2], so that other lanes' terms
/// stay finite), by the Taylor series in a loop.
fn taylor(e: &mut E, x: Value) -> Result<Dd> {
    let dt = e.dt();
    let lo = e.dconst(-2.0);
    let hi = e.dconst(2.0);
    let x = e.glsl(G::FClamp, dt, vec![x, lo, hi]);
    let zero = e.dconst(0.0);
    let xx = two_prod(e, x, x);
    let minus_xx = (neg(e, xx.0), neg(e, xx.1));
    // State: the term p = (−x²)^n x / n!, the sum s, and n (a double).
    let slots: Vec<Value> = (0..5).map(|_| e.b.alloca(dt)).collect();
    for (slot, v) in slots.iter().zip([x, zero, x, zero, zero]) {
        e.b.store(*slot, v, None, false)?;
    }
    let header = e.b.new_block(Some("erf.series".into()));
    let body = e.b.new_block(Some("erf.series.term".into()));
    let exit = e.b.new_block(Some("erf.series.done".into()));
    e.b.terminate(crate::ir::Terminator::Branch(crate::ir::BlockId(
        header as u32,
    )));
    e.b.cur = header;
    let n = e.b.load(slots[4], None, false)?;
    let last = e.dconst(TERMS as f64);
    let more = e.dcmp(P::Olt, n, last);
    e.b.terminate(crate::ir::Terminator::CondBranch {
        cond: more,
        on_true: crate::ir::BlockId(body as u32),
        on_false: crate::ir::BlockId(exit as u32),
    });
    e.b.cur = body;
    let mut st = Vec::new();
    for s in &slots[..4] {
        st.push(e.b.load(*s, None, false)?);
    }
    let one = e.dconst(1.0);
    let n1 = e.dbin(B::FAdd, n, one);
    let p = mul_dd_dd(e, (st[0], st[1]), minus_xx);
    let p = div_dd_d(e, p, n1);
    let odd = {
        let twice = e.dbin(B::FAdd, n1, n1);
        e.dbin(B::FAdd, twice, one)
    };
    let t = div_dd_d(e, p, odd);
    let s = add(e, (st[2], st[3]), t);
    for (slot, v) in slots.iter().zip([p.0, p.1, s.0, s.1, n1]) {
        e.b.store(*slot, v, None, false)?;
    }
    e.b.terminate(crate::ir::Terminator::Branch(crate::ir::BlockId(
        header as u32,
    )));
    e.b.cur = exit;
    let s = (
        e.b.load(slots[2], None, false)?,
        e.b.load(slots[3], None, false)?,
    );
    let k = (e.dconst(TWO_OVER_SQRT_PI.0), e.dconst(TWO_OVER_SQRT_PI.1));
    Ok(mul_dd_dd(e, k, s))
}

/// erfc(a) for a ≥ 2 (meaningful there; finite or NaN elsewhere), by the continued
/// fraction.
fn erfc_tail(e: &mut E, a: Value) -> Value {
    let mut t = a;
    for k in (1..=LEVELS).rev() {
        let kk = e.dconst(f64::from(k) / 2.0);
        let q = e.dbin(B::FDiv, kk, t);
        t = e.dbin(B::FAdd, a, q);
    }
    let (h, l) = two_prod(e, a, a);
    let (nh, nl) = (neg(e, h), neg(e, l));
    let ex = exp_dd(e, (nh, nl));
    // e^(−a²) · (1/√π) / t, the constant in double-double.
    let k = (e.dconst(ONE_OVER_SQRT_PI.0), e.dconst(ONE_OVER_SQRT_PI.1));
    let (p, err) = two_prod(e, ex, k.0);
    let low = e.dbin(B::FMul, ex, k.1);
    let err = e.dbin(B::FAdd, err, low);
    let num = e.dbin(B::FAdd, p, err);
    e.dbin(B::FDiv, num, t)
}
