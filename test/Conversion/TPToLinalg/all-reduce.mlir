// tp.all_reduce -> one mpi.allreduce on MPI_COMM_WORLD: the operands packed
// (flattened, one after the other) into a tensor handed over read-only, the
// collective writing a fresh buffer, the results sliced out of it and
// reshaped; "max" -> MPI_MAX; no operand elements -> no collective.
// RUN: tp-opt %s --convert-tp-to-linalg | FileCheck %s
// The CPU pipeline ends in one MPI_Allreduce call per collective.
// RUN: tp-opt %s --tp-lower-to-cpu | FileCheck %s --check-prefix=LLVM
// The GPU pipeline refuses it at the op.
// RUN: not tp-opt %s --tp-lower-to-nvvm 2>&1 | FileCheck %s --check-prefix=GPU
// GPU: error: 'tp.all_reduce' op has no GPU lowering: data-parallel train steps run on the CPU (tp-train --distributed)

// LLVM-LABEL: llvm.func @sum
// LLVM-COUNT-1: llvm.call @MPI_Allreduce
// LLVM-NOT: llvm.call @MPI_Allreduce
// LLVM-LABEL: llvm.func @max
// LLVM-COUNT-1: llvm.call @MPI_Allreduce
// LLVM-NOT: llvm.call @MPI_Allreduce
// LLVM-LABEL: llvm.func @nothing
// LLVM-NOT: @MPI_Allreduce

// CHECK-LABEL: func.func @sum
// CHECK-SAME: (%[[S:.*]]: tensor<f32>, %[[V:.*]]: tensor<3xf32>, %[[M:.*]]: tensor<2x2xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8xf32>
// CHECK: %[[S1:.*]] = tensor.expand_shape %[[S]] [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK: %[[P0:.*]] = tensor.insert_slice %[[S1]] into %[[E]][0] [1] [1]
// CHECK: %[[P1:.*]] = tensor.insert_slice %[[V]] into %[[P0]][1] [3] [1]
// CHECK: %[[M1:.*]] = tensor.collapse_shape %[[M]] {{\[\[}}0, 1]] : tensor<2x2xf32> into tensor<4xf32>
// CHECK: %[[P2:.*]] = tensor.insert_slice %[[M1]] into %[[P1]][4] [4] [1]
// CHECK: %[[SEND:.*]] = bufferization.to_buffer %[[P2]] read_only : tensor<8xf32> to memref<8xf32>
// CHECK: %[[RECV:.*]] = memref.alloc() : memref<8xf32>
// CHECK: %[[COMM:.*]] = mpi.comm_world : !mpi.comm
// CHECK: mpi.allreduce(%[[SEND]], %[[RECV]], MPI_SUM, %[[COMM]]) : memref<8xf32>, memref<8xf32>
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[RECV]] restrict writable
// CHECK: %[[R0:.*]] = tensor.extract_slice %[[T]][0] [1] [1]
// CHECK: %[[S2:.*]] = tensor.collapse_shape %[[R0]] [] : tensor<1xf32> into tensor<f32>
// CHECK: %[[R1:.*]] = tensor.extract_slice %[[T]][1] [3] [1]
// CHECK: %[[R2:.*]] = tensor.extract_slice %[[T]][4] [4] [1]
// CHECK: %[[M2:.*]] = tensor.expand_shape %[[R2]] {{\[\[}}0, 1]] output_shape [2, 2]
// CHECK: return %[[S2]], %[[R1]], %[[M2]]
func.func @sum(%s: tensor<f32>, %v: tensor<3xf32>, %m: tensor<2x2xf32>) -> (tensor<f32>, tensor<3xf32>, tensor<2x2xf32>) {
  %r:3 = tp.all_reduce "sum" %s, %v, %m : tensor<f32>, tensor<3xf32>, tensor<2x2xf32>
  return %r#0, %r#1, %r#2 : tensor<f32>, tensor<3xf32>, tensor<2x2xf32>
}

// CHECK-LABEL: func.func @max
// CHECK: mpi.allreduce(%{{.*}}, %{{.*}}, MPI_MAX, %{{.*}}) : memref<4xi64>, memref<4xi64>
func.func @max(%v: tensor<4xi64>) -> tensor<4xi64> {
  %r = tp.all_reduce "max" %v : tensor<4xi64>
  return %r : tensor<4xi64>
}

// CHECK-LABEL: func.func @nothing
// CHECK-NOT: mpi.
// CHECK: return %arg0
func.func @nothing(%v: tensor<0x3xf32>) -> tensor<0x3xf32> {
  %r = tp.all_reduce "sum" %v : tensor<0x3xf32>
  return %r : tensor<0x3xf32>
}

// With `overlap` the collective starts at the op (a call that returns a
// ticket, given a fresh buffer holding the packed operands and a fresh
// receive buffer: nothing else may touch either while it runs) and is
// awaited just before the first op reading a result, so the ops in between
// (here the exp) run meanwhile; the wait gets both buffers, which keeps
// them alive until then.
// CHECK-LABEL: func.func @overlapped
// CHECK-SAME: (%[[G:.*]]: tensor<4xf32>, %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[KIND:.*]] = arith.constant 0 : i32
// CHECK: %[[SEND:.*]] = memref.alloc() : memref<4xf32>
// CHECK: bufferization.materialize_in_destination %[[G]] in writable %[[SEND]]
// CHECK: %[[RECV:.*]] = memref.alloc() : memref<4xf32>
// CHECK: %[[S:.*]] = memref.cast %[[SEND]] : memref<4xf32> to memref<?xf32>
// CHECK: %[[R:.*]] = memref.cast %[[RECV]] : memref<4xf32> to memref<?xf32>
// CHECK: %[[T:.*]] = call @tp_mpi_allreduce_start_f32(%[[S]], %[[R]], %[[KIND]]) : (memref<?xf32>, memref<?xf32>, i32) -> i64
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK: call @tp_mpi_allreduce_wait_f32(%[[T]], %[[S]], %[[R]])
// CHECK-NEXT: %[[V:.*]] = bufferization.to_tensor %[[RECV]] restrict writable
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>)
// LLVM-LABEL: llvm.func @overlapped
// LLVM: llvm.call @tp_mpi_allreduce_start_f32
// LLVM: llvm.call @tp_mpi_allreduce_wait_f32
// LLVM-NOT: @MPI_Allreduce
func.func @overlapped(%g: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = tp.all_reduce "sum" overlap %g : tensor<4xf32>
  %e = tp.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  %s = tp.add %r, %e : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}
