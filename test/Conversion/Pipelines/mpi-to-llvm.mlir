// tp-convert-mpi-to-llvm: mpi ops to calls of the MPI C API for the ABI in
// the module's dlti.map, set from `implementation` when absent (default:
// the MPI the project was built against; Open MPI on Debian). Open MPI's
// reduction ops are the library's globals ompi_mpi_op_sum / ompi_mpi_op_max
// (MLIR 22's patterns name them ompi_mpi_sum, which no library exports);
// MPICH's handles are integer constants. A module without mpi ops is left
// alone; an unknown implementation is an error.
// RUN: tp-opt %s --split-input-file --tp-convert-mpi-to-llvm="implementation=OpenMPI" | FileCheck %s --check-prefix=OMPI
// RUN: tp-opt %s --split-input-file --tp-convert-mpi-to-llvm="implementation=MPICH" | FileCheck %s --check-prefix=MPICH
// RUN: not tp-opt %s --split-input-file --tp-convert-mpi-to-llvm="implementation=LAM" 2>&1 | FileCheck %s --check-prefix=BAD

// OMPI: module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "OpenMPI">}
// OMPI-DAG: llvm.mlir.global external @ompi_mpi_op_sum()
// OMPI-DAG: llvm.mlir.global external @ompi_mpi_op_max()
// OMPI-DAG: llvm.mlir.global external @ompi_mpi_float()
// OMPI-DAG: llvm.mlir.global external @ompi_mpi_comm_world()
// OMPI-NOT: @ompi_mpi_sum
// OMPI-LABEL: func.func @f
// OMPI: %[[SUM:.*]] = llvm.mlir.addressof @ompi_mpi_op_sum
// OMPI: llvm.call @MPI_Allreduce({{.*}}, %[[SUM]], {{.*}})
// OMPI: %[[MAX:.*]] = llvm.mlir.addressof @ompi_mpi_op_max
// OMPI: llvm.call @MPI_Allreduce({{.*}}, %[[MAX]], {{.*}})

// MPICH: module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "MPICH">}
// MPICH-LABEL: func.func @f
// MPICH: llvm.mlir.constant(1476395011 : i32)
// MPICH: llvm.call @MPI_Allreduce
// MPICH: llvm.mlir.constant(1476395009 : i32)
// MPICH: llvm.call @MPI_Allreduce

// BAD: error: tp-convert-mpi-to-llvm: implementation must be OpenMPI or MPICH, got 'LAM'

func.func @f(%a: memref<4xf32>, %b: memref<4xf32>) {
  %comm = mpi.comm_world : !mpi.comm
  mpi.allreduce(%a, %b, MPI_SUM, %comm) : memref<4xf32>, memref<4xf32>
  mpi.allreduce(%a, %b, MPI_MAX, %comm) : memref<4xf32>, memref<4xf32>
  return
}

// -----

// A module without mpi ops gets no attribute.
// OMPI-LABEL: module {
// OMPI: func.func @plain
// MPICH-LABEL: module {
func.func @plain(%a: memref<4xf32>) {
  return
}
