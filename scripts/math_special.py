"""The special-value judge of scripts/math_reference.py: every float and double math builtin
of OpenCL C at the inputs of tests/kernels/math_special.cl and math_special_double.cl (signed
zeros, subnormals, numbers next to 1, integers and half-integers, the thresholds of
overflow, the largest finite, infinities, NaN).

Each result is judged against what OpenCL C fixes: the special values of C99 Annex F (F.9)
and OpenCL C 1.2 section 7.5.1 (NaN, infinities, and zeros with their sign where those
texts give one), exact results for the functions OpenCL requires correctly rounded (0 ulp in
table 7.1: ceil, fdim, fmod, frexp, ldexp, remainder, ...), and otherwise the correctly
rounded result (mpmath) within the function's bound in ulps (OpenCL's table 7.2 for double:
the float bounds, but sqrt correctly rounded). Our results are judged with
subnormals kept (the Vulkan library keeps them, and lavapipe does). A device that does not
report CL_FP_DENORM may flush float subnormals (OpenCL C 1.2 section 7.5.3), as the Intel
runtime's half_ functions do: its results are accepted if they conform with a subnormal
argument taken as a zero of its sign, or are a zero where the conforming result is
subnormal. The half_ functions are judged where their
arguments are finite and in their domain (OpenCL fixes neither their special values nor
their subnormals), by their bound of 8192 ulp; native_ functions have no bound to judge.
"""
import math
import os
import struct
from fractions import Fraction

import mpmath

SPECIAL = [
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x80012345,
    0x00800000, 0x0D800000, 0x1E3CE508, 0x3DCCCCCD, 0x3F000000, 0xBF000000,
    0x3F400000, 0x3F7FFFFF, 0x3F800000, 0xBF800000, 0x3F800001, 0x3FC00000,
    0x40000000, 0xC0000000, 0x40400000, 0xC0400000, 0x40490FDB, 0x40900000,
    0xC0900000, 0x41200000, 0xC2C80000, 0x42B17218, 0xC2CE8F5C, 0x4B800000,
    0xCB800001, 0x501502F9, 0x7149F2CA, 0xF149F2CA, 0x7F7FFFFF, 0xFF7FFFFF,
    0x7F800000, 0xFF800000, 0x7FC00000, 0xBE99999A]
INTEGERS = [0, 1, -1, 2, -2, 3, -3, 4, 5, -5, 7, 8, -8, 10, -10, 16, 31, -31, 100, -100,
            127, -127, 128, 149, -149, 150, -150, 200, -200, 254, 255, 277, -277, 1000, -1000,
            1 << 20, -(1 << 20), 9, -9, 6]
SPECIAL_DOUBLE = [
    0x0000000000000000, 0x8000000000000000, 0x0000000000000001, 0x8000000000000001,
    0x000FFFFFFFFFFFFF, 0x8001234567890ABC, 0x0010000000000000, 0x3BC79CA10C924223,
    0x3FB999999999999A, 0x3FE0000000000000, 0xBFE0000000000000, 0x3FE8000000000000,
    0x3FEFFFFFFFFFFFFF, 0x3FF0000000000000, 0xBFF0000000000000, 0x3FF0000000000001,
    0x3FF8000000000000, 0x4000000000000000, 0xC000000000000000, 0x4008000000000000,
    0xC008000000000000, 0x400921FB54442D18, 0x4012000000000000, 0xC012000000000000,
    0x4024000000000000, 0xC059000000000000, 0x40862E42FEFA39EF, 0xC0874910D52D3051,
    0x4340000000000000, 0xC340000000000001, 0x4415AF1D78B58C40, 0x7E37E43C8800759C,
    0xFE37E43C8800759C, 0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF, 0x7FF0000000000000,
    0xFFF0000000000000, 0x7FF8000000000000, 0xBFD3333333333333, 0x01A56E1FC2F8F359]
INTEGERS_DOUBLE = [0, 1, -1, 2, -2, 3, -3, 4, 5, -5, 7, 8, -8, 10, -10, 16, 31, -31, 100, -100,
                   1023, -1022, 1024, 1074, -1074, 1075, -1075, 2000, -2000, 2046, 2047, 4095,
                   -4095, 53, -53, 1 << 20, 864109573, -864109573, 9, -9]
N = len(SPECIAL)


class Fmt:
    """A floating-point format the judge reads results in: its bits, the fields of its
    numbers, the special inputs of its fixture, and the struct codes of its files."""

    def __init__(self, name, mant, emin, code, icode, special, integers):
        self.name, self.mant, self.emin = name, mant, emin
        self.code, self.icode = code, icode
        self.special, self.integers = special, integers
        self.top = (2 - 2.0**-mant) * 2.0**(-emin + 1)
        self.tiny = 2.0**emin

    def value(self, bits):
        """The number of bit pattern `bits`."""
        return struct.unpack("<" + self.code, struct.pack("<" + self.icode, bits))[0]

    def bits(self, x):
        return struct.unpack("<" + self.icode, struct.pack("<" + self.code, x))[0]


