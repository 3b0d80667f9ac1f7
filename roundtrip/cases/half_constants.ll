; Regression (generator): half constants were refused by the SPIR reader (llvm-ir 0.11 does
; not expose their value). They are now read through marker calls made before llvm-ir parses
; the module (spir/read/half_constants.rs): scalars, vectors, and phi operands (made at the end
; of the incoming block, one per block however many edges).
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024"
target triple = "spir64-unknown-unknown"

define spir_kernel void @k(half addrspace(1)* %p, <2 x half> addrspace(1)* %q, i32 %n) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
entry:
  %x = load half, half addrspace(1)* %p, align 2
  %y = fadd half %x, 0xH3C00
  %v = load <2 x half>, <2 x half> addrspace(1)* %q, align 4
  %w = fmul <2 x half> %v, <half 0xH4000, half 0xHBC00>
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %loop, label %done

loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi half [ 0xH7E00, %entry ], [ %acc1, %loop ]
  %acc1 = fadd half %acc, 0xH3800
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %loop, label %done

done:
  %r = phi half [ 0xH0001, %entry ], [ %acc1, %loop ]
  %s = fadd half %r, %y
  %neg = select i1 %c, half %s, half 0xHFC00
  store half %neg, half addrspace(1)* %p, align 2
  store <2 x half> %w, <2 x half> addrspace(1)* %q, align 4
  ret void
}

!opencl.ocl.version = !{!0}
!opencl.spir.version = !{!0}
!opencl.used.extensions = !{!5}
!0 = !{i32 1, i32 2}
!1 = !{i32 1, i32 1, i32 0}
!2 = !{!"none", !"none", !"none"}
!3 = !{!"half*", !"half2*", !"int"}
!4 = !{!"", !"", !""}
!5 = !{!"cl_khr_fp16"}
