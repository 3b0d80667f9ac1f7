// A struct passed by value: its parameter is `byval(%struct.S) align 16`, which SPIR-V says
// with ByVal and an Alignment decoration on the OpFunctionParameter.
typedef struct { float4 a; int b; } S;
void helper(S *p, global float4 *o) { o[0] = p->a * (float)p->b; }
kernel void k(S s, global float4 *o) { S t = s; t.b += 1; helper(&t, o); }