FLOAT = Fmt("float", 23, -126, "f", "I", SPECIAL, INTEGERS)
DOUBLE = Fmt("double", 52, -1022, "d", "Q", SPECIAL_DOUBLE, INTEGERS_DOUBLE)

ONE = ["acos", "acosh", "acospi", "asin", "asinh", "asinpi", "atan", "atanh", "atanpi",
       "cbrt", "ceil", "cos", "cosh", "cospi", "erfc", "erf", "exp", "exp2", "exp10", "expm1",
       "fabs", "floor", "fract", "fract.iptr", "frexp", "lgamma", "lgamma_r", "log", "log2",
       "log10", "log1p", "logb", "modf", "modf.iptr", "rint", "round", "rsqrt", "sin",
       "sincos", "sincos.cos", "sinh", "sinpi", "sqrt", "tan", "tanh", "tanpi", "tgamma",
       "trunc", "half_cos", "half_exp", "half_exp2", "half_exp10", "half_log", "half_log2",
       "half_log10", "half_recip", "half_rsqrt", "half_sin", "half_sqrt", "half_tan"]
TWO = ["atan2", "atan2pi", "copysign", "fdim", "fmax", "fmin", "fmod", "hypot", "ldexp",
       "maxmag", "minmag", "nextafter", "pow", "pown", "powr", "remainder", "remquo", "rootn",
       "fma", "half_divide", "half_powr"]

# OpenCL C 1.2 table 7.1, float, in ulps; 0 is correctly rounded (exact where exact).
BOUND = {"acos": 4, "acosh": 4, "acospi": 5, "asin": 4, "asinh": 4, "asinpi": 5, "atan": 5,
         "atanh": 5, "atanpi": 5, "cbrt": 2, "ceil": 0, "cos": 4, "cosh": 4, "cospi": 4,
         "erfc": 16, "erf": 16, "exp": 3, "exp2": 3, "exp10": 3, "expm1": 3, "fabs": 0,
         "floor": 0, "fract": 0, "fract.iptr": 0, "frexp": 0, "lgamma": None,
         "lgamma_r": None, "log": 3, "log2": 3, "log10": 3, "log1p": 2, "logb": 0, "modf": 0,
         "modf.iptr": 0, "rint": 0, "round": 0, "rsqrt": 2, "sin": 4, "sincos": 4,
         "sincos.cos": 4, "sinh": 4, "sinpi": 4, "sqrt": 3, "tan": 5, "tanh": 5, "tanpi": 6,
         "tgamma": 16, "trunc": 0, "atan2": 6, "atan2pi": 6, "copysign": 0, "fdim": 0,
         "fmax": 0, "fmin": 0, "fmod": 0, "hypot": 4, "ldexp": 0, "maxmag": 0, "minmag": 0,
         "nextafter": 0, "pow": 16, "pown": 16, "powr": 16, "remainder": 0, "remquo": 0,
         "rootn": 16, "fma": 0}
# OpenCL C 1.2 table 7.2: double's bounds are float's, but for a correctly rounded sqrt.
BOUND_DOUBLE = {**BOUND, "sqrt": 0}
HALF_BOUND = 8192
HALF_DOMAIN = {"half_cos": 2.0**16, "half_sin": 2.0**16, "half_tan": 2.0**16}

M = mpmath.mpf
INF = math.inf
NAN = "NaN"          # the result must be a NaN
ANY_ZERO = "zero"    # a zero of either sign
TOP = FLOAT.top
TINY = FLOAT.tiny    # the smallest normal float


def is_int(a):
    return math.isfinite(a) and a == math.floor(a)


def is_odd(a):
    return is_int(a) and abs(a) < 2.0**53 and int(a) % 2 == 1


def signed_zero(like):
    return math.copysign(0.0, like)


def exponent(v, fmt):
    """The binade of the exact nonzero mpf v in `fmt` (its subnormals' below the normals):
    mpmath's binary exponent, exact whatever v's magnitude."""
    return max(int(mpmath.frexp(v)[1]) - 1, fmt.emin)


