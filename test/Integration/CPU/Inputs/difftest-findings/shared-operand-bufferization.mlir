// Regression cases (fixed in 821d380): a value read by two oneDNN products,
// with an elementwise op between them whose result has the value's type and
// shape, was overwritten by that op before the second product read it
// (bufferization wrote the elementwise result into the shared buffer; CSE
// had merged the read-only to_buffer ops of the runtime calls). The
// hand-written cases did not find it; difftest does in about 2% of its
// programs: run against 2224e5b (the commit before the fix), the fixed-seed
// suite (seed 1, 250 programs, --steps 1:5) reports 4 mismatches, and 150
// programs of seed 1 with the default sizes 5, minimised to these
// functions (errors of 0.07 to 55: 1011 of 1024 elements wrong). They pass
// since the fix.
//
// Command: difftest.py --tp-run build/bin/tp-run --check shared-operand-bufferization.mlir
// Observed before the fix (2224e5b): @shared_weight_autocast max |err| 26.5
//   (got 27.375, expected 0.84375 at (14, 14), 252 of 256 elements off);
//   @shared_bf16_mm 3.39 (119 of 121); @shared_weight_f32_serial 11.9 (144
//   of 144); @shared_weight_autocast_2x2 0.066 (4 of 4).
// Expected: the reference (every element within its bound).

// The shared value is linear's weight (a transposed view), autocast casts
// it to bf16 once for both products; the mul between them is f32 -> bf16.
// difftest: mode=autocast inputs-seed=41
func.func @shared_weight_autocast(%a8: tensor<16x16xf32>, %a9: tensor<16x16xf32>) -> (tensor<16x16xf32>) {
  %v12 = tp.neg %a8 : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %v13 = tp.linear %a9, %v12 : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %v14 = tp.mul %v13, %v12 : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %v15 = tp.linear %v14, %v12 : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  return %v15 : tensor<16x16xf32>
}

// The same shape of graph in bf16 without autocast, the second product
// reading the shared value through a transpose.
// difftest: mode=plain inputs-seed=42
func.func @shared_bf16_mm(%a3: tensor<11x7xbf16>, %a4: tensor<7x7xbf16>, %a5: tensor<7xbf16>) -> (tensor<11x11xbf16>) {
  %v3 = tp.neg %a3 : (tensor<11x7xbf16>) -> tensor<11x7xbf16>
  %v4 = tp.linear %v3, %a4 bias(%a5) : (tensor<11x7xbf16>, tensor<7x7xbf16>, tensor<7xbf16>) -> tensor<11x7xbf16>
  %v5 = tp.mul %v4, %v3 : (tensor<11x7xbf16>, tensor<11x7xbf16>) -> tensor<11x7xbf16>
  %v6 = tp.transpose %v3 {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<11x7xbf16>) -> tensor<7x11xbf16>
  %v7 = tp.mm %v5, %v6 : (tensor<11x7xbf16>, tensor<7x11xbf16>) -> tensor<11x11xbf16>
  return %v7 : tensor<11x11xbf16>
}

// f32, serial scalar loops; the shared value is a cast.
// difftest: mode=plain+serial inputs-seed=43
func.func @shared_weight_f32_serial(%a7: tensor<12x12xbf16>, %a8: tensor<12x12xf32>) -> (tensor<12x12xf32>) {
  %v10 = tp.cast %a7 : tensor<12x12xbf16> to tensor<12x12xf32>
  %v11 = tp.linear %a8, %v10 : (tensor<12x12xf32>, tensor<12x12xf32>) -> tensor<12x12xf32>
  %v12 = tp.mul %v11, %v10 : (tensor<12x12xf32>, tensor<12x12xf32>) -> tensor<12x12xf32>
  %v13 = tp.linear %v12, %v10 : (tensor<12x12xf32>, tensor<12x12xf32>) -> tensor<12x12xf32>
  return %v13 : tensor<12x12xf32>
}

// 2 x 2, an add between the products.
// difftest: mode=autocast inputs-seed=44
func.func @shared_weight_autocast_2x2(%a6: tensor<2x2xf32>, %a7: tensor<2x2xf32>, %a8: tensor<2x2xf32>) -> (tensor<2x2xf32>) {
  %v7 = tp.abs %a6 : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %v8 = tp.linear %a7, %v7 : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %v9 = tp.add %v8, %a8 : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %v10 = tp.linear %v9, %v7 : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %v10 : tensor<2x2xf32>
}
