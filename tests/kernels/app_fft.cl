// Application-shaped program: a batch of 256-point complex FFTs, radix 2, one dispatch per
// stage as FFT libraries on GPUs launch them: a window, the bit-reversed copy, eight
// butterfly stages on the same buffer (each the next stage's input), and the power
// spectrum. The twiddle factors are a table in constant memory; the complex product is a
// helper every stage calls.
//
//@exec apply_window global=1024 local=64 in:f32[2048]=-1..1 out:f32[2048] u32=256
//@then bit_reverse global=1024 local=64 arg:1 out:f32[2048] u32=8 u32=256
//@then butterfly global=512 local=64 arg:3 u32=1 arg:5
//@then butterfly global=512 local=64 arg:3 u32=2 arg:5
//@then butterfly global=512 local=64 arg:3 u32=4 arg:5
//@then butterfly global=512 local=64 arg:3 u32=8 arg:5
//@then butterfly global=512 local=64 arg:3 u32=16 arg:5
//@then butterfly global=512 local=64 arg:3 u32=32 arg:5
//@then butterfly global=512 local=64 arg:3 u32=64 arg:5
//@then butterfly global=512 local=64 arg:3 u32=128 arg:5
//@then power_spectrum global=1024 local=64 arg:3 out:f32[1024]

#define N 256

// exp(-2 pi i k / N), k < N / 2.
__constant float2 twiddle[N / 2] = {
    (float2)(1.0f, -0.0f), (float2)(0.999698818f, -0.024541229f), (float2)(0.99879545f, -0.0490676761f),
    (float2)(0.997290432f, -0.0735645667f), (float2)(0.99518472f, -0.0980171412f), (float2)(0.992479563f, -0.122410677f),
    (float2)(0.989176512f, -0.146730468f), (float2)(0.985277653f, -0.170961887f), (float2)(0.980785251f, -0.195090324f),
    (float2)(0.975702107f, -0.219101235f), (float2)(0.970031261f, -0.242980182f), (float2)(0.963776052f, -0.266712755f),
    (float2)(0.956940353f, -0.290284663f), (float2)(0.949528158f, -0.313681751f), (float2)(0.941544056f, -0.336889863f),
    (float2)(0.932992816f, -0.359895051f), (float2)(0.923879504f, -0.382683426f), (float2)(0.914209783f, -0.405241311f),
    (float2)(0.903989315f, -0.427555084f), (float2)(0.893224299f, -0.449611336f), (float2)(0.881921291f, -0.471396744f),
    (float2)(0.870086968f, -0.492898196f), (float2)(0.857728601f, -0.514102757f), (float2)(0.84485358f, -0.534997642f),
    (float2)(0.831469595f, -0.555570245f), (float2)(0.817584813f, -0.575808167f), (float2)(0.803207517f, -0.59569931f),
    (float2)(0.78834641f, -0.615231574f), (float2)(0.773010433f, -0.634393275f), (float2)(0.757208824f, -0.653172851f),
    (float2)(0.740951121f, -0.671558976f), (float2)(0.724247098f, -0.689540565f), (float2)(0.707106769f, -0.707106769f),
    (float2)(0.689540565f, -0.724247098f), (float2)(0.671558976f, -0.740951121f), (float2)(0.653172851f, -0.757208824f),
    (float2)(0.634393275f, -0.773010433f), (float2)(0.615231574f, -0.78834641f), (float2)(0.59569931f, -0.803207517f),
    (float2)(0.575808167f, -0.817584813f), (float2)(0.555570245f, -0.831469595f), (float2)(0.534997642f, -0.84485358f),
    (float2)(0.514102757f, -0.857728601f), (float2)(0.492898196f, -0.870086968f), (float2)(0.471396744f, -0.881921291f),
    (float2)(0.449611336f, -0.893224299f), (float2)(0.427555084f, -0.903989315f), (float2)(0.405241311f, -0.914209783f),
    (float2)(0.382683426f, -0.923879504f), (float2)(0.359895051f, -0.932992816f), (float2)(0.336889863f, -0.941544056f),
    (float2)(0.313681751f, -0.949528158f), (float2)(0.290284663f, -0.956940353f), (float2)(0.266712755f, -0.963776052f),
    (float2)(0.242980182f, -0.970031261f), (float2)(0.219101235f, -0.975702107f), (float2)(0.195090324f, -0.980785251f),
    (float2)(0.170961887f, -0.985277653f), (float2)(0.146730468f, -0.989176512f), (float2)(0.122410677f, -0.992479563f),
    (float2)(0.0980171412f, -0.99518472f), (float2)(0.0735645667f, -0.997290432f), (float2)(0.0490676761f, -0.99879545f),
    (float2)(0.024541229f, -0.999698818f), (float2)(6.12323426e-17f, -1.0f), (float2)(-0.024541229f, -0.999698818f),
    (float2)(-0.0490676761f, -0.99879545f), (float2)(-0.0735645667f, -0.997290432f), (float2)(-0.0980171412f, -0.99518472f),
    (float2)(-0.122410677f, -0.992479563f), (float2)(-0.146730468f, -0.989176512f), (float2)(-0.170961887f, -0.985277653f),
    (float2)(-0.195090324f, -0.980785251f), (float2)(-0.219101235f, -0.975702107f), (float2)(-0.242980182f, -0.970031261f),
    (float2)(-0.266712755f, -0.963776052f), (float2)(-0.290284663f, -0.956940353f), (float2)(-0.313681751f, -0.949528158f),
    (float2)(-0.336889863f, -0.941544056f), (float2)(-0.359895051f, -0.932992816f), (float2)(-0.382683426f, -0.923879504f),
    (float2)(-0.405241311f, -0.914209783f), (float2)(-0.427555084f, -0.903989315f), (float2)(-0.449611336f, -0.893224299f),
    (float2)(-0.471396744f, -0.881921291f), (float2)(-0.492898196f, -0.870086968f), (float2)(-0.514102757f, -0.857728601f),
    (float2)(-0.534997642f, -0.84485358f), (float2)(-0.555570245f, -0.831469595f), (float2)(-0.575808167f, -0.817584813f),
    (float2)(-0.59569931f, -0.803207517f), (float2)(-0.615231574f, -0.78834641f), (float2)(-0.634393275f, -0.773010433f),
    (float2)(-0.653172851f, -0.757208824f), (float2)(-0.671558976f, -0.740951121f), (float2)(-0.689540565f, -0.724247098f),
    (float2)(-0.707106769f, -0.707106769f), (float2)(-0.724247098f, -0.689540565f), (float2)(-0.740951121f, -0.671558976f),
    (float2)(-0.757208824f, -0.653172851f), (float2)(-0.773010433f, -0.634393275f), (float2)(-0.78834641f, -0.615231574f),
    (float2)(-0.803207517f, -0.59569931f), (float2)(-0.817584813f, -0.575808167f), (float2)(-0.831469595f, -0.555570245f),
    (float2)(-0.84485358f, -0.534997642f), (float2)(-0.857728601f, -0.514102757f), (float2)(-0.870086968f, -0.492898196f),
    (float2)(-0.881921291f, -0.471396744f), (float2)(-0.893224299f, -0.449611336f), (float2)(-0.903989315f, -0.427555084f),
    (float2)(-0.914209783f, -0.405241311f), (float2)(-0.923879504f, -0.382683426f), (float2)(-0.932992816f, -0.359895051f),
    (float2)(-0.941544056f, -0.336889863f), (float2)(-0.949528158f, -0.313681751f), (float2)(-0.956940353f, -0.290284663f),
    (float2)(-0.963776052f, -0.266712755f), (float2)(-0.970031261f, -0.242980182f), (float2)(-0.975702107f, -0.219101235f),
    (float2)(-0.980785251f, -0.195090324f), (float2)(-0.985277653f, -0.170961887f), (float2)(-0.989176512f, -0.146730468f),
    (float2)(-0.992479563f, -0.122410677f), (float2)(-0.99518472f, -0.0980171412f), (float2)(-0.997290432f, -0.0735645667f),
    (float2)(-0.99879545f, -0.0490676761f), (float2)(-0.999698818f, -0.024541229f),
};

