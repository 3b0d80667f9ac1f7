//! The hyperbolic functions and their inverses, written once for both precisions: each is a
//! formula over the precision's own exponential, logarithm and square root (`Precision`),
//! arranged as fdlibm arranges them so that no two terms cancel:
//!
//! * sinh: x + x³·q(x²) below 1 (q: sinh's odd series, as many terms as the precision
//!   needs), e^|x|/2 − e^−|x|/2 above, e^|x| halved inside its scaling so that it does not
//!   overflow before the result does; cosh: e^|x|/2 + e^−|x|/2 everywhere (two positive
//!   terms);
//! * tanh: m / (m + 2) with m = e^2|x| − 1, ±1 beyond 22;
//! * asinh: log1p(|x| + x²/(1 + √(1 + x²))), log|x| + ln 2 beyond `FAR`;
//! * acosh: log1p(t + √(2t + t²)) with t = x − 1 up to 2, log(2x − 1/(x + √(x² − 1)))
//!   beyond, log x + ln 2 beyond `FAR`;
//! * atanh: ½·log1p(2|x| + 2x²/(1 − |x|)) below ½, ½·log1p(2|x| / (1 − |x|)) above.
//!
//! Within OpenCL's bounds: 4 ulp for sinh, cosh, asinh and acosh, 5 for tanh and atanh (float
//! and double alike). Halves are computed as floats and rounded once (exp_log.rs).

use crate::ir::GlslOp as G;
use crate::ir::Primitive as S;

use crate::ir::builtin::OpenclOp as C;
use crate::ir::{BinaryOp as B, FloatPredicate as P, Handle, Type, Value};

use super::exp_log_float::{self as float, inverse_factorials, Base};
use super::specials::with_sign_of;
use super::E;

/// What the formulas above take from a precision: its type, its exponential, logarithm and
/// square root, and where its logarithms switch to log x + ln 2.
pub(super) trait Precision {
    fn ty(e: &mut E) -> Handle<Type>;
    fn expm1(e: &mut E, x: Value) -> Value;
    fn log(e: &mut E, x: Value) -> Value;
    fn log1p(e: &mut E, x: Value) -> Value;
    fn sqrt(e: &mut E, x: Value) -> Value;
    /// e^a / 2 for a ≥ 0, finite as far as the result is.
    fn half_exp(e: &mut E, a: Value) -> Value;
    /// log x + ln 2, for x beyond `FAR`.
    fn log_plus_ln2(e: &mut E, x: Value) -> Value;
    /// Where 1 + x² no longer differs from x² (2^(p/2) and more).
    const FAR: f64;
    /// The last term of sinh's series below 1, 1/n! (a term below 2^-p of the first).
    const SINH_TERMS: usize;
}

/// Float (and half, computed as float): exp_log_float.rs.
pub(super) struct Float;

impl Precision for Float {
    fn ty(e: &mut E) -> Handle<Type> {
        e.b.l.out.ty(Type::Float { width: 32 })
    }
    fn expm1(e: &mut E, x: Value) -> Value {
        float::expm1(e, x)
    }
    fn log(e: &mut E, x: Value) -> Value {
        float::log(e, x, Base::E)
    }
    fn log1p(e: &mut E, x: Value) -> Value {
        float::log1p(e, x)
    }
    fn sqrt(e: &mut E, x: Value) -> Value {
        let t = Self::ty(e);
        super::div_sqrt::sqrt(e, x, t)
    }
    fn half_exp(e: &mut E, a: Value) -> Value {
        float::exp_scaled(e, a, -1)
    }
    fn log_plus_ln2(e: &mut E, x: Value) -> Value {
        let t = Self::ty(e);
        let l = float::log(e, x, Base::E);
        let ln2 = e.float_const(t, std::f64::consts::LN_2);
        e.bin(B::FAdd, t, l, ln2)
    }
    const FAR: f64 = 4096.0;
    const SINH_TERMS: usize = 13;
}

/// Double: double.rs, in double-double where a sum would cancel.
pub(super) struct Double;

impl Precision for Double {
    fn ty(e: &mut E) -> Handle<Type> {
        e.dt()
    }
    fn expm1(e: &mut E, x: Value) -> Value {
        super::double::expm1(e, x)
    }
    fn log(e: &mut E, x: Value) -> Value {
        super::double::log_dd(e, x).0
    }
    fn log1p(e: &mut E, x: Value) -> Value {
        super::double::log1p(e, x)
    }
    fn sqrt(e: &mut E, x: Value) -> Value {
        super::double::sqrt(e, x)
    }
    fn half_exp(e: &mut E, a: Value) -> Value {
        // e^(a − ln 2), the difference in double-double.
        use super::double::LN2;
        use super::eft::{fast_two_sum, two_sum};
        let nl = e.dconst(-LN2.0);
        let ll = e.dconst(LN2.1);
        let (h, err) = two_sum(e, a, nl);
        let err = e.dbin(B::FSub, err, ll);
        let t = fast_two_sum(e, h, err);
        super::double::exp_dd(e, t)
    }
    fn log_plus_ln2(e: &mut E, x: Value) -> Value {
        use super::double::LN2;
        let l = super::double::log_dd(e, x);
        let ln2 = (e.dconst(LN2.0), e.dconst(LN2.1));
        super::eft::add(e, l, ln2).0
    }
    const FAR: f64 = 268_435_456.0; // 2^28
    const SINH_TERMS: usize = 27;
}

