// tp-run --init=fan-in: generated floats of rank >= 2 are the uniform ones
// (same seed, same draws) scaled by 1/sqrt(last dim), here 1/sqrt(4) for
// the 3x4 weight; rank 1 and integers are unchanged. Default: uniform.
// RUN: rm -rf %t.u %t.f %t.d && mkdir -p %t.u %t.f %t.d
// RUN: tp-run %s --seed=5 --output-dir=%t.u --init=uniform
// RUN: tp-run %s --seed=5 --output-dir=%t.f --init=fan-in
// RUN: tp-run %s --seed=5 --output-dir=%t.d
// RUN: %python -c "import numpy as np; l = lambda d, k: np.load('%t.' + d + '/f.out%%d.npy' %% k); \
// RUN:   assert np.array_equal(l('f', 0), l('u', 0) * np.float32(0.5)), 'weight'; \
// RUN:   assert np.array_equal(l('f', 1), l('u', 1)), 'bias'; \
// RUN:   assert np.array_equal(l('f', 2), l('u', 2)), 'integers'; \
// RUN:   assert all(np.array_equal(l('d', k), l('u', k)) for k in range(3)), 'default'; \
// RUN:   assert np.abs(l('u', 0)).max() > 0.5 >= np.abs(l('f', 0)).max(); print('init ok')" | FileCheck %s
// RUN: not tp-run %s --init=normal 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: init ok
// BAD: tp-run: for the --init option: Cannot find option named 'normal'!

func.func @f(%w: tensor<3x4xf32>, %b: tensor<4xf32>, %i: tensor<5xi64>) -> (tensor<3x4xf32>, tensor<4xf32>, tensor<5xi64>) {
  %nw = tp.neg %w : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %nb = tp.neg %b : (tensor<4xf32>) -> tensor<4xf32>
  %ni = tp.neg %i : (tensor<5xi64>) -> tensor<5xi64>
  return %nw, %nb, %ni : tensor<3x4xf32>, tensor<4xf32>, tensor<5xi64>
}
