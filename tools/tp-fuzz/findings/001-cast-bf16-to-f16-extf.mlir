// tp-fuzz finding 001: convert-tp-to-linalg lowers tp.cast bf16 -> f16 to
// `arith.extf` (bf16 -> f16), which does not verify.
//
// Status: fixed in ce4f2b6 (convertScalar converts between f16 and bf16
// through f32, both ways); also a differential-tester finding
// (test/Integration/CPU/Inputs/difftest-findings/cast-bf16-to-f16.mlir).
//
// Component: lib/Conversion/TPToLinalg/LoweringUtils.cpp,
//   lowering::convertScalar: for two float types of the same width it takes
//   extf when the source mantissa is narrower (bf16: 8 bits < f16: 11 bits),
//   so bf16 -> f16 never reaches the "f16 <-> bf16: through f32" branch
//   (only f16 -> bf16 does). arith.extf needs a strictly wider result.
// Seen as: every bf16 matrix product (tp.mm, tp.addmm, tp.linear) compiled
//   with --autocast=cuda:fp16 (or xpu:fp16) and --tp-lower-to-cpu; found
//   by tp-fuzz on the seeds from test/Conversion/TPToRuntime/matmul.mlir,
//   test/Conversion/Pipelines/{examples,runtime-call-buffers,
//   tile-and-vectorize}.mlir.
// Commands:
//   tp-opt --convert-tp-to-linalg 001-cast-bf16-to-f16-extf.mlir
//     error: 'arith.extf' op operand type 'bf16' and result type 'f16' are
//     cast incompatible (the pass manager's verifier, after the pass)
//   tp-fuzz 001-cast-bf16-to-f16-extf.mlir   (TP_FUZZ_STRICT=1, the default)
//     tp-fuzz: FINDING: pass 'convert-tp-to-linalg' succeeded but the IR
//     does not verify
// Expected: extf to f32, then truncf to f16 (or a diagnostic).
//
// tp-fuzz: target=none to-llvm=0
func.func @f(%x: tensor<4xbf16>) -> tensor<4xf16> {
  %r = tp.cast %x : tensor<4xbf16> to tensor<4xf16>
  return %r : tensor<4xf16>
}
