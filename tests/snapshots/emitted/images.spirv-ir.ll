; ModuleID = 'spir-xlate'
source_filename = "spir-xlate"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024"
target triple = "spir64-unknown-unknown"

%spirv.Image._void_1_0_0_0_0_0_0 = type opaque
%spirv.Image._void_1_0_0_0_0_0_1 = type opaque
%spirv.Sampler = type opaque
%spirv.SampledImage._void_1_0_0_0_0_0_0 = type opaque

; Function Attrs: nounwind
define spir_kernel void @images(%spirv.Image._void_1_0_0_0_0_0_0 addrspace(1)* %src, %spirv.Image._void_1_0_0_0_0_0_1 addrspace(1)* %dst, %spirv.Sampler addrspace(2)* %s, i32 addrspace(1)* nocapture %dims) #0 !kernel_arg_addr_space !3 !kernel_arg_access_qual !4 !kernel_arg_type !5 !kernel_arg_base_type !5 !kernel_arg_type_qual !6 !kernel_arg_name !7 {
entry:
  %call = call spir_func i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32 0)
  %conv = trunc i64 %call to i32
  %vecinit = insertelement <2 x i32> undef, i32 %conv, i32 0
  %call1 = call spir_func i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32 1)
  %conv2 = trunc i64 %call1 to i32
  %vecinit3 = insertelement <2 x i32> %vecinit, i32 %conv2, i32 1
  %0 = call %spirv.Sampler addrspace(2)* @__translate_sampler_initializer(i32 18)
  %1 = call spir_func %spirv.SampledImage._void_1_0_0_0_0_0_0 addrspace(1)* @_Z20__spirv_SampledImagePU3AS133__spirv_Image__void_1_0_0_0_0_0_0PU3AS215__spirv_Sampler(%spirv.Image._void_1_0_0_0_0_0_0 addrspace(1)* %src, %spirv.Sampler addrspace(2)* %0)
  %call4 = call spir_func <4 x float> @_Z38__spirv_ImageSampleExplicitLod_Rfloat4PU3AS140__spirv_SampledImage__void_1_0_0_0_0_0_0Dv2_iif(%spirv.SampledImage._void_1_0_0_0_0_0_0 addrspace(1)* %1, <2 x i32> %vecinit3, i32 2, float 0.000000e+00)
  %2 = call spir_func %spirv.SampledImage._void_1_0_0_0_0_0_0 addrspace(1)* @_Z20__spirv_SampledImagePU3AS133__spirv_Image__void_1_0_0_0_0_0_0PU3AS215__spirv_Sampler(%spirv.Image._void_1_0_0_0_0_0_0 addrspace(1)* %src, %spirv.Sampler addrspace(2)* %s)
  %call5 = call spir_func <4 x float> @_Z38__spirv_ImageSampleExplicitLod_Rfloat4PU3AS140__spirv_SampledImage__void_1_0_0_0_0_0_0Dv2_iif(%spirv.SampledImage._void_1_0_0_0_0_0_0 addrspace(1)* %2, <2 x i32> %vecinit3, i32 2, float 0.000000e+00)
  %add = fadd <4 x float> %call4, %call5
  call spir_func void @_Z18__spirv_ImageWritePU3AS133__spirv_Image__void_1_0_0_0_0_0_1Dv2_iDv4_f(%spirv.Image._void_1_0_0_0_0_0_1 addrspace(1)* %dst, <2 x i32> %vecinit3, <4 x float> %add)
  %cmp = icmp eq i32 %conv, 0
  %cmp7 = icmp eq i32 %conv2, 0
  %or.cond = select i1 %cmp, i1 %cmp7, i1 false
  br i1 %or.cond, label %if.then, label %if.end