def round_fraction(v, fmt):
    """An exact rational rounded to the nearest number of `fmt`, ties to even, in integers
    (mpmath's fixed precision would round a sum like 0.1·3 − 2^-1074 first)."""
    if v == 0:
        return 0.0
    a = abs(v)
    e = max(a.numerator.bit_length() - a.denominator.bit_length(), fmt.emin)
    while e > fmt.emin and a < Fraction(2) ** e:
        e -= 1
    while a >= Fraction(2) ** (e + 1):
        e += 1
    q = a / Fraction(2) ** (e - fmt.mant)
    n, rest = divmod(q.numerator, q.denominator)
    if 2 * rest > q.denominator or (2 * rest == q.denominator and n % 2):
        n += 1
    # Past the largest binade (or rounded up out of it): the infinity.
    try:
        r = INF if e > 1 - fmt.emin else math.ldexp(float(n), e - fmt.mant)
    except OverflowError:  # rounded up past the largest binade
        r = INF
    if r > fmt.top:
        r = INF
    return r if v > 0 else -r


def round_float(v, fmt=FLOAT):
    """An exact value (mpf or Fraction) rounded to the nearest number of `fmt`, ties to even;
    the infinity of its sign past the largest finite."""
    if isinstance(v, Fraction):
        return round_fraction(v, fmt)
    v = M(v)
    if v == 0:
        return 0.0
    if mpmath.isinf(v):
        return math.copysign(INF, v)
    with mpmath.workprec(max(mpmath.mp.prec, 2 * fmt.mant + 20)):
        e = exponent(v, fmt)
        q = mpmath.nint(v / mpmath.ldexp(1, e - fmt.mant))
        r = float(q * mpmath.ldexp(1, e - fmt.mant))
    return r if abs(r) <= fmt.top else math.copysign(INF, r)


def exact_or_none(f):
    try:
        return f()
    except (ValueError, ZeroDivisionError, OverflowError):
        return None


def power_of_zero(x, negative, odd):
    """±0 to a power (C99 F.9.4.4 for pow, OpenCL C 7.5.1 for pown and rootn): an infinity
    for a negative power, a zero for a positive one, x's sign kept by an odd one."""
    if negative:
        return math.copysign(INF, x) if odd else INF
    return x if odd else 0.0


def pow_special(x, y):
    """pow's special values (C99 F.9.4.4); None where the value is a finite number."""
    if y == 0:
        return 1.0
    if x == 1:
        return 1.0
    if math.isnan(x) or math.isnan(y):
        return NAN
    if x == 0:
        return power_of_zero(x, y < 0, is_odd(y))
    if x == -1 and math.isinf(y):
        return 1.0
    if y == -INF:
        return INF if abs(x) < 1 else 0.0
    if y == INF:
        return 0.0 if abs(x) < 1 else INF
    if x == -INF:
        if y < 0:
            return -0.0 if is_odd(y) else 0.0
        return -INF if is_odd(y) else INF
    if x == INF:
        return 0.0 if y < 0 else INF
    if x < 0 and not is_int(y):
        return NAN
    return None


def powr_special(x, y):
    """powr's special values (OpenCL C 1.2 section 7.5.1)."""
    if math.isnan(x) or math.isnan(y) or x < 0:
        return NAN
    if x == 0:
        if y == 0:
            return NAN
        return INF if y < 0 else 0.0
    if math.isinf(x):
        if y == 0:
            return NAN
        return 0.0 if y < 0 else INF
    if x == 1:
        return NAN if math.isinf(y) else 1.0
    if y == 0:
        return 1.0
    if math.isinf(y):
        return (0.0 if x < 1 else INF) if y > 0 else (INF if x < 1 else 0.0)
    return None


def pown_special(x, n):
    if n == 0:
        return 1.0
    if math.isnan(x):
        return NAN
    if x == 0:
        return power_of_zero(x, n < 0, n % 2)
    if math.isinf(x):
        if n < 0:
            return math.copysign(0.0, x) if n % 2 else 0.0
        return x if n % 2 else INF
    return None


def rootn_special(x, n):
    if n == 0 or math.isnan(x) or (x < 0 and n % 2 == 0):
        return NAN
    if x == 0:
        return power_of_zero(x, n < 0, n % 2)
    if math.isinf(x):
        if n < 0:
            return math.copysign(0.0, x)
        return x
    return None


def atan2_special(y, x):
    """atan2's special values (C99 F.9.1.4), as multiples of pi (exact), or None."""
    if math.isnan(x) or math.isnan(y):
        return NAN
    if y == 0 or math.isinf(x) or math.isinf(y) or x == 0:
        r = math.atan2(y, x)  # Python's math follows C99 here, zeros' signs included
        if r == 0:
            return ("pi", r)
        return ("pi", Fraction(round(r / math.pi * 4), 4))
    return None


def exact_round(fn, x):
    if not math.isfinite(x):
        return x
    if fn == "ceil":
        r = math.ceil(x)
    elif fn == "floor":
        r = math.floor(x)
    elif fn == "trunc":
        r = math.trunc(x)
    elif fn == "rint":
        r = round(x)  # Python's round is to nearest, ties to even
    else:  # round: half away from zero (exact: a Fraction)
        r = math.floor(abs(Fraction(x)) + Fraction(1, 2)) * (1 if x > 0 else -1)
    return float(r) if r != 0 else signed_zero(x)


