; ModuleID = 'spir-xlate'
source_filename = "spir-xlate"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: nounwind
define spir_func i32 @classify(i32 %v) #0 {
entry:
  switch i32 %v, label %sw.default [
    i32 -3, label %return
    i32 -2, label %return
    i32 0, label %sw.bb1
    i32 1, label %sw.bb2
    i32 2, label %sw.bb3
    i32 5, label %sw.epilog
    i32 9, label %sw.epilog
    i32 13, label %sw.epilog
    i32 17, label %sw.bb5
  ]

sw.bb5:                                           ; preds = %entry
  br label %return

sw.bb2:                                           ; preds = %entry
  br label %sw.bb3

sw.bb3:                                           ; preds = %sw.bb2, %entry
  %v.addr.0 = phi i32 [ 10, %entry ], [ 20, %sw.bb2 ]
  br label %return

sw.bb1:                                           ; preds = %entry
  br label %return

sw.default:                                       ; preds = %entry
  %mul6 = mul i32 %v, %v
  br label %sw.epilog

sw.epilog:                                        ; preds = %sw.default, %entry, %entry, %entry
  %v.addr.1 = phi i32 [ %mul6, %sw.default ], [ %v, %entry ], [ %v, %entry ], [ %v, %entry ]
  %add7 = add i32 %v.addr.1, 1
  br label %return

return:                                           ; preds = %sw.epilog, %sw.bb1, %sw.bb3, %sw.bb5, %entry, %entry
  %retval.0 = phi i32 [ %add7, %sw.epilog ], [ -17, %sw.bb5 ], [ %v.addr.0, %sw.bb3 ], [ 7, %sw.bb1 ], [ 100, %entry ], [ 100, %entry ]
  ret i32 %retval.0
}

; Function Attrs: nounwind
define spir_kernel void @switch_goto(i32 addrspace(1)* nocapture %out, i32 addrspace(1)* nocapture readonly %x) #0 !kernel_arg_addr_space !9 !kernel_arg_access_qual !10 !kernel_arg_type !11 !kernel_arg_base_type !11 !kernel_arg_type_qual !12 !kernel_arg_name !13 {
entry:
  %call = call spir_func i64 @_Z13get_global_idj(i32 0)
  %arrayidx = getelementptr inbounds i32, i32 addrspace(1)* %x, i64 %call
  %0 = load i32, i32 addrspace(1)* %arrayidx, align 4
  switch i32 %0, label %sw.default.i [
    i32 -3, label %for.cond
    i32 -2, label %for.cond
    i32 0, label %sw.bb2.i.1
    i32 1, label %sw.bb2.i
    i32 2, label %sw.bb3.i
    i32 5, label %classify.exit
    i32 9, label %classify.exit
    i32 13, label %classify.exit
    i32 17, label %sw.default.i.1
  ]

sw.bb2.i:                                         ; preds = %entry
  br label %sw.bb3.i

sw.bb3.i:                                         ; preds = %sw.bb2.i, %entry
  %v.addr.0.i = phi i32 [ 10, %entry ], [ 20, %sw.bb2.i ]
  br label %for.cond

sw.default.i:                                     ; preds = %entry
  %mul6.i = mul i32 %0, %0
  br label %classify.exit

classify.exit:                                    ; preds = %sw.default.i, %entry, %entry, %entry
  %v.addr.1.i = phi i32 [ %mul6.i, %sw.default.i ], [ %0, %entry ], [ %0, %entry ], [ %0, %entry ]
  %add7.i = add i32 %v.addr.1.i, 1
  %cmp3 = icmp sgt i32 %v.addr.1.i, 499
  br i1 %cmp3, label %cleanup, label %for.cond

for.cond:                                         ; preds = %classify.exit, %sw.bb3.i, %entry, %entry
  %retval.0.i15 = phi i32 [ %add7.i, %classify.exit ], [ 100, %entry ], [ 100, %entry ], [ %v.addr.0.i, %sw.bb3.i ]
  %add.1 = add i32 %0, 1
  switch i32 %0, label %sw.default.i.1 [
    i32 -4, label %classify.exit.1
    i32 -3, label %classify.exit.1
    i32 -1, label %sw.bb1.i.1
    i32 0, label %sw.bb2.i.1
    i32 1, label %sw.bb3.i.1
    i32 4, label %sw.epilog.i.1
    i32 8, label %sw.epilog.i.1
    i32 12, label %sw.epilog.i.1
    i32 16, label %sw.bb5.i.1
  ]

sw.bb5.i.1:                                       ; preds = %for.cond
  br label %classify.exit.1

sw.bb2.i.1:                                       ; preds = %for.cond, %entry
  %retval.0.i1526 = phi i32 [ %retval.0.i15, %for.cond ], [ 7, %entry ]
  br label %sw.bb3.i.1

