#!/usr/bin/env python3
"""Write src/vulkan/library/fits.rs: the polynomial coefficients of the float math library
(src/vulkan/library/erf_float.rs, gamma_float.rs) that no closed form gives, computed with
mpmath (Debian python3-mpmath) at 60 digits.

    python3 scripts/float_fits.py          # rewrite the file
    python3 scripts/float_fits.py --check  # exit 1 if the file is not what this writes

* erfc(x) for x >= 1 is e^(-x^2) G(1/x) / x with G(t) = (1/t) e^(1/t^2) erfc(1/t), smooth and
  near 1/sqrt(pi): G is fitted (mpmath.chebyfit, near-minimax) in u = (t - mid)/half over
  [-1, 1] on two intervals of t, [0.09, 0.5] (x from 2 to 11) and [0.5, 1] (x from 1 to 2).
* log Gamma(2 + z) = (1 - gamma) z + sum_{k>=2} (-1)^k (zeta(k) - 1) z^k / k, |z| <= 1/2:
  the series' coefficients to k = 20.
"""
import os
import sys

import mpmath as mp

mp.mp.dps = 60
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "vulkan", "library", "fits.rs")


def g(t):
    return (1 / t) * mp.exp(1 / t**2) * mp.erfc(1 / t)


def fit(a, b, n):
    mid, half = (a + b) / 2, (b - a) / 2
    coeffs, err = mp.chebyfit(lambda u: g(mid + half * u), [-1, 1], n, error=True)
    # chebyfit lists the highest power first; the library takes the constant term first.
    return mid, half, [float(c) for c in reversed(coeffs)], float(err / g(mp.mpf(b)))


def rust_list(xs):
    return ",\n".join(f"    {x!r}" for x in xs)


def render():
    parts = [
        "//! Coefficients of the float math library, written by scripts/float_fits.py (mpmath);",
        "//! do not edit: run the script. What each fits and how is said there.",
        "",
    ]
    for name, a, b, n in (("ERFC_FAR", 0.09, 0.5, 10), ("ERFC_MID", 0.5, 1.0, 10)):
        mid, half, cs, err = fit(mp.mpf(a), mp.mpf(b), n)
        parts += [
            f"/// G(t) for t in [{a}, {b}], in u = (t - {float(mid)!r}) / {float(half)!r}",
            f"/// (relative error {err:.1e}); the constant term first.",
            "#[rustfmt::skip]",
            f"pub(super) const {name}: (f64, f64, [f64; {n}]) = ({float(mid)!r}, "
            f"{float(half)!r}, [",
            rust_list(cs) + ",",
            "]);",
            "",
        ]
    lg = [1 - mp.euler] + [(-1) ** k * (mp.zeta(k) - 1) / k for k in range(2, 21)]
    parts += [
        "/// log Gamma(2 + z) = sum c_k z^k, k = 1..20 (c_1 first).",
        "#[rustfmt::skip]",
        f"pub(super) const LGAMMA_AT_2: [f64; {len(lg)}] = [",
        rust_list([float(c) for c in lg]) + ",",
        "];",
        "",
    ]
    return "\n".join(parts).rstrip("\n") + "\n"


def main():
    text = render()
    if "--check" in sys.argv:
        sys.exit(0 if open(OUT).read() == text else 1)
    with open(OUT, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