def remainder_exact(x, y):
    """(remainder, quotient) of IEEE remainder: x - n*y with n = x/y to nearest, ties even."""
    q = Fraction(x) / Fraction(y)
    n = math.floor(q)
    if q - n > Fraction(1, 2) or (q - n == Fraction(1, 2) and n % 2):
        n += 1
    r = Fraction(x) - n * Fraction(y)
    return (float(r) if r != 0 else signed_zero(x)), n


def one(fn, x, fmt=FLOAT):
    """The expected result of a one-argument function at x (see `judge_value`), or None."""
    nan_in = math.isnan(x)
    if fn in ("fabs",):
        return NAN if nan_in else abs(x)
    if fn in ("ceil", "floor", "trunc", "rint", "round"):
        return NAN if nan_in else exact_round(fn, x)
    if nan_in:
        return None if fn in ("frexp.exp",) else NAN
    odd_zero = {"asin", "asinh", "asinpi", "atan", "atanh", "atanpi", "cbrt", "erf", "expm1",
                "log1p", "sin", "sincos", "sinh", "sinpi", "tan", "tanh", "tanpi", "sqrt"}
    if x == 0 and fn in odd_zero:
        return x
    if fn in ("fract", "fract.iptr"):
        if math.isinf(x):
            return signed_zero(x) if fn == "fract" else x
        fl = math.floor(x)
        if fn == "fract.iptr":
            return float(fl) if fl != 0 else signed_zero(x)
        f = x - fl
        # the largest number below 1, where x - floor(x) rounds to 1
        return min(f, 1 - 2.0**-(fmt.mant + 1)) if f != 0 else ANY_ZERO
    if fn in ("modf", "modf.iptr"):
        if math.isinf(x):
            return signed_zero(x) if fn == "modf" else x
        t = math.trunc(x)
        if fn == "modf.iptr":
            return float(t) if t != 0 else signed_zero(x)
        f = x - t
        return f if f != 0 else signed_zero(x)
    if fn == "frexp":
        if x == 0 or math.isinf(x):
            return x
        return math.frexp(x)[0]
    if fn == "logb":
        if x == 0:
            return -INF
        if math.isinf(x):
            return INF
        return float(math.frexp(x)[1] - 1)
    inf_sign = x > 0
    if math.isinf(x):
        table = {"acos": NAN, "acosh": INF if inf_sign else NAN, "acospi": NAN, "asin": NAN,
                 "asinh": x, "asinpi": NAN, "atan": M(mpmath.pi) / 2 * (1 if inf_sign else -1),
                 "atanh": NAN, "atanpi": 0.5 if inf_sign else -0.5, "cbrt": x, "cos": NAN,
                 "cosh": INF, "cospi": NAN, "erfc": 0.0 if inf_sign else 2.0,
                 "erf": 1.0 if inf_sign else -1.0, "exp": INF if inf_sign else 0.0,
                 "exp2": INF if inf_sign else 0.0, "exp10": INF if inf_sign else 0.0,
                 "expm1": INF if inf_sign else -1.0, "lgamma": INF, "lgamma_r": INF,
                 "log": INF if inf_sign else NAN, "log2": INF if inf_sign else NAN,
                 "log10": INF if inf_sign else NAN, "log1p": INF if inf_sign else NAN,
                 "rsqrt": 0.0 if inf_sign else NAN, "sin": NAN, "sincos": NAN,
                 "sincos.cos": NAN, "sinh": x, "sinpi": NAN, "sqrt": x if inf_sign else NAN,
                 "tan": NAN, "tanh": 1.0 if inf_sign else -1.0, "tanpi": NAN,
                 "tgamma": INF if inf_sign else NAN}
        return table.get(fn)
    if x == 0:
        table = {"acos": M(mpmath.pi) / 2, "acosh": NAN, "acospi": 0.5, "cos": 1.0,
                 "sincos.cos": 1.0, "cosh": 1.0, "cospi": 1.0, "erfc": 1.0, "exp": 1.0,
                 "exp2": 1.0, "exp10": 1.0, "lgamma": INF, "lgamma_r": INF, "log": -INF,
                 "log2": -INF, "log10": -INF, "rsqrt": math.copysign(INF, x),
                 "tgamma": math.copysign(INF, x)}
        return table.get(fn)
    a = M(x)
    if fn in ("acos", "acospi") and x == 1:
        return 0.0
    if fn in ("acos", "acospi", "asin", "asinpi") and abs(x) > 1:
        return NAN
    if fn == "acosh":
        return NAN if x < 1 else (0.0 if x == 1 else mpmath.acosh(a))
    if fn == "atanh":
        if abs(x) == 1:
            return math.copysign(INF, x)
        return NAN if abs(x) > 1 else mpmath.atanh(a)
    if fn in ("log", "log2", "log10"):
        if x < 0:
            return NAN
        if x == 1:
            return 0.0
        return mpmath.log(a, {"log": mpmath.e, "log2": 2, "log10": 10}[fn])
    if fn == "log1p":
        if x == -1:
            return -INF
        return NAN if x < -1 else mpmath.log1p(a)
    if fn in ("sqrt", "rsqrt"):
        if x < 0:
            return NAN
        return mpmath.sqrt(a) if fn == "sqrt" else 1 / mpmath.sqrt(a)
    if fn in ("lgamma", "lgamma_r"):
        if x < 0 and is_int(x):
            return INF
        if x in (1.0, 2.0):
            return 0.0
        r = mpmath.loggamma(a).real
        return r if abs(r) >= 1 else None  # near its zeros OpenCL gives no bound
    if fn == "tgamma":
        if x < 0 and is_int(x):
            return NAN
        return mpmath.gamma(a)
    if fn == "sinpi" and is_int(x):
        return signed_zero(x)
    if fn == "cospi" and is_int(2 * x) and not is_int(x):
        return 0.0
    if fn == "tanpi":
        if is_int(x):
            # copysign(0, n) for even n, copysign(0, -n) for odd n
            return signed_zero(-x if is_odd(x) else x)
        if is_int(2 * x):
            return -INF if is_odd(x - 0.5) else INF
        return mpmath.sinpi(a) / mpmath.cospi(a)
    functions = {"acos": mpmath.acos, "acospi": lambda v: mpmath.acos(v) / mpmath.pi,
                 "asin": mpmath.asin, "asinpi": lambda v: mpmath.asin(v) / mpmath.pi,
                 "asinh": mpmath.asinh, "atan": mpmath.atan,
                 "atanpi": lambda v: mpmath.atan(v) / mpmath.pi, "cbrt": mpmath.cbrt,
                 "cos": mpmath.cos, "sincos.cos": mpmath.cos, "cosh": mpmath.cosh,
                 "cospi": mpmath.cospi, "erfc": mpmath.erfc, "erf": mpmath.erf,
                 "exp": mpmath.exp, "exp2": lambda v: mpmath.power(2, v),
                 "exp10": lambda v: mpmath.power(10, v), "expm1": mpmath.expm1,
                 "sin": mpmath.sin, "sincos": mpmath.sin, "sinh": mpmath.sinh,
                 "sinpi": mpmath.sinpi, "tan": mpmath.tan, "tanh": mpmath.tanh}
    if fn == "cbrt":
        r = mpmath.cbrt(abs(a))
        return -r if x < 0 else r
    # Far past where erf is ±1 and erfc 0 or 2 in either precision (mpmath overflows there).
    if fn in ("erf", "erfc") and abs(x) > 64:
        return (math.copysign(1.0, x) if fn == "erf" else (0.0 if x > 0 else 2.0))
    if fn in functions:
        return functions[fn](a)
    return None


