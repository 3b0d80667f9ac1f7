//@std CLC++
//@exec cpp_classes global=64 local=16 out:f32[128] in:f32[64]=-50..50 local:f32[16]
// C++ for OpenCL (issue 32, item 4), written the way such code is: a class template with
// methods and operators (every `this` and reference a generic pointer), a function template
// over pointers into any space, a lambda, a struct with a constructor. For Vulkan each
// generic pointer takes the space the program gives it.
template <typename T> struct Vec3 {
  T x, y, z;
  Vec3(T a, T b, T c) : x(a), y(b), z(c) {}
  T dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
  Vec3 operator+(const Vec3 &o) const { return Vec3(x + o.x, y + o.y, z + o.z); }
  Vec3 &operator*=(T s) {
    x *= s;
    y *= s;
    z *= s;
    return *this;
  }
};

template <typename T> T sum_of(const T *p, int n) {
  T s = T(0);
  for (int i = 0; i < n; i++)
    s += p[i];
  return s;
}

class Accumulator {
  float total;
  int count;

public:
  Accumulator() : total(0.0f), count(0) {}
  void add(float v) {
    total += v;
    count++;
  }
  float mean() const { return count ? total / count : 0.0f; }
};

__kernel void cpp_classes(__global float *out, __global const float *in, __local float *tile) {
  size_t i = get_global_id(0), l = get_local_id(0);
  tile[l] = in[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  Vec3<float> a(in[i], in[(i + 1) & 63], in[(i + 2) & 63]);
  Vec3<float> b(tile[l], tile[(l + 1) & 15], 2.0f);
  Vec3<float> c = a + b;
  c *= 0.5f;
  float priv[3] = {c.x, c.y, c.z};
  Accumulator acc;
  auto feed = [&acc](float v) { acc.add(v * 2.0f); };
  for (int k = 0; k < 3; k++)
    feed(priv[k]);
  out[i] = c.dot(a) + acc.mean();
  out[64 + i] = sum_of<float>(priv, 3) + sum_of<float>(&in[i & 56], 8) +
                sum_of<float>(&tile[l & 8], 8);
}
