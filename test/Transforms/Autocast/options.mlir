// The autocast option: values, defaults, errors, pipeline and pass forms.
// RUN: tp-opt --autocast=cuda %s | FileCheck %s --check-prefix=F16
// RUN: tp-opt --autocast=xpu %s | FileCheck %s --check-prefix=F16
// RUN: tp-opt --autocast=cuda:bf16 %s | FileCheck %s --check-prefix=BF16
// RUN: tp-opt --autocast=cpu %s | FileCheck %s --check-prefix=BF16
// cpu:fp16 uses the cpu (bf16) lists with f16 as the dtype.
// RUN: tp-opt --autocast=cpu:fp16 %s | FileCheck %s --check-prefix=CPUF16
// RUN: tp-opt --pass-pipeline="builtin.module(tp-autocast{target=cuda:fp16})" %s | FileCheck %s --check-prefix=F16
// RUN: tp-opt --tp-autocast="target=cpu:bf16 keep-io-types" %s | FileCheck %s --check-prefix=KEEP
// RUN: not tp-opt --autocast=tpu:fp16 %s 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: not tp-opt --autocast=cuda:fp8 %s 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not tp-opt --autocast=cuda: %s 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not tp-opt --pass-pipeline="builtin.module(tp-autocast{target=gpu})" %s 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not tp-opt --autocast-report=- %s 2>&1 | FileCheck %s --check-prefix=ALONE

// F16: tp.conv2d {{.*}} : (tensor<1x3x8x8xf16>, tensor<4x3x3x3xf16>) -> tensor<1x4x6x6xf16>
// F16: tp.softmax {{.*}}dtype = f32
// BF16: tp.conv2d {{.*}} : (tensor<1x3x8x8xbf16>, tensor<4x3x3x3xbf16>) -> tensor<1x4x6x6xbf16>
// CPUF16: tp.conv2d {{.*}} : (tensor<1x3x8x8xf16>, tensor<4x3x3x3xf16>) -> tensor<1x4x6x6xf16>
// softmax is not on the cpu lists.
// CPUF16: tp.softmax {{.*}} : (tensor<1x4x6x6xf16>) -> tensor<1x4x6x6xf16>
// KEEP-LABEL: func.func @conv(
// KEEP-SAME: -> tensor<1x4x6x6xf32>
// DEVICE: tp-opt: invalid autocast target 'tpu:fp16': unknown device 'tpu'; expected <device>[:<dtype>] with device cuda, xpu or cpu and dtype fp16 or bf16
// DTYPE: tp-opt: invalid autocast target 'cuda:fp8': unknown dtype 'fp8'; expected
// EMPTY: tp-opt: invalid autocast target 'cuda:': missing dtype after ':'; expected
// PIPELINE: error: invalid autocast target 'gpu': unknown device 'gpu'; expected
// ALONE: tp-opt: --autocast-report, --autocast-policy and --autocast-keep-io-types need --autocast=<device>[:<dtype>]
func.func @conv(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %c = tp.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %s = tp.softmax %c {dim = 1 : i64} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %s : tensor<1x4x6x6xf32>
}
