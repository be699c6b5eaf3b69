// tp-run --repeat times CPU runs that write into one set of result buffers
// allocated before them (with or without warm-up runs): the results
// printed and written after the timed runs are those of one call.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy; numpy.save('%t/x.npy', numpy.array([[-1.5, 2.0, 0.25], [4.0, -0.5, 3.0]], numpy.float32))"
// RUN: tp-run %s --input=%t/x.npy --print | FileCheck %s
// RUN: tp-run %s --input=%t/x.npy --repeat=3 --warmup=0 --print --output-dir=%t | FileCheck %s --check-prefixes=CHECK,TIMED
// RUN: %python -c "import numpy; r = [numpy.load('%t/f.out%%d.npy' %% k) for k in range(3)]; x = numpy.load('%t/x.npy'); assert (r[0] == numpy.maximum(x, 0) * 2 + 1).all() and (r[1] == r[0]).all() and (r[2] == x.sum(1)).all(), r"
// RUN: tp-run %s --input=%t/x.npy --repeat=4 --warmup=2 --print | FileCheck %s --check-prefixes=CHECK,TIMED

// TIMED: @f: median {{[0-9.]+}} ms, {{.*}} over {{[34]}} runs
// CHECK: @f result #0: {{\[\[}}1, 5, 1.5], [9, 1, 7]]
// CHECK: @f result #1: {{\[\[}}1, 5, 1.5], [9, 1, 7]]
// CHECK: @f result #2: [0.75, 6.5]

// A value returned twice (each position its own buffer) and a reduction
// that accumulates into its result: a buffer carried over from the run
// before must not leak into the next.
func.func @f(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2xf32>) {
  %r = tp.relu %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %two = tp.constant dense<2.0> : tensor<f32>
  %one = tp.constant dense<1.0> : tensor<f32>
  %m = tp.mul %r, %two : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %y = tp.add %m, %one : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %s = tp.sum %x {dim = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %y, %y, %s : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2xf32>
}
