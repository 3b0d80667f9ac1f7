//! Argument reduction of double for the trigonometric functions (`trig_double.rs`): x to
//! r = rh + rl in [-π/4, π/4] (a little more at worst) and a quadrant q.
//!
//! * Below 2^20, Cody–Waite with π/2 in four parts (the first three of 33 bits, exact times
//!   the quotient), the differences kept in double-double.
//! * Above, Payne–Hanek in integers: the 53-bit significand times a 192-bit window of 2/π's
//!   bits chosen by the exponent (a table in Private memory), exactly, in 32-bit limbs; the
//!   product's top two bits below the multiples of 4 are the quadrant, the next 190 the
//!   fraction, rounded to the nearest quadrant, normalized from its leading limb (so a
//!   fraction that cancels to 2^-64 still has 64 bits) and multiplied by π/2 in double-double.
//! * The `*pi` forms reduce exactly (x − k/2 is exact), then r = f·π in double-double.
//!
//! With the small helpers both files use (constants, integer casts, double-double negation).

use crate::ir::GlslOp as G;
use crate::ir::Primitive as S;

use crate::ir::{self, BinaryOp as B, CastOp, Constant, ConstantKind, ConvertKind};
use crate::ir::{FloatPredicate as P, Handle, IntPredicate, Op, Sign, Type, Value};

use super::double::{fast_two_sum, mul_d, two_prod, two_sum, Dd};
use super::E;
use crate::vulkan::emit::plain;

/// 2/π's bits after the binary point in 32-bit words, most significant first, after 64 zero
/// bits (so that a window may start before the binary point). Computed from Machin's
/// formula to 1,400 bits (the unit test `two_over_pi_bits_are_machins` recomputes them).
pub(super) const TWO_OVER_PI_BITS: [u32; 44] = [
    0, 0, 0xA2F9836E, 0x4E441529, 0xFC2757D1, 0xF534DDC0, 0xDB629599, 0x3C439041, 0xFE5163AB,
    0xDEBBC561, 0xB7246E3A, 0x424DD2E0, 0x06492EEA, 0x09D1921C, 0xFE1DEB1C, 0xB129A73E, 0xE88235F5,
    0x2EBB4484, 0xE99C7026, 0xB45F7E41, 0x3991D639, 0x835339F4, 0x9C845F8B, 0xBDF9283B, 0x1FF897FF,
    0xDE05980F, 0xEF2F118B, 0x5A0A6D1F, 0x6D367ECF, 0x27CB09B7, 0x4F463F66, 0x9E5FEA2D, 0x7527BAC7,
    0xEBE5F17B, 0x3D0739F7, 0x8A5292EA, 0x6BFB5FB1, 0x1F8D5D08, 0x56033046, 0xFC7B6BAB, 0xF0CFBC20,
    0x9AF4361D, 0xA9E39161, 0x5EE61B08,
];
/// π/2 in four parts (the first three of 33 significant bits).
const PIO2_PARTS: [f64; 4] = [
    f64::from_bits(0x3FF9_21FB_5440_0000),
    f64::from_bits(0x3DD0_B461_1A60_0000),
    f64::from_bits(0x3BA3_198A_2E00_0000),
    f64::from_bits(0x397B_839A_2520_49C1),
];
/// π as a double-double.
pub(super) const PI: (f64, f64) = (
    f64::from_bits(0x4009_21fb_5444_2d18),
    f64::from_bits(0x3ca1_a626_3314_5c07),
);
/// π/2 as a double-double.
pub(super) const PIO2: (f64, f64) = (
    f64::from_bits(0x3ff9_21fb_5444_2d18),
    f64::from_bits(0x3c91_a626_3314_5c07),
);

pub(super) fn i32t(e: &mut E) -> Handle<Type> {
    e.b.l.out.int_type(32)
}

pub(super) fn u64t(e: &mut E) -> Handle<Type> {
    e.b.l.out.int_type(64)
}

