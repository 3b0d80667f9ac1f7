; Regression (property graph -> SPIR -> graph): extractvalue with two indices from a named
; struct made the bitcode reader panic (llvm-ir cannot type it); paths are now chains of
; single-index steps in both readers.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024"
target triple = "spir64-unknown-unknown"

%struct.S = type { i32, float, <4 x i16>, [3 x i8] }

define spir_kernel void @k(%struct.S addrspace(1)* %in, i8 addrspace(1)* %out) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
entry:
  %s = load %struct.S, %struct.S addrspace(1)* %in, align 8
  %b = extractvalue %struct.S %s, 3, 1
  %t = insertvalue %struct.S %s, i8 %b, 3, 0
  %c = extractvalue %struct.S %t, 3, 0
  %d = add i8 %b, %c
  store i8 %d, i8 addrspace(1)* %out, align 1
  ret void
}

!opencl.ocl.version = !{!0}
!opencl.spir.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1, i32 1}
!2 = !{!"none", !"none"}
!3 = !{!"S*", !"char*"}
!4 = !{!"", !""}
