"""The coverage table of tensorplay 1.1's dispatcher-level operators:
which ones the translator handles (and with which handler), which it does
not, and why. ``python -m tensorplay_mlir.coverage`` prints it as Markdown;
docs/OperatorCoverage.md is its output (a test keeps the two equal).
"""

import re
import sys
from collections import Counter

# Why an operator has no translation, by the first pattern its name
# matches (checked in order); the last reason is the default.
_REASONS = [
    (r"(^|_)(cudnn|miopen|mps|cuda|xpu|vulkan|metal|nested|mkldnn_(?!rnn))",
     "another device's or backend's kernel"),
    (r"^(_flash_attention_.*|_efficient_attention_.*|"
     r"_scaled_dot_product_(efficient|flash)_attention(_backward)?|"
     r"_scaled_dot_product_fused_attention_overrideable.*|_triton_.*|"
     r"_scaled_mm.*|_scaled_grouped_mm.*|_?grouped_mm|_int_mm|"
     r"_weight_int[48]pack.*|_convert_weight_to_int4pack.*|_dyn_quant_.*|"
     r"_cslt_.*|_mixed_dtypes_linear|_wrapped_linear_prepack|to_mkldnn|"
     r"_nnpack_spatial_convolution|_conv_depthwise2d|conv_depthwise3d|"
     r"_convolution_mode|frobenius_norm|native_norm|"
     r"_native_batch_norm_legit|batch_norm_(stats|elemt|gather_stats.*|"
     r"update_stats|backward_reduce|backward_elemt)|"
     r"_saturate_weight_to_fp16|pad_sequence|_transformer_encoder_layer_fwd|"
     r"_compute_linear_combination|mkldnn_rnn_layer(_backward)?|"
     r"_cholesky_solve_helper|nuclear_norm|_thnn_fused_(lstm|gru)_cell.*|"
     r"_thnn_differentiable_(lstm|gru)_cell_backward|embedding_bag|"
     r"_chunk_cat|slice_inverse|_batch_norm_impl_index(_backward)?|"
     r"_grid_sampler_2d_cpu_fallback_backward|_upsample_lanczos2d_aa.*|"
     r"_scaled_dot_product_attention(_backward)?_with_lse|conv_tbc_backward|"
     r"convolution(_backward)?_overrideable)$",
     "no CPU kernel in tensorplay 1.1 (GPU, low-bit or out-of-tree "
     "backends' operators: eager on the CPU refuses them too)"),
    (r"^(_fw_primal(_copy)?|_unpack_dual|_make_dual.*|forward_\w+|"
     r"glu_jvp|glu_backward_jvp|_backward|requires_grad_|retain_grad|"
     r"retains_grad|output_nr|data|_propagate_xla_data|"
     r"_new_zeros_with_same_feature_meta|_add_batch_dim|_remove_batch_dim|"
     r"shallow_copy_data|_lazy_clone)$",
     "autograd's own bookkeeping and forward-mode (jvp) rules: the "
     "backend compiles reverse mode from captured graphs"),
    (r"^(_fft_.*|fft_(?!(i?fftshift|r?fftfreq)$).*|stft.*|istft)$",
     "complex results (FFT, STFT): the Python backend's values are real "
     "(tp's FFT ops are reached from MLIR only)"),
    (r"^(__i?[lr]shift__|bitwise_(left|right)_shift_?|gcd_?|lcm_?|"
     r"hash_tensor)$",
     "integer bit shifts, hashing and number theory (gcd, lcm): no tp op"),
    (r"^(from_file)$", "storage and aliasing (a compiled function owns its "
     "buffers)"),
    (r"^(linalg_ldl_factor(_ex)?|linalg_ldl_solve)$",
     "LAPACK's symmetric indefinite factorization (sytrf): no tp op"),
    (r"^(matrix_exp(_backward)?|linalg_matrix_exp|linalg_matrix_sqrth|"
     r"linalg_polar)$",
     "matrix functions (exponential, square root, polar decomposition): no "
     "tp op (tensorplay's own series and iterations)"),
    (r"^_convolution_double_backward$",
     "a second-order gradient (double backward): the backend compiles "
     "first-order training graphs"),
    (r"^(fmod_?|remainder_?|copysign_?|signbit|nextafter_?|frexp|ldexp_?|"
     r"hypot_?)$",
     "exact remainders and floating-point bit manipulation: no tp op (a "
     "composition would round, overflow or lose a zero's sign where "
     "eager's kernel does not)"),
    (r"^(scatter|scatter_reduce|one_hot|put|index_reduce|masked_scatter)_?$",
     "an index out of range is an error in eager and tp has no run-time "
     "check yet: refused rather than silently different on bad indices"),
    (r"^(_index_reduce_backward_(self|src)|_scatter_reduce_backward_"
     r"(self|src)|_segment_reduce_backward)$",
     "the backward of an operator refused above (index_reduce, "
     "scatter_reduce, segment_reduce): no graph compiles its forward"),
    (r"^(smm|hspmm|sspaddmm|_spsolve|_?spdiags|_?coalesced?_?|"
     r"values(_copy)?|indices_copy)$", "sparse tensors (no tp type)"),
    (r"^(_reshape_from_tensor)$",
     "the result's shape depends on the values (tp shapes are static)"),
    (r"^(sample)$", "random numbers (compiled results would not be "
     "eager's)"),
    (r"^(chalf|linalg_eig|_?linalg_eigvals|polar)$",
     "complex results (eigenvalues of a general matrix, polar): the "
     "Python backend's values are real"),
    (r"^(roi_align|roi_pool|ps_roi_align|ps_roi_pool|deform_conv2d|nms)"
     r"(_backward)?$",
     "detection operators (torchvision's: sampling positions taken from "
     "box values): no tp op"),
    (r"(quantize|quantized|qint|fbgemm|_q_|q_per|int_repr|dequantize|"
     r"qparams|fake_quant)",
     "quantized tensors (no tp type)"),
    (r"(sparse|coo|csr|csc|bsr|bsc|to_dense|_values|_indices|indices$)",
     "sparse tensors (no tp type)"),
    (r"(^rand|^normal|bernoulli|multinomial|poisson$|^random_|_random|"
     r"exponential_|geometric_|cauchy_|log_normal_|uniform_|dropout|"
     r"rrelu|^binomial$|dirichlet|^_standard_gamma$|^_philox|^_sobol)",
     "random numbers (compiled results would not be eager's)"),
    (r"(^_foreach|^_fused_|^_amp_)", "optimizer/AMP internals (the "
     "runtime's own fused_sgd/fused_adamw and GradScaler calls)"),
    (r"(^is_|^_is_|^size$|^stride$|^numel$|^dim$|item$|^_local_scalar|"
     r"^_functional_assert|^_functional_sym_constrain|^_linalg_check_errors$|"
     r"^_nnpack_available$|^get_device$|^dense_dim$|^_dim[IV]$|^q_scale$|"
     r"^q_zero_point$|^qscheme$|^allclose$|^equal$|"
     r"data_ptr|^_version|^_has_|^_nnz|^result_type|^can_cast|"
     r"^promote_types|^_debug|^_assert|^sym_|^_print)",
     "a query of metadata or Python-level value, not a tensor computation"),
    (r"(resize_|set_|^_copy_from|storage|^_make_|^_unsafe|as_strided|"
     r"^_reshape_alias|^lift|^_to_cpu|pin_memory|share_memory|"
     r"record_stream)",
     "storage and aliasing (a compiled function owns its buffers)"),
    (r"(complex|^real$|^imag$|angle|^conj_physical|_conj|view_as_)",
     "complex tensors outside the FFT and linear-algebra ops"),
    (r"(^_test_|^_foobar$)", "tensorplay's own test operators"),
    (r"^(_?unique.*|nonzero.*|masked_select|argwhere|bincount|histc|"
     r"histogram.*|_histogramdd.*|segment_reduce|_segment_reduce|"
     r"_pack_padded_sequence(_backward)?|_pad_packed_sequence|"
     r"_jagged_to_padded_dense_forward|_padded_dense_to_jagged_forward|"
     r"to_padded_tensor|_rowwise_prune)$",
     "the result's shape depends on the values (tp shapes are static)"),
    (r"^(adaptive_max_pool[12]d|reflection_pad3d|conv2d_relu|linalg_pinv)$",
     "no tp op yet, and a decomposition would change autocast's "
     "decision (its parts, the 3-d pool, the 1-d/2-d pads, the "
     "convolution, pinverse, are in the CPU tables; eager's kernel is not, "
     "or ends in a bf16 product)"),
    (r"^_?logcumsumexp$", "no tp op (a scan of log-add-exp: a shifted "
     "cumulative sum would underflow where eager's scan does not)"),
    (r"^(special_.*|bessel_.*|modified_bessel_.*|scaled_modified_bessel_.*|"
     r"spherical_bessel_.*|(shifted_)?chebyshev_polynomial_.*|"
     r"hermite_polynomial_.*|laguerre_polynomial_.*|"
     r"legendre_polynomial_.*|airy_ai|digamma|polygamma|lgamma|mvlgamma|"
     r"igammac?|gammaincc?|zeta|i0e?|i1e?|erfcx?|ndtri?|log_ndtr|entr|"
     r"xlog1py|_standard_gamma_grad)$",
     "special functions (gamma, Bessel, zeta, erfc, orthogonal "
     "polynomials): no tp op"),
    (r"^(sort|argsort|msort|kthvalue|median|nanmedian|mode|cummax|cummin|"
     r"_cummax_helper|_cummin_helper|cummaxmin_backward|searchsorted|"
     r"bucketize)$", "sorting and order statistics: no tp op"),
]
_DEFAULT = "not translated yet"