if.then:                                          ; preds = %entry
  %3 = call spir_func <2 x i32> @_Z28__spirv_ImageQuerySize_Rint2PU3AS133__spirv_Image__void_1_0_0_0_0_0_0(%spirv.Image._void_1_0_0_0_0_0_0 addrspace(1)* %src)
  %call9 = extractelement <2 x i32> %3, i32 0
  store i32 %call9, i32 addrspace(1)* %dims, align 4
  %4 = call spir_func <2 x i32> @_Z28__spirv_ImageQuerySize_Rint2PU3AS133__spirv_Image__void_1_0_0_0_0_0_1(%spirv.Image._void_1_0_0_0_0_0_1 addrspace(1)* %dst)
  %call10 = extractelement <2 x i32> %4, i32 1
  %arrayidx11 = getelementptr inbounds i32, i32 addrspace(1)* %dims, i64 1
  store i32 %call10, i32 addrspace(1)* %arrayidx11, align 4
  %call12 = call spir_func <2 x i32> @_Z28__spirv_ImageQuerySize_Rint2PU3AS133__spirv_Image__void_1_0_0_0_0_0_0(%spirv.Image._void_1_0_0_0_0_0_0 addrspace(1)* %src)
  %shift = shufflevector <2 x i32> %call12, <2 x i32> undef, <2 x i32> <i32 1, i32 undef>
  %5 = mul <2 x i32> %call12, %shift
  %mul = extractelement <2 x i32> %5, i32 0
  %arrayidx13 = getelementptr inbounds i32, i32 addrspace(1)* %dims, i64 2
  store i32 %mul, i32 addrspace(1)* %arrayidx13, align 4
  %6 = call spir_func i32 @_Z23__spirv_ImageQueryOrderPU3AS133__spirv_Image__void_1_0_0_0_0_0_0(%spirv.Image._void_1_0_0_0_0_0_0 addrspace(1)* %src)
  %call14 = add i32 %6, 4272
  %arrayidx15 = getelementptr inbounds i32, i32 addrspace(1)* %dims, i64 3
  store i32 %call14, i32 addrspace(1)* %arrayidx15, align 4
  br label %if.end

if.end:                                           ; preds = %if.then, %entry
  ret void
}

; Function Attrs: nounwind
declare spir_func i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32) #0

declare %spirv.Sampler addrspace(2)* @__translate_sampler_initializer(i32)

; Function Attrs: nounwind
declare spir_func %spirv.SampledImage._void_1_0_0_0_0_0_0 addrspace(1)* @_Z20__spirv_SampledImagePU3AS133__spirv_Image__void_1_0_0_0_0_0_0PU3AS215__spirv_Sampler(%spirv.Image._void_1_0_0_0_0_0_0 addrspace(1)*, %spirv.Sampler addrspace(2)*) #0

; Function Attrs: nounwind
declare spir_func <4 x float> @_Z38__spirv_ImageSampleExplicitLod_Rfloat4PU3AS140__spirv_SampledImage__void_1_0_0_0_0_0_0Dv2_iif(%spirv.SampledImage._void_1_0_0_0_0_0_0 addrspace(1)*, <2 x i32>, i32, float) #0

; Function Attrs: nounwind
declare spir_func void @_Z18__spirv_ImageWritePU3AS133__spirv_Image__void_1_0_0_0_0_0_1Dv2_iDv4_f(%spirv.Image._void_1_0_0_0_0_0_1 addrspace(1)*, <2 x i32>, <4 x float>) #0

; Function Attrs: nounwind
declare spir_func <2 x i32> @_Z28__spirv_ImageQuerySize_Rint2PU3AS133__spirv_Image__void_1_0_0_0_0_0_0(%spirv.Image._void_1_0_0_0_0_0_0 addrspace(1)*) #0

; Function Attrs: nounwind
declare spir_func <2 x i32> @_Z28__spirv_ImageQuerySize_Rint2PU3AS133__spirv_Image__void_1_0_0_0_0_0_1(%spirv.Image._void_1_0_0_0_0_0_1 addrspace(1)*) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z23__spirv_ImageQueryOrderPU3AS133__spirv_Image__void_1_0_0_0_0_0_0(%spirv.Image._void_1_0_0_0_0_0_0 addrspace(1)*) #0

attributes #0 = { nounwind }

!spirv.Source = !{!0}
!spirv.MemoryModel = !{!1}
!opencl.spir.version = !{!2}

!0 = !{i32 3, i32 102000}
!1 = !{i32 2, i32 2}
!2 = !{i32 1, i32 2}
!3 = !{i32 1, i32 1, i32 0, i32 1}
!4 = !{!"read_only", !"write_only", !"none", !"none"}
!5 = !{!"image2d_t", !"image2d_t", !"sampler_t", !"int*"}
!6 = !{!"", !"", !"", !""}
!7 = !{!"src", !"dst", !"s", !"dims"}
