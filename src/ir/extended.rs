//! The builtin functions of SPIR-V's two extended instruction sets as graph operations:
//! [`OpenclOp`], OpenCL C's math, integer, common, geometric, vector load and store, printf
//! and prefetch functions (the OpenCL.std set, which OpenCL SPIR-V calls with OpExtInst), and
//! [`GlslOp`], the functions a Vulkan shader calls from GLSL.std.450 (which the Vulkan lowering
//! writes its math in).
//!
//! Each is a closed set with one variant per instruction of the set, named as the set's
//! specification names it, so that a builtin's meaning is looked up there by name, and in
//! the set's order (OpenCL.std's groups its math, integer, common and geometric functions,
//! which the verifier's typing rules use). The graph knows no instruction numbers: those are
//! the SPIR-V room's (`mappings::opencl_std_opcode` and its inverse, `glsl_opcode`, generated
//! by the build script from the sets' grammars, which proves that the variants here are
//! exactly the instructions there). The OpenCL C
//! names of [`OpenclOp`] are `mappings/opencl_std.toml`.

/// Declares a closed set and its list of every variant, from one list.
macro_rules! closed_set {
    ($(#[$doc:meta])* $set:ident { $($name:ident,)* }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[allow(non_camel_case_types, missing_docs)]
        pub enum $set {
            $($name,)*
        }

        impl $set {
            /// Every instruction of the set, in the set's order.
            pub const ALL: &'static [$set] = &[$($set::$name,)*];
        }
    };
}

closed_set! {
    /// An OpenCL.std instruction: an OpenCL C builtin function (`Builtin::ExtInst`). The
    /// names are OpenCL C's, with `s_` and `u_` before the signed and unsigned integer forms
    /// (`s_max`, `u_mad_hi`), `_common` after the common functions that share a math
    /// function's name (`fmax_common`), and the vector loads and stores spelled by width
    /// (`vloadn`, `vstore_half_r`, `vloada_halfn`).
    OpenclOp {
    acos, acosh, acospi, asin, asinh, asinpi, atan, atan2, atanh, atanpi, atan2pi, cbrt,
    ceil, copysign, cos, cosh, cospi, erfc, erf, exp, exp2, exp10, expm1, fabs, fdim, floor,
    fma, fmax, fmin, fmod, fract, frexp, hypot, ilogb, ldexp, lgamma, lgamma_r, log, log2,
    log10, log1p, logb, mad, maxmag, minmag, modf, nan, nextafter, pow, pown, powr,
    remainder, remquo, rint, rootn, round, rsqrt, sin, sincos, sinh, sinpi, sqrt, tan, tanh,
    tanpi, tgamma, trunc, half_cos, half_divide, half_exp, half_exp2, half_exp10, half_log,
    half_log2, half_log10, half_powr, half_recip, half_rsqrt, half_sin, half_sqrt, half_tan,
    native_cos, native_divide, native_exp, native_exp2, native_exp10, native_log,
    native_log2, native_log10, native_powr, native_recip, native_rsqrt, native_sin,
    native_sqrt, native_tan, fclamp, degrees, fmax_common, fmin_common, mix, radians, step,
    smoothstep, sign, cross, distance, length, normalize, fast_distance, fast_length,
    fast_normalize, s_abs, s_abs_diff, s_add_sat, u_add_sat, s_hadd, u_hadd, s_rhadd,
    u_rhadd, s_clamp, u_clamp, clz, ctz, s_mad_hi, u_mad_sat, s_mad_sat, s_max, u_max,
    s_min, u_min, s_mul_hi, rotate, s_sub_sat, u_sub_sat, u_upsample, s_upsample, popcount,
    s_mad24, u_mad24, s_mul24, u_mul24, vloadn, vstoren, vload_half, vload_halfn,
    vstore_half, vstore_half_r, vstore_halfn, vstore_halfn_r, vloada_halfn, vstorea_halfn,
    vstorea_halfn_r, shuffle, shuffle2, printf, prefetch, bitselect, select, u_abs,
    u_abs_diff, u_mul_hi, u_mad_hi,
    }
}

closed_set! {
    /// A GLSL.std.450 instruction: what a Vulkan shader computes its math with
    /// (`Builtin::Glsl`, made by the Vulkan lowering only), named as GLSL.std.450 names them
    /// (`FAbs`, `SMax`, `InverseSqrt`, `Fma`, `FrexpStruct`).
    GlslOp {
    Round, RoundEven, Trunc, FAbs, SAbs, FSign, SSign, Floor, Ceil, Fract, Radians, Degrees,
    Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Tanh, Asinh, Acosh, Atanh, Atan2, Pow, Exp,
    Log, Exp2, Log2, Sqrt, InverseSqrt, Determinant, MatrixInverse, Modf, ModfStruct, FMin,
    UMin, SMin, FMax, UMax, SMax, FClamp, UClamp, SClamp, FMix, IMix, Step, SmoothStep, Fma,
    Frexp, FrexpStruct, Ldexp, PackSnorm4x8, PackUnorm4x8, PackSnorm2x16, PackUnorm2x16,
    PackHalf2x16, PackDouble2x32, UnpackSnorm2x16, UnpackUnorm2x16, UnpackHalf2x16,
    UnpackSnorm4x8, UnpackUnorm4x8, UnpackDouble2x32, Length, Distance, Cross, Normalize,
    FaceForward, Reflect, Refract, FindILsb, FindSMsb, FindUMsb, InterpolateAtCentroid,
    InterpolateAtSample, InterpolateAtOffset, NMin, NMax, NClamp,
    }
}