/// The six functions.
#[derive(Clone, Copy)]
pub(super) enum Function {
    Sinh,
    Cosh,
    Tanh,
    Asinh,
    Acosh,
    Atanh,
}

impl Function {
    pub(super) fn of(op: C) -> Option<Function> {
        Some(match op {
            C::sinh => Function::Sinh,
            C::cosh => Function::Cosh,
            C::tanh => Function::Tanh,
            C::asinh => Function::Asinh,
            C::acosh => Function::Acosh,
            C::atanh => Function::Atanh,
            _ => return None,
        })
    }
}

/// `f` of one scalar lane x of precision `F`.
pub(super) fn body<F: Precision>(e: &mut E, f: Function, x: Value) -> Value {
    match f {
        Function::Sinh => sinh_cosh::<F>(e, x, true),
        Function::Cosh => sinh_cosh::<F>(e, x, false),
        Function::Tanh => tanh::<F>(e, x),
        Function::Asinh => asinh::<F>(e, x),
        Function::Acosh => acosh::<F>(e, x),
        Function::Atanh => atanh::<F>(e, x),
    }
}

/// The shorthands of one precision's scalars.
struct Ops {
    t: Handle<Type>,
    bt: Handle<Type>,
}

impl Ops {
    fn of<F: Precision>(e: &mut E) -> Ops {
        Ops {
            t: F::ty(e),
            bt: e.b.l.out.ty(Type::Bool),
        }
    }
    fn k(&self, e: &mut E, v: f64) -> Value {
        e.float_const(self.t, v)
    }
    fn op(&self, e: &mut E, op: B, x: Value, y: Value) -> Value {
        e.bin(op, self.t, x, y)
    }
    fn cmp(&self, e: &mut E, p: P, x: Value, c: f64) -> Value {
        let c = self.k(e, c);
        e.fcmp(p, self.bt, x, c)
    }
    fn sel(&self, e: &mut E, c: Value, x: Value, y: Value) -> Value {
        e.select(self.t, c, x, y)
    }
    fn abs(&self, e: &mut E, x: Value) -> Value {
        e.glsl(G::FAbs, self.t, vec![x])
    }
    fn is_nan(&self, e: &mut E, x: Value) -> Value {
        e.spirv(S::IsNan, self.bt, vec![x])
    }
    /// OpenCL's NaN for an operand outside the domain.
    fn nan(&self, e: &mut E) -> Value {
        super::div_sqrt::default_nan(e, self.t)
    }
    /// `r`, or x itself where x is a NaN.
    fn nan_passes(&self, e: &mut E, x: Value, r: Value) -> Value {
        let nan = self.is_nan(e, x);
        self.sel(e, nan, x, r)
    }
}

fn sinh_cosh<F: Precision>(e: &mut E, x: Value, sinh: bool) -> Value {
    let o = Ops::of::<F>(e);
    let ax = o.abs(e, x);
    let half_e = F::half_exp(e, ax);
    let quarter = o.k(e, 0.25);
    let inv = o.op(e, B::FDiv, quarter, half_e);
    // ±inf give +inf (cosh) and ±inf (sinh): e^x/2 need not carry them.
    let inf = o.k(e, f64::INFINITY);
    let is_inf = o.cmp(e, P::Oeq, ax, f64::INFINITY);
    if !sinh {
        let r = o.op(e, B::FAdd, half_e, inv);
        return o.sel(e, is_inf, inf, r);
    }
    let far = o.op(e, B::FSub, half_e, inv);
    let far = o.sel(e, is_inf, inf, far);
    let far = with_sign_of(e, far, x);
    // x + x³·q(x²), q from 1/3! to 1/SINH_TERMS!.
    let x2 = o.op(e, B::FMul, x, x);
    let c: Vec<f64> = inverse_factorials(F::SINH_TERMS)
        .into_iter()
        .skip(3)
        .step_by(2)
        .collect();
    let q = super::float_ops::horner(e, o.t, x2, &c);
    let x3 = o.op(e, B::FMul, x2, x);
    let t = o.op(e, B::FMul, x3, q);
    let near = o.op(e, B::FAdd, x, t);
    let small = o.cmp(e, P::Olt, ax, 1.0);
    let r = o.sel(e, small, near, far);
    o.nan_passes(e, x, r)
}

