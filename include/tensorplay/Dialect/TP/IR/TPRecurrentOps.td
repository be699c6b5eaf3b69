//===- TPRecurrentOps.td - tp RNN cells and attention ------*- tablegen -*-===//
//
// GRUCell, LSTMCell, RNNCell, mkldnn_rnn_layer, scaled_dot_product_attention
// and _native_multi_head_attention.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECT_TP_IR_TPRECURRENTOPS_TD
#define TENSORPLAY_DIALECT_TP_IR_TPRECURRENTOPS_TD

include "tensorplay/Dialect/TP/IR/TPBase.td"

defvar TP_CellWeights = (ins TP_Tensor:$w_ih, TP_Tensor:$w_hh,
                             Optional<TP_Tensor>:$b_ih,
                             Optional<TP_Tensor>:$b_hh);
defvar TP_CellWeightsFormat =
    "$w_ih `,` $w_hh (`b_ih` `(` $b_ih^ `)`)? (`b_hh` `(` $b_hh^ `)`)?";

/// A single-state recurrent cell: gates = `gates` x hidden size.
class TP_CellOp<string mnemonic, string summaryText, int gates,
                dag attrs, string example>
    : TP_SingleResultOp<mnemonic, summaryText, TP_DtypeRule<"Same">,
        !con((ins TP_Tensor:$input, TP_Tensor:$hx), TP_CellWeights, attrs),
        !strconcat("$input `,` $hx `,` ", TP_CellWeightsFormat), example,
        [AttrSizedOperandSegments],
        "::mlir::tp::inferRecurrentCellShape(op, " # gates #
        ", adaptor.getInput(), {adaptor.getHx()}, adaptor.getWIh(), adaptor.getWHh(), adaptor.getBIh(), adaptor.getBHh())"> {
  let familyDescription =
      "One step of a recurrent cell on an (N, input_size) or unbatched "
      "(input_size) input with the hidden state(s) of the input's batch; w_ih "
      "is (gates x hidden, input_size), w_hh (gates x hidden, hidden), the "
      "optional biases (gates x hidden). The results have the hidden state's "
      "shape.";
}

def TP_GruCellOp : TP_CellOp<"gru_cell", "A gated recurrent unit cell (GRUCell)",
    3, (ins),
    "%h = tp.gru_cell %x, %h0, %wi, %wh : (tensor<2x8xf32>, tensor<2x4xf32>, tensor<12x8xf32>, tensor<12x4xf32>) -> tensor<2x4xf32>">;
def TP_RnnCellOp : TP_CellOp<"rnn_cell",
    "An Elman RNN cell with tanh or relu nonlinearity (RNNCell)", 1,
    (ins DefaultValuedStrAttr<StrAttr, "tanh">:$nonlinearity),
    "%h = tp.rnn_cell %x, %h0, %wi, %wh : (tensor<2x8xf32>, tensor<2x4xf32>, tensor<4x8xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>">;

def TP_LstmCellOp : TP_ComputeOp<"lstm_cell",
    "A long short-term memory cell (LSTMCell): returns (h, c)",
    TP_DtypeRule<"Same", ["Value", "Value"]>,
    !con((ins TP_Tensor:$input, TP_Tensor:$hx, TP_Tensor:$cx), TP_CellWeights),
    !strconcat("$input `,` $hx `,` $cx `,` ", TP_CellWeightsFormat),
    "%h, %c = tp.lstm_cell %x, %h0, %c0, %wi, %wh : (tensor<2x8xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<16x8xf32>, tensor<16x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)",
    [Pure, AttrSizedOperandSegments],
    "::mlir::tp::inferRecurrentCellShape(op, 4, adaptor.getInput(), {adaptor.getHx(), adaptor.getCx()}, "
    "adaptor.getWIh(), adaptor.getWHh(), adaptor.getBIh(), adaptor.getBHh())"> {
  let results = (outs TP_Tensor:$hy, TP_Tensor:$cy);
}