sw.bb3.i.1:                                       ; preds = %sw.bb2.i.1, %for.cond
  %retval.0.i1525 = phi i32 [ %retval.0.i15, %for.cond ], [ %retval.0.i1526, %sw.bb2.i.1 ]
  %v.addr.0.i.1 = phi i32 [ 10, %for.cond ], [ 20, %sw.bb2.i.1 ]
  br label %classify.exit.1

sw.bb1.i.1:                                       ; preds = %for.cond
  br label %classify.exit.1

sw.default.i.1:                                   ; preds = %for.cond, %entry
  %add.121 = phi i32 [ %add.1, %for.cond ], [ 18, %entry ]
  %retval.0.i1520 = phi i32 [ %retval.0.i15, %for.cond ], [ -17, %entry ]
  %mul6.i.1 = mul i32 %add.121, %add.121
  br label %sw.epilog.i.1

sw.epilog.i.1:                                    ; preds = %sw.default.i.1, %for.cond, %for.cond, %for.cond
  %retval.0.i1518 = phi i32 [ %retval.0.i1520, %sw.default.i.1 ], [ %retval.0.i15, %for.cond ], [ %retval.0.i15, %for.cond ], [ %retval.0.i15, %for.cond ]
  %v.addr.1.i.1 = phi i32 [ %mul6.i.1, %sw.default.i.1 ], [ %add.1, %for.cond ], [ %add.1, %for.cond ], [ %add.1, %for.cond ]
  %add7.i.1 = add i32 %v.addr.1.i.1, 1
  br label %classify.exit.1

classify.exit.1:                                  ; preds = %sw.epilog.i.1, %sw.bb1.i.1, %sw.bb3.i.1, %sw.bb5.i.1, %for.cond, %for.cond
  %retval.0.i1519 = phi i32 [ %retval.0.i1518, %sw.epilog.i.1 ], [ %retval.0.i15, %sw.bb5.i.1 ], [ %retval.0.i1525, %sw.bb3.i.1 ], [ %retval.0.i15, %sw.bb1.i.1 ], [ %retval.0.i15, %for.cond ], [ %retval.0.i15, %for.cond ]
  %retval.0.i.1 = phi i32 [ %add7.i.1, %sw.epilog.i.1 ], [ -17, %sw.bb5.i.1 ], [ %v.addr.0.i.1, %sw.bb3.i.1 ], [ 7, %sw.bb1.i.1 ], [ 100, %for.cond ], [ 100, %for.cond ]
  %add2.1 = add i32 %retval.0.i.1, %retval.0.i1519
  %cmp3.1 = icmp sgt i32 %add2.1, 500
  br i1 %cmp3.1, label %cleanup, label %for.cond.1

for.cond.1:                                       ; preds = %classify.exit.1
  %add.2 = add i32 %0, 2
  switch i32 %0, label %sw.default.i.2 [
    i32 -5, label %classify.exit.2
    i32 -4, label %classify.exit.2
    i32 -2, label %sw.bb1.i.2
    i32 -1, label %sw.bb2.i.2
    i32 0, label %sw.bb3.i.2
    i32 3, label %sw.epilog.i.2
    i32 7, label %sw.epilog.i.2
    i32 11, label %sw.epilog.i.2
    i32 15, label %sw.bb5.i.2
  ]

sw.bb5.i.2:                                       ; preds = %for.cond.1
  br label %classify.exit.2

sw.bb2.i.2:                                       ; preds = %for.cond.1
  br label %sw.bb3.i.2

sw.bb3.i.2:                                       ; preds = %sw.bb2.i.2, %for.cond.1
  %v.addr.0.i.2 = phi i32 [ 10, %for.cond.1 ], [ 20, %sw.bb2.i.2 ]
  br label %classify.exit.2

sw.bb1.i.2:                                       ; preds = %for.cond.1
  br label %classify.exit.2

sw.default.i.2:                                   ; preds = %for.cond.1
  %mul6.i.2 = mul i32 %add.2, %add.2
  br label %sw.epilog.i.2

sw.epilog.i.2:                                    ; preds = %sw.default.i.2, %for.cond.1, %for.cond.1, %for.cond.1
  %v.addr.1.i.2 = phi i32 [ %mul6.i.2, %sw.default.i.2 ], [ %add.2, %for.cond.1 ], [ %add.2, %for.cond.1 ], [ %add.2, %for.cond.1 ]
  %add7.i.2 = add i32 %v.addr.1.i.2, 1
  br label %classify.exit.2

classify.exit.2:                                  ; preds = %sw.epilog.i.2, %sw.bb1.i.2, %sw.bb3.i.2, %sw.bb5.i.2, %for.cond.1, %for.cond.1
  %retval.0.i.2 = phi i32 [ %add7.i.2, %sw.epilog.i.2 ], [ -17, %sw.bb5.i.2 ], [ %v.addr.0.i.2, %sw.bb3.i.2 ], [ 7, %sw.bb1.i.2 ], [ 100, %for.cond.1 ], [ 100, %for.cond.1 ]
  %add2.2 = add i32 %retval.0.i.2, %add2.1
  %cmp3.2 = icmp sgt i32 %add2.2, 500
  br i1 %cmp3.2, label %cleanup, label %for.cond.2

