; Regression (corpus, then generator): OpenCL C asks an image's size one component at a time
; (get_image_width, ...), SPIR-V for the whole vector and extracts a lane; a 1D image's size is
; a scalar. A lane of the size vector is now the one-component query in both readers
; (Module::query_component), and a one-component size is get_image_width's (Module::size_query).
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024"
target triple = "spir64-unknown-unknown"

%opencl.image2d_ro_t = type opaque
%opencl.image1d_ro_t = type opaque

define spir_kernel void @k(%opencl.image2d_ro_t addrspace(1)* %img, %opencl.image1d_ro_t addrspace(1)* %line, <2 x i32> addrspace(1)* %out) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
entry:
  %w = call spir_func i32 @_Z15get_image_width14ocl_image2d_ro(%opencl.image2d_ro_t addrspace(1)* %img)
  %h = call spir_func i32 @_Z16get_image_height14ocl_image2d_ro(%opencl.image2d_ro_t addrspace(1)* %img)
  %d = call spir_func <2 x i32> @_Z13get_image_dim14ocl_image2d_ro(%opencl.image2d_ro_t addrspace(1)* %img)
  %l = call spir_func i32 @_Z15get_image_width14ocl_image1d_ro(%opencl.image1d_ro_t addrspace(1)* %line)
  %y = extractelement <2 x i32> %d, i32 1
  %a = add i32 %w, %h
  %b = add i32 %a, %l
  %c = add i32 %b, %y
  %v = insertelement <2 x i32> %d, i32 %c, i32 0
  store <2 x i32> %v, <2 x i32> addrspace(1)* %out, align 8
  ret void
}

declare spir_func i32 @_Z15get_image_width14ocl_image2d_ro(%opencl.image2d_ro_t addrspace(1)*)
declare spir_func i32 @_Z16get_image_height14ocl_image2d_ro(%opencl.image2d_ro_t addrspace(1)*)
declare spir_func <2 x i32> @_Z13get_image_dim14ocl_image2d_ro(%opencl.image2d_ro_t addrspace(1)*)
declare spir_func i32 @_Z15get_image_width14ocl_image1d_ro(%opencl.image1d_ro_t addrspace(1)*)

!opencl.ocl.version = !{!0}
!opencl.spir.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1, i32 1, i32 1}
!2 = !{!"read_only", !"read_only", !"none"}
!3 = !{!"image2d_t", !"image1d_t", !"int2*"}
!4 = !{!"", !"", !""}