pub(super) fn k32(e: &mut E, v: i64) -> Value {
    let t = i32t(e);
    e.splat(t, ConstantKind::Int(v as u32 as u64))
}

pub(super) fn k64(e: &mut E, v: u64) -> Value {
    let t = u64t(e);
    e.splat(t, ConstantKind::Int(v))
}

pub(super) fn dd_const(e: &mut E, k: (f64, f64)) -> Dd {
    (e.dconst(k.0), e.dconst(k.1))
}

pub(super) fn neg_dd(e: &mut E, x: Dd) -> Dd {
    let dt = e.dt();
    (e.b.push(dt, Op::FNeg(x.0)), e.b.push(dt, Op::FNeg(x.1)))
}

pub(super) fn to_i32(e: &mut E, d: Value) -> Value {
    let t = i32t(e);
    e.b.push(
        t,
        Op::Builtin {
            builtin: plain(ConvertKind::Float, ConvertKind::Int(Sign::Signed)),
            args: vec![d],
        },
    )
}

pub(super) fn u_to_double(e: &mut E, v: Value) -> Value {
    let dt = e.dt();
    e.b.push(
        dt,
        Op::Builtin {
            builtin: plain(ConvertKind::Int(Sign::Unsigned), ConvertKind::Float),
            args: vec![v],
        },
    )
}

/// x = q·π/2 + r.
pub(super) fn reduce(e: &mut E, x: Value) -> (Dd, Value) {
    let dt = e.dt();
    let i32t = i32t(e);
    // Cody–Waite, the differences in double-double.
    let two_over_pi = e.dconst(2.0 / std::f64::consts::PI);
    let t = e.dbin(B::FMul, x, two_over_pi);
    let k = e.dglsl(G::RoundEven, t);
    let p = PIO2_PARTS.map(|p| e.dconst(p));
    let kp0 = e.dbin(B::FMul, k, p[0]);
    let a = e.dbin(B::FSub, x, kp0);
    let kp1 = e.dbin(B::FMul, k, p[1]);
    let nkp1 = e.b.push(dt, Op::FNeg(kp1));
    let (h, l) = two_sum(e, a, nkp1);
    let kp2 = e.dbin(B::FMul, k, p[2]);
    let nkp2 = e.b.push(dt, Op::FNeg(kp2));
    let (h, l2) = two_sum(e, h, nkp2);
    let l = e.dbin(B::FAdd, l, l2);
    let kp3 = e.dbin(B::FMul, k, p[3]);
    let l = e.dbin(B::FSub, l, kp3);
    let (sh, sl) = fast_two_sum(e, h, l);
    let sq = to_i32(e, k);
    let ((bh, bl), bq) = payne_hanek(e, x);
    let ax = e.dglsl(G::FAbs, x);
    let lim = e.dconst(1_048_576.0);
    let small = e.dcmp(P::Olt, ax, lim);
    let rh = e.dsel(small, sh, bh);
    let rl = e.dsel(small, sl, bl);
    let q = e.select(i32t, small, sq, bq);
    ((rh, rl), q)
}

/// The Private table of 2/π's bits (one per module).
fn two_over_pi_table(e: &mut E) -> Handle<ir::Global> {
    const NAME: &str = "two_over_pi_bits";
    if let Some((h, _)) = e.b.l.out.globals.iter().find(|(_, g)| g.name == NAME) {
        return h;
    }
    let out = &mut e.b.l.out;
    let u32t = out.int_type(32);
    let len = TWO_OVER_PI_BITS.len() as u64;
    let at = out.ty(Type::Array { elem: u32t, len });
    let words: Vec<Handle<Constant>> = TWO_OVER_PI_BITS
        .iter()
        .map(|&w| out.int_const(u32t, u64::from(w)))
        .collect();
    let init = out.constant(Constant {
        ty: at,
        kind: ConstantKind::Composite(words),
    });
    out.globals.append(ir::Global {
        name: NAME.into(),
        ty: at,
        space: ir::AddressSpace::Private,
        init: Some(init),
        is_constant: true,
        align: None,
        linkage: ir::Linkage::Internal,
    })
}