def reason_for(name):
    """Why `name` has no translation; an in-place form (``digamma_``)
    without a reason of its own takes its out-of-place operator's."""
    for pattern, reason in _REASONS:
        if re.search(pattern, name):
            return reason
    if name.endswith("_") and not name.endswith("__"):
        return reason_for(name[:-1])
    return _DEFAULT


class _Node:
    def __init__(self, target):
        self.target = target


def overloads():
    """(operator, overload, OpOverload, handler or None, in place) for
    every overload of tensorplay's dispatcher registry, in name order."""
    from tensorplay._ops import _load_native_overloads
    from . import translate  # noqa: F401  (registers the handlers)
    from .ops import handler_for
    for name, packet in sorted(_load_native_overloads().items()):
        for overload in sorted(packet.overloads()):
            op = getattr(packet, overload)
            yield (name, overload, op) + handler_for(_Node(op))


def rows():
    """(operator, overload, status, detail) for every registered overload:
    status 'translated', 'in place' (the out-of-place handler, written
    back), 'out=' (an out= form: graphs never hold one) or 'refused'."""
    for name, overload, op, handler, in_place in overloads():
        if any(a.is_out for a in op._schema.arguments):
            yield name, overload, "out=", "an out= form"
            continue
        if handler is None:
            yield name, overload, "refused", reason_for(name)
            continue
        refused = getattr(handler, "refused_overloads", {})
        if overload in refused:
            yield name, overload, "refused", refused[overload]
            continue
        where = f"{handler.__module__.split('.')[-1]}.{handler.__name__}"
        if in_place:
            yield name, overload, "in place", \
                f"{where}, written back to its first argument"
        else:
            yield name, overload, "translated", where


