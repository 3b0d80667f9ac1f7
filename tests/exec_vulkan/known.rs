//! What differs from the reference run, and why: kernels the reference driver cannot build,
//! results a driver computes its own way, and results OpenCL bounds rather than fixes (each
//! with the device it concerns and the reason the log prints).

/// Kernels whose OpenCL C source the reference driver cannot build (as in exec_intel).
pub const DRIVER_CRASHES: [&str; 1] = ["loops_phis"];

/// Results that differ from the reference for reasons of a driver's own: (kernel,
/// device-name substring, why); an empty substring is the reference driver (any device).
/// Such a kernel's runs on that device are reported, not failed (unless what it printed
/// differs too); on other devices they must match.
pub const DRIVER_FAULTS: [(&str, &str, &str); 19] = [
    // Kernels of subnormal operands and results, measured on an H200 (driver 580).
    ("div_sqrt_wide", "NVIDIA", NVIDIA_FLUSH),
    ("fma_wide", "NVIDIA", NVIDIA_FLUSH),
    ("remainders_wide", "NVIDIA", NVIDIA_FLUSH),
    ("pow_root_tanpi", "NVIDIA", NVIDIA_FLUSH),
    ("printf_formats", "", PRINTF_RETURNS),
    ("printf_conversions", "", PRINTF_RETURNS),
    ("math_special", "", INTEL_HALF_FLUSH),
    ("math_special_pairs", "", INTEL_HALF_FLUSH),
    ("math_special_double", "", JUDGED_DOUBLE),
    // Programs whose later kernels carry a quotient: k-means' centroids (a label flips where
    // two distances tie within an ulp), the Jacobi sweeps' solution.
    ("app_kmeans", "NVIDIA", NVIDIA_DIVISION),
    ("app_solver", "NVIDIA", NVIDIA_DIVISION),
    ("math_special_double_pairs", "", JUDGED_DOUBLE),
    ("image_unorm", "NVIDIA", NVIDIA_UNORM),
    // Its read-write 8-bit normalized texel buffer; the float and integer ones are exact.
    ("image_1d_buffer", "NVIDIA", NVIDIA_UNORM),
    (
        "integer_long",
        "",
        "the Intel runtime's 64-bit mad_sat wraps instead of saturating (checked by hand: \
         where a * 2 - 5 overflows, ours gives the bound OpenCL requires, Intel the wrapped \
         value; both OpenCL tiers agree with Intel because they run Intel's mad_sat)",
    ),
    (
        "generic_space",
        "",
        "the Intel CPU runtime answers to_global, to_local and to_private with the pointer \
         itself whatever space it points into, and get_fence of a private pointer with \
         CLK_GLOBAL_MEM_FENCE (OpenCL C 2.0 says NULL and 0): its results for the run-time \
         spaces differ. Ours were checked against the kernel's semantics by hand, all 64 \
         work-items in each shape (the global and private writes the wrong answers steer \
         differ too)",
    ),
    (
        "relational_more",
        "llvmpipe",
        "lavapipe (Mesa 25.0.7) computes a division by the constant 0.0 as garbage, not ±inf \
         (a division by a zero read from memory is right)",
    ),
    (
        "relational_more",
        "NVIDIA",
        "NVIDIA's driver flushes float denormals (here the constant 1e-39f), which OpenCL \
         allows (CL_FP_DENORM is optional for float); the Intel reference keeps them",
    ),
    (
        "unions_byval",
        "NVIDIA",
        "a sum of two floats read from unions of random bits is NaN for some inputs: NVIDIA's \
         driver (580, measured on an H200) gives the one NaN 0x7fffffff where x86 keeps the \
         operand's payload (OpenCL leaves a NaN's bits open); the other outputs are exact",
    ),
];

const JUDGED_DOUBLE: &str = "not a fault of either: every double builtin at its special \
     inputs, where two conforming libraries differ in the last bits; scripts/math_special.py \
     judges every result of ours against the special values OpenCL fixes and the correctly \
     rounded result (OpenCL's table 7.2)";
const INTEL_HALF_FLUSH: &str = "not a fault of either: the Intel runtime's half_ functions \
     flush subnormal operands and results (OpenCL leaves denormals of half_ functions \
     optional) and give half precision (half_divide of the largest float by 1 - 2^-24 is the \
     largest float, ours the correctly rounded infinity); ours keep subnormals. \
     scripts/math_special.py judges every result of ours against what OpenCL fixes";