/// Word `i` (an i32 within the table) of the table, widened to 64 bits.
fn table_word(e: &mut E, g: Handle<ir::Global>, i: Value) -> Value {
    let (pointee, space) = (e.b.l.out.globals[g].ty, e.b.l.out.globals[g].space);
    let pt = e.b.l.out.ty(Type::Pointer { pointee, space });
    let addr = e.b.l.out.constant(Constant {
        ty: pt,
        kind: ConstantKind::GlobalAddress(g),
    });
    let u32t = e.b.l.out.int_type(32);
    let ept = e.b.l.out.ty(Type::Pointer {
        pointee: u32t,
        space,
    });
    let zero = e.b.int_const(32, 0);
    let p = e.b.push(
        ept,
        Op::Gep {
            inbounds: true,
            base: Value::Const(addr),
            indices: vec![zero, i],
        },
    );
    let w = e.b.push(
        u32t,
        Op::Load {
            ptr: p,
            align: None,
            volatile: false,
        },
    );
    let u64t = u64t(e);
    e.cast(CastOp::ZExt, u64t, w)
}

/// Payne–Hanek reduction of any finite x (the result is used for |x| ≥ 2^20).
fn payne_hanek(e: &mut E, x: Value) -> (Dd, Value) {
    let i32t = i32t(e);
    let u64t = u64t(e);
    let bt = e.b.l.out.ty(Type::Bool);
    let ax = e.dglsl(G::FAbs, x);
    let bits = e.cast(CastOp::Bitcast, u64t, ax);
    let c52 = k64(e, 52);
    let ef = e.bin(B::LShr, u64t, bits, c52);
    let ef = e.cast(CastOp::Trunc, i32t, ef);
    let mmask = k64(e, (1u64 << 52) - 1);
    let lead = k64(e, 1u64 << 52);
    let m = e.bin(B::And, u64t, bits, mmask);
    let m = e.bin(B::Or, u64t, m, lead);
    // x = m·2^E, E = ef − 1075; the window starts at 2/π's bit E − 2 (64 zero bits first).
    let off = k32(e, 64 - 2 - 1075);
    let t0 = e.bin(B::Add, i32t, ef, off);
    let lo_lim = k32(e, 0);
    let hi_lim = k32(e, 1034);
    let t0 = e.glsl(G::SClamp, i32t, vec![t0, lo_lim, hi_lim]);
    let c5 = k32(e, 5);
    let c31 = k32(e, 31);
    let qw = e.bin(B::AShr, i32t, t0, c5);
    let s = e.bin(B::And, i32t, t0, c31);
    let s64 = e.cast(CastOp::ZExt, u64t, s);
    let c32 = k64(e, 32);
    let back = e.bin(B::Sub, u64t, c32, s64);
    let mask32 = k64(e, 0xffff_ffff);
    let table = two_over_pi_table(e);
    // The window's six limbs, most significant first: bits [t0 + 32j, t0 + 32j + 32).
    let mut words = Vec::new();
    for j in 0..7 {
        let jj = k32(e, j);
        let i = e.bin(B::Add, i32t, qw, jj);
        words.push(table_word(e, table, i));
    }
    let mut w = Vec::new();
    for j in 0..6 {
        let pair = e.bin(B::Shl, u64t, words[j], c32);
        let pair = e.bin(B::Or, u64t, pair, words[j + 1]);
        let limb = e.bin(B::LShr, u64t, pair, back);
        w.push(e.bin(B::And, u64t, limb, mask32));
    }
    // m·W mod 2^192 in six 32-bit limbs (index 0 the lowest), from 32×32-bit products.
    let ml = e.bin(B::And, u64t, m, mask32);
    let mh = e.bin(B::LShr, u64t, m, c32);
    let zero64 = k64(e, 0);
    let mut acc = vec![zero64; 6];
    let put = |e: &mut E, acc: &mut Vec<Value>, p: Value, at: usize| {
        let lo = e.bin(B::And, u64t, p, mask32);
        let hi = e.bin(B::LShr, u64t, p, c32);
        if at < 6 {
            acc[at] = e.bin(B::Add, u64t, acc[at], lo);
        }
        if at + 1 < 6 {
            acc[at + 1] = e.bin(B::Add, u64t, acc[at + 1], hi);
        }
    };
    for (j, &wj) in w.iter().enumerate() {
        let at = 5 - j;
        let p = e.bin(B::Mul, u64t, ml, wj);
        put(e, &mut acc, p, at);
        if at + 1 < 6 {
            let p = e.bin(B::Mul, u64t, mh, wj);
            put(e, &mut acc, p, at + 1);
        }
    }
    let mut f = Vec::new();
    let mut carry = zero64;
    for a in acc {
        let v = e.bin(B::Add, u64t, a, carry);
        carry = e.bin(B::LShr, u64t, v, c32);
        f.push(e.bin(B::And, u64t, v, mask32));
    }
    // Quadrant bits 191..190, the fraction below; rounded to the nearest quadrant.
    let c30 = k64(e, 30);
    let c29 = k64(e, 29);
    let one64 = k64(e, 1);
    let three64 = k64(e, 3);
    let quad = e.bin(B::LShr, u64t, f[5], c30);
    let half = e.bin(B::LShr, u64t, f[5], c29);
    let half = e.bin(B::And, u64t, half, one64);
    let up = e.icmp(IntPredicate::Ne, bt, half, zero64);
    let m30 = k64(e, (1 << 30) - 1);
    f[5] = e.bin(B::And, u64t, f[5], m30);
    // Rounded up: the magnitude 2^190 − F, by limbs (two's complement).
    let mut g = Vec::new();
    let mut c = one64;
    for (i, &fi) in f.iter().enumerate() {
        let mask = if i == 5 { m30 } else { mask32 };
        let inv = e.bin(B::Xor, u64t, fi, mask);
        let v = e.bin(B::Add, u64t, inv, c);
        c = e.bin(B::LShr, u64t, v, c32);
        let v = e.bin(B::And, u64t, v, mask);
        g.push(e.select(u64t, up, v, fi));
    }
    let q = e.bin(B::Add, u64t, quad, half);
    let q = e.bin(B::And, u64t, q, three64);
    let q = e.cast(CastOp::Trunc, i32t, q);
    let (fh, fl) = limbs_to_dd(e, &g);
    let dt = e.dt();
    // Rounded up: the fraction is negative.
    let nfh = e.b.push(dt, Op::FNeg(fh));
    let nfl = e.b.push(dt, Op::FNeg(fl));
    let fh = e.dsel(up, nfh, fh);
    let fl = e.dsel(up, nfl, fl);
    // r = f·π/2.
    let r = mul_dd(e, (fh, fl), PIO2);
    // x's sign.
    let zd = e.dconst(0.0);
    let neg = e.dcmp(P::Olt, x, zd);
    let nr = neg_dd(e, r);
    let rh = e.dsel(neg, nr.0, r.0);
    let rl = e.dsel(neg, nr.1, r.1);
    let zero = k32(e, 0);
    let nq = e.bin(B::Sub, i32t, zero, q);
    let q = e.select(i32t, neg, nq, q);
    ((rh, rl), q)
}