def half_one(fn, x):
    """A half_ function's exact value where it is judged (finite, in its domain), or None."""
    if not math.isfinite(x) or abs(x) < TINY or abs(x) > HALF_DOMAIN.get(fn, INF):
        return None
    name = fn[len("half_"):]
    if name == "recip":
        return 1 / M(x)
    r = one(name, x)
    return r if isinstance(r, mpmath.mpf) and TINY <= abs(r) <= TOP else None


def two(fn, x, y, k, z, fmt=FLOAT):
    """The expected result of a two-argument function (fma: three), or None."""
    nan_in = math.isnan(x) or math.isnan(y)
    if fn in ("atan2", "atan2pi"):
        s = atan2_special(x, y)
        if s is None:
            r = mpmath.atan2(M(x), M(y))
            return r / mpmath.pi if fn == "atan2pi" else r
        if s == NAN:
            return NAN
        v = s[1]
        if not isinstance(v, Fraction):
            return v  # a signed zero
        return M(v.numerator) / v.denominator * (mpmath.pi if fn == "atan2" else 1)
    if fn == "copysign":
        return NAN if math.isnan(x) else math.copysign(x, y)
    if fn in ("fmax", "fmin", "maxmag", "minmag"):
        if math.isnan(x) and math.isnan(y):
            return NAN
        if math.isnan(x) or math.isnan(y):
            other = y if math.isnan(x) else x
            # fmax and fmin give the other argument; maxmag and minmag are not told
            return other if fn in ("fmax", "fmin") else ("either", other)
        if fn in ("maxmag", "minmag") and abs(x) != abs(y):
            bigger = x if abs(x) > abs(y) else y
            smaller = y if bigger is x else x
            return bigger if fn == "maxmag" else smaller
        if x == y:
            return ANY_ZERO if x == 0 else x
        return max(x, y) if fn in ("fmax", "maxmag") else min(x, y)
    if fn == "ldexp":
        if math.isnan(x):
            return NAN
        if x == 0 or math.isinf(x):
            return x
        return mpmath.ldexp(M(x), k)  # exact: an mpf has an exponent of any size
    if fn == "pown":
        s = pown_special(x, k)
        return s if s is not None else M(x) ** k
    if fn == "rootn":
        s = rootn_special(x, k)
        if s is not None:
            return s
        r = mpmath.root(abs(M(x)), abs(k))
        r = 1 / r if k < 0 else r
        return -r if x < 0 else r
    if fn == "fma":
        if nan_in or math.isnan(z):
            return NAN
        if math.isinf(x) or math.isinf(y) or math.isinf(z):
            if (math.isinf(x) and y == 0) or (math.isinf(y) and x == 0):
                return NAN
            p = x * y if math.isinf(x) or math.isinf(y) else 0.0
            if math.isinf(p) and math.isinf(z) and (p > 0) != (z > 0):
                return NAN
            return p if math.isinf(p) else z
        r = Fraction(x) * Fraction(y) + Fraction(z)
        return r if r != 0 else ANY_ZERO
    if nan_in:
        # hypot of an infinity is +infinity even with a NaN (C99 F.9.4.3)
        if fn == "hypot" and (math.isinf(x) or math.isinf(y)):
            return INF
        if fn in ("pow", "powr"):
            return pow_special(x, y) if fn == "pow" else powr_special(x, y)
        return NAN
    if fn == "fdim":
        if x <= y:
            return 0.0
        return x - y if math.isinf(x) or math.isinf(y) else Fraction(x) - Fraction(y)
    if fn in ("fmod", "remainder", "remquo"):
        if math.isinf(x) or y == 0:
            return NAN
        if math.isinf(y):
            return x
        if fn == "fmod":
            r = math.fmod(x, y)  # exact
            return r if r != 0 else signed_zero(x)
        return remainder_exact(x, y)[0]
    if fn == "hypot":
        if math.isinf(x) or math.isinf(y):
            return INF
        return mpmath.hypot(M(x), M(y))
    if fn == "nextafter":
        if x == y:
            return y
        if x == 0:
            return math.copysign(fmt.value(1), y - x)
        bits = fmt.bits(x)
        up = (y > x) == (x > 0)
        return fmt.value(bits + 1 if up else bits - 1)
    if fn == "pow":
        s = pow_special(x, y)
        if s is not None:
            return s
        r = far_power(abs(x), y)
        r = r if r is not None else mpmath.power(abs(M(x)), M(y))
        return -r if x < 0 and is_odd(y) else r
    if fn == "powr":
        s = powr_special(x, y)
        if s is not None:
            return s
        r = far_power(x, y)
        return r if r is not None else mpmath.power(M(x), M(y))
    return None


