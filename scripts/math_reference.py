#!/usr/bin/env python3
"""The error of the Vulkan library's double erf, erfc, tgamma and lgamma against the correctly
rounded result, in ulps, next to the Intel runtime's (the reference the Vulkan tier compares
with), from the Vulkan tier's kept files:

    SPIR_XLATE_EXEC_ONLY=double_erf SPIR_XLATE_VULKAN_KEEP=A cargo test --release \
        --features oracles --test exec_vulkan
    SPIR_XLATE_EXEC_ONLY=double_gamma SPIR_XLATE_VULKAN_KEEP=B cargo test ...
    python3 scripts/math_reference.py A B      (or one DIR kept by the whole tier)

The reference is mpmath at 300 bits (pip install mpmath). The arguments are rebuilt from the
kept inputs exactly as the fixtures' kernels make them (clang contracts `a * b + c` into one
rounding, as the kernels are compiled with OpenCL C's default FP_CONTRACT). lgamma is left out
where |lgamma| < 1, near its zeros, where OpenCL does not bound it.
"""
import math
import os
import struct
import sys

import mpmath

mpmath.mp.prec = 300
M = mpmath.mpf


def read(path, fmt):
    data = open(path, "rb").read()
    return struct.unpack(f"<{len(data) // struct.calcsize(fmt)}{fmt}", data)


def wide(b):
    e = min(max((b >> 52) & 0x7FF, 1), 2046)
    return struct.unpack("<d", struct.pack("<Q", (b & 0x800FFFFFFFFFFFFF) | (e << 52)))[0]


def fma(a, b, c):
    return float(M(a) * M(b) + M(c))


def ulps(got, ref):
    r = float(ref)
    if not math.isfinite(got) or not math.isfinite(r) or r == 0:
        return None
    return float(abs(M(got) - ref) / math.ulp(abs(r)))


def cases(dirname, shape):
    """(function, argument, slot) of each compared result, and the kept outputs."""
    out = []
    base = os.path.join(dirname, f"{shape}.double_erf.double_erf.")
    if os.path.exists(base + "arg0.out"):
        xb, f = read(base + "arg1.in", "Q"), read(base + "arg2.in", "d")
        for i in range(len(f)):
            x = wide(xb[i])
            for k, (fn, a) in enumerate(
                [("erf", x), ("erfc", x if abs(x) < 26.0 else 1.0 / x), ("erf", f[i]),
                 ("erfc", f[i]), ("erf", f[i] * 0.1), ("erfc", f[i] * 0.1)]
            ):
                out.append((base, fn, a, 8 * i + k))
    base = os.path.join(dirname, f"{shape}.double_gamma.double_gamma.")
    if os.path.exists(base + "arg0.out"):
        f, xb = read(base + "arg2.in", "d"), read(base + "arg3.in", "Q")
        for i in range(len(f)):
            v, x = f[i], wide(xb[i])
            for k, fn, a in [(0, "tgamma", v), (1, "tgamma", fma(v, 0.05, 0.001)),
                             (2, "tgamma", fma(-abs(v), 0.1, -0.25)), (3, "lgamma", v),
                             (4, "lgamma", x), (7, "tgamma", x)]:
                out.append((base, fn, a, 8 * i + k))
    return out


def reference(fn, a):
    try:
        if fn == "erf":
            return mpmath.erf(M(a))
        if fn == "erfc":
            return mpmath.erfc(M(a))
        if fn == "tgamma":
            return mpmath.gamma(M(a))
        r = mpmath.loggamma(M(a)).real
        return r if abs(r) >= 1 else None
    except (ValueError, ZeroDivisionError):
        return None


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    worst = {}
    for dirname in sys.argv[1:]:
        for shape in ["modern", "legacy", "o0", "legacy-o0", "desc.modern"]:
            measure(dirname, shape, worst)
    print("largest error against the correctly rounded result (ulps):")
    for fn in ["erf", "erfc", "tgamma", "lgamma"]:
        row = [f"{who} {worst[(fn, who)]:.2f}" for who in ["ours", "Intel"] if (fn, who) in worst]
        if row:
            print(f"  {fn}: " + ", ".join(row))


def measure(dirname, shape, worst):
    """The largest errors of one fixture shape's kept results, into `worst`."""
    kept = {}
    for base, fn, a, slot in cases(dirname, shape):
        if base not in kept:
            kept[base] = (read(base + "arg0.out", "d"), read(base + "arg0.expected", "d"))
        ref = reference(fn, a)
        if ref is None or abs(ref) > M(1.7e308):
            continue
        ours, intel = kept[base][0][slot], kept[base][1][slot]
        for who, got in [("ours", ours), ("Intel", intel)]:
            u = ulps(got, ref)
            if u is not None:
                worst[(fn, who)] = max(worst.get((fn, who), 0.0), u)


if __name__ == "__main__":
    main()
