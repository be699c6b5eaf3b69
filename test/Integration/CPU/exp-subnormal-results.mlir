// tp.exp where the f32 result is subnormal (x in (-103.98, -87.34)): those
// lanes take libm's f64 exp rounded to f32 (tp-lower-vectors' fallback);
// the others the inline approximation. The expected values are NumPy's
// float32(exp(float64(x))). The input is written as a .npy file without
// NumPy. @f's exp is one vector of 20 lanes; @g's reads its input through a
// gather (tp.gather at indices 0..19), which keeps its loop scalar, so both
// the vector and the scalar fallback run.
// RUN: %python -c "import struct,sys; x=[-100.0,-95.5,-88.0,-103.9,-87.0,-1.0,0.0,-104.5,-90.25,-99.0,-101.5,-92.0,-96.0,-97.25,-98.5,-93.75,-89.5,-102.0,-91.0,-94.0]; h=b\"{'descr': '<f4', 'fortran_order': False, 'shape': (20,), }\"; h=h+b' '*(118-len(h))+b'\n'; open(sys.argv[1],'wb').write(b'\x93NUMPY\x01\x00'+struct.pack('<H',len(h))+h+struct.pack('<20f',*x))" %t.npy
// RUN: tp-run --no-cache --entry f --input %t.npy --print %s | FileCheck %s --check-prefix=F
// RUN: tp-run --no-cache --entry g --input %t.npy --print %s | FileCheck %s --check-prefix=G
// RUN: tp-run --no-cache --entry f --input %t.npy --print --pipeline-options="parallel=0" %s | FileCheck %s --check-prefix=F
// RUN: tp-run --no-cache --entry g --input %t.npy --print --pipeline-options="parallel=0" %s | FileCheck %s --check-prefix=G
//
// The fallback stays a branch: an empty asm statement with side effects
// keeps LLVM from running the f64 exp for every element (it speculated the
// branch into a select at O3).
// RUN: tp-opt --tp-lower-to-cpu %s | FileCheck %s --check-prefix=IR

// F: @f result #0: [3.783506e-44, 3.349103e-42, 6.054601e-39, 1.401298e-45, 1.645811e-38, 0.3678795, 1, 0, 6.381499e-40, 1.008935e-43, 8.407791e-45, 1.108946e-40, 2.030481e-42, 5.815389e-43, 1.667545e-43, 1.927066e-41, 1.350964e-39, 5.605194e-45, 3.014403e-40, 1.500791e-41]
// G: @g result #0: [3.783506e-44, 3.349103e-42, 6.054601e-39, 1.401298e-45, 1.645811e-38, 0.3678795, 1, 0, 6.381499e-40, 1.008935e-43, 8.407791e-45, 1.108946e-40, 2.030481e-42, 5.815389e-43, 1.667545e-43, 1.927066e-41, 1.350964e-39, 5.605194e-45, 3.014403e-40, 1.500791e-41]

// IR-LABEL: llvm.func @f(
// IR: llvm.cond_br
// IR: llvm.inline_asm has_side_effects "", ""  : () -> ()
// IR-NEXT: llvm.fpext {{.*}} : vector<20xf32> to vector<20xf64>
// IR-NEXT: llvm.intr.exp({{.*}}) : (vector<20xf64>) -> vector<20xf64>
// IR-LABEL: llvm.func @g(
// IR: llvm.cond_br
// IR: llvm.inline_asm has_side_effects "", ""  : () -> ()
// IR-NEXT: llvm.fpext {{.*}} : f32 to f64
// IR-NEXT: llvm.intr.exp({{.*}}) : (f64) -> f64
func.func @f(%x: tensor<20xf32>) -> tensor<20xf32> {
  %y = tp.exp %x : (tensor<20xf32>) -> tensor<20xf32>
  return %y : tensor<20xf32>
}

func.func @g(%x: tensor<20xf32>) -> tensor<20xf32> {
  %i = tp.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]> : tensor<20xi64>
  %g = tp.gather %x, %i {dim = 0 : i64} : (tensor<20xf32>, tensor<20xi64>) -> tensor<20xf32>
  %y = tp.exp %g : (tensor<20xf32>) -> tensor<20xf32>
  return %y : tensor<20xf32>
}