const NVIDIA_DIVISION: &str = "float division, which OpenCL bounds by 2.5 ulp: NVIDIA's OpFDiv \
     (Vulkan's 2.5 ulp) is not correctly rounded where the Intel runtime's is (bound 2^-21 \
     relative)";

const NVIDIA_FLUSH: &str = "NVIDIA's driver flushes float subnormals, operands and results \
     (OpenCL allows it where a device does not report CL_FP_DENORM), and gives every NaN as \
     0x7fffffff; elsewhere within OpenCL's bounds (its division and square root are not \
     correctly rounded: 2.5 and 3 ulp)";

const NVIDIA_UNORM: &str = "NVIDIA's driver (580) converts 8-bit normalized texels to float 1 \
     ulp below c / 255 (220 of 512 values) and floats to 8-bit normalized texels one unit \
     lower (188 of 512): within the precision OpenCL allows image conversions, not the Intel \
     runtime's results";

/// Kernels whose results OpenCL bounds, or leaves to the device, rather than fixing them
/// bit for bit (linear filtering, math and geometric builtins): (kernel, device-name
/// substring, bound, relative, why). vkhost compares them within `bound` (on each float; of
/// the larger magnitude where `relative`) where they differ, on that device, and says so
/// (`WITHIN`).
pub const WITHIN: [(&str, &str, f32, Option<f32>, &str); 30] = [
    (
        "roots_wide",
        "",
        1.0 / 2_097_152.0,
        Some(f32::MIN_POSITIVE),
        "sqrt and rsqrt, which OpenCL bounds by 3 and 2 ulp: Vulkan's Sqrt with a step of \
         Heron's (within 1.75 ulp), InverseSqrt (2 ulp) (bound 2^-21 relative)",
    ),
    // lgamma is near zero at 1 and 2, where OpenCL leaves it unbounded: relative to 1 below.
    (
        "double_gamma",
        "",
        1.0 / 281_474_976_710_656.0,
        Some(1.0),
        DOUBLE_ULP,
    ),
    // Judged against the correctly rounded result too (scripts/math_reference.py).
    (
        "double_hyperbolic",
        "",
        1.0 / 281_474_976_710_656.0,
        Some(0.0),
        DOUBLE_ULP,
    ),
    (
        "double_erf",
        "",
        1.0 / 281_474_976_710_656.0,
        Some(0.0),
        DOUBLE_ULP,
    ),
    // Judged against the correctly rounded result too (scripts/math_reference.py).
    (
        "pow_root_tanpi_double",
        "",
        1.0 / 281_474_976_710_656.0,
        Some(0.0),
        DOUBLE_ULP,
    ),
    ("pow_root_tanpi", "", 1.0 / 1048576.0, Some(0.0), MATH_ULP),
    // pown and rootn of floats (16 ulp), ldexp exact.
    ("int_operands", "", 1.0 / 1048576.0, Some(1.0), MATH_ULP),
    (
        "double_math_wide",
        "",
        1.0 / 281_474_976_710_656.0,
        Some(0.0),
        DOUBLE_ULP,
    ),
    // Sums of terms near 1 that cancel: relative to 1 below it.
    (
        "double_trig_wide",
        "",
        1.0 / 281_474_976_710_656.0,
        Some(1.0),
        DOUBLE_ULP,
    ),
    (
        "double_math",
        "",
        1.0 / 281_474_976_710_656.0,
        Some(1.0),
        DOUBLE_ULP,
    ),
    ("exp_log", "", 1.0 / 1048576.0, Some(1.0), MATH_ULP),
    (
        "half_math",
        "",
        1.0 / 512.0,
        Some(1.0),
        "half_* functions, which OpenCL bounds by 8192 ulp: ours are the full-precision \
         ones (bound 2^-9 relative)",
    ),
    ("trig_wide", "", 1.0 / 1048576.0, Some(4.0), MATH_ULP),
    ("trig", "", 1.0 / 1048576.0, Some(4.0), MATH_ULP),
    // A sum of 17 builtins' results as large as 4 that cancels: relative to 4 below it.
    ("math_builtins", "", 1.0 / 1048576.0, Some(4.0), MATH_ULP),
    ("exp_log_wide", "", 1.0 / 1048576.0, Some(1.0), MATH_ULP),
    // Every float builtin at its special inputs, the half_ ones too (8192 ulp).
    (
        "math_special",
        "",
        1.0 / 512.0,
        Some(f32::MIN_POSITIVE),
        MATH_SPECIAL,
    ),
    (
        "math_special_pairs",
        "",
        1.0 / 512.0,
        Some(f32::MIN_POSITIVE),
        MATH_SPECIAL,
    ),
    (
        "vectors",
        "",
        1.0 / 1048576.0,
        Some(0.0),
        "length, distance and normalize, which OpenCL bounds by a few ulp: ours are computed \
         in float (scaled by a power of two) and differ from the Intel runtime's by an ulp or \
         two (bound 2^-20 relative)",
    ),
    (
        "vectors_spaces",
        "NVIDIA",
        1.0 / 1048576.0,
        Some(0.0),
        "dot of float3, whose rounding OpenCL leaves to the device: NVIDIA's driver (580, \
         measured on an H200) rounds it an ulp away from x86's (bound 2^-20 relative)",
    ),
    (
        "common_geometric",
        "",
        1.0 / 256.0,
        Some(0.0),
        "fast_length, fast_distance and fast_normalize (OpenCL relaxes their precision), and \
         mix and smoothstep (left to the device): bound 2^-8 relative",
    ),
    (
        "image_float_coords",
        "llvmpipe",
        2.0 * f32::EPSILON,
        None,
        LINEAR_LAVAPIPE,
    ),
    (
        "sampler_constants",
        "llvmpipe",
        2.0 * f32::EPSILON,
        None,
        LINEAR_LAVAPIPE,
    ),
    // A float division each, NVIDIA's not correctly rounded.
    (
        "packed_views",
        "NVIDIA",
        1.0 / 2_097_152.0,
        Some(f32::MIN_POSITIVE),
        NVIDIA_DIVISION,
    ),
    (
        "vector_ops",
        "NVIDIA",
        1.0 / 2_097_152.0,
        Some(f32::MIN_POSITIVE),
        NVIDIA_DIVISION,
    ),
    // Sums of up to three linear samples (weights 1 and 2): absolute bounds.
    (
        "image_normalized",
        "llvmpipe",
        1.0 / 65536.0,
        None,
        LINEAR_LAVAPIPE,
    ),
    (
        "image_normalized",
        "NVIDIA",
        1.0 / 64.0,
        None,
        LINEAR_NVIDIA,
    ),
    (
        "image_float_coords",
        "NVIDIA",
        1.0 / 256.0,
        None,
        LINEAR_NVIDIA,
    ),
    (
        "sampler_constants",
        "NVIDIA",
        1.0 / 256.0,
        None,
        LINEAR_NVIDIA,
    ),
    (
        "native_half_math",
        "",
        1.0 / 256.0,
        Some(0.0),
        "native_* functions, whose precision OpenCL leaves to the device (a sanity bound: \
         2^-8 relative)",
    ),
];
const PRINTF_RETURNS: &str = "the Intel runtime's printf returns the number of characters \
     it printed, as C's does; OpenCL C's printf returns 0 on success (ours does): the kernel \
     stores the return values (what it printed is compared, and matches)";