/// The fraction's limbs `g` (32 bits each, index 0 the lowest, the top one below 2^30) as a
/// double-double of the fraction times 2^-190: the leading non-zero limb (at least limb 2) and
/// the two below it, scaled by its place.
fn limbs_to_dd(e: &mut E, g: &[Value]) -> Dd {
    let i32t = i32t(e);
    let u64t = u64t(e);
    let bt = e.b.l.out.ty(Type::Bool);
    let zero64 = k64(e, 0);
    // The leading limb k (at least 2) and the three from it, as a double-double.
    let mut k = k32(e, 2);
    let (mut a, mut b, mut cc) = (g[2], g[1], g[0]);
    for i in 3..6 {
        let nz = e.icmp(IntPredicate::Ne, bt, g[i], zero64);
        let ki = k32(e, i as i64);
        k = e.select(i32t, nz, ki, k);
        a = e.select(u64t, nz, g[i], a);
        b = e.select(u64t, nz, g[i - 1], b);
        cc = e.select(u64t, nz, g[i - 2], cc);
    }
    let ad = u_to_double(e, a);
    let bd = u_to_double(e, b);
    let cd = u_to_double(e, cc);
    let p64 = e.dconst(2f64.powi(64));
    let p32 = e.dconst(2f64.powi(32));
    let ad = e.dbin(B::FMul, ad, p64);
    let bd = e.dbin(B::FMul, bd, p32);
    let (h, l) = two_sum(e, ad, bd);
    let (h, l2) = two_sum(e, h, cd);
    let l = e.dbin(B::FAdd, l, l2);
    // Scale 2^(32(k − 2) − 190).
    let c32i = k32(e, 32);
    let two = k32(e, 2);
    let km2 = e.bin(B::Sub, i32t, k, two);
    let sc = e.bin(B::Mul, i32t, km2, c32i);
    let c190 = k32(e, 190);
    let sc = e.bin(B::Sub, i32t, sc, c190);
    let i64t = e.b.l.out.int_type(64);
    let sc = e.cast(CastOp::SExt, i64t, sc);
    let bias = e.splat(i64t, ConstantKind::Int(1023));
    let sc = e.bin(B::Add, i64t, sc, bias);
    let c52i = e.splat(i64t, ConstantKind::Int(52));
    let sc = e.bin(B::Shl, i64t, sc, c52i);
    let dt = e.dt();
    let scale = e.cast(CastOp::Bitcast, dt, sc);
    let fh = e.dbin(B::FMul, h, scale);
    let fl = e.dbin(B::FMul, l, scale);
    fast_two_sum(e, fh, fl)
}

