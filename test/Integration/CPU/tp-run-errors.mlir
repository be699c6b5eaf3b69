// tp-run reports bad input clearly and exits non-zero.
// RUN: not tp-run %s --entry=nope 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: %python -c "import numpy; numpy.save('%t.shape.npy', numpy.zeros((3, 4), numpy.float32)); numpy.save('%t.dtype.npy', numpy.zeros((2, 4), numpy.int32))"
// RUN: not tp-run %s --entry=f --input=%t.shape.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not tp-run %s --entry=f --input=%t.dtype.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not tp-run %s --entry=f --input=%t.missing.npy 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: not tp-run %S/Inputs/unsupported-op.mlir 2>&1 | FileCheck %s --check-prefix=NOLOWERING
// RUN: tp-run %s --entry=f --seed=3 --repeat=3 --warmup=1 | FileCheck %s --check-prefix=TIMING
// RUN: not tp-run %s --int-max=0 2>&1 | FileCheck %s --check-prefix=INTMAX0
// RUN: not tp-run %s --int-max=-5 2>&1 | FileCheck %s --check-prefix=INTMAXNEG
// RUN: not tp-run %s --pipeline-options="vector-width=0" 2>&1 | FileCheck %s --check-prefix=WIDTH
// --num-threads sets the threads of compiled loops and oneDNN (OpenMP's
// team, which OMP_NUM_THREADS set at run time would not change).
// RUN: tp-run %s --entry=f --repeat=1 --num-threads=3 | FileCheck %s --check-prefix=THREADS
// RUN: not tp-run %s --num-threads=2000 2>&1 | FileCheck %s --check-prefix=THREADSMAX
// A dynamic dimension needs its size: from an input file or --dynamic-size.
// RUN: not tp-run %S/Inputs/dynamic-rows.mlir 2>&1 | FileCheck %s --check-prefix=NOSIZE
// RUN: tp-run %S/Inputs/dynamic-rows.mlir --dynamic-size=3 --print | FileCheck %s --check-prefix=DYNSIZE
// RUN: not tp-run %S/Inputs/dynamic-rows.mlir --dynamic-size=-4 2>&1 | FileCheck %s --check-prefix=DYNNEG
// RUN: %python -c "import numpy; numpy.save('%t.flat.npy', numpy.zeros((6,), numpy.float32))"
// RUN: not tp-run %S/Inputs/dynamic-rows.mlir --input=%t.flat.npy 2>&1 | FileCheck %s --check-prefix=DYNRANK

// MISSING: tp-run: no public function @nope in {{.*}} (functions: @f)
// SHAPE: tp-run: @f argument #0: {{.*}}.shape.npy: shape (3, 4) f32 does not match the argument's (2, 4) f32
// DTYPE: tp-run: @f argument #0: {{.*}}.dtype.npy: dtype (2, 4) i32 does not match the argument's (2, 4) f32
// NOFILE: tp-run: @f argument #0: {{.*}}.missing.npy: cannot read
// NOLOWERING: unsupported-op.mlir:5:8: error: 'tp.asin' op has no CPU lowering for complex tensors
// NOLOWERING: tp-run: lowering to the CPU failed (tp-lower-to-cpu)
// TIMING: @f: median {{[0-9.]+}} ms, min {{[0-9.]+}} ms, mean {{[0-9.]+}} ms over 3 runs, {{[0-9]+}} threads
// THREADS: @f: median {{.*}} over 1 runs, 3 threads
// NOSIZE: tp-run: @rows argument #0 has type tensor<?x2xf32>: give the sizes of its ? dimensions with an input file (--input, --npy-dir) or --dynamic-size
// DYNSIZE: @rows result #0: {{\[\[[^]]+\], \[[^]]+\], \[[^]]+\]\]$}}
// DYNRANK: tp-run: @rows argument #0: {{.*}}.flat.npy has rank 1, the argument rank 2
// DYNNEG: tp-run: --dynamic-size must be non-negative, got -4
// THREADSMAX: tp-run: --num-threads must be from 1 to 1024 (0: all cores), got 2000
// INTMAX0: tp-run: --int-max must be positive (generated integers lie in [0, N)), got 0
// INTMAXNEG: tp-run: --int-max must be positive (generated integers lie in [0, N)), got -5
// WIDTH: tp-run: tp-lower-to-cpu: vector-width must be a power of two from 1 to 512, got 0

func.func @f(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = tp.relu %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