def half_two(fn, x, y):
    if not (math.isfinite(x) and math.isfinite(y)) or abs(x) < TINY or abs(y) < TINY:
        return None
    r = M(x) / M(y) if fn == "half_divide" else two("powr", x, y, 0, 0.0)
    return r if isinstance(r, mpmath.mpf) and TINY <= abs(r) <= TOP else None


def far_power(x, y):
    """x^y (x > 0) where it is far past the largest double or below half the smallest
    subnormal (an infinity or a zero in either precision), else None: mpmath takes minutes
    for an exact power of a huge exponent."""
    magnitude = float(M(y) * mpmath.log(M(x), 2))
    if magnitude > 1100:
        return INF
    if magnitude < -1200:
        return 0.0
    return None


def bound_words(fn):
    """A function's bound as the judge's report says it (`fn (double)`: double's)."""
    if fn.startswith("half_"):
        return str(HALF_BOUND)
    name, _, double = fn.partition(" (double)")
    bounds = BOUND_DOUBLE if double == "" and fn.endswith(" (double)") else BOUND
    if name not in bounds:
        return "exact"  # the integer results: ilogb, frexp's exponent, lgamma_r's sign, ...
    b = bounds[name]
    return "none" if b is None else "exact" if b == 0 else str(b)


def ulps(got, v, fmt=FLOAT):
    """The distance of `got` from the exact finite nonzero value v, in ulps of v's binade in
    `fmt` (the subnormal ulp below the normals)."""
    v = M(v.numerator) / M(v.denominator) if isinstance(v, Fraction) else M(v)
    return float(abs(M(got) - v) / mpmath.ldexp(1, exponent(v, fmt) - fmt.mant))


