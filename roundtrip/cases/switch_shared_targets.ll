; Regression (corpus and property graph -> SPIR-V -> graph): switch cases that share a target
; with phis came back with a forwarding block per extra edge (SPIR-V lists a phi's parent
; once, so the SPIR-V writer routes each extra edge through one); both readers now merge such
; blocks back into the edge (Body::merge_forwarders). Also two cases sharing a block without
; phis, which SPIR-V says directly.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024"
target triple = "spir64-unknown-unknown"

define spir_kernel void @k(i32 addrspace(1)* %io, i8 %sel) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
entry:
  %x = load i32, i32 addrspace(1)* %io, align 4
  switch i8 %sel, label %join [
    i8 1, label %join
    i8 2, label %twice
    i8 -3, label %twice
    i8 4, label %join
  ]

twice:
  %y = mul i32 %x, 2
  br label %join

join:
  %r = phi i32 [ %x, %entry ], [ %x, %entry ], [ %y, %twice ], [ %x, %entry ]
  %c = icmp sgt i32 %r, 7
  br i1 %c, label %done, label %done

done:
  %s = phi i32 [ %r, %join ], [ %r, %join ]
  store i32 %s, i32 addrspace(1)* %io, align 4
  ret void
}

!opencl.ocl.version = !{!0}
!opencl.spir.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1, i32 0}
!2 = !{!"none", !"none"}
!3 = !{!"int*", !"char"}
!4 = !{!"", !""}
