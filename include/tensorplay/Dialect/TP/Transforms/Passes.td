//===- Passes.td - tp dialect transforms -------------------*- tablegen -*-===//
//
// Passes that rewrite tp into tp (the autocast pass, which needs the policy
// tables, is in tensorplay/Transforms).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECT_TP_TRANSFORMS_PASSES_TD
#define TENSORPLAY_DIALECT_TP_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TPDecomposeCompositeOpsPass
    : Pass<"tp-decompose-composite-ops", "::mlir::ModuleOp"> {
  let summary = "Rewrite composite tp ops into simpler tp ops";
  let description = [{
    Rewrites tp ops that tensorplay itself implements as a composition of
    other operators into that composition, in the same dtypes, so that the
    later conversions only see the primitive ops:
    `scaled_dot_product_attention` (matmul, scale, mask, softmax, matmul;
    grouped-query attention repeats the key / value heads),
    `chain_matmul` / `multi_dot` (a chain of matmuls), `conv_tbc` (permute +
    conv1d), `rnn_cell`, `gru_cell` and `lstm_cell` (two linears, the gates
    as slices, activations, the state update), `cross` (slices, products,
    cat), `cdist` / `pdist` (differences and `norm`), `renorm` (norm,
    compare, scale) and `multi_margin_loss` / `multilabel_margin_loss(_forward)`
    (gathers, hinge, masks, sums). `tp.autocast` regions are inlined: after
    autocast they only mark where a state held.
  }];
  let dependentDialects = ["::mlir::tp::TPDialect"];
}

#endif // TENSORPLAY_DIALECT_TP_TRANSFORMS_PASSES_TD
