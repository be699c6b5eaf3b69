// tp-run --input-sets runs each entry once per input set
// <npy-dir>/<entry>@<tag>.arg<i>.npy of one compiled module, beside the
// entry's own <entry>.arg<i>.npy, and writes <entry>@<tag>.out<k>.npy.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; r = np.random.default_rng(1); [np.save('%t/f' + s + '.arg' + str(i) + '.npy', r.uniform(-1, 1, (2, 3)).astype(np.float32)) for s in ('', '@a', '@b2') for i in (0, 1)]; np.save('%t/g@x.arg0.npy', np.zeros((2, 3), np.float32))"
// RUN: tp-run %s --entry=f --npy-dir=%t --input-sets --print | FileCheck %s
// RUN: %python -c "import numpy as np; d = '%t/f'; [np.testing.assert_allclose(np.load(d + s + '.out0.npy'), np.maximum(np.load(d + s + '.arg0.npy'), 0) * np.load(d + s + '.arg1.npy'), rtol=1e-6) for s in ('', '@a', '@b2')]; print('values ok')" | FileCheck %s --check-prefix=VALUES
// An input set gives every argument; the sets come from --npy-dir.
// RUN: rm %t/f@b2.arg1.npy
// RUN: not tp-run %s --entry=f --npy-dir=%t --input-sets 2>&1 | FileCheck %s --check-prefix=PARTIAL
// RUN: not tp-run %s --entry=f --input-sets 2>&1 | FileCheck %s --check-prefix=NODIR
// Without --input-sets the sets' files are not read.
// RUN: tp-run %s --npy-dir=%t --print | FileCheck %s --check-prefix=OFF

// CHECK: @f result #0:
// CHECK-NEXT: @f@a result #0:
// CHECK-NEXT: @f@b2 result #0:
// CHECK-NOT: result
// VALUES: values ok
// PARTIAL: tp-run: input set @f@b2 has no file f@b2.arg1.npy (an input set gives every argument)
// NODIR: tp-run: --input-sets reads its files from --npy-dir (and not --input): give --npy-dir alone
// OFF: @f result #0:
// OFF-NEXT: @g result #0:
// OFF-NOT: result

func.func @f(%x: tensor<2x3xf32>, %w: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = tp.relu %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %p = tp.mul %r, %w : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %p : tensor<2x3xf32>
}

func.func @g(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = tp.neg %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
