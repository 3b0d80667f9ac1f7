// European option pricing (Black-Scholes) with the cumulative normal distribution by
// erfc, one option per work-item: the finance benchmark of every GPU suite.
//@bench black_scholes global=8388608 local=256 out:f32[8388608] out:f32[8388608] in:f32[8388608]=5..30 in:f32[8388608]=1..100 in:f32[8388608]=0.25..10 f32=0.02 f32=0.30
//@bench-cpu black_scholes global=262144 local=256 out:f32[262144] out:f32[262144] in:f32[262144]=5..30 in:f32[262144]=1..100 in:f32[262144]=0.25..10 f32=0.02 f32=0.30
float cnd(float d) { return 0.5f * erfc(-d * M_SQRT1_2_F); }

__kernel void black_scholes(__global float *call, __global float *put,
                            __global const float *price, __global const float *strike,
                            __global const float *years, float riskfree, float volatility) {
  const int i = get_global_id(0);
  const float s = price[i], x = strike[i], t = years[i];
  const float sqrt_t = sqrt(t);
  const float d1 = (log(s / x) + (riskfree + 0.5f * volatility * volatility) * t) /
                   (volatility * sqrt_t);
  const float d2 = d1 - volatility * sqrt_t;
  const float discount = exp(-riskfree * t);
  call[i] = s * cnd(d1) - x * discount * cnd(d2);
  put[i] = x * discount * cnd(-d2) - s * cnd(-d1);
}