def markdown():
    import tensorplay
    table = list(rows())
    counts = Counter(status for _, _, status, _ in table)
    reasons = Counter(detail for _, _, status, detail in table
                      if status == "refused")
    lines = [
        "# Operator coverage (tensorplay "
        f"{tensorplay.__version__.split('+')[0]})",
        "",
        "Generated by `python -m tensorplay_mlir.coverage` in the tensorplay "
        "1.1 test environment (`build/python-venv-1.1`); "
        "`python/tests/test_operators.py` fails when this file and the "
        "translator disagree. Every overload of tensorplay's dispatcher "
        "registry (the targets of 1.1's operator graphs): translated (by "
        "the handler named, `python/tensorplay_mlir/<module>.py`), in place "
        "(the out-of-place handler's result written back into the first "
        "argument), an out= form (never in a captured graph), or refused "
        "(a graph holding it fails with that node named; see "
        "docs/Python.md).",
        "",
        "| status | overloads |",
        "|---|---|",
    ]
    for status in ("translated", "in place", "out=", "refused"):
        lines.append(f"| {status} | {counts.get(status, 0)} |")
    lines += ["", "Refused, by reason:", "", "| reason | overloads |",
              "|---|---|"]
    for reason, n in sorted(reasons.items(), key=lambda kv: -kv[1]):
        lines.append(f"| {reason} | {n} |")
    lines += ["", "| operator | overload | status | handler or reason |",
              "|---|---|---|---|"]
    for name, overload, status, detail in table:
        if status == "out=":
            continue
        lines.append(f"| `{name}` | {overload} | {status} | {detail} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(markdown())
