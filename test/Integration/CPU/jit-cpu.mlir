// TP_JIT_CPU=<LLVM CPU name> makes the JIT compile for that CPU's features
// instead of the host's (benchmarks of older CPUs on newer ones,
// docs/benchmarks.md): the result is the same; an unknown name is an error
// that names it, and tp-run exits non-zero.
// RUN: env TP_JIT_CPU=x86-64 tp-run %s --print | FileCheck %s
// RUN: env TP_JIT_CPU=not-a-cpu not tp-run %s --print 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: @scale result #0: [2, 4, 6, 8]
// BAD: TP_JIT_CPU=not-a-cpu is not a CPU LLVM knows for x86_64
func.func @scale() -> tensor<4xf32> {
  %x = tp.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %y = tp.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
