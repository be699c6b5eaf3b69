// tp.all_reduce -> one mpi.allreduce on MPI_COMM_WORLD: the operands packed
// (flattened, one after the other) into a tensor handed over read-only, the
// collective writing a fresh buffer, the results sliced out of it and
// reshaped; "max" -> MPI_MAX; no operand elements -> no collective.
// RUN: tp-opt %s --convert-tp-to-linalg | FileCheck %s
// The CPU pipeline ends in one MPI_Allreduce call per collective.
// RUN: tp-opt %s --tp-lower-to-cpu | FileCheck %s --check-prefix=LLVM

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
