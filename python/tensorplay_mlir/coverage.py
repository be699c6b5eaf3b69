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
    (r"(quantize|quantized|qint|fbgemm|_q_|q_per|int_repr|dequantize)",
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
     r"histogram.*|_histogramdd.*|segment_reduce|_segment_reduce)$",
     "the result's shape depends on the values (tp shapes are static)"),
    (r"^("
     r"logaddexp2?|logit|xlogy|exp2|_?logcumsumexp|nansum|nanmean|"
     r"trapezoid|trapz|cumulative_trapezoid)$",
     "no tp op yet, and a decomposition would change autocast's "
     "decision (its parts, exp, log, sum, are in the tables)"),
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
    for pattern, reason in _REASONS:
        if re.search(pattern, name):
            return reason
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