def judge_value(got, expect, bound, fmt=FLOAT):
    """0.0 where `got` is what OpenCL allows for `expect`, else its error in ulps (inf for a
    wrong class: NaN, infinity, zero, sign)."""
    if isinstance(expect, tuple) and expect[0] == "either":
        return 0.0 if math.isnan(got) else judge_value(got, expect[1], bound, fmt)
    if expect == NAN:
        return 0.0 if math.isnan(got) else INF
    if math.isnan(got):
        return INF
    if expect == ANY_ZERO:
        return 0.0 if got == 0 else INF
    if isinstance(expect, float) and (expect == 0 or math.isinf(expect)):
        same = got == expect and math.copysign(1, got) == math.copysign(1, expect)
        return 0.0 if same else INF
    rounded = round_float(expect, fmt)
    if bound == 0:
        return 0.0 if got == rounded else max(ulps(got, expect, fmt), 1.0) if \
            math.isfinite(got) and got != 0 else INF
    if math.isinf(rounded):
        return 0.0 if got == rounded else INF
    if rounded == 0:
        # the exact value is below half the smallest subnormal: zero (of its sign) or the
        # smallest subnormal are within any bound
        return 0.0 if abs(got) <= fmt.value(1) and (got == 0 or (got > 0) == (expect > 0)) \
            else INF
    if math.isinf(got):
        return INF
    return ulps(got, expect, fmt)


def flushed(a, fmt=FLOAT):
    """The argument as a flushing device may see it."""
    return [a] + ([signed_zero(a)] if a != 0 and abs(a) < fmt.tiny else [])


def result_flushable(expect, fmt=FLOAT):
    """Whether a conforming result is subnormal (a flushing device may give a zero)."""
    if isinstance(expect, (Fraction, float, mpmath.mpf)):
        return expect != 0 and abs(expect) < fmt.tiny
    return False


def error(got, expects, bound, flushes, fmt=FLOAT):
    """The smallest error over the ways a device may compute it: `expects[0]` with the
    arguments as given, the others with subnormal arguments flushed, which count (with
    subnormal results flushed) only for a device that `flushes`."""
    best = INF
    for expect in expects if flushes else expects[:1]:
        if expect is None:
            continue
        best = min(best, judge_value(got, expect, bound, fmt))
        if flushes and got == 0 and result_flushable(expect, fmt):
            best = 0.0
    return best


def read(path, fmt):
    data = open(path, "rb").read()
    return struct.unpack(f"<{len(data) // struct.calcsize(fmt)}{fmt}", data)


def cases_one(i, fmt=FLOAT):
    x = fmt.value(fmt.special[i])
    bounds = BOUND if fmt is FLOAT else BOUND_DOUBLE
    for slot, fn in enumerate(f for f in ONE if fmt is FLOAT or not f.startswith("half_")):
        if fn.startswith("half_"):
            yield slot, fn, (x,), [half_one(fn, x)], HALF_BOUND
        else:
            yield slot, fn, (x,), [one(fn, a, fmt) for a in flushed(x, fmt)], bounds[fn]