const DOUBLE_ULP: &str = "math builtins of double, which OpenCL bounds by 2 to 16 ulp (sqrt \
     correctly rounded): ours are within an ulp or two of the correctly rounded result, the \
     Intel runtime's within its own bound (bound 2^-48 relative, 16 ulp)";
const MATH_ULP: &str = "math builtins, which OpenCL bounds by 2 to 16 ulp: ours (in float) \
     are within OpenCL's bound of the correctly rounded result (scripts/math_reference.py \
     judges each), the Intel runtime's within its own (bound 2^-20 relative, 8 ulp)";
const MATH_SPECIAL: &str = "every float math builtin at signed zeros, subnormals, \
     integers, overflow thresholds, infinities and NaN: scripts/math_special.py judges each \
     result against the special values OpenCL C fixes and the correctly rounded result; the \
     half_ functions (8192 ulp) are the Intel runtime's own (bound 2^-9 relative)";
const LINEAR_LAVAPIPE: &str = "linear filtering, whose precision OpenCL leaves to the device: \
     lavapipe's weights are floats, rounded differently from the Intel runtime's";
const LINEAR_NVIDIA: &str = "linear filtering, whose precision OpenCL leaves to the device: \
     NVIDIA's weights have 8 bits (subTexelPrecisionBits), an error of at most 2^-8 of the \
     texels' difference";
