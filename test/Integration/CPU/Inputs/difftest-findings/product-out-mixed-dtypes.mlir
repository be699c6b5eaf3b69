// Fixed: the verifier applies the operand rule to in-place and out= forms,
// and autocast reports the out= product it leaves with two dtypes.
// Finding 2: a product in the out= form with operands of two floating
// dtypes is accepted by the tp verifier and by autocast, then crashes the
// lowering (found by difftest, seed 105 programs 3 and 33, modes autocast
// and autocast+linalg).
//
// The plain form of tp.mm/tp.linear rejects mixed operands ("expected all
// floating operands to have the same dtype"), the out= form does not
// (@mm_out_mixed verifies). Autocast creates such ops: the out= form is
// ineligible (left alone), but its operands come from products that
// autocast made bf16 (@autocast_mm_out, @autocast_linear_out), and the
// report shows the op with dtype "-". tp-lower-to-cpu then builds a
// vector.contract of bf16 x f32 and fails on the verifier of an internal op.
//
// Commands:
//   build/bin/tp-opt difftest-findings/product-out-mixed-dtypes.mlir          (accepts @mm_out_mixed)
//   build/bin/tp-opt --autocast=cpu:bf16 --autocast-report=- <@autocast_mm_out alone>
//   build/bin/tp-run <@autocast_mm_out alone> --autocast=cpu:bf16
// Observed: error: 'vector.contract' op failed to verify that lhs and rhs
//   have same element type; tp-run: lowering to the CPU failed
//   (tp-lower-to-cpu); exit status 1 (same for @mm_out_mixed without
//   autocast, and for linear with --pipeline-options=use-onednn=0).
// Expected (PyTorch): torch.mm(bf16, f32, out=f32) raises "Expected out
//   tensor to have dtype c10::BFloat16, but got float instead", also under
//   torch.autocast("cpu") (out= is not autocast; with a bf16 out it raises
//   "expected m1 and m2 to have the same dtype"). So: the tp verifier
//   rejects @mm_out_mixed (the dtype rule applies to the out= form too),
//   and autocast reports an error at the out= product whose operands it
//   left with two dtypes, as docs/Autocast.md says for ops whose dtype rule
//   needs one dtype ("is an error, as it is in eager autocast"); neither
//   reaches the lowering.
// difftest: inputs-seed=21 error=error:
// difftest: mode=plain
func.func @mm_out_mixed(%a0: tensor<6x8xbf16>, %a1: tensor<8x11xf32>, %a2: tensor<6x11xf32>) -> (tensor<6x11xf32>) {
  %v0 = tp.mm %a0, %a1 out(%a2) : (tensor<6x8xbf16>, tensor<8x11xf32>, tensor<6x11xf32>) -> tensor<6x11xf32>
  return %v0 : tensor<6x11xf32>
}

// difftest: mode=autocast
func.func @autocast_mm_out(%a0: tensor<6x2xf32>, %a1: tensor<2x8xf32>, %a2: tensor<8x11xf32>, %a3: tensor<6x11xf32>) -> (tensor<6x11xf32>) {
  %v0 = tp.mm %a0, %a1 : (tensor<6x2xf32>, tensor<2x8xf32>) -> tensor<6x8xf32>
  %v1 = tp.mm %v0, %a2 out(%a3) : (tensor<6x8xf32>, tensor<8x11xf32>, tensor<6x11xf32>) -> tensor<6x11xf32>
  return %v1 : tensor<6x11xf32>
}

// difftest: mode=autocast+linalg
func.func @autocast_linear_out(%a0: tensor<6x6x5xf32>, %a1: tensor<11x5xf32>, %a2: tensor<4x11xf32>, %a3: tensor<6x6x4xf32>) -> (tensor<6x6x4xf32>) {
  %v0 = tp.linear %a0, %a1 : (tensor<6x6x5xf32>, tensor<11x5xf32>) -> tensor<6x6x11xf32>
  %v1 = tp.linear %v0, %a2 out(%a3) : (tensor<6x6x11xf32>, tensor<4x11xf32>, tensor<6x6x4xf32>) -> tensor<6x6x4xf32>
  return %v1 : tensor<6x6x4xf32>
}
