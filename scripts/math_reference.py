#!/usr/bin/env python3
"""The error of the Vulkan library's math builtins against the correctly rounded result, in
ulps, next to the Intel runtime's (the reference the Vulkan tier compares with), from the
Vulkan tier's files:

    python3 scripts/math_reference.py [--check] DIR...

DIR is a directory of the Vulkan tier's files (`SPIR_XLATE_VULKAN_KEEP=DIR cargo test
--release --test exec_vulkan -- --ignored`; the tier itself runs this script with
--check over its work directory). Fixtures judged: double_erf (erf, erfc), double_gamma
(tgamma, lgamma), double_hyperbolic (the hyperbolic functions and their inverses), pow_root_tanpi (pown, rootn, tanpi of float and double), and the float
library over wide arguments: exp_log_wide (the exponentials, logarithms, powers, roots,
hyperbolic, error and gamma functions) and trig_wide (the trigonometric functions and their
inverses), one function per slot.

The reference is mpmath at 300 bits (Debian python3-mpmath). Each argument is rebuilt from
the kept inputs exactly as the fixture's kernel makes it (clang contracts `a * b + c` into
one rounding, as the kernels are compiled with OpenCL C's default FP_CONTRACT). A result
whose correctly rounded value overflows must be the infinity of its sign, one whose value
is zero must be zero. lgamma is left out where |lgamma| < 1, near its zeros, where OpenCL
does not bound it.

With --check the exit status is 1 when one of our results is further from the correctly
rounded result than OpenCL C's bound for the function (OpenCL C 1.2, table 7.4; `BOUND`
below), naming the function, argument and result.
"""
import math
import os
import struct
import sys

import mpmath

import math_special

mpmath.mp.prec = 300
M = mpmath.mpf

# OpenCL C's bounds in ulps (OpenCL C 1.2, table 7.4), the same for float and double.
BOUND = {"erf": 16, "erfc": 16, "tgamma": 16, "lgamma": None, "pown": 16, "rootn": 16,
         "tanpi": 6, "exp": 3, "exp2": 3, "exp10": 3, "expm1": 3, "log": 3, "log2": 3,
         "log1p": 2, "pow": 16, "cbrt": 2, "rsqrt": 2, "hypot": 4, "sinh": 4, "cosh": 4,
         "tanh": 5, "asinh": 4, "acosh": 4, "atanh": 5, "sin": 4, "cos": 4, "tan": 5,
         "sinpi": 4, "cospi": 4, "asin": 4, "acos": 4, "atan": 5, "atan2": 6, "atan2pi": 6,
         "asinpi": 5, "acospi": 5, "atanpi": 5}
# (significand bits, smallest normal exponent, largest finite) of float and double.
FORMAT = {"f": (24, -126, (2 - 2.0**-23) * 2.0**127), "d": (53, -1022, 1.7976931348623157e308)}


def read(path, fmt):
    data = open(path, "rb").read()
    return struct.unpack(f"<{len(data) // struct.calcsize(fmt)}{fmt}", data)


def as_double(bits):
    return struct.unpack("<d", struct.pack("<Q", bits & (2**64 - 1)))[0]


def as_float(bits):
    return struct.unpack("<f", struct.pack("<I", bits & (2**32 - 1)))[0]


