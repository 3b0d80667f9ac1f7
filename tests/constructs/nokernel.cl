int add3(int a, int b, int c) { return a + b + c; }
float lerpf(float a, float b, float t) { return a + (b - a) * t; }