fn tanh<F: Precision>(e: &mut E, x: Value) -> Value {
    let o = Ops::of::<F>(e);
    let ax = o.abs(e, x);
    let two = o.k(e, 2.0);
    let x2 = o.op(e, B::FMul, ax, two);
    let m = F::expm1(e, x2);
    let den = o.op(e, B::FAdd, m, two);
    let r = o.op(e, B::FDiv, m, den);
    let one = o.k(e, 1.0);
    let big = o.cmp(e, P::Ogt, ax, 22.0);
    let r = o.sel(e, big, one, r);
    let r = with_sign_of(e, r, x);
    o.nan_passes(e, x, r)
}

fn asinh<F: Precision>(e: &mut E, x: Value) -> Value {
    let o = Ops::of::<F>(e);
    let ax = o.abs(e, x);
    let one = o.k(e, 1.0);
    let x2 = o.op(e, B::FMul, ax, ax);
    let u = o.op(e, B::FAdd, x2, one);
    let s = F::sqrt(e, u);
    let den = o.op(e, B::FAdd, one, s);
    let q = o.op(e, B::FDiv, x2, den);
    let w = o.op(e, B::FAdd, ax, q);
    let mid = F::log1p(e, w);
    let far = F::log_plus_ln2(e, ax);
    let big = o.cmp(e, P::Ogt, ax, F::FAR);
    let r = o.sel(e, big, far, mid);
    let r = with_sign_of(e, r, x);
    // Zeros, infinities and NaNs are their own.
    let is_zero = o.cmp(e, P::Oeq, ax, 0.0);
    let is_inf = o.cmp(e, P::Oeq, ax, f64::INFINITY);
    let nan = o.is_nan(e, x);
    let own = e.or(is_zero, is_inf);
    let own = e.or(own, nan);
    o.sel(e, own, x, r)
}

fn acosh<F: Precision>(e: &mut E, x: Value) -> Value {
    let o = Ops::of::<F>(e);
    let one = o.k(e, 1.0);
    let two = o.k(e, 2.0);
    let tt = o.op(e, B::FSub, x, one);
    let t2 = o.op(e, B::FMul, tt, two);
    let tsq = o.op(e, B::FMul, tt, tt);
    let u = o.op(e, B::FAdd, t2, tsq);
    let su = F::sqrt(e, u);
    let w = o.op(e, B::FAdd, tt, su);
    let near = F::log1p(e, w);
    let x2 = o.op(e, B::FMul, x, x);
    let v = o.op(e, B::FSub, x2, one);
    let sv = F::sqrt(e, v);
    let d = o.op(e, B::FAdd, x, sv);
    let inv = o.op(e, B::FDiv, one, d);
    let twox = o.op(e, B::FMul, x, two);
    let arg = o.op(e, B::FSub, twox, inv);
    let mid = F::log(e, arg);
    let far = F::log_plus_ln2(e, x);
    let above2 = o.cmp(e, P::Ogt, x, 2.0);
    let r = o.sel(e, above2, mid, near);
    let big = o.cmp(e, P::Ogt, x, F::FAR);
    let r = o.sel(e, big, far, r);
    let is_inf = o.cmp(e, P::Oeq, x, f64::INFINITY);
    let r = o.sel(e, is_inf, x, r);
    let bad = o.cmp(e, P::Ult, x, 1.0);
    let nan = o.nan(e);
    let r = o.sel(e, bad, nan, r);
    o.nan_passes(e, x, r)
}

fn atanh<F: Precision>(e: &mut E, x: Value) -> Value {
    let o = Ops::of::<F>(e);
    let ax = o.abs(e, x);
    let one = o.k(e, 1.0);
    let two = o.k(e, 2.0);
    let half = o.k(e, 0.5);
    let om = o.op(e, B::FSub, one, ax);
    let ax2 = o.op(e, B::FMul, ax, two);
    let sq = o.op(e, B::FMul, ax2, ax);
    let q = o.op(e, B::FDiv, sq, om);
    let w_near = o.op(e, B::FAdd, ax2, q);
    let w_far = o.op(e, B::FDiv, ax2, om);
    let small = o.cmp(e, P::Olt, ax, 0.5);
    let w = o.sel(e, small, w_near, w_far);
    let l = F::log1p(e, w);
    let r = o.op(e, B::FMul, l, half);
    // ±1 give ±∞, beyond 1 NaN.
    let at_one = o.cmp(e, P::Oeq, ax, 1.0);
    let inf = o.k(e, f64::INFINITY);
    let r = o.sel(e, at_one, inf, r);
    let bad = o.cmp(e, P::Ogt, ax, 1.0);
    let nan = o.nan(e);
    let r = o.sel(e, bad, nan, r);
    let r = with_sign_of(e, r, x);
    let is_zero = o.cmp(e, P::Oeq, x, 0.0);
    let r = o.sel(e, is_zero, x, r);
    o.nan_passes(e, x, r)
}