for.cond.2:                                       ; preds = %classify.exit.2
  %add.3 = add i32 %0, 3
  switch i32 %0, label %sw.default.i.3 [
    i32 -6, label %classify.exit.3
    i32 -5, label %classify.exit.3
    i32 -3, label %sw.bb1.i.3
    i32 -2, label %sw.bb2.i.3
    i32 -1, label %sw.bb3.i.3
    i32 2, label %sw.epilog.i.3
    i32 6, label %sw.epilog.i.3
    i32 10, label %sw.epilog.i.3
    i32 14, label %sw.bb5.i.3
  ]

sw.bb5.i.3:                                       ; preds = %for.cond.2
  br label %classify.exit.3

sw.bb2.i.3:                                       ; preds = %for.cond.2
  br label %sw.bb3.i.3

sw.bb3.i.3:                                       ; preds = %sw.bb2.i.3, %for.cond.2
  %v.addr.0.i.3 = phi i32 [ 10, %for.cond.2 ], [ 20, %sw.bb2.i.3 ]
  br label %classify.exit.3

sw.bb1.i.3:                                       ; preds = %for.cond.2
  br label %classify.exit.3

sw.default.i.3:                                   ; preds = %for.cond.2
  %mul6.i.3 = mul i32 %add.3, %add.3
  br label %sw.epilog.i.3

sw.epilog.i.3:                                    ; preds = %sw.default.i.3, %for.cond.2, %for.cond.2, %for.cond.2
  %v.addr.1.i.3 = phi i32 [ %mul6.i.3, %sw.default.i.3 ], [ %add.3, %for.cond.2 ], [ %add.3, %for.cond.2 ], [ %add.3, %for.cond.2 ]
  %add7.i.3 = add i32 %v.addr.1.i.3, 1
  br label %classify.exit.3

classify.exit.3:                                  ; preds = %sw.epilog.i.3, %sw.bb1.i.3, %sw.bb3.i.3, %sw.bb5.i.3, %for.cond.2, %for.cond.2
  %retval.0.i.3 = phi i32 [ %add7.i.3, %sw.epilog.i.3 ], [ -17, %sw.bb5.i.3 ], [ %v.addr.0.i.3, %sw.bb3.i.3 ], [ 7, %sw.bb1.i.3 ], [ 100, %for.cond.2 ], [ 100, %for.cond.2 ]
  %add2.3 = add i32 %retval.0.i.3, %add2.2
  %cmp3.3 = icmp slt i32 %add2.3, 501
  br label %cleanup

cleanup:                                          ; preds = %classify.exit.3, %classify.exit.2, %classify.exit.1, %classify.exit
  %add2.lcssa = phi i32 [ %add7.i, %classify.exit ], [ %add2.1, %classify.exit.1 ], [ %add2.2, %classify.exit.2 ], [ %add2.3, %classify.exit.3 ]
  %cmp.lcssa = phi i1 [ false, %classify.exit ], [ false, %classify.exit.1 ], [ false, %classify.exit.2 ], [ %cmp3.3, %classify.exit.3 ]
  %mul = zext i1 %cmp.lcssa to i32
  %spec.select = shl i32 %add2.lcssa, %mul
  %arrayidx4 = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %call
  store i32 %spec.select, i32 addrspace(1)* %arrayidx4, align 4
  ret void
}

; Function Attrs: nounwind
declare spir_func i64 @_Z13get_global_idj(i32) #0

attributes #0 = { nounwind }

!opencl.kernels = !{!0}
!opencl.spir.version = !{!7}
!opencl.ocl.version = !{!7}
!opencl.used.extensions = !{!8}
!opencl.used.optional.core.features = !{!8}
!opencl.compiler.options = !{!8}

!0 = !{void (i32 addrspace(1)*, i32 addrspace(1)*)* @switch_goto, !1, !2, !3, !4, !5, !6}
!1 = !{!"kernel_arg_addr_space", i32 1, i32 1}
!2 = !{!"kernel_arg_access_qual", !"none", !"none"}
!3 = !{!"kernel_arg_type", !"int*", !"int*"}
!4 = !{!"kernel_arg_base_type", !"int*", !"int*"}
!5 = !{!"kernel_arg_type_qual", !"", !"const"}
!6 = !{!"kernel_arg_name", !"out", !"x"}
!7 = !{i32 1, i32 2}
!8 = !{}
!9 = !{i32 1, i32 1}
!10 = !{!"none", !"none"}
!11 = !{!"int*", !"int*"}
!12 = !{!"", !"const"}
!13 = !{!"out", !"x"}