def TP_MkldnnRnnLayerOp : TP_ComputeOp<"mkldnn_rnn_layer",
    "One layer of a oneDNN (mkldnn) RNN: returns (output, hy, cy, workspace)",
    TP_DtypeRule<"Same", ["Value", "Value", "Value", "U8"]>,
    (ins TP_Tensor:$input, TP_Tensor:$weight0, TP_Tensor:$weight1,
         TP_Tensor:$weight2, TP_Tensor:$weight3, TP_Tensor:$hx, TP_Tensor:$cx,
         BoolAttr:$reverse, DenseI64ArrayAttr:$batch_sizes, I64Attr:$mode,
         I64Attr:$hidden_size, I64Attr:$num_layers, BoolAttr:$has_biases,
         BoolAttr:$bidirectional, BoolAttr:$batch_first, BoolAttr:$train),
    "$input `,` $weight0 `,` $weight1 `,` $weight2 `,` $weight3 `,` $hx `,` $cx",
    "%o, %h, %c, %ws = tp.mkldnn_rnn_layer %x, %w0, %w1, %w2, %w3, %h0, %c0 {...} : (...) -> (...)",
    [Pure], "::mlir::tp::inferMkldnnRnnLayerShape(op)"> {
  let results = (outs TP_Tensor:$output, TP_Tensor:$hy, TP_Tensor:$cy,
                      TP_Tensor:$workspace);
}

def TP_ScaledDotProductAttentionOp : TP_SingleResultOp<
    "scaled_dot_product_attention",
    "softmax(Q K^T * scale + mask) V, with optional causal mask and dropout",
    TP_DtypeRule<"Same">,
    (ins TP_Tensor:$query, TP_Tensor:$key, TP_Tensor:$value,
         Optional<TP_Tensor>:$attn_mask,
         DefaultValuedAttr<F64Attr, "0.0">:$dropout_p,
         DefaultValuedAttr<BoolAttr, "false">:$is_causal,
         OptionalAttr<F64Attr>:$scale,
         DefaultValuedAttr<BoolAttr, "false">:$enable_gqa),
    "$query `,` $key `,` $value (`mask` `(` $attn_mask^ `)`)?",
    "%r = tp.scaled_dot_product_attention %q, %k, %v {is_causal = true} : (tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>) -> tensor<2x8x16x64xf32>",
    [AttrSizedOperandSegments], "::mlir::tp::inferAttentionShape(op)">;

def TP_NativeMultiHeadAttentionOp : TP_ComputeOp<
    "native_multi_head_attention",
    "aten::_native_multi_head_attention: fused MHA, returns (output, weights)",
    TP_DtypeRule<"Same", ["Value", "Value"]>,
    (ins TP_Tensor:$query, TP_Tensor:$key, TP_Tensor:$value,
         I64Attr:$embed_dim, I64Attr:$num_head, TP_Tensor:$qkv_weight,
         TP_Tensor:$qkv_bias, TP_Tensor:$proj_weight, TP_Tensor:$proj_bias,
         Optional<TP_Tensor>:$mask,
         DefaultValuedAttr<BoolAttr, "true">:$need_weights,
         DefaultValuedAttr<BoolAttr, "true">:$average_attn_weights,
         OptionalAttr<I64Attr>:$mask_type),
    "$query `,` $key `,` $value `,` $qkv_weight `,` $qkv_bias `,` "
    "$proj_weight `,` $proj_bias (`mask` `(` $mask^ `)`)?",
    "%o, %w = tp.native_multi_head_attention %q, %k, %v, %qw, %qb, %pw, %pb {embed_dim = 64 : i64, num_head = 8 : i64} : (...) -> (...)",
    [Pure, AttrSizedOperandSegments],
    "::mlir::tp::inferNativeMultiHeadAttentionShape(op)"> {
  let results = (outs TP_Tensor:$output, TP_Tensor:$weights);
}

#endif // TENSORPLAY_DIALECT_TP_IR_TPRECURRENTOPS_TD