def to_float(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def wide(b):
    e = min(max((b >> 52) & 0x7FF, 1), 2046)
    return as_double((b & 0x800FFFFFFFFFFFFF) | (e << 52))


def wide_float(b):
    fb = (b >> 11) & 0xFFFFFFFF
    e = min(max((fb >> 23) & 0xFF, 1), 254)
    return as_float((fb & 0x807FFFFF) | (e << 23))


def c_rem(a, b):
    """C's `%`: the quotient truncated toward zero."""
    return int(math.fmod(a, b))


def fma(a, b, c):
    return float(M(a) * M(b) + M(c))


def contracted(a, b, c):
    """a * b + c as OpenCL C lets a device compute the kernel's expression (clang contracts
    it): fused or as a product and a sum, each rounded; both are judged, the nearer counts."""
    return [(fma(a, b, c),), (a * b + c,)]


def double_erf(i, ins):
    xb, f = ins["arg1.in"], ins["arg2.in"]
    x = wide(xb[i])
    return [("erf", (x,)), ("erfc", (x if abs(x) < 26.0 else 1.0 / x,)), ("erf", (f[i],)),
            ("erfc", (f[i],)), ("erf", (f[i] * 0.1,)), ("erfc", (f[i] * 0.1,))]


def double_gamma(i, ins):
    v, x = ins["arg2.in"][i], wide(ins["arg3.in"][i])
    return [("tgamma", (v,)), ("tgamma", contracted(v, 0.05, 0.001)),
            ("tgamma", contracted(-abs(v), 0.1, -0.25)), ("lgamma", (v,)), ("lgamma", (x,)),
            None, None, ("tgamma", (x,))]


def pow_root_tanpi(i, ins, fmt):
    b, n, v = ins["arg1.in"][i], ins["arg2.in"][i], ins["arg3.in"][i]
    odd = (3 if c_rem(n, 7) == 0 else c_rem(n, 7)) | 1
    root = 2 if n == 0 else n
    if fmt == "f":
        x = wide_float(b)
        return [("pown", (x, c_rem(n, 5))), ("pown", (as_float(0x3F800000 + n * 4099), n * 50)),
                ("rootn", (x, odd)), ("rootn", (abs(x), root)), ("tanpi", (to_float(v),)),
                ("tanpi", (as_float(0x3F000000 + n),)),
                ("tanpi", (as_float(0x40200000 + n * 3),)), ("tanpi", (x,))]
    x = wide(b)
    return [("pown", (x, c_rem(n, 9))),
            ("pown", (as_double(0x3FF0000000000000 + n * 1000003), n * 40000)),
            ("rootn", (x, odd)), ("rootn", (abs(x), root)), ("tanpi", (v,)),
            ("tanpi", (as_double(0x3FE0000000000000 + n),)),
            ("tanpi", (as_double(0x4004000000000000 + n * 12345),)), ("tanpi", (x,))]


def f32(x):
    """x rounded to float (a float product, quotient or sum computed in double and rounded
    once is the correctly rounded float result: double has more than 2·24 + 2 bits)."""
    return to_float(x)


def normal_float(b):
    e = min(max((b >> 23) & 0xFF, 1), 254)
    return as_float((b & 0x807FFFFF) | (e << 23))


def exp_log_wide(i, ins):
    x, v, k = normal_float(ins["arg1.in"][i]), ins["arg2.in"][i], ins["arg3.in"][i]
    return [("exp", (f32(v * 3.0),)), ("exp2", (f32(v * 4.0),)), ("exp10", (v,)),
            ("erfc", (f32(v * f32(0.3)),)), ("log", (abs(x),)), ("log2", (abs(x),)),
            None,  # log10 + logb + ilogb: a sum of three
            ("log1p", (f32(v * f32(0.03)),)),
            ("pow", (f32(abs(v) * f32(0.3)), f32(v * f32(0.7)))),
            ("pown", (f32(v * f32(0.7)), k * 3)), ("rootn", (v, 3 if k == 0 else k)),
            ("cbrt", (x,)), ("rsqrt", (abs(x),)), ("hypot", (x, v)),
            ("sinh", (f32(v * f32(0.3)),)), ("cosh", (f32(v * f32(0.2)),)),
            ("expm1", (f32(v * f32(0.05)),)), ("tgamma", (f32(v * f32(0.2)),)),
            ("erf", (f32(v * f32(0.1)),)), ("lgamma", (abs(x),)), ("tanh", (f32(v * f32(0.3)),)),
            ("asinh", (x,)), ("acosh", (f32(abs(v) + 1.0),)), ("atanh", (f32(v / 31.0),))]


def double_hyperbolic(i, ins):
    x, v = wide(ins["arg1.in"][i]), ins["arg2.in"][i]
    return [("sinh", (v * 0.04,)), ("sinh", (v,)), ("cosh", (v * 0.04,)), ("cosh", (v * 20.0,)),
            ("tanh", (v * 0.1,)), ("asinh", (x,)), ("asinh", (v * 0.05,)),
            ("acosh", contracted(abs(v), 0.05, 1.0)), ("acosh", (abs(x) + 1.0,)),
            ("atanh", (v / 31.0,)), ("atanh", (v * 0.0333,)), ("sinh", (x,))]


def trig_wide(i, ins):
    x, v = normal_float(ins["arg1.in"][i]), ins["arg2.in"][i]
    return [("sin", (x,)), ("cos", (x,)), ("tan", (x,)), ("sin", (f32(v * 100.0),)),
            ("cos", (f32(v * 100.0),)), ("sinpi", (x,)), ("cospi", (v,)),
            ("tanpi", (f32(v * f32(0.1)),)), ("asin", (f32(v / 8.0),)),
            ("acos", (f32(v / 8.0),)), ("atan", (x,)), ("atan2", (v, x)),
            ("atan2pi", (x, v)), ("asinpi", (f32(v / 9.0),)), ("acospi", (f32(v / 9.0),)),
            ("atanpi", (v,))]


# (fixture, kernel) -> (output argument, format, inputs: {file suffix: struct format},
# cases(i, ins): the (function, arguments) of each of work-item i's results, in order)
POW_ROOT_TANPI_INPUTS = {"arg1.in": "Q", "arg2.in": "i", "arg3.in": "d"}
KERNELS = {
    ("double_erf", "double_erf"): ("arg0", "d", {"arg1.in": "Q", "arg2.in": "d"}, double_erf),
    ("double_gamma", "double_gamma"): ("arg0", "d", {"arg2.in": "d", "arg3.in": "Q"},
                                       double_gamma),
    ("pow_root_tanpi", "pow_root_tanpi"): (
        "arg0", "f", POW_ROOT_TANPI_INPUTS, lambda i, ins: pow_root_tanpi(i, ins, "f")),
    ("pow_root_tanpi", "pow_root_tanpi_double"): (
        "arg0", "d", POW_ROOT_TANPI_INPUTS, lambda i, ins: pow_root_tanpi(i, ins, "d")),
    ("exp_log_wide", "exp_log_wide"): (
        "arg0", "f", {"arg1.in": "I", "arg2.in": "f", "arg3.in": "i"}, exp_log_wide),
    ("trig_wide", "trig_wide"): ("arg0", "f", {"arg1.in": "I", "arg2.in": "f"}, trig_wide),
    ("double_hyperbolic", "double_hyperbolic"): (
        "arg0", "d", {"arg1.in": "Q", "arg2.in": "d"}, double_hyperbolic),
}


def _positive(f):
    return lambda a: f(a) if a > 0 else None


def _log1p(a):
    return mpmath.log1p(a) if a > -1 else None


def _cbrt(a):
    r = mpmath.cbrt(abs(a))
    return -r if a < 0 else r


# The functions of one argument: the exact value, or None where it is not judged (poles,
# arguments outside the domain, whose NaN or infinity is the special-value tests' business).
ONE_ARGUMENT = {
    "exp": mpmath.exp, "exp2": lambda a: mpmath.power(2, a),
    "exp10": lambda a: mpmath.power(10, a), "expm1": mpmath.expm1,
    "log": _positive(mpmath.log), "log2": _positive(lambda a: mpmath.log(a, 2)),
    "log1p": _log1p, "cbrt": _cbrt, "rsqrt": _positive(lambda a: 1 / mpmath.sqrt(a)),
    "sinh": mpmath.sinh, "cosh": mpmath.cosh, "tanh": mpmath.tanh, "asinh": mpmath.asinh,
    "acosh": lambda a: mpmath.acosh(a) if a >= 1 else None,
    "atanh": lambda a: mpmath.atanh(a) if abs(a) < 1 else None,
    "sin": mpmath.sin, "cos": mpmath.cos, "tan": mpmath.tan,
    "asin": lambda a: mpmath.asin(a) if abs(a) <= 1 else None,
    "acos": lambda a: mpmath.acos(a) if abs(a) <= 1 else None,
    "atan": mpmath.atan, "atanpi": lambda a: mpmath.atan(a) / mpmath.pi,
    "asinpi": lambda a: mpmath.asin(a) / mpmath.pi if abs(a) <= 1 else None,
    "acospi": lambda a: mpmath.acos(a) / mpmath.pi if abs(a) <= 1 else None,
}


def reference(fn, args):
    """The exact value (to 300 bits), or None where it is not a number or not judged."""
    a = M(args[0])
    try:
        if fn == "erf":
            return mpmath.erf(a)
        if fn == "erfc":
            return mpmath.erfc(a)
        if fn == "tgamma":
            return mpmath.gamma(a)
        if fn == "lgamma":
            r = mpmath.loggamma(a).real
            return r if abs(r) >= 1 else None
        if fn == "pown":
            n = args[1]
            if a == 0:
                return None if n < 0 else (M(1) if n == 0 else M(0))
            return a**n
        if fn == "rootn":
            n = args[1]
            if a == 0 or (a < 0 and n % 2 == 0):
                return None
            r = mpmath.root(abs(a), n) if n > 0 else 1 / mpmath.root(abs(a), -n)
            return -r if a < 0 else r
        if fn in ONE_ARGUMENT:
            return ONE_ARGUMENT[fn](a)
        if fn == "pow":
            b = M(args[1])
            if a == 0 or (a < 0 and b != mpmath.floor(b)):
                return None
            return mpmath.power(a, b)
        if fn == "hypot":
            return mpmath.hypot(a, M(args[1]))
        if fn in ("atan2", "atan2pi"):
            if a == 0 and M(args[1]) == 0:
                return None  # signed zeros' cases: their own tests
            r = mpmath.atan2(a, M(args[1]))
            return r / mpmath.pi if fn == "atan2pi" else r
        if fn in ("sinpi", "cospi"):
            # Exactly: an integer or half-integer argument gives 0 or ±1.
            return mpmath.sinpi(a) if fn == "sinpi" else mpmath.cospi(a)
        if fn == "tanpi":
            # Exactly: tanpi of an integer is 0, of a half-integer a pole (not judged).
            if a == mpmath.floor(a):
                return M(0)
            if 2 * a == mpmath.floor(2 * a):
                return None
            # mpmath reduces the argument exactly (no a - 2k of a tiny a).
            return mpmath.sinpi(a) / mpmath.cospi(a)
    except (ValueError, ZeroDivisionError):
        return None
    return None


def error(got, ref, fmt):
    """A result's distance from the correctly rounded result in ulps of the format
    (infinite where its class is wrong: NaN, infinite or not zero where it should not be)."""
    bits, emin, top = FORMAT[fmt]
    if math.isnan(got):
        return math.inf
    if ref == 0:
        return 0.0 if got == 0 else math.inf
    ulp_top = 2.0 ** (math.floor(math.log2(top)) - bits + 1)
    if abs(ref) >= M(top) + M(ulp_top) / 2:
        return 0.0 if math.isinf(got) and (got > 0) == (ref > 0) else math.inf
    if math.isinf(got):
        return math.inf
    e = max(int(mpmath.floor(mpmath.log(abs(ref), 2))), emin)
    return float(abs(M(got) - ref) / mpmath.ldexp(1, e - bits + 1))


def judge(dirname, check):
    """(function, format, who) -> largest error; and the results beyond OpenCL's bound."""
    worst, beyond = {}, []
    names = sorted(os.listdir(dirname))
    for (fixture, kernel), (arg, fmt, inputs, cases) in KERNELS.items():
        # The tier's files: SHAPE.FIXTURE.KERNEL.argN.out / .expected / .in.
        tag = f".{fixture}.{kernel}."
        bases = sorted({n[: n.index(tag) + len(tag)] for n in names
                        if tag in n and n.endswith(arg + ".out") and not n.startswith("clspv.")})
        for base in bases:
            path = os.path.join(dirname, base)
            ins = {k: read(path + k, f) for k, f in inputs.items()}
            ours = read(path + arg + ".out", fmt)
            intel = read(path + arg + ".expected", fmt)
            count = len(next(iter(ins.values())))
            per = len(ours) // count
            for i in range(count):
                for k, case in enumerate(cases(i, ins)):
                    if case is None:
                        continue
                    fn, alternatives = case
                    # A list: the arguments each way the device may have computed them.
                    if not isinstance(alternatives, list):
                        alternatives = [alternatives]
                    refs = [(args, reference(fn, args)) for args in alternatives]
                    refs = [(a, r) for a, r in refs if r is not None]
                    if not refs:
                        continue
                    slot = per * i + k
                    for who, got in [("ours", ours[slot]), ("Intel", intel[slot])]:
                        u, args, ref = min((error(got, r, fmt), a, r) for a, r in refs)
                        key = (fn, fmt, who)
                        worst[key] = max(worst.get(key, 0.0), u)
                        bound = BOUND[fn]
                        if who == "ours" and check and bound is not None and u > bound:
                            beyond.append(f"{base}{arg}[{slot}]: {fn}{args} = {got!r}, "
                                          f"correctly rounded {float(ref)!r} ({u:.2f} ulp, "
                                          f"OpenCL's bound {bound})")
    special_worst, special_beyond = math_special.judge(dirname, names, check)
    return {**worst, **special_worst}, beyond + special_beyond


def main():
    argv = sys.argv[1:]
    check = "--check" in argv
    dirs = [a for a in argv if a != "--check"]
    if not dirs:
        sys.exit(__doc__)
    worst, beyond = {}, []
    for d in dirs:
        w, b = judge(d, check)
        beyond += b
        for k, u in w.items():
            worst[k] = max(worst.get(k, 0.0), u)
    print("largest error against the correctly rounded result (ulps):")
    for fn in BOUND:
        for fmt, name in [("f", "float"), ("d", "double")]:
            row = [f"{who} {worst[(fn, fmt, who)]:.2f}" for who in ["ours", "Intel"]
                   if (fn, fmt, who) in worst]
            if row:
                bound = f"{BOUND[fn]}" if BOUND[fn] is not None else "none"
                print(f"  {fn} ({name}): " + ", ".join(row) + f"; OpenCL's bound {bound}")
    special = sorted({fn for fn, fmt, _ in worst if fmt == "special"})
    if special:
        print("special values and every float builtin (tests/kernels/math_special.cl; "
              "inf: a wrong NaN, infinity, zero or sign):")
        for fn in special:
            row = [f"{who} {worst[(fn, 'special', who)]:.2f}" for who in ["ours", "Intel"]
                   if (fn, "special", who) in worst]
            print(f"  {fn}: " + ", ".join(row) + f"; OpenCL's bound {math_special.bound_words(fn)}")
    if beyond:
        print(f"{len(beyond)} results beyond OpenCL's bound:")
        for line in beyond[:40]:
            print("  " + line)
        sys.exit(1)


if __name__ == "__main__":
    main()