/// A double-double times a double-double constant.
pub(super) fn mul_dd(e: &mut E, x: Dd, k: (f64, f64)) -> Dd {
    let kh = e.dconst(k.0);
    let kl = e.dconst(k.1);
    let (p, err) = two_prod(e, x.0, kh);
    let a = e.dbin(B::FMul, x.0, kl);
    let b = e.dbin(B::FMul, x.1, kh);
    let err = e.dbin(B::FAdd, err, a);
    let err = e.dbin(B::FAdd, err, b);
    fast_two_sum(e, p, err)
}

/// x = q/2 + f exactly (f in [-¼, ¼]); r = f·π in double-double.
pub(super) fn reduce_pi(e: &mut E, x: Value) -> (Dd, Value) {
    let two = e.dconst(2.0);
    let t = e.dbin(B::FMul, x, two);
    let k = e.dglsl(G::RoundEven, t);
    let half = e.dconst(0.5);
    let kh = e.dbin(B::FMul, k, half);
    let f = e.dbin(B::FSub, x, kh);
    let r = mul_d(e, PI, f);
    // k mod 4 from the double (k may pass 2^31): k − 4·floor(k/4).
    let quarter = e.dconst(0.25);
    let k4 = e.dbin(B::FMul, k, quarter);
    let k4 = e.dglsl(G::Floor, k4);
    let four = e.dconst(4.0);
    let k4 = e.dbin(B::FMul, k4, four);
    let km = e.dbin(B::FSub, k, k4);
    // Infinite x: NaN (f is NaN already); keep q finite.
    let bt = e.b.l.out.ty(Type::Bool);
    let bad = e.spirv(S::IsNan, bt, vec![km]);
    let zd = e.dconst(0.0);
    let km = e.dsel(bad, zd, km);
    (r, to_i32(e, km))
}