def cases_two(i, fmt=FLOAT):
    x, y = fmt.value(fmt.special[i % N]), fmt.value(fmt.special[i // N])
    z = fmt.value(fmt.special[(i % N + 3 * (i // N)) % N])
    k = fmt.integers[i // N]
    bounds = BOUND if fmt is FLOAT else BOUND_DOUBLE
    for slot, fn in enumerate(f for f in TWO if fmt is FLOAT or not f.startswith("half_")):
        if fn.startswith("half_"):
            yield slot, fn, (x, y), [half_two(fn, x, y)], HALF_BOUND
            continue
        args = (x, k) if fn in ("ldexp", "pown", "rootn") else (x, y, z) if fn == "fma" \
            else (x, y)
        expects = [two(fn, a, b, k, c, fmt) for a in flushed(x, fmt) for b in flushed(y, fmt)
                   for c in flushed(z, fmt)]
        yield slot, fn, args, expects, bounds[fn]


def int_checks_one(i, ints, flushes, fmt=FLOAT):
    """ilogb, frexp's exponent, lgamma_r's sign and nan(): (name, argument, got, wanted)."""
    x = fmt.value(fmt.special[i])
    tiny = fmt.tiny
    n = ints[4 * i:4 * i + 4]
    out = []
    if math.isnan(x):
        want = [2**31 - 1]
    elif math.isinf(x):
        want = [2**31 - 1]
    elif x == 0:
        want = [-2**31]
    else:
        want = [math.frexp(x)[1] - 1] + ([-2**31] if flushes and abs(x) < tiny else [])
    out.append(("ilogb", x, n[2], want))
    if math.isfinite(x):
        want = [0] if x == 0 else [math.frexp(x)[1]] + ([0] if flushes and abs(x) < tiny else [])
        out.append(("frexp exponent", x, n[0], want))
    if math.isfinite(x) and x > 0:
        out.append(("lgamma_r sign", x, n[1], [1]))
    elif math.isfinite(x) and x < 0 and not is_int(x):
        sign = 1 if math.floor(x) % 2 == 0 else -1
        either = [1, -1] if flushes and abs(x) < tiny else []
        out.append(("lgamma_r sign", x, n[1], [sign] + either))
    out.append(("isnan(nan(k))", x, n[3], [1]))
    return out


def int_checks_two(i, ints, flushes, fmt=FLOAT):
    """remquo's quotient: its sign and its three low bits (OpenCL C 6.12.2)."""
    x, y = fmt.value(fmt.special[i % N]), fmt.value(fmt.special[i // N])
    if not (math.isfinite(x) and math.isfinite(y)) or y == 0:
        return []
    wanted = []
    for a in flushed(x, fmt) if flushes else [x]:
        for b in flushed(y, fmt) if flushes else [y]:
            if b == 0:
                continue
            n = remainder_exact(a, b)[1]
            negative = (a < 0) != (b < 0)
            wanted.append((negative, abs(n) % 8))
    q = ints[i]
    got = (q < 0, abs(q) % 8)
    if q == 0:
        return [("remquo quotient", (x, y), q, wanted, any(w[1] == 0 for w in wanted))]
    return [("remquo quotient", (x, y), q, wanted, got in wanted)]


# The tier's files of each kernel: (source, kernel) -> (work-items, slots, cases, integer
# checks, format).
KERNELS = {
    ("math_special", "math_special"): (N, ONE, cases_one, int_checks_one, FLOAT),
    ("math_special", "math_special_pairs"): (N * N, TWO, cases_two, int_checks_two, FLOAT),
    ("math_special_double", "math_special_double"):
        (N, [f for f in ONE if not f.startswith("half_")], cases_one, int_checks_one, DOUBLE),
    ("math_special_double", "math_special_double_pairs"):
        (N * N, [f for f in TWO if not f.startswith("half_")], cases_two, int_checks_two,
         DOUBLE),
}


def judge(dirname, names, check):
    """(function, "special", who) -> largest error, and the results beyond OpenCL's bound, over
    the tier's files of the kernels in `dirname` (the Intel runtime's once: every shape
    expects the same). A double function is named `fn (double)`."""
    worst, beyond = {}, []
    for (source, kernel), (count, slots, cases, int_checks, fmt) in KERNELS.items():
        tag = f".{source}.{kernel}."
        bases = sorted({n[: n.index(tag) + len(tag)] for n in names
                        if tag in n and n.endswith("arg0.out") and not n.startswith("clspv.")})
        if not bases:
            continue
        expected = [list(cases(i, fmt)) for i in range(count)]
        suffix_of = "" if fmt is FLOAT else " (double)"
        runs = [("ours", base, ".out") for base in bases] + [("Intel", bases[0], ".expected")]
        for who, base, suffix in runs:
            path = os.path.join(dirname, base)
            values = read(path + "arg0" + suffix, fmt.code)
            ints = read(path + "arg1" + suffix, "i")
            for i in range(count):
                for slot, fn, args, expects, bound in expected[i]:
                    if all(e is None for e in expects):
                        continue
                    got = values[len(slots) * i + slot]
                    # Ours keep subnormals (lavapipe does); the Intel runtime's half_
                    # functions flush them, as OpenCL allows.
                    u = error(got, expects, bound, who == "Intel", fmt)
                    key = (fn + suffix_of, "special", who)
                    worst[key] = max(worst.get(key, 0.0), u)
                    limit = 0.5 if bound == 0 else bound
                    if who == "ours" and check and bound is not None and u > limit:
                        shown = [e for e in expects if e is not None][0]
                        if not isinstance(shown, (str, tuple, float)):
                            shown = round_float(shown, fmt)
                        beyond.append(f"{base}arg0[{len(slots) * i + slot}]: {fn}{args} "
                                      f"= {got!r}, OpenCL's result {shown!r} "
                                      f"({u:.2f} ulp, bound {bound})")
                for check_ in int_checks(i, ints, who == "Intel", fmt):
                    name, args, got, wanted = check_[:4]
                    ok = check_[4] if len(check_) > 4 else got in wanted
                    key = (name + suffix_of, "special", who)
                    worst[key] = max(worst.get(key, 0.0), 0.0 if ok else INF)
                    if who == "ours" and check and not ok:
                        beyond.append(f"{base}arg1: {name}{args} = {got}, OpenCL's {wanted}")
    return worst, beyond