static float2 cmul(float2 a, float2 b) {
  return (float2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

static uint reverse_bits(uint x, uint bits) {
  uint r = 0;
  for (uint i = 0; i < bits; i++) {
    r = (r << 1) | (x & 1);
    x >>= 1;
  }
  return r;
}

// A triangular window over each signal of n points.
__kernel void apply_window(__global const float2 *in, __global float2 *out, uint n) {
  uint i = get_global_id(0);
  uint k = i % n;
  float w = 1.0f - fabs(((float)k - 0.5f * n) / (0.5f * n));
  out[i] = in[i] * w;
}

__kernel void bit_reverse(__global const float2 *in, __global float2 *out, uint log2n,
                          uint n) {
  uint i = get_global_id(0);
  uint base = i / n * n;
  out[base + reverse_bits(i % n, log2n)] = in[i];
}

// One radix-2 stage: butterflies of width 2 * span, in place.
__kernel void butterfly(__global float2 *data, uint span, uint n) {
  uint id = get_global_id(0);
  uint per_signal = n / 2;
  uint b = id / per_signal, k = id % per_signal;
  uint j = k % span;
  uint i0 = b * n + (k / span) * 2 * span + j;
  uint i1 = i0 + span;
  float2 t = cmul(twiddle[j * (n / (2 * span))], data[i1]);
  float2 u = data[i0];
  data[i0] = u + t;
  data[i1] = u - t;
}

__kernel void power_spectrum(__global const float2 *data, __global float *power) {
  uint i = get_global_id(0);
  float2 v = data[i];
  power[i] = v.x * v.x + v.y * v.y;
}