#[cfg(test)]
mod tests {
    /// 2/π's bits, recomputed: π by Machin's formula (π = 16 atan(1/5) − 4 atan(1/239)) in
    /// fixed point with 1,536 fraction bits, then 2/π by long division.
    #[test]
    fn two_over_pi_bits_are_machins() {
        const BITS: usize = 1536;
        const LIMBS: usize = BITS / 32 + 2;
        // Fixed-point numbers: little-endian 32-bit limbs, BITS fraction bits.
        type N = Vec<u64>;
        fn div_small(a: &N, d: u64) -> N {
            let mut out = vec![0; a.len()];
            let mut rem = 0u64;
            for i in (0..a.len()).rev() {
                let cur = (rem << 32) | a[i];
                out[i] = cur / d;
                rem = cur % d;
            }
            out
        }
        fn add(a: &N, b: &N) -> N {
            let mut out = vec![0; a.len()];
            let mut c = 0u64;
            for i in 0..a.len() {
                let s = a[i] + b[i] + c;
                out[i] = s & 0xffff_ffff;
                c = s >> 32;
            }
            out
        }
        fn sub(a: &N, b: &N) -> N {
            let mut out = vec![0; a.len()];
            let mut borrow = 0i64;
            for i in 0..a.len() {
                let s = a[i] as i64 - b[i] as i64 - borrow;
                borrow = i64::from(s < 0);
                out[i] = (s + (borrow << 32)) as u64;
            }
            out
        }
        fn mul_small(a: &N, m: u64) -> N {
            let mut out = vec![0; a.len()];
            let mut c = 0u64;
            for i in 0..a.len() {
                let s = a[i] * m + c;
                out[i] = s & 0xffff_ffff;
                c = s >> 32;
            }
            out
        }
        let is_zero = |a: &N| a.iter().all(|&x| x == 0);
        let mut one: N = vec![0; LIMBS];
        one[BITS / 32] = 1;
        // atan(1/n) = Σ (−1)^k / ((2k + 1) n^(2k + 1)).
        let atan_inv = |n: u64| {
            let mut power = div_small(&one, n);
            let (mut pos, mut negs) = (vec![0; LIMBS], vec![0; LIMBS]);
            let mut k = 0u64;
            while !is_zero(&power) {
                let term = div_small(&power, 2 * k + 1);
                if k.is_multiple_of(2) {
                    pos = add(&pos, &term);
                } else {
                    negs = add(&negs, &term);
                }
                power = div_small(&power, n * n);
                k += 1;
            }
            sub(&pos, &negs)
        };
        let pi = sub(&mul_small(&atan_inv(5), 16), &mul_small(&atan_inv(239), 4));
        // 2/π's bits one by one: long division of 2 by π.
        let mut rem = mul_small(&one, 2);
        let mut bits = Vec::new();
        let ge = |a: &N, b: &N| {
            for i in (0..a.len()).rev() {
                if a[i] != b[i] {
                    return a[i] > b[i];
                }
            }
            true
        };
        for _ in 0..32 * (super::TWO_OVER_PI_BITS.len() - 2) {
            rem = mul_small(&rem, 2);
            let bit = ge(&rem, &pi);
            if bit {
                rem = sub(&rem, &pi);
            }
            bits.push(bit);
        }
        // 2 < π·1 so the first quotient bit (2/π's integer part) is 0: the loop started
        // after it.
        for (w, chunk) in super::TWO_OVER_PI_BITS[2..].iter().zip(bits.chunks(32)) {
            let v = chunk.iter().fold(0u32, |acc, &b| (acc << 1) | u32::from(b));
            assert_eq!(*w, v, "a word of 2/π differs from Machin's");
        }
    }
}
