#!/usr/bin/env python3
"""Gradient check of tp-autodiff against central finite differences.

Each case is an f64 tp function @<case> returning a 0-d loss. tp-opt
--tp-autodiff adds @<case>_grad; @<case> runs once per perturbed input
(x + h v and x - h v, v each unit vector e_i of an argument of at most
MAX_ELEMENTWISE elements, and DIRECTIONS random directions of a larger
one, where any wrong element shows too), each an input set of one
`tp-run --npy-dir --input-sets` (one compile of the module), so that the
reference is the finite difference of the compiled f64 program itself. Each directional
derivative must satisfy |grad . v - fd| <= 1e-7 |v| + 1e-7 |fd|.

Usage: gradcheck.py --tp-opt PATH --tp-run PATH --tmp DIR [--only CASE]...
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

import numpy as np

H = 1e-6
# Arguments of at most this many elements are checked element by element,
# larger ones along DIRECTIONS random directions.
MAX_ELEMENTWISE = 4
DIRECTIONS = 4


def t(shape, dtype="f64"):
    return "tensor<%s%s>" % ("".join("%dx" % d for d in shape), dtype)


def shape_of(arg):
    """An argument is a shape (f64) or (shape, "i64") for class indices."""
    return arg[0] if isinstance(arg[-1], str) else arg


def dtype_of(arg):
    return arg[-1] if isinstance(arg[-1], str) else "f64"


class Case:
    def __init__(self, name, args, body, inputs=None, helpers=""):
        self.helpers = helpers  # private functions the body calls
        self.name = name
        self.args = args  # shapes, or (shape, "i64")
        self.body = body  # lines using %a0.. and defining %loss
        self.inputs = inputs  # optional generator(rng) -> list of arrays

    def func(self, name):
        params = ", ".join("%%a%d: %s" % (i, t(shape_of(a), dtype_of(a)))
                           for i, a in enumerate(self.args))
        lines = ["func.func @%s(%s) -> tensor<f64> {" % (name, params)]
        lines += ["  " + l for l in self.body]
        lines.append("  return %loss : tensor<f64>")
        lines.append("}")
        return "\n".join(lines)


def total(value, shape):
    """A line summing %value of `shape` into %loss."""
    return "%%loss = tp.sum %%%s : (%s) -> tensor<f64>" % (value, t(shape))


def add_up(lines, sums):
    """`lines` with adds of the 0-d `sums` into %loss (a single sum is
    %loss already)."""
    acc = sums[0]
    for i, term in enumerate(sums[1:]):
        name = "%loss" if i == len(sums) - 2 else "%%acc%d" % i
        lines.append("%s = tp.add %s, %s : (tensor<f64>, tensor<f64>) -> "
                     "tensor<f64>" % (name, acc, term))
        acc = name
    return lines


def summed_products(values, factor, prefix):
    """Lines adding sum(v * f) over `values` ((name, shape) pairs) into
    %loss, f the operand `factor(i, name, shape)` returns with the lines
    that define it."""
    lines, sums = [], []
    for i, (name, shape) in enumerate(values):
        ty = t(shape)
        setup, other = factor(i, name, shape)
        lines += setup
        lines.append("%%%sm%d = tp.mul %%%s, %s : (%s, %s) -> %s"
                     % (prefix, i, name, other, ty, ty, ty))
        total = "%%%ss%d" % (prefix, i) if len(values) > 1 else "%loss"
        lines.append("%s = tp.sum %%%sm%d : (%s) -> tensor<f64>"
                     % (total, prefix, i, ty))
        sums.append(total)
    return add_up(lines, sums)


def squares(values):
    """Lines adding sum(v * v) over `values` into %loss."""
    return summed_products(values, lambda i, name, shape: ([], "%" + name),
                           "sq")


def squares_and(values, extra, prefix="sa"):
    """Lines adding sum(v * v) over `values` ((name, shape) pairs) and the
    0-d values named in `extra` into %loss."""
    lines, sums = [], []
    for i, (name, shape) in enumerate(values):
        ty = t(shape)
        lines.append("%%%sm%d = tp.mul %%%s, %%%s : (%s, %s) -> %s"
                     % (prefix, i, name, name, ty, ty, ty))
        lines.append("%%%ss%d = tp.sum %%%sm%d : (%s) -> tensor<f64>"
                     % (prefix, i, prefix, i, ty))
        sums.append("%%%ss%d" % (prefix, i))
    return add_up(lines, sums + ["%" + e for e in extra])


def weighted(values, seed):
    """Lines adding sum(v * c) over `values`, each c a constant of v's shape
    with distinct entries (a plain sum of a normalization's output is
    constant), into %loss."""
    rng = np.random.default_rng(seed)

    def constant(i, name, shape):
        c = rng.uniform(-1, 1, shape)
        text = np.array2string(c, separator=", ", precision=6,
                               max_line_width=10**6, threshold=10**6)
        return (["%%wc%d = tp.constant dense<%s> : %s" % (i, text, t(shape))],
                "%%wc%d" % i)
    return summed_products(values, constant, "w")


def renamed(lines, old, new):
    """`lines` with the value `old` named `new`."""
    return [l.replace(old + " ", new + " ") for l in lines]


def unary(op, arg, shape, attrs=""):
    """A line applying the unary `op` to %arg, named %op."""
    ty = t(shape)
    return "%%%s = tp.%s %%%s%s : (%s) -> %s" % (
        op, op, arg, " {%s}" % attrs if attrs else "", ty, ty)

CONTROL_FLOW_HELPER = """func.func private @cf_helper(%x: tensor<2x3xf64>, %w: tensor<3xf64>) -> tensor<2x3xf64> {
  %s = tp.sigmoid %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  %m = tp.add %s, %w : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
  return %m : tensor<2x3xf64>
}

"""

# scf.if on a run-time condition (each branch in its own case), an scf.for
# with constant bounds (unrolled) and a call (inlined).
CONTROL_FLOW = [
    "%c = tensor.extract %a1[] : tensor<i1>",
    "%r = scf.if %c -> (tensor<2x3xf64>) {",
    "  %e = tp.exp %a0 : (tensor<2x3xf64>) -> tensor<2x3xf64>",
    "  %m = tp.mul %e, %a2 : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>",
    "  scf.yield %m : tensor<2x3xf64>",
    "} else {",
    "  %s = tp.sin %a0 : (tensor<2x3xf64>) -> tensor<2x3xf64>",
    "  scf.yield %s : tensor<2x3xf64>",
    "}",
    "%i0 = arith.constant 0 : index",
    "%i1 = arith.constant 1 : index",
    "%i3 = arith.constant 3 : index",
    "%loop = scf.for %i = %i0 to %i3 step %i1 iter_args(%h = %r) -> (tensor<2x3xf64>) {",
    "  %t = tp.tanh %h : (tensor<2x3xf64>) -> tensor<2x3xf64>",
    "  %n = tp.mul %t, %a2 : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>",
    "  scf.yield %n : tensor<2x3xf64>",
    "}",
    "%y = func.call @cf_helper(%loop, %a2) : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>",
] + squares([("y", (2, 3))])


# A loop of run-time trip count %a1 carrying h and a running sum of h.
DYNAMIC_LOOP = [
    "%c0 = arith.constant 0 : index",
    "%c1 = arith.constant 1 : index",
    "%n = tensor.extract %a1[] : tensor<i64>",
    "%ni = arith.index_cast %n : i64 to index",
    "%r:2 = scf.for %i = %c0 to %ni step %c1 iter_args(%h = %a0, %acc = %a0) -> (tensor<2x3xf64>, tensor<2x3xf64>) {",
    "  %t = tp.tanh %h : (tensor<2x3xf64>) -> tensor<2x3xf64>",
    "  %m = tp.mul %t, %a2 : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>",
    "  %s = tp.add %acc, %m : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>",
    "  scf.yield %m, %s : tensor<2x3xf64>, tensor<2x3xf64>",
    "}",
] + squares_and([("r#0", (2, 3)), ("r#1", (2, 3))], [])

CASES = [
    Case("binary_broadcast", [(2, 3), (3,)], [
        "%c = tp.constant dense<3.0> : tensor<f64>",
        "%s = tp.add %a0, %a1 : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>",
        "%d = tp.sub %a0, %a1 {alpha = 2.0 : f64} : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>",
        "%m = tp.mul %s, %d : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>",
        "%b = tp.add %a1, %c : (tensor<3xf64>, tensor<f64>) -> tensor<3xf64>",
        "%q = tp.div %m, %b : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>",
        "%n = tp.neg %q : (tensor<2x3xf64>) -> tensor<2x3xf64>",
        total("n", (2, 3))]),
    Case("unary_math", [(2, 3)], [
        "%one = tp.constant dense<1.0> : tensor<f64>",
        "%sq = tp.mul %a0, %a0 : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>",
        "%p = tp.add %sq, %one : (tensor<2x3xf64>, tensor<f64>) -> tensor<2x3xf64>",
        "%l = tp.log %p : (tensor<2x3xf64>) -> tensor<2x3xf64>",
        "%r = tp.sqrt %p : (tensor<2x3xf64>) -> tensor<2x3xf64>",
        "%e = tp.exp %a0 : (tensor<2x3xf64>) -> tensor<2x3xf64>",
        "%s = tp.sin %a0 : (tensor<2x3xf64>) -> tensor<2x3xf64>",
        "%c = tp.cos %e : (tensor<2x3xf64>) -> tensor<2x3xf64>",
        "%h = tp.tanh %a0 : (tensor<2x3xf64>) -> tensor<2x3xf64>",
        "%g = tp.sigmoid %l : (tensor<2x3xf64>) -> tensor<2x3xf64>",
        "%x1 = tp.mul %l, %r : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>",
        "%x2 = tp.add %x1, %s : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>",
        "%x3 = tp.mul %x2, %c : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>",
        "%x4 = tp.add %x3, %h : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>",
        "%x5 = tp.mul %x4, %g : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>",
        total("x5", (2, 3))]),
    Case("activations", [(3, 4)], [
        "%r = tp.relu %a0 : (tensor<3x4xf64>) -> tensor<3x4xf64>",
        "%g = tp.gelu %a0 : (tensor<3x4xf64>) -> tensor<3x4xf64>",
        "%k = tp.gelu %a0 {approximate = #tp.approximate<tanh>} : (tensor<3x4xf64>) -> tensor<3x4xf64>",
        "%x1 = tp.mul %r, %g : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>",
        "%x2 = tp.add %x1, %k : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>",
        "%x3 = tp.mul %x2, %k : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>",
        total("x3", (3, 4))],
        # away from relu's kink, where the difference quotient is not the
        # derivative
        lambda rng: [np.where(np.abs(x) < 0.05, 0.3, x) for x in
                     [rng.uniform(-3, 3, (3, 4))]]),
    Case("products", [(2, 3), (3, 4), (5, 4), (5,), (2, 2, 4)], [
        "%m = tp.mm %a0, %a1 : (tensor<2x3xf64>, tensor<3x4xf64>) -> tensor<2x4xf64>",
        "%n = tp.matmul %a0, %a1 : (tensor<2x3xf64>, tensor<3x4xf64>) -> tensor<2x4xf64>",
        "%p = tp.mul %m, %n : (tensor<2x4xf64>, tensor<2x4xf64>) -> tensor<2x4xf64>",
        "%l = tp.linear %a4, %a2 bias(%a3) : (tensor<2x2x4xf64>, tensor<5x4xf64>, tensor<5xf64>) -> tensor<2x2x5xf64>",
        "%q = tp.linear %p, %a2 : (tensor<2x4xf64>, tensor<5x4xf64>) -> tensor<2x5xf64>",
        "%lr = tp.reshape %l {shape = array<i64: 4, 5>} : (tensor<2x2x5xf64>) -> tensor<4x5xf64>",
        "%lq = tp.mm %q, %a2 : (tensor<2x5xf64>, tensor<5x4xf64>) -> tensor<2x4xf64>",
        "%s1 = tp.sum %lr : (tensor<4x5xf64>) -> tensor<f64>",
        "%lq2 = tp.mul %lq, %lq : (tensor<2x4xf64>, tensor<2x4xf64>) -> tensor<2x4xf64>",
        "%s2 = tp.sum %lq2 : (tensor<2x4xf64>) -> tensor<f64>",
        "%l2 = tp.mul %lr, %lr : (tensor<4x5xf64>, tensor<4x5xf64>) -> tensor<4x5xf64>",
        "%s3 = tp.sum %l2 : (tensor<4x5xf64>) -> tensor<f64>",
        "%s4 = tp.add %s1, %s2 : (tensor<f64>, tensor<f64>) -> tensor<f64>",
        "%loss = tp.add %s4, %s3 : (tensor<f64>, tensor<f64>) -> tensor<f64>"]),
    Case("reductions_layout", [(2, 3, 4)], [
        "%s = tp.sum %a0 {dim = array<i64: 1>, keepdim = true} : (tensor<2x3x4xf64>) -> tensor<2x1x4xf64>",
        "%m = tp.mean %a0 {dim = array<i64: 0, -1>} : (tensor<2x3x4xf64>) -> tensor<3xf64>",
        "%p = tp.permute %a0 {dims = array<i64: 2, 0, 1>} : (tensor<2x3x4xf64>) -> tensor<4x2x3xf64>",
        "%t = tp.transpose %a0 {dim0 = 0 : i64, dim1 = 2 : i64} : (tensor<2x3x4xf64>) -> tensor<4x3x2xf64>",
        "%r = tp.reshape %t {shape = array<i64: 4, 6>} : (tensor<4x3x2xf64>) -> tensor<4x6xf64>",
        "%pr = tp.reshape %p {shape = array<i64: 4, 6>} : (tensor<4x2x3xf64>) -> tensor<4x6xf64>",
        "%x = tp.mul %r, %pr : (tensor<4x6xf64>, tensor<4x6xf64>) -> tensor<4x6xf64>",
        "%y = tp.mul %a0, %s : (tensor<2x3x4xf64>, tensor<2x1x4xf64>) -> tensor<2x3x4xf64>",
        "%z = tp.mul %y, %y : (tensor<2x3x4xf64>, tensor<2x3x4xf64>) -> tensor<2x3x4xf64>",
        "%mm = tp.mul %m, %m : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>",
        "%s1 = tp.sum %x : (tensor<4x6xf64>) -> tensor<f64>",
        "%s2 = tp.mean %z : (tensor<2x3x4xf64>) -> tensor<f64>",
        "%s3 = tp.sum %mm : (tensor<3xf64>) -> tensor<f64>",
        "%s4 = tp.add %s1, %s2 : (tensor<f64>, tensor<f64>) -> tensor<f64>",
        "%loss = tp.add %s4, %s3 : (tensor<f64>, tensor<f64>) -> tensor<f64>"]),
    Case("softmax_losses", [(3, 5), (3, 5)], [
        "%s = tp.softmax %a0 {dim = 1 : i64} : (tensor<3x5xf64>) -> tensor<3x5xf64>",
        "%l = tp.log_softmax %a0 {dim = 0 : i64} : (tensor<3x5xf64>) -> tensor<3x5xf64>",
        "%x = tp.mul %s, %l : (tensor<3x5xf64>, tensor<3x5xf64>) -> tensor<3x5xf64>",
        "%m1 = tp.mse_loss %x, %a1 : (tensor<3x5xf64>, tensor<3x5xf64>) -> tensor<f64>",
        "%m2 = tp.mse_loss %s, %a1 {reduction = #tp.reduction<sum>} : (tensor<3x5xf64>, tensor<3x5xf64>) -> tensor<f64>",
        "%m3 = tp.mse_loss %l, %a1 {reduction = #tp.reduction<none>} : (tensor<3x5xf64>, tensor<3x5xf64>) -> tensor<3x5xf64>",
        "%s3 = tp.sum %m3 : (tensor<3x5xf64>) -> tensor<f64>",
        "%s4 = tp.add %m1, %m2 : (tensor<f64>, tensor<f64>) -> tensor<f64>",
        "%loss = tp.add %s4, %s3 : (tensor<f64>, tensor<f64>) -> tensor<f64>"]),
    # Class-index losses: nll_loss of log_softmax and cross_entropy, with
    # class weights (constants: their gradient is not implemented, as in
    # PyTorch), an ignored target (-100) and each reduction.
    Case("class_losses", [(4, 5), ((4,), "i64")], [
        "%a2 = tp.constant dense<[0.5, 1.0, 1.5, 2.0, 0.75]> : tensor<5xf64>",
        "%lp = tp.log_softmax %a0 {dim = 1 : i64} : (tensor<4x5xf64>) -> tensor<4x5xf64>",
        "%n1 = tp.nll_loss %lp, %a1 weight(%a2) : (tensor<4x5xf64>, tensor<4xi64>, tensor<5xf64>) -> tensor<f64>",
        "%n2 = tp.nll_loss %lp, %a1 {reduction = #tp.reduction<none>} : (tensor<4x5xf64>, tensor<4xi64>) -> tensor<4xf64>",
        "%c1 = tp.cross_entropy %a0, %a1 : (tensor<4x5xf64>, tensor<4xi64>) -> tensor<f64>",
        "%c2 = tp.cross_entropy %a0, %a1 weight(%a2) {reduction = #tp.reduction<sum>} : (tensor<4x5xf64>, tensor<4xi64>, tensor<5xf64>) -> tensor<f64>",
        "%sq = tp.mul %n2, %n2 : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>",
        "%s2 = tp.sum %sq : (tensor<4xf64>) -> tensor<f64>",
        "%x1 = tp.add %n1, %s2 : (tensor<f64>, tensor<f64>) -> tensor<f64>",
        "%x2 = tp.add %x1, %c1 : (tensor<f64>, tensor<f64>) -> tensor<f64>",
        "%loss = tp.add %x2, %c2 : (tensor<f64>, tensor<f64>) -> tensor<f64>"],
        lambda rng: [rng.uniform(-2, 2, (4, 5)),
                     np.array([3, -100, 0, 4], dtype=np.int64)]),
    # binary_cross_entropy_with_logits with constant targets, weight and
    # pos_weight, each reduction (bce_all_operands differentiates them).
    Case("bce_with_logits", [(3, 4)], [
        "%t = tp.constant dense<[[0.0, 1.0, 0.5, 1.0], [1.0, 0.0, 0.25, 0.0], [0.5, 0.5, 1.0, 0.0]]> : tensor<3x4xf64>",
        "%p = tp.constant dense<[1.0, 2.0, 0.5, 3.0]> : tensor<4xf64>",
        "%w = tp.constant dense<[0.5, 1.0, 2.0, 1.5]> : tensor<4xf64>",
        "%b1 = tp.binary_cross_entropy_with_logits %a0, %t : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<f64>",
        "%b2 = tp.binary_cross_entropy_with_logits %a0, %t weight(%w) pos_weight(%p) {reduction = #tp.reduction<sum>} : (tensor<3x4xf64>, tensor<3x4xf64>, tensor<4xf64>, tensor<4xf64>) -> tensor<f64>",
        "%b3 = tp.binary_cross_entropy_with_logits %a0, %t pos_weight(%p) {reduction = #tp.reduction<none>} : (tensor<3x4xf64>, tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xf64>",
        "%sq = tp.mul %b3, %b3 : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>",
        "%s3 = tp.sum %sq : (tensor<3x4xf64>) -> tensor<f64>",
        "%x = tp.add %b1, %b2 : (tensor<f64>, tensor<f64>) -> tensor<f64>",
        "%loss = tp.add %x, %s3 : (tensor<f64>, tensor<f64>) -> tensor<f64>"],
        lambda rng: [rng.uniform(-3, 3, (3, 4))]),
    # A tp.custom_function whose forward has no backward rule (cumsum): the
    # gradient comes from its backward region (a reversed cumsum).
    Case("custom_function", [(3, 5), (3, 5)], [
        "%y = tp.custom_function(%a0, %a1) : (tensor<3x5xf64>, tensor<3x5xf64>) -> tensor<3x5xf64> forward {",
        "^bb0(%x: tensor<3x5xf64>, %w: tensor<3x5xf64>):",
        "  %c = tp.cumsum %x {dim = 1 : i64} : (tensor<3x5xf64>) -> tensor<3x5xf64>",
        "  %m = tp.mul %c, %w : (tensor<3x5xf64>, tensor<3x5xf64>) -> tensor<3x5xf64>",
        "  tp.yield %m : tensor<3x5xf64>",
        "} backward {",
        "^bb0(%x: tensor<3x5xf64>, %w: tensor<3x5xf64>, %r: tensor<3x5xf64>, %g: tensor<3x5xf64>):",
        "  %gc = tp.mul %g, %w : (tensor<3x5xf64>, tensor<3x5xf64>) -> tensor<3x5xf64>",
        "  %s = tp.sum %gc {dim = array<i64: 1>, keepdim = true} : (tensor<3x5xf64>) -> tensor<3x1xf64>",
        "  %cs = tp.cumsum %gc {dim = 1 : i64} : (tensor<3x5xf64>) -> tensor<3x5xf64>",
        "  %t = tp.sub %s, %cs : (tensor<3x1xf64>, tensor<3x5xf64>) -> tensor<3x5xf64>",
        "  %gx = tp.add %t, %gc : (tensor<3x5xf64>, tensor<3x5xf64>) -> tensor<3x5xf64>",
        "  %c = tp.cumsum %x {dim = 1 : i64} : (tensor<3x5xf64>) -> tensor<3x5xf64>",
        "  %gw = tp.mul %g, %c : (tensor<3x5xf64>, tensor<3x5xf64>) -> tensor<3x5xf64>",
        "  tp.yield %gx, %gw : tensor<3x5xf64>, tensor<3x5xf64>",
        "}",
        "%sq = tp.mul %y, %y : (tensor<3x5xf64>, tensor<3x5xf64>) -> tensor<3x5xf64>",
        "%loss = tp.sum %sq : (tensor<3x5xf64>) -> tensor<f64>"]),
    Case("vector_cross_entropy", [(5,), ((), "i64")], [
        "%loss = tp.cross_entropy %a0, %a1 : (tensor<5xf64>, tensor<i64>) -> tensor<f64>"],
        lambda rng: [rng.uniform(-2, 2, (5,)), np.array(2, dtype=np.int64)]),
    # The unary math ops, each on inputs inside its domain (and away from
    # abs's kink and softplus's threshold switch, at beta x = 3).
    Case("unary_more", [(2, 3), (2, 3), (2, 3)],
         [unary(op, "a0", (2, 3)) for op in
          ["asin", "acos", "cosh", "sinh", "tan", "erf", "erfinv", "expm1",
           "atan", "asinh", "atanh"]] +
         [unary(op, "a1", (2, 3)) for op in
          ["log10", "log2", "log1p", "reciprocal", "rsqrt"]] +
         ["%a1p = tp.add %a1, %a1 : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>",
          unary("acosh", "a1p", (2, 3))] +
         [unary("silu", "a2", (2, 3)), unary("abs", "a2", (2, 3)),
          unary("softplus", "a2", (2, 3),
                "beta = 2.0 : f64, threshold = 3.0 : f64")] +
         squares([(op, (2, 3)) for op in
                  ["asin", "acos", "cosh", "sinh", "tan", "erf", "erfinv",
                   "expm1", "atan", "asinh", "atanh", "log10", "log2",
                   "log1p", "reciprocal", "rsqrt", "acosh", "silu", "abs",
                   "softplus"]]),
         lambda rng: [rng.uniform(-0.8, 0.8, (2, 3)),
                      rng.uniform(0.5, 2, (2, 3)),
                      np.array([[-2.5, -0.4, 0.3], [1.2, 1.7, 2.6]])]),
    # The piecewise activations, on inputs in each of their pieces and away
    # from the kinks (hardswish at +-3, clamp at its bounds, leaky_relu at
    # 0); masked_fill passes the gradient where the mask is false; the
    # comparison feeding the mask takes no gradient.
    Case("piecewise", [(2, 4), (2, 4)], [
        unary("leaky_relu", "a0", (2, 4), "negative_slope = 0.2 : f64"),
        unary("hardswish", "a0", (2, 4)),
        unary("clamp", "a0", (2, 4), "max = 2.0 : f64, min = -1.0 : f64"),
        unary("elu", "a0", (2, 4),
              "alpha = 1.5 : f64, input_scale = 0.5 : f64, scale = 1.25 : f64"),
        unary("mish", "a0", (2, 4)),
        unary("log_sigmoid", "a0", (2, 4)),
        "%lse = tp.logsumexp %a0 {dim = array<i64: 1>} : (tensor<2x4xf64>) -> tensor<2xf64>",
        "%zero = tp.constant dense<0.0> : tensor<f64>",
        "%mask = tp.gt %a1, %zero : (tensor<2x4xf64>, tensor<f64>) -> tensor<2x4xi1>",
        "%mf = tp.masked_fill %a0, %mask {value = 3.0 : f64} : (tensor<2x4xf64>, tensor<2x4xi1>) -> tensor<2x4xf64>",
        "%mw = tp.mul %mf, %a1 : (tensor<2x4xf64>, tensor<2x4xf64>) -> tensor<2x4xf64>"] +
        squares([(op, (2, 4)) for op in
                 ["leaky_relu", "hardswish", "clamp", "elu", "mish",
                  "log_sigmoid", "mw"]] + [("lse", (2,))]),
        lambda rng: [np.array([[-4.0, -2.2, -0.6, 0.4], [1.3, 2.5, 3.6, -1.7]]),
                     rng.uniform(-1, 1, (2, 4))]),
    # The pools: max (the gradient to the element each window took; the
    # inputs are distinct, so no finite difference crosses a tie), average
    # (aten's divisors, with and without the padding), adaptive; 2-D and 3-D.
    Case("pooling", [(1, 2, 5, 6), (1, 1, 4, 3, 5)], [
        "%mp = tp.max_pool2d %a0 {kernel_size = array<i64: 3>, padding = array<i64: 1>, stride = array<i64: 2>} : (tensor<1x2x5x6xf64>) -> tensor<1x2x3x3xf64>",
        "%mi, %idx = tp.max_pool2d_with_indices %a0 {ceil_mode = true, dilation = array<i64: 2, 1>, kernel_size = array<i64: 2>, stride = array<i64: 2>} : (tensor<1x2x5x6xf64>) -> (tensor<1x2x2x3xf64>, tensor<1x2x2x3xi64>)",
        "%ap = tp.avg_pool2d %a0 {ceil_mode = true, count_include_pad = false, kernel_size = array<i64: 3, 2>, padding = array<i64: 1>, stride = array<i64: 2>} : (tensor<1x2x5x6xf64>) -> tensor<1x2x3x4xf64>",
        "%ai = tp.avg_pool2d %a0 {kernel_size = array<i64: 2>, padding = array<i64: 1>, stride = array<i64: 1>} : (tensor<1x2x5x6xf64>) -> tensor<1x2x6x7xf64>",
        "%aa = tp.adaptive_avg_pool2d %a0 {output_size = array<i64: 3, 4>} : (tensor<1x2x5x6xf64>) -> tensor<1x2x3x4xf64>",
        "%m3 = tp.max_pool3d %a1 {kernel_size = array<i64: 2>, stride = array<i64: 1>} : (tensor<1x1x4x3x5xf64>) -> tensor<1x1x3x2x4xf64>",
        "%a3 = tp.avg_pool3d %a1 {kernel_size = array<i64: 2>, padding = array<i64: 1>} : (tensor<1x1x4x3x5xf64>) -> tensor<1x1x3x2x3xf64>",
        "%q3 = tp.adaptive_avg_pool3d %a1 {output_size = array<i64: 2, 2, 3>} : (tensor<1x1x4x3x5xf64>) -> tensor<1x1x2x2x3xf64>",
        "%x3, %i3 = tp.adaptive_max_pool3d %a1 {output_size = array<i64: 3, 2, 2>} : (tensor<1x1x4x3x5xf64>) -> (tensor<1x1x3x2x2xf64>, tensor<1x1x3x2x2xi64>)"] +
        squares([("mp", (1, 2, 3, 3)), ("mi", (1, 2, 2, 3)),
                 ("ap", (1, 2, 3, 4)), ("ai", (1, 2, 6, 7)),
                 ("aa", (1, 2, 3, 4)), ("m3", (1, 1, 3, 2, 4)),
                 ("a3", (1, 1, 3, 2, 3)), ("q3", (1, 1, 2, 2, 3)),
                 ("x3", (1, 1, 3, 2, 2))]),
        lambda rng: [rng.permutation(60).reshape(1, 2, 5, 6) / 30.0 - 1,
                     rng.permutation(60).reshape(1, 1, 4, 3, 5) / 30.0 - 1]),
    # slice (strided, negative bounds) and the slices cat's and stack's
    # gradients are taken with.
    Case("slicing", [(4, 7), (4, 3)], [
        "%s1 = tp.slice %a0 {dim = 1 : i64, end = -1 : i64, start = 1 : i64, step = 2 : i64} : (tensor<4x7xf64>) -> tensor<4x3xf64>",
        "%s2 = tp.slice %a0 {end = 3 : i64, start = -3 : i64} : (tensor<4x7xf64>) -> tensor<2x7xf64>",
        "%m = tp.mul %s1, %a1 : (tensor<4x3xf64>, tensor<4x3xf64>) -> tensor<4x3xf64>",
        "%c = tp.cat [%m, %a0] {dim = 1 : i64} : (tensor<4x3xf64>, tensor<4x7xf64>) -> tensor<4x10xf64>",
        "%st = tp.stack [%s1, %a1] {dim = 2 : i64} : (tensor<4x3xf64>, tensor<4x3xf64>) -> tensor<4x3x2xf64>"] +
        squares([("s2", (2, 7)), ("c", (4, 10)), ("st", (4, 3, 2))])),
    # gather, scatter_add (src larger than the index, duplicate targets),
    # index_copy and topk's values (distinct inputs, so that the order
    # holds under the finite differences).
    Case("gather_scatter_topk", [(4, 6), (3, 5), (2, 6)], [
        "%ix = tp.constant dense<[[0, 5, 2], [1, 1, 4], [3, 0, 0], [5, 2, 1]]> : tensor<4x3xi64>",
        "%g = tp.gather %a0, %ix {dim = 1 : i64} : (tensor<4x6xf64>, tensor<4x3xi64>) -> tensor<4x3xf64>",
        "%si = tp.constant dense<[[0, 3, 3, 1], [2, 0, 3, 3], [1, 1, 0, 2]]> : tensor<3x4xi64>",
        "%sa = tp.scatter_add %a0, %si, %a1 {dim = 0 : i64} : (tensor<4x6xf64>, tensor<3x4xi64>, tensor<3x5xf64>) -> tensor<4x6xf64>",
        "%ci = tp.constant dense<[2, 0]> : tensor<2xi64>",
        "%ic = tp.index_copy %a0, %ci, %a2 {dim = 0 : i64} : (tensor<4x6xf64>, tensor<2xi64>, tensor<2x6xf64>) -> tensor<4x6xf64>",
        "%v, %i = tp.topk %a0 {k = 3 : i64, dim = 1 : i64} : (tensor<4x6xf64>) -> (tensor<4x3xf64>, tensor<4x3xi64>)",
        "%w, %j = tp.topk %a0 {k = 2 : i64, dim = 0 : i64, largest = false} : (tensor<4x6xf64>) -> (tensor<2x6xf64>, tensor<2x6xi64>)"] +
        squares([("g", (4, 3)), ("sa", (4, 6)), ("ic", (4, 6)), ("v", (4, 3)),
                 ("w", (2, 6))]),
        lambda rng: [rng.permutation(24).reshape(4, 6) / 12.0 - 1,
                     rng.uniform(-1, 1, (3, 5)), rng.uniform(-1, 1, (2, 6))]),
    # Ops differentiated through their decompositions (the rewrites of
    # tp-decompose-composite-ops): the recurrent cells and grouped-query
    # attention (8 query heads, 2 key / value heads).
    Case("cells_gqa", [(3, 4), (3, 2), (3, 2), (6, 4), (6, 2), (8, 4),
                       (8, 2), (8,), (1, 4, 3, 4), (1, 2, 5, 4),
                       (1, 2, 5, 4)], [
        "%g = tp.gru_cell %a0, %a1, %a3, %a4 : (tensor<3x4xf64>, tensor<3x2xf64>, tensor<6x4xf64>, tensor<6x2xf64>) -> tensor<3x2xf64>",
        "%h, %c = tp.lstm_cell %a0, %a1, %a2, %a5, %a6 b_ih(%a7) : (tensor<3x4xf64>, tensor<3x2xf64>, tensor<3x2xf64>, tensor<8x4xf64>, tensor<8x2xf64>, tensor<8xf64>) -> (tensor<3x2xf64>, tensor<3x2xf64>)",
        "%at = tp.scaled_dot_product_attention %a8, %a9, %a10 {enable_gqa = true} : (tensor<1x4x3x4xf64>, tensor<1x2x5x4xf64>, tensor<1x2x5x4xf64>) -> tensor<1x4x3x4xf64>"] +
        weighted([("g", (3, 2)), ("h", (3, 2)), ("c", (3, 2)),
                  ("at", (1, 4, 3, 4))], 11)),
    # _native_multi_head_attention (2 heads of 2) through its decomposition:
    # cross-attention with a key padding mask (mask_type 1) and averaged
    # weights, and self-attention with per-head weights.
    Case("native_mha", [(2, 3, 4), (2, 5, 4), (2, 5, 4), (12, 4), (12,),
                        (4, 4), (4,)], [
        "%m = tp.constant dense<[[false, false, false, true, true], [false, false, false, false, false]]> : tensor<2x5xi1>",
        "%o, %w = tp.native_multi_head_attention %a0, %a1, %a2, %a3, %a4, %a5, %a6 mask(%m) {embed_dim = 4 : i64, num_head = 2 : i64, mask_type = 1 : i64} : (tensor<2x3x4xf64>, tensor<2x5x4xf64>, tensor<2x5x4xf64>, tensor<12x4xf64>, tensor<12xf64>, tensor<4x4xf64>, tensor<4xf64>, tensor<2x5xi1>) -> (tensor<2x3x4xf64>, tensor<2x3x5xf64>)",
        "%so, %sw = tp.native_multi_head_attention %a0, %a0, %a0, %a3, %a4, %a5, %a6 {embed_dim = 4 : i64, num_head = 2 : i64, average_attn_weights = false} : (tensor<2x3x4xf64>, tensor<2x3x4xf64>, tensor<2x3x4xf64>, tensor<12x4xf64>, tensor<12xf64>, tensor<4x4xf64>, tensor<4xf64>) -> (tensor<2x3x4xf64>, tensor<2x2x3x3xf64>)"] +
        weighted([("o", (2, 3, 4)), ("w", (2, 3, 5)), ("so", (2, 3, 4)),
                  ("sw", (2, 2, 3, 3))], 7)),
    # mkldnn_rnn_layer (an LSTM layer, reversed) through its lstm_cells.
    Case("rnn_layer", [(3, 2, 2), (8, 2), (8, 2), (8,), (8,), (2, 2),
                       (2, 2)], [
        "%o, %hy, %cy, %ws = tp.mkldnn_rnn_layer %a0, %a1, %a2, %a3, %a4, %a5, %a6 {reverse = true, batch_sizes = array<i64>, mode = 2 : i64, hidden_size = 2 : i64, num_layers = 1 : i64, has_biases = true, bidirectional = false, batch_first = false, train = false} : (tensor<3x2x2xf64>, tensor<8x2xf64>, tensor<8x2xf64>, tensor<8xf64>, tensor<8xf64>, tensor<2x2xf64>, tensor<2x2xf64>) -> (tensor<3x2x2xf64>, tensor<2x2xf64>, tensor<2x2xf64>, tensor<0xui8>)"] +
        weighted([("o", (3, 2, 2)), ("hy", (2, 2)), ("cy", (2, 2))], 7)),
    # quantile (linear, midpoint) and nanquantile through their
    # decomposition: the gradient reaches the two values each rank lies
    # between (topk's and gather's rules), weighted by the lerp.
    Case("quantiles", [(3, 7)], [
        "%q = tp.constant dense<[0.1, 0.5, 0.8]> : tensor<3xf64>",
        "%ql = tp.quantile %a0, %q {dim = 1 : i64} : (tensor<3x7xf64>, tensor<3xf64>) -> tensor<3x3xf64>",
        "%qm = tp.quantile %a0, %q {dim = 0 : i64, interpolation = \"midpoint\"} : (tensor<3x7xf64>, tensor<3xf64>) -> tensor<3x7xf64>",
        "%qn = tp.nanquantile %a0, %q : (tensor<3x7xf64>, tensor<3xf64>) -> tensor<3xf64>"] +
        weighted([("ql", (3, 3)), ("qm", (3, 7)), ("qn", (3,))], 1)),
    # cross, cdist (p = 2, 1), pdist and renorm (rows above and below
    # maxnorm).
    Case("cross_cdist_renorm", [(4, 3), (4, 3), (5, 3), (3, 5)], [
        "%cr = tp.cross %a0, %a1 {dim = 1 : i64} : (tensor<4x3xf64>, tensor<4x3xf64>) -> tensor<4x3xf64>",
        "%cd = tp.cdist %a0, %a2 : (tensor<4x3xf64>, tensor<5x3xf64>) -> tensor<4x5xf64>",
        "%c1 = tp.cdist %a0, %a2 {p = 1.0 : f64} : (tensor<4x3xf64>, tensor<5x3xf64>) -> tensor<4x5xf64>",
        "%pd = tp.pdist %a2 : (tensor<5x3xf64>) -> tensor<10xf64>",
        "%rn = tp.renorm %a3 {dim = 0 : i64, maxnorm = 1.25 : f64, p = 2.0 : f64} : (tensor<3x5xf64>) -> tensor<3x5xf64>"] +
        weighted([("cr", (4, 3)), ("cd", (4, 5)), ("c1", (4, 5)),
                  ("pd", (10,)), ("rn", (3, 5))], 12),
        lambda rng: [rng.uniform(-1, 1, (4, 3)), rng.uniform(-1, 1, (4, 3)),
                     rng.uniform(-1, 1, (5, 3)),
                     rng.uniform(-1, 1, (3, 5)) * np.array([[0.3], [1], [2]])]),
    # The multi-class hinge losses (targets constant).
    Case("margin_losses", [(4, 5), (5,)], [
        "%t = tp.constant dense<[1, 0, 4, 2]> : tensor<4xi64>",
        "%mm = tp.multi_margin_loss %a0, %t : (tensor<4x5xf64>, tensor<4xi64>) -> tensor<f64>",
        "%mw = tp.multi_margin_loss %a0, %t weight(%a1) {p = 2 : i64, margin = 0.5 : f64, reduction = #tp.reduction<none>} : (tensor<4x5xf64>, tensor<4xi64>, tensor<5xf64>) -> tensor<4xf64>",
        "%y = tp.constant dense<[[3, 0, -1, 1, 1], [1, 1, 4, -1, 2], [-1, 2, 2, 2, 2], [0, 1, 2, 3, 4]]> : tensor<4x5xi64>",
        "%ml = tp.multilabel_margin_loss %a0, %y : (tensor<4x5xf64>, tensor<4x5xi64>) -> tensor<f64>",
        "%mf, %it = tp.multilabel_margin_loss_forward %a0, %y {reduction = #tp.reduction<none>} : (tensor<4x5xf64>, tensor<4x5xi64>) -> (tensor<4xf64>, tensor<4x5xf64>)"] +
        squares_and([("mw", (4,)), ("mf", (4,))], ["mm", "ml"]),
        lambda rng: [rng.uniform(-1, 1, (4, 5)), rng.uniform(0.5, 2, (5,))]),
    Case("binary_more", [(2, 3), (3,), (2, 3)], [
        "%at = tp.atan2 %a2, %a1 : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>",
        unary("pow", "a0", (2, 3), "scalar_exponent = 3.0 : f64"),
        "%p5 = tp.pow %a0 {scalar_exponent = 0.5 : f64} : (tensor<2x3xf64>) -> tensor<2x3xf64>",
        "%p2 = tp.pow %a2 {scalar_exponent = 2.0 : f64} : (tensor<2x3xf64>) -> tensor<2x3xf64>",
        "%p1 = tp.pow %a2 {scalar_exponent = 1.0 : f64} : (tensor<2x3xf64>) -> tensor<2x3xf64>",
        unary("rpow", "a2", (2, 3), "base = 3.0 : f64"),
        unary("rdiv", "a0", (2, 3), "other = 2.0 : f64"),
        unary("rtruediv", "a0", (2, 3), "other = -1.5 : f64"),
        "%cm = tp.addcmul %a2, %a0, %a1 {value = 0.5 : f64} : (tensor<2x3xf64>, tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>",
        "%cd = tp.addcdiv %a2, %a0, %a1 {value = -2.0 : f64} : (tensor<2x3xf64>, tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>",
        "%c = tp.constant dense<[[true, false, true], [false, false, true]]> : tensor<2x3xi1>",
        "%wh = tp.where %c, %a0, %a2 : (tensor<2x3xi1>, tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>",
        "%wb = tp.where %c, %a1, %a2 : (tensor<2x3xi1>, tensor<3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>",
        unary("dropout", "a2", (2, 3), "train = false"),
        unary("cumsum", "a2", (2, 3), "dim = 1 : i64")] +
        squares([(v, (2, 3)) for v in
                 ["at", "pow", "p5", "p2", "p1", "rpow", "rdiv", "rtruediv",
                  "cm", "cd", "wh", "wb", "dropout", "cumsum"]]),
        lambda rng: [rng.uniform(0.5, 2, (2, 3)), rng.uniform(0.5, 2, (3,)),
                     rng.uniform(-1, 1, (2, 3))]),
    Case("layout_more", [(1, 3), (2, 1, 3)], [
        "%e = tp.expand %a0 {size = array<i64: 4, 3>} : (tensor<1x3xf64>) -> tensor<4x3xf64>",
        "%e2 = tp.expand %a0 {size = array<i64: 2, -1, 3>} : (tensor<1x3xf64>) -> tensor<2x1x3xf64>",
        "%u = tp.unsqueeze %a0 {dim = 0 : i64} : (tensor<1x3xf64>) -> tensor<1x1x3xf64>",
        "%q = tp.squeeze %a1 : (tensor<2x1x3xf64>) -> tensor<2x3xf64>",
        "%f = tp.flatten %a1 : (tensor<2x1x3xf64>) -> tensor<6xf64>",
        "%m = tp.softmin %q {dim = 1 : i64} : (tensor<2x3xf64>) -> tensor<2x3xf64>",
        "%e3 = tp.mul %e2, %a1 : (tensor<2x1x3xf64>, tensor<2x1x3xf64>) -> tensor<2x1x3xf64>"] +
        squares([("e", (4, 3)), ("e3", (2, 1, 3)), ("u", (1, 1, 3)),
                 ("f", (6,)), ("m", (2, 3))])),
    # Products of every rank combination torch.matmul has: batches, a
    # broadcast batch, 1-D operands on either side, and dot with one
    # operand twice.
    Case("batched_products", [(2, 3, 4), (2, 4, 2), (4, 2), (4,),
                              (2, 1, 2, 3), (3, 3, 2)], [
        "%b = tp.bmm %a0, %a1 : (tensor<2x3x4xf64>, tensor<2x4x2xf64>) -> tensor<2x3x2xf64>",
        "%m1 = tp.matmul %a0, %a2 : (tensor<2x3x4xf64>, tensor<4x2xf64>) -> tensor<2x3x2xf64>",
        "%m2 = tp.matmul %a3, %a1 : (tensor<4xf64>, tensor<2x4x2xf64>) -> tensor<2x2xf64>",
        "%m3 = tp.matmul %a0, %a3 : (tensor<2x3x4xf64>, tensor<4xf64>) -> tensor<2x3xf64>",
        "%m4 = tp.matmul %a4, %a5 : (tensor<2x1x2x3xf64>, tensor<3x3x2xf64>) -> tensor<2x3x2x2xf64>",
        "%m5 = tp.matmul %a3, %a3 : (tensor<4xf64>, tensor<4xf64>) -> tensor<f64>",
        "%d = tp.dot %a3, %a3 : (tensor<4xf64>, tensor<4xf64>) -> tensor<f64>"] +
        squares([("b", (2, 3, 2)), ("m1", (2, 3, 2)), ("m2", (2, 2)),
                 ("m3", (2, 3)), ("m4", (2, 3, 2, 2)), ("m5", ()),
                 ("d", ())])),
    Case("add_products", [(3, 4), (4, 2), (4,), (2,), (2, 3, 4), (2, 4, 2)], [
        "%mv = tp.mv %a0, %a2 : (tensor<3x4xf64>, tensor<4xf64>) -> tensor<3xf64>",
        "%am = tp.addmm %a3, %a0, %a1 {alpha = 2.0 : f64, beta = 0.5 : f64} : (tensor<2xf64>, tensor<3x4xf64>, tensor<4x2xf64>) -> tensor<3x2xf64>",
        "%bb = tp.baddbmm %a3, %a4, %a5 {alpha = -1.5 : f64} : (tensor<2xf64>, tensor<2x3x4xf64>, tensor<2x4x2xf64>) -> tensor<2x3x2xf64>",
        "%ab = tp.addbmm %am, %a4, %a5 {alpha = 0.75 : f64, beta = 2.0 : f64} : (tensor<3x2xf64>, tensor<2x3x4xf64>, tensor<2x4x2xf64>) -> tensor<3x2xf64>",
        "%av = tp.addmv %mv, %a0, %a2 {beta = 2.0 : f64} : (tensor<3xf64>, tensor<3x4xf64>, tensor<4xf64>) -> tensor<3xf64>",
        "%ar = tp.addr %ab, %av, %a3 {alpha = 3.0 : f64} : (tensor<3x2xf64>, tensor<3xf64>, tensor<2xf64>) -> tensor<3x2xf64>",
        "%vd = tp.linalg_vecdot %a4, %a0 : (tensor<2x3x4xf64>, tensor<3x4xf64>) -> tensor<2x3xf64>",
        "%v1 = tp.linalg_vecdot %a5, %a5 {dim = 1 : i64} : (tensor<2x4x2xf64>, tensor<2x4x2xf64>) -> tensor<2x2xf64>"] +
        squares([("bb", (2, 3, 2)), ("ar", (3, 2)), ("vd", (2, 3)),
                 ("v1", (2, 2))])),
    # The normalizations, with and without affine parameters, and
    # batch_norm in training and inference form (a plain sum of their
    # output is constant, so the loss weighs it).
    Case("normalizations", [(2, 4, 3), (3,), (3,), (4,), (4,), (4,), (4,)], [
        "%ln = tp.layer_norm %a0 weight(%a1) bias(%a2) {normalized_shape = array<i64: 3>} : (tensor<2x4x3xf64>, tensor<3xf64>, tensor<3xf64>) -> tensor<2x4x3xf64>",
        "%l2 = tp.layer_norm %a0 {eps = 0.1 : f64, normalized_shape = array<i64: 4, 3>} : (tensor<2x4x3xf64>) -> tensor<2x4x3xf64>",
        "%gn = tp.group_norm %a0 weight(%a3) bias(%a4) {num_groups = 2 : i64} : (tensor<2x4x3xf64>, tensor<4xf64>, tensor<4xf64>) -> tensor<2x4x3xf64>",
        "%bt = tp.batch_norm %a0 weight(%a3) bias(%a4) running_mean(%a5) running_var(%a6) {training = true} : (tensor<2x4x3xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>) -> tensor<2x4x3xf64>",
        "%bi = tp.batch_norm %a0 weight(%a3) bias(%a4) running_mean(%a5) running_var(%a6) : (tensor<2x4x3xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>) -> tensor<2x4x3xf64>",
        "%bn = tp.batch_norm %a0 {training = true, eps = 0.01 : f64} : (tensor<2x4x3xf64>) -> tensor<2x4x3xf64>"] +
        weighted([(v, (2, 4, 3)) for v in ["ln", "l2", "gn", "bt", "bi", "bn"]],
                 11),
        lambda rng: [rng.uniform(-2, 2, (2, 4, 3)), rng.uniform(0.5, 1.5, (3,)),
                     rng.uniform(-1, 1, (3,)), rng.uniform(0.5, 1.5, (4,)),
                     rng.uniform(-1, 1, (4,)), rng.uniform(-0.5, 0.5, (4,)),
                     rng.uniform(0.5, 2, (4,))]),
    # batch_norm_backward's views: an (N, C, H, W) input with parameters and
    # an (N, C) one without.
    Case("batch_norm_shapes", [(3, 4, 2, 2), (4,), (4,), (5, 4)], [
        "%b4 = tp.batch_norm %a0 weight(%a1) bias(%a2) {training = true} : (tensor<3x4x2x2xf64>, tensor<4xf64>, tensor<4xf64>) -> tensor<3x4x2x2xf64>",
        "%b2 = tp.batch_norm %a3 {training = true, eps = 0.1 : f64} : (tensor<5x4xf64>) -> tensor<5x4xf64>"] +
        weighted([("b4", (3, 4, 2, 2)), ("b2", (5, 4))], 12),
        lambda rng: [rng.uniform(-2, 2, (3, 4, 2, 2)),
                     rng.uniform(0.5, 1.5, (4,)), rng.uniform(-1, 1, (4,)),
                     rng.uniform(-2, 2, (5, 4))]),
    # Convolutions: dx through conv_transpose (output_padding where the
    # forward's windows leave rows unused), dw through the swapped
    # correlation cropped to the kernel (the stride-2 W and D below need
    # the crop), db; unbatched conv1d with dilation, conv3d, and the input
    # gradient of a grouped convolution (its weight is a constant).
    Case("convolutions", [(1, 2, 5, 4), (3, 2, 3, 3), (3,), (2, 6), (2, 2, 2),
                          (1, 1, 3, 2, 2), (1, 1, 2, 1, 1)], [
        "%c = tp.conv2d %a0, %a1 bias(%a2) {padding = array<i64: 1>, stride = array<i64: 2>} : (tensor<1x2x5x4xf64>, tensor<3x2x3x3xf64>, tensor<3xf64>) -> tensor<1x3x3x2xf64>",
        "%c1 = tp.conv1d %a3, %a4 {dilation = array<i64: 2>, padding = array<i64: 1>} : (tensor<2x6xf64>, tensor<2x2x2xf64>) -> tensor<2x6xf64>",
        "%c3 = tp.conv3d %a5, %a6 {stride = array<i64: 2, 1, 1>} : (tensor<1x1x3x2x2xf64>, tensor<1x1x2x1x1xf64>) -> tensor<1x1x1x2x2xf64>",
        "%wg = tp.constant dense<[[[[0.5, -1.0], [0.25, 2.0]]], [[[1.5, 0.75], [-0.5, 1.0]]], [[[-1.25, 0.5], [1.0, 0.125]]], [[[0.3, -0.7], [0.9, 1.1]]]]> : tensor<4x1x2x2xf64>",
        "%cg = tp.conv2d %a0, %wg {groups = 2 : i64} : (tensor<1x2x5x4xf64>, tensor<4x1x2x2xf64>) -> tensor<1x4x4x3xf64>"] +
        squares([("c", (1, 3, 3, 2)), ("c1", (2, 6)), ("c3", (1, 1, 1, 2, 2)),
                 ("cg", (1, 4, 4, 3))])),
    # Grouped convolutions with their weights differentiated: a strided
    # conv2d of 2 groups, a depthwise conv1d with dilation and padding, and
    # a conv_transpose2d of 2 groups with output_padding.
    Case("grouped_convolutions", [(2, 4, 5, 4), (6, 2, 3, 2), (6,), (1, 3, 7),
                                  (3, 1, 3), (1, 4, 3, 3), (4, 1, 2, 2)], [
        "%c = tp.conv2d %a0, %a1 bias(%a2) {groups = 2 : i64, padding = array<i64: 1, 0>, stride = array<i64: 2, 1>} : (tensor<2x4x5x4xf64>, tensor<6x2x3x2xf64>, tensor<6xf64>) -> tensor<2x6x3x3xf64>",
        "%d = tp.conv1d %a3, %a4 {groups = 3 : i64, dilation = array<i64: 2>, padding = array<i64: 1>} : (tensor<1x3x7xf64>, tensor<3x1x3xf64>) -> tensor<1x3x5xf64>",
        "%t = tp.conv_transpose2d %a5, %a6 {groups = 2 : i64, stride = array<i64: 2>, output_padding = array<i64: 1>} : (tensor<1x4x3x3xf64>, tensor<4x1x2x2xf64>) -> tensor<1x2x7x7xf64>",
    ] + weighted([("c", (2, 6, 3, 3)), ("d", (1, 3, 5)), ("t", (1, 2, 7, 7))],
                 13)),
    # Composite ops, differentiated through the tp ops they decompose into:
    # attention (causal, with a float mask and a scale), chain_matmul and
    # multi_dot.
    Case("composites", [(1, 1, 3, 4), (1, 1, 3, 4), (1, 1, 3, 4), (3, 3),
                        (2, 3), (3, 2), (2,)], [
        "%s1 = tp.scaled_dot_product_attention %a0, %a1, %a2 {is_causal = true} : (tensor<1x1x3x4xf64>, tensor<1x1x3x4xf64>, tensor<1x1x3x4xf64>) -> tensor<1x1x3x4xf64>",
        "%s2 = tp.scaled_dot_product_attention %a0, %a1, %a2 mask(%a3) {scale = 0.3 : f64} : (tensor<1x1x3x4xf64>, tensor<1x1x3x4xf64>, tensor<1x1x3x4xf64>, tensor<3x3xf64>) -> tensor<1x1x3x4xf64>",
        "%c = tp.chain_matmul [%a4, %a5, %a4] : (tensor<2x3xf64>, tensor<3x2xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>",
        "%d = tp.multi_dot [%a6, %a4, %a5] : (tensor<2xf64>, tensor<2x3xf64>, tensor<3x2xf64>) -> tensor<2xf64>"] +
        squares([("s1", (1, 1, 3, 4)), ("s2", (1, 1, 3, 4)), ("c", (2, 3)),
                 ("d", (2,))])),
    # prelu with a weight per channel (dims 1 of a 4-D and 0 of a 1-D
    # input) and a single weight, inputs away from the kink at 0.
    Case("prelu", [(2, 3, 2, 2), (3,), (3,), (1,)], [
        "%p = tp.prelu %a0, %a1 : (tensor<2x3x2x2xf64>, tensor<3xf64>) -> tensor<2x3x2x2xf64>",
        "%q = tp.prelu %a2, %a1 : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>",
        "%s = tp.prelu %a0, %a3 : (tensor<2x3x2x2xf64>, tensor<1xf64>) -> tensor<2x3x2x2xf64>"] +
        squares([("p", (2, 3, 2, 2)), ("q", (3,)), ("s", (2, 3, 2, 2))]),
        lambda rng: [np.where(np.abs(x) < 0.05, 0.4, x) for x in
                     [rng.uniform(-2, 2, (2, 3, 2, 2)),
                      rng.uniform(0.1, 0.5, (3,)), rng.uniform(-2, 2, (3,)),
                      rng.uniform(0.1, 0.5, (1,))]]),
    # cross_entropy of class probabilities (the targets differentiated
    # too): plain, with class weights and label smoothing, 1-D, and a
    # (N, C, d) input without reduction.
    Case("probability_losses", [(3, 4), (3, 4), (4,), (2, 3, 2), (2, 3, 2)], [
        "%w = tp.constant dense<[0.5, 1.0, 1.5, 2.0]> : tensor<4xf64>",
        "%w3 = tp.constant dense<[2.0, 0.5, 1.0]> : tensor<3xf64>",
        "%c1 = tp.cross_entropy %a0, %a1 : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<f64>",
        "%c2 = tp.cross_entropy %a0, %a1 weight(%w) {label_smoothing = 0.2 : f64, reduction = #tp.reduction<sum>} : (tensor<3x4xf64>, tensor<3x4xf64>, tensor<4xf64>) -> tensor<f64>",
        "%c3 = tp.cross_entropy %a2, %a2 {label_smoothing = 0.1 : f64} : (tensor<4xf64>, tensor<4xf64>) -> tensor<f64>",
        "%c4 = tp.cross_entropy %a3, %a4 weight(%w3) {reduction = #tp.reduction<none>} : (tensor<2x3x2xf64>, tensor<2x3x2xf64>, tensor<3xf64>) -> tensor<2x2xf64>",
        "%sq = tp.mul %c4, %c4 : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>",
        "%s4 = tp.sum %sq : (tensor<2x2xf64>) -> tensor<f64>",
        "%x1 = tp.add %c1, %c2 : (tensor<f64>, tensor<f64>) -> tensor<f64>",
        "%x2 = tp.add %x1, %c3 : (tensor<f64>, tensor<f64>) -> tensor<f64>",
        "%loss = tp.add %x2, %s4 : (tensor<f64>, tensor<f64>) -> tensor<f64>"],
        lambda rng: [rng.uniform(-2, 2, (3, 4)), rng.uniform(0, 1, (3, 4)),
                     rng.uniform(-1, 1, (4,)), rng.uniform(-2, 2, (2, 3, 2)),
                     rng.uniform(0, 1, (2, 3, 2))]),
    # Extrema away from ties (finite differences need a unique maximum):
    # amax, max of all, the values of max_dim, maximum / minimum with
    # broadcasting.
    Case("extrema", [(3, 4), (4,)], [
        "%am = tp.amax %a0 {dim = array<i64: 1>} : (tensor<3x4xf64>) -> tensor<3xf64>",
        "%mx = tp.max %a0 : (tensor<3x4xf64>) -> tensor<f64>",
        "%v, %i = tp.max_dim %a0 {dim = 0 : i64, keepdim = true} : (tensor<3x4xf64>) -> (tensor<1x4xf64>, tensor<1x4xi64>)",
        "%hi = tp.maximum %a0, %a1 : (tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xf64>",
        "%lo = tp.minimum %a1, %a0 : (tensor<4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>",
        "%mx3 = tp.mul %mx, %mx : (tensor<f64>, tensor<f64>) -> tensor<f64>",
    ] + squares_and([("am", (3,)), ("v", (1, 4)), ("hi", (3, 4)),
                     ("lo", (3, 4))], ["mx3"])),
    # Joins, gathers and pads: cat, stack, embedding (repeated indices; a
    # padding_idx row is read by the forward but gets no gradient, by
    # PyTorch's definition, so finite differences cannot check it:
    # rules-more.mlir does), reflection and replication pads, trace.
    Case("indexing", [(2, 3), (2, 2), (2, 3), (5, 3), (1, 2, 3), (3, 3)], [
        "%c = tp.cat [%a0, %a1] {dim = 1 : i64} : (tensor<2x3xf64>, tensor<2x2xf64>) -> tensor<2x5xf64>",
        "%st = tp.stack [%a0, %a2] {dim = 1 : i64} : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x2x3xf64>",
        "%idx = tp.constant dense<[[0, 3, 1, 3], [4, 0, 3, 2]]> : tensor<2x4xi64>",
        "%e = tp.embedding %a3, %idx : (tensor<5x3xf64>, tensor<2x4xi64>) -> tensor<2x4x3xf64>",
        "%rp = tp.reflection_pad1d %a0 {padding = array<i64: 2, 1>} : (tensor<2x3xf64>) -> tensor<2x6xf64>",
        "%pp = tp.replication_pad2d %a4 {padding = array<i64: 1, 2, 2, 1>} : (tensor<1x2x3xf64>) -> tensor<1x5x6xf64>",
        "%tr = tp.trace %a5 : (tensor<3x3xf64>) -> tensor<f64>",
        "%tr3 = tp.mul %tr, %tr : (tensor<f64>, tensor<f64>) -> tensor<f64>",
    ] + squares_and([("c", (2, 5)), ("st", (2, 2, 3)), ("e", (2, 4, 3)),
                     ("rp", (2, 6)), ("pp", (1, 5, 6))], ["tr3"])),
    # Transposed convolutions (strided, padded, with output_padding; an
    # unbatched one) and the general convolution op in both forms.
    Case("transposed_convolutions", [(1, 2, 3, 3), (2, 3, 3, 3), (3,),
                                     (2, 4), (2, 2, 3), (1, 2, 5), (3, 2, 2)], [
        "%y = tp.conv_transpose2d %a0, %a1 bias(%a2) {stride = array<i64: 2>, padding = array<i64: 1>, output_padding = array<i64: 1>} : (tensor<1x2x3x3xf64>, tensor<2x3x3x3xf64>, tensor<3xf64>) -> tensor<1x3x6x6xf64>",
        "%u = tp.conv_transpose1d %a3, %a4 {dilation = array<i64: 2>} : (tensor<2x4xf64>, tensor<2x2x3xf64>) -> tensor<2x8xf64>",
        "%cv = tp.convolution %a5, %a6 {dilation = array<i64: 1>, groups = 1 : i64, output_padding = array<i64: 0>, padding = array<i64: 1>, stride = array<i64: 2>, transposed = false} : (tensor<1x2x5xf64>, tensor<3x2x2xf64>) -> tensor<1x3x3xf64>",
        "%ct = tp.convolution %cv, %a6 {dilation = array<i64: 1>, groups = 1 : i64, output_padding = array<i64: 1>, padding = array<i64: 0>, stride = array<i64: 2>, transposed = true} : (tensor<1x3x3xf64>, tensor<3x2x2xf64>) -> tensor<1x2x7xf64>",
    ] + weighted([("y", (1, 3, 6, 6)), ("u", (2, 8)), ("ct", (1, 2, 7))], 5)),
    # The elementwise losses, each reduction, gradients of both inputs
    # where PyTorch has them.
    Case("elementwise_losses", [(3, 4), (3, 4), (3, 4), (3, 4)], [
        "%sign = tp.constant dense<[[1.0, -1.0, 1.0, -1.0], [-1.0, -1.0, 1.0, 1.0], [1.0, 1.0, -1.0, 1.0]]> : tensor<3x4xf64>",
        "%l1 = tp.l1_loss %a0, %a1 : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<f64>",
        "%sl = tp.smooth_l1_loss %a0, %a1 {beta = 0.5 : f64, reduction = #tp.reduction<sum>} : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<f64>",
        "%hu = tp.huber_loss %a0, %a1 {delta = 0.7 : f64} : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<f64>",
        "%sm = tp.soft_margin_loss %a0, %a1 : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<f64>",
        "%he = tp.hinge_embedding_loss %a0, %sign {margin = 0.6 : f64, reduction = #tp.reduction<none>} : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>",
        "%kl = tp.kl_div %a0, %a1 {log_target = true} : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<f64>",
        "%probs = tp.constant dense<[[0.1, 0.4, 0.3, 0.2], [0.25, 0.25, 0.0, 0.5], [0.7, 0.1, 0.1, 0.1]]> : tensor<3x4xf64>",
        "%kp = tp.kl_div %a0, %probs {reduction = #tp.reduction<sum>} : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<f64>",
        "%pl = tp.poisson_nll_loss %a0, %a3 {full = true} : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<f64>",
        "%pn = tp.poisson_nll_loss %a2, %a1 {log_input = false, reduction = #tp.reduction<none>} : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>",
        "%bc = tp.binary_cross_entropy %a2, %a1 : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<f64>",
        "%bw = tp.binary_cross_entropy %a2, %a2 weight(%sign) {reduction = #tp.reduction<sum>} : (tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<f64>",
        "%mr = tp.margin_ranking_loss %a0, %a1, %sign {margin = 0.2 : f64} : (tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<f64>",
    ] + squares_and([("he", (3, 4)), ("pn", (3, 4))],
                    ["l1", "sl", "hu", "sm", "kl", "kp", "pl", "bc", "bw",
                     "mr"]),
         lambda rng: [rng.uniform(-2, 2, (3, 4)), rng.uniform(0.1, 0.9, (3, 4)),
                      rng.uniform(0.2, 0.8, (3, 4)),
                      rng.uniform(0.5, 3.0, (3, 4))]),
    # Class-index losses of any rank: cross_entropy over (N, C, H, W) with
    # an ignored target and label smoothing (with and without class
    # weights, each reduction), nll_loss2d, cross_entropy_loss.
    Case("class_losses_nd", [(2, 3, 2, 2), (4, 5)], [
        "%t = tp.constant dense<[[[0, 2], [1, -100]], [[2, 2], [0, 1]]]> : tensor<2x2x2xi64>",
        "%t2 = tp.constant dense<[3, -100, 0, 4]> : tensor<4xi64>",
        "%w = tp.constant dense<[0.5, 2.0, 1.25]> : tensor<3xf64>",
        "%w5 = tp.constant dense<[0.5, 1.0, 1.5, 2.0, 0.75]> : tensor<5xf64>",
        "%c1 = tp.cross_entropy %a0, %t : (tensor<2x3x2x2xf64>, tensor<2x2x2xi64>) -> tensor<f64>",
        "%c2 = tp.cross_entropy %a0, %t weight(%w) {label_smoothing = 0.2 : f64} : (tensor<2x3x2x2xf64>, tensor<2x2x2xi64>, tensor<3xf64>) -> tensor<f64>",
        "%c3 = tp.cross_entropy %a0, %t {label_smoothing = 0.1 : f64, reduction = #tp.reduction<none>} : (tensor<2x3x2x2xf64>, tensor<2x2x2xi64>) -> tensor<2x2x2xf64>",
        "%lp = tp.log_softmax %a0 {dim = 1 : i64} : (tensor<2x3x2x2xf64>) -> tensor<2x3x2x2xf64>",
        "%n2 = tp.nll_loss2d %lp, %t weight(%w) {reduction = #tp.reduction<sum>} : (tensor<2x3x2x2xf64>, tensor<2x2x2xi64>, tensor<3xf64>) -> tensor<f64>",
        "%c4 = tp.cross_entropy_loss %a1, %t2 weight(%w5) {label_smoothing = 0.3 : f64, reduction = #tp.reduction<sum>} : (tensor<4x5xf64>, tensor<4xi64>, tensor<5xf64>) -> tensor<f64>",
        "%c5 = tp.cross_entropy %a1, %t2 {label_smoothing = 0.3 : f64} : (tensor<4x5xf64>, tensor<4xi64>) -> tensor<f64>",
    ] + squares_and([("c3", (2, 2, 2))], ["c1", "c2", "n2", "c4", "c5"]),
         lambda rng: [rng.uniform(-2, 2, (2, 3, 2, 2)),
                      rng.uniform(-2, 2, (4, 5))]),
    # tensordot with permuted contraction dims; bilinear with a bias over
    # two leading dims.
    Case("contractions", [(2, 3, 4), (4, 3, 5), (2, 2, 3), (2, 2, 4),
                          (5, 3, 4), (5,)], [
        "%td = tp.tensordot %a0, %a1 {dims_self = array<i64: 1, 2>, dims_other = array<i64: 1, 0>} : (tensor<2x3x4xf64>, tensor<4x3x5xf64>) -> tensor<2x5xf64>",
        "%bl = tp.bilinear %a2, %a3, %a4 bias(%a5) : (tensor<2x2x3xf64>, tensor<2x2x4xf64>, tensor<5x3x4xf64>, tensor<5xf64>) -> tensor<2x2x5xf64>",
    ] + squares([("td", (2, 5)), ("bl", (2, 2, 5))])),
    # prod along a dim and of all (one input entry is 0: exact there),
    # p-norms (2, 3, 1, inf; over dims and all), normalize.
    Case("products_norms", [(3, 4), (2, 3)], [
        "%pd = tp.prod %a0 {dim = 1 : i64} : (tensor<3x4xf64>) -> tensor<3xf64>",
        "%pa = tp.prod %a1 : (tensor<2x3xf64>) -> tensor<f64>",
        "%n2 = tp.norm %a0 {p = 2.0 : f64, dim = array<i64: 1>} : (tensor<3x4xf64>) -> tensor<3xf64>",
        "%n3 = tp.norm %a0 {p = 3.0 : f64, dim = array<i64: 0>, keepdim = true} : (tensor<3x4xf64>) -> tensor<1x4xf64>",
        "%n1 = tp.norm %a1 {p = 1.0 : f64} : (tensor<2x3xf64>) -> tensor<f64>",
        "%ni = tp.norm %a0 {p = 0x7FF0000000000000 : f64, dim = array<i64: 1>} : (tensor<3x4xf64>) -> tensor<3xf64>",
        "%nz = tp.normalize %a0 {dim = 1 : i64} : (tensor<3x4xf64>) -> tensor<3x4xf64>",
        "%pa2 = tp.mul %pa, %pa : (tensor<f64>, tensor<f64>) -> tensor<f64>",
        "%wz = tp.constant dense<[[0.3, -0.7, 0.2, 0.9], [-0.4, 0.1, 0.8, -0.6], [0.5, 0.25, -0.9, 0.35]]> : tensor<3x4xf64>",
        "%nzm = tp.mul %nz, %wz : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>",
        "%nzs = tp.sum %nzm : (tensor<3x4xf64>) -> tensor<f64>",
    ] + squares_and([("pd", (3,)), ("n2", (3,)), ("n3", (1, 4)), ("ni", (3,))],
                    ["pa2", "n1", "nzs"]),
         lambda rng: [np.where(np.arange(12).reshape(3, 4) == 5, 0.0,
                               rng.uniform(-1.5, 1.5, (3, 4))),
                      rng.uniform(-1.5, 1.5, (2, 3))]),
    # cumprod along each dim (entries of 0 in a0: exact there), p-norms
    # below 1 and -inf, normalize with p = 1 (of an input without zeros:
    # |x| has no central difference there) and 3, kl_div of a
    # differentiated probability target (positive: at 0 the loss has no
    # two-sided difference).
    Case("cumulative_products_norms", [(3, 4), (2, 3), (3, 4)], [
        "%c1 = tp.cumprod %a0 {dim = 1 : i64} : (tensor<3x4xf64>) -> tensor<3x4xf64>",
        "%c0 = tp.cumprod %a1 {dim = 0 : i64} : (tensor<2x3xf64>) -> tensor<2x3xf64>",
        "%cn = tp.cumprod %a1 {dim = -1 : i64} : (tensor<2x3xf64>) -> tensor<2x3xf64>",
        "%nh = tp.norm %a1 {p = 0.5 : f64, dim = array<i64: 1>} : (tensor<2x3xf64>) -> tensor<2xf64>",
        "%nn = tp.norm %a1 {p = -1.5 : f64} : (tensor<2x3xf64>) -> tensor<f64>",
        "%nm = tp.norm %a1 {p = 0xFFF0000000000000 : f64, dim = array<i64: 0>, keepdim = true} : (tensor<2x3xf64>) -> tensor<1x3xf64>",
        "%z1 = tp.normalize %a1 {p = 1.0 : f64, dim = 0 : i64} : (tensor<2x3xf64>) -> tensor<2x3xf64>",
        "%z3 = tp.normalize %a0 {p = 3.0 : f64, dim = 1 : i64} : (tensor<3x4xf64>) -> tensor<3x4xf64>",
        "%kp = tp.kl_div %a0, %a2 {reduction = #tp.reduction<sum>} : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<f64>",
    ] + renamed(weighted([("c1", (3, 4)), ("c0", (2, 3)), ("cn", (2, 3)), ("nh", (2,)),
                  ("nm", (1, 3)), ("z1", (2, 3)), ("z3", (3, 4))], 11),
        "%loss", "%wl") + [
        "%wsum = tp.add %wl, %nn : (tensor<f64>, tensor<f64>) -> tensor<f64>",
        "%loss = tp.add %wsum, %kp : (tensor<f64>, tensor<f64>) -> tensor<f64>",
    ],
         lambda rng: [np.where(np.isin(np.arange(12).reshape(3, 4), [2, 9]),
                               0.0, rng.uniform(-1.5, 1.5, (3, 4))),
                      rng.choice([-1, 1], (2, 3)) * rng.uniform(0.3, 1.5, (2, 3)),
                      rng.uniform(0.05, 0.6, (3, 4))]),
    # cosine_embedding_loss (each reduction, a margin) and
    # triplet_margin_loss (p = 2, 1 and 3, with and without swap).
    Case("embedding_losses", [(3, 4), (3, 4), (3, 4)], [
        "%t = tp.constant dense<[1.0, -1.0, -1.0]> : tensor<3xf64>",
        "%ti = tp.constant dense<[-1, 1, -1]> : tensor<3xi64>",
        "%ce = tp.cosine_embedding_loss %a0, %a1, %t {margin = -0.9 : f64} : (tensor<3x4xf64>, tensor<3x4xf64>, tensor<3xf64>) -> tensor<f64>",
        "%cs = tp.cosine_embedding_loss %a1, %a2, %ti {margin = -0.95 : f64, reduction = #tp.reduction<sum>} : (tensor<3x4xf64>, tensor<3x4xf64>, tensor<3xi64>) -> tensor<f64>",
        "%cr = tp.cosine_embedding_loss %a2, %a0, %t {reduction = #tp.reduction<none>, margin = -0.95 : f64} : (tensor<3x4xf64>, tensor<3x4xf64>, tensor<3xf64>) -> tensor<3xf64>",
        "%tm = tp.triplet_margin_loss %a0, %a1, %a2 {margin = 4.0 : f64} : (tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<f64>",
        "%ts = tp.triplet_margin_loss %a1, %a2, %a0 {p = 1.0 : f64, swap = true, margin = 8.0 : f64, reduction = #tp.reduction<sum>} : (tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<f64>",
        "%tb = tp.triplet_margin_loss %a2, %a0, %a1 {p = 3.0 : f64, swap = true, margin = 4.0 : f64, reduction = #tp.reduction<none>} : (tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3xf64>",
    ] + squares_and([("cr", (3,)), ("tb", (3,))], ["ce", "cs", "tm", "ts"])),
    # An scf.for whose trip count is a run-time value (3 and 0): the
    # backward replays the loop up to each iteration; two carried values,
    # one reading the other, and a captured weight.
    Case("dynamic_loop", [(2, 3), ((), "i64"), (3,)], DYNAMIC_LOOP,
         lambda rng: [rng.uniform(-1, 1, (2, 3)), np.array(3, dtype=np.int64),
                      rng.uniform(0.5, 1.5, (3,))]),
    Case("dynamic_loop_empty", [(2, 3), ((), "i64"), (3,)], DYNAMIC_LOOP,
         lambda rng: [rng.uniform(-1, 1, (2, 3)), np.array(0, dtype=np.int64),
                      rng.uniform(0.5, 1.5, (3,))]),
    # dist (p = 2, 3 and 1 with broadcasting) and cosine_similarity (along
    # dim 1, and along the last dim with a broadcast operand).
    Case("distances", [(3, 4), (4,), (2, 3, 4)], [
        "%d2 = tp.dist %a0, %a1 : (tensor<3x4xf64>, tensor<4xf64>) -> tensor<f64>",
        "%d3 = tp.dist %a1, %a0 {p = 3.0 : f64} : (tensor<4xf64>, tensor<3x4xf64>) -> tensor<f64>",
        "%d1 = tp.dist %a0, %a1 {p = 1.0 : f64} : (tensor<3x4xf64>, tensor<4xf64>) -> tensor<f64>",
        "%c1 = tp.cosine_similarity %a0, %a0 {dim = 0 : i64} : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<4xf64>",
        "%sq = tp.mul %a0, %a0 : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>",
        "%c2 = tp.cosine_similarity %a2, %sq {dim = -1 : i64} : (tensor<2x3x4xf64>, tensor<3x4xf64>) -> tensor<2x3xf64>",
        "%c3 = tp.cosine_similarity %a1, %a2 {dim = 2 : i64} : (tensor<4xf64>, tensor<2x3x4xf64>) -> tensor<2x3xf64>",
        "%d23 = tp.mul %d2, %d3 : (tensor<f64>, tensor<f64>) -> tensor<f64>",
    ] + squares_and([("c1", (4,)), ("c2", (2, 3)), ("c3", (2, 3))],
                    ["d23", "d1"])),
    Case("control_flow_then", [(2, 3), ((), "i1"), (3,)], CONTROL_FLOW,
         lambda rng: [rng.uniform(-1, 1, (2, 3)), np.array(True),
                      rng.uniform(0.5, 1.5, (3,))], CONTROL_FLOW_HELPER),
    Case("control_flow_else", [(2, 3), ((), "i1"), (3,)], CONTROL_FLOW,
         lambda rng: [rng.uniform(-1, 1, (2, 3)), np.array(False),
                      rng.uniform(0.5, 1.5, (3,))], CONTROL_FLOW_HELPER),
]


CASES += [
    # binary_cross_entropy(_with_logits) differentiated in every operand:
    # targets, weight and pos_weight, each reduction.
    Case("bce_all_operands", [(3, 4), (3, 4), (4,), (4,), (3, 4)], [
        "%b1 = tp.binary_cross_entropy_with_logits %a0, %a1 weight(%a2) pos_weight(%a3) : (tensor<3x4xf64>, tensor<3x4xf64>, tensor<4xf64>, tensor<4xf64>) -> tensor<f64>",
        "%b2 = tp.binary_cross_entropy_with_logits %a0, %a1 weight(%a2) {reduction = #tp.reduction<sum>} : (tensor<3x4xf64>, tensor<3x4xf64>, tensor<4xf64>) -> tensor<f64>",
        "%b3 = tp.binary_cross_entropy_with_logits %a0, %a1 pos_weight(%a3) {reduction = #tp.reduction<none>} : (tensor<3x4xf64>, tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xf64>",
        "%b4 = tp.binary_cross_entropy %a4, %a1 weight(%a2) : (tensor<3x4xf64>, tensor<3x4xf64>, tensor<4xf64>) -> tensor<f64>",
        "%b5 = tp.binary_cross_entropy %a4, %a1 weight(%a2) {reduction = #tp.reduction<none>} : (tensor<3x4xf64>, tensor<3x4xf64>, tensor<4xf64>) -> tensor<3x4xf64>"] +
        squares_and([("b3", (3, 4)), ("b5", (3, 4))], ["b1", "b2", "b4"]),
        lambda rng: [rng.uniform(-3, 3, (3, 4)), rng.uniform(0, 1, (3, 4)),
                     rng.uniform(0.5, 2, (4,)), rng.uniform(0.5, 3, (4,)),
                     rng.uniform(0.05, 0.95, (3, 4))]),
    # pow with a tensor exponent (both operands, broadcast), and the
    # rounded divisions, whose gradients are zero.
    Case("pow_tensor_rounded_div", [(2, 3), (3,), (2, 3), (2, 3)], [
        "%p = tp.pow %a0, %a1 : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>",
        "%f = tp.div %a2, %a3 {rounding_mode = \"floor\"} : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>",
        "%t = tp.div %a2, %a3 {rounding_mode = \"trunc\"} : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>",
        "%m = tp.mul %f, %a2 : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>",
        "%n = tp.mul %t, %a3 : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>"] +
        weighted([("p", (2, 3)), ("m", (2, 3)), ("n", (2, 3))], 40),
        lambda rng: [rng.uniform(0.3, 2, (2, 3)), rng.uniform(-2, 2, (3,)),
                     rng.uniform(-5, 5, (2, 3)), rng.uniform(0.5, 2, (2, 3))]),
    # fractional_max_pool2d/3d (constant samples), max_unpool2d/3d at the
    # indices of a non-overlapping max pool (distinct places).
    Case("fractional_unpool", [(1, 2, 7, 6), (1, 2, 5, 5, 6), (1, 2, 3, 3),
                               (1, 1, 2, 2, 2)], [
        "%s2 = tp.constant dense<[[[0.3, 0.7], [0.9, 0.1]]]> : tensor<1x2x2xf64>",
        "%s3 = tp.constant dense<[[[0.3, 0.7, 0.5], [0.9, 0.1, 0.2]]]> : tensor<1x2x3xf64>",
        "%f2, %i2 = tp.fractional_max_pool2d %a0, %s2 {kernel_size = array<i64: 2, 3>, output_size = array<i64: 3, 3>} : (tensor<1x2x7x6xf64>, tensor<1x2x2xf64>) -> (tensor<1x2x3x3xf64>, tensor<1x2x3x3xi64>)",
        "%f3, %i3 = tp.fractional_max_pool3d %a1, %s3 {kernel_size = array<i64: 2, 2, 3>, output_size = array<i64: 3, 2, 2>} : (tensor<1x2x5x5x6xf64>, tensor<1x2x3xf64>) -> (tensor<1x2x3x2x2xf64>, tensor<1x2x3x2x2xi64>)",
        "%pv, %pi = tp.max_pool2d_with_indices %a0 {kernel_size = array<i64: 2>} : (tensor<1x2x7x6xf64>) -> (tensor<1x2x3x3xf64>, tensor<1x2x3x3xi64>)",
        "%u2 = tp.max_unpool2d %a2, %pi {output_size = array<i64: 7, 6>} : (tensor<1x2x3x3xf64>, tensor<1x2x3x3xi64>) -> tensor<1x2x7x6xf64>",
        "%j3 = tp.constant dense<[[[[[0, 5], [10, 15]], [[48, 53], [58, 63]]]]]> : tensor<1x1x2x2x2xi64>",
        "%u3 = tp.max_unpool3d %a3, %j3 {output_size = array<i64: 4, 4, 4>, padding = array<i64: 0, 0, 0>, stride = array<i64: 2, 2, 2>} : (tensor<1x1x2x2x2xf64>, tensor<1x1x2x2x2xi64>) -> tensor<1x1x4x4x4xf64>"] +
        weighted([("f2", (1, 2, 3, 3)), ("f3", (1, 2, 3, 2, 2)),
                  ("u2", (1, 2, 7, 6)), ("u3", (1, 1, 4, 4, 4))], 41)),
    # grid_sample in the modes tp-autodiff decomposes (bilinear, nearest;
    # every padding mode, align_corners), grid points inside and outside
    # [-1, 1]; grid_sampler_3d (trilinear, reflection) and grid_sampler_2d.
    Case("grid_sample", [(2, 2, 4, 5), (2, 3, 2, 2), (1, 2, 3, 4, 3),
                         (1, 2, 2, 1, 3)], [
        '%g1 = tp.grid_sample %a0, %a1 {mode = "bilinear", padding_mode = "zeros"} : (tensor<2x2x4x5xf64>, tensor<2x3x2x2xf64>) -> tensor<2x2x3x2xf64>',
        '%g2 = tp.grid_sample %a0, %a1 {mode = "bilinear", padding_mode = "zeros", align_corners = true} : (tensor<2x2x4x5xf64>, tensor<2x3x2x2xf64>) -> tensor<2x2x3x2xf64>',
        '%g3 = tp.grid_sample %a0, %a1 {mode = "bilinear", padding_mode = "border"} : (tensor<2x2x4x5xf64>, tensor<2x3x2x2xf64>) -> tensor<2x2x3x2xf64>',
        '%g4 = tp.grid_sample %a0, %a1 {mode = "bilinear", padding_mode = "border", align_corners = true} : (tensor<2x2x4x5xf64>, tensor<2x3x2x2xf64>) -> tensor<2x2x3x2xf64>',
        '%g5 = tp.grid_sample %a0, %a1 {mode = "bilinear", padding_mode = "reflection"} : (tensor<2x2x4x5xf64>, tensor<2x3x2x2xf64>) -> tensor<2x2x3x2xf64>',
        '%g6 = tp.grid_sample %a0, %a1 {mode = "bilinear", padding_mode = "reflection", align_corners = true} : (tensor<2x2x4x5xf64>, tensor<2x3x2x2xf64>) -> tensor<2x2x3x2xf64>',
        '%g7 = tp.grid_sample %a0, %a1 {mode = "nearest", padding_mode = "zeros"} : (tensor<2x2x4x5xf64>, tensor<2x3x2x2xf64>) -> tensor<2x2x3x2xf64>',
        '%g8 = tp.grid_sample %a0, %a1 {mode = "nearest", padding_mode = "zeros", align_corners = true} : (tensor<2x2x4x5xf64>, tensor<2x3x2x2xf64>) -> tensor<2x2x3x2xf64>',
        '%g9 = tp.grid_sample %a0, %a1 {mode = "nearest", padding_mode = "border"} : (tensor<2x2x4x5xf64>, tensor<2x3x2x2xf64>) -> tensor<2x2x3x2xf64>',
        '%g10 = tp.grid_sample %a0, %a1 {mode = "nearest", padding_mode = "border", align_corners = true} : (tensor<2x2x4x5xf64>, tensor<2x3x2x2xf64>) -> tensor<2x2x3x2xf64>',
        '%g11 = tp.grid_sample %a0, %a1 {mode = "nearest", padding_mode = "reflection"} : (tensor<2x2x4x5xf64>, tensor<2x3x2x2xf64>) -> tensor<2x2x3x2xf64>',
        '%g12 = tp.grid_sample %a0, %a1 {mode = "nearest", padding_mode = "reflection", align_corners = true} : (tensor<2x2x4x5xf64>, tensor<2x3x2x2xf64>) -> tensor<2x2x3x2xf64>',
        "%t3 = tp.grid_sampler_3d %a2, %a3 {align_corners = false, interpolation_mode = 0 : i64, padding_mode = 2 : i64} : (tensor<1x2x3x4x3xf64>, tensor<1x2x2x1x3xf64>) -> tensor<1x2x2x2x1xf64>",
        "%t2 = tp.grid_sampler_2d %a0, %a1 {align_corners = true, interpolation_mode = 0 : i64, padding_mode = 1 : i64} : (tensor<2x2x4x5xf64>, tensor<2x3x2x2xf64>) -> tensor<2x2x3x2xf64>"] +
        weighted([("g1", (2, 2, 3, 2)), ("g2", (2, 2, 3, 2)), ("g3", (2, 2, 3, 2)), ("g4", (2, 2, 3, 2)), ("g5", (2, 2, 3, 2)), ("g6", (2, 2, 3, 2)), ("g7", (2, 2, 3, 2)), ("g8", (2, 2, 3, 2)), ("g9", (2, 2, 3, 2)), ("g10", (2, 2, 3, 2)), ("g11", (2, 2, 3, 2)), ("g12", (2, 2, 3, 2))] +
                 [("t3", (1, 2, 2, 2, 1)), ("t2", (2, 2, 3, 2))], 42),
        lambda rng: [rng.uniform(-1, 1, (2, 2, 4, 5)),
                     rng.uniform(-1.3, 1.3, (2, 3, 2, 2)),
                     rng.uniform(-1, 1, (1, 2, 3, 4, 3)),
                     rng.uniform(-1.6, 1.6, (1, 2, 2, 1, 3))]),
    # Bicubic grid sampling (its 4 x 4 taps decomposed): every padding
    # mode and align_corners, grid points inside and outside [-1, 1] (taps
    # moved by the padding or reading zeros), and grid_sampler_2d's mode 2.
    Case("grid_sample_bicubic", [(2, 2, 5, 6), (2, 3, 2, 2)], [
        '%b1 = tp.grid_sample %a0, %a1 {mode = "bicubic", padding_mode = "zeros"} : (tensor<2x2x5x6xf64>, tensor<2x3x2x2xf64>) -> tensor<2x2x3x2xf64>',
        '%b2 = tp.grid_sample %a0, %a1 {mode = "bicubic", padding_mode = "zeros", align_corners = true} : (tensor<2x2x5x6xf64>, tensor<2x3x2x2xf64>) -> tensor<2x2x3x2xf64>',
        '%b3 = tp.grid_sample %a0, %a1 {mode = "bicubic", padding_mode = "border"} : (tensor<2x2x5x6xf64>, tensor<2x3x2x2xf64>) -> tensor<2x2x3x2xf64>',
        '%b4 = tp.grid_sample %a0, %a1 {mode = "bicubic", padding_mode = "border", align_corners = true} : (tensor<2x2x5x6xf64>, tensor<2x3x2x2xf64>) -> tensor<2x2x3x2xf64>',
        '%b5 = tp.grid_sample %a0, %a1 {mode = "bicubic", padding_mode = "reflection"} : (tensor<2x2x5x6xf64>, tensor<2x3x2x2xf64>) -> tensor<2x2x3x2xf64>',
        '%b6 = tp.grid_sample %a0, %a1 {mode = "bicubic", padding_mode = "reflection", align_corners = true} : (tensor<2x2x5x6xf64>, tensor<2x3x2x2xf64>) -> tensor<2x2x3x2xf64>',
        "%s2 = tp.grid_sampler_2d %a0, %a1 {align_corners = false, interpolation_mode = 2 : i64, padding_mode = 2 : i64} : (tensor<2x2x5x6xf64>, tensor<2x3x2x2xf64>) -> tensor<2x2x3x2xf64>"] +
        weighted([("b1", (2, 2, 3, 2)), ("b2", (2, 2, 3, 2)), ("b3", (2, 2, 3, 2)), ("b4", (2, 2, 3, 2)), ("b5", (2, 2, 3, 2)), ("b6", (2, 2, 3, 2)), ("s2", (2, 2, 3, 2))], 43),
        lambda rng: [rng.uniform(-1, 1, (2, 2, 5, 6)),
                     rng.uniform(-1.3, 1.3, (2, 3, 2, 2))]),
    # ctc_loss (tp.ctc_loss_backward): padded and concatenated targets,
    # each reduction, blank 2, an input shorter than the time axis, a
    # repeated label, zero_infinity with an impossible sample (its gradient
    # is zero), unbatched, and through log_softmax; the log-probabilities
    # are free (the exact derivative needs no normalization).
    Case("ctc_loss", [(6, 2, 4), (5, 3), (6, 2, 4)], [
        "%t = tp.constant dense<[[1, 1, 3], [3, 0, 0]]> : tensor<2x3xi64>",
        "%il = tp.constant dense<[6, 4]> : tensor<2xi64>",
        "%tl = tp.constant dense<[3, 1]> : tensor<2xi64>",
        "%c1 = tp.ctc_loss %a0, %t, %il, %tl : (tensor<6x2x4xf64>, tensor<2x3xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<f64>",
        "%tc = tp.constant dense<[0, 1, 3]> : tensor<3xi64>",
        "%tl2 = tp.constant dense<[2, 1]> : tensor<2xi64>",
        "%c2 = tp.ctc_loss %a0, %tc, %il, %tl2 {blank = 2 : i64, reduction = #tp.reduction<none>} : (tensor<6x2x4xf64>, tensor<3xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<2xf64>",
        "%ti = tp.constant dense<[[1, 1, 1], [3, 3, 3]]> : tensor<2x3xi64>",
        "%ili = tp.constant dense<[6, 3]> : tensor<2xi64>",
        "%tli = tp.constant dense<[2, 3]> : tensor<2xi64>",
        "%c3 = tp.ctc_loss %a0, %ti, %ili, %tli {zero_infinity = true, reduction = #tp.reduction<sum>} : (tensor<6x2x4xf64>, tensor<2x3xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<f64>",
        "%tu = tp.constant dense<[2, 1]> : tensor<2xi64>",
        "%ilu = tp.constant dense<5> : tensor<i64>",
        "%tlu = tp.constant dense<2> : tensor<i64>",
        "%c4 = tp.ctc_loss %a1, %tu, %ilu, %tlu : (tensor<5x3xf64>, tensor<2xi64>, tensor<i64>, tensor<i64>) -> tensor<f64>",
        "%ls = tp.log_softmax %a2 {dim = 2 : i64} : (tensor<6x2x4xf64>) -> tensor<6x2x4xf64>",
        "%c5 = tp.ctc_loss %ls, %t, %il, %tl : (tensor<6x2x4xf64>, tensor<2x3xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<f64>"] +
        squares_and([("c2", (2,))], ["c1", "c3", "c4", "c5"]),
        lambda rng: [rng.uniform(-3, 0, (6, 2, 4)),
                     rng.uniform(-3, 0, (5, 3)),
                     rng.uniform(-2, 2, (6, 2, 4))]),
    # dropout in training form (two ops, p = 0.3 and 0.6): the backward
    # draws the forward's masks again (a dropout of ones on each op's
    # stream), so the gradient is the finite difference of the same
    # masked program.
    Case("dropout_train", [(4, 6), (4, 6)], [
        "%d1 = tp.dropout %a0 {p = 0.3 : f64} : (tensor<4x6xf64>) -> tensor<4x6xf64>",
        "%e = tp.exp %d1 : (tensor<4x6xf64>) -> tensor<4x6xf64>",
        "%m = tp.mul %e, %a1 : (tensor<4x6xf64>, tensor<4x6xf64>) -> tensor<4x6xf64>",
        "%d2 = tp.dropout %m {p = 0.6 : f64} : (tensor<4x6xf64>) -> tensor<4x6xf64>"] +
        weighted([("d2", (4, 6)), ("d1", (4, 6))], 43)),
    # index_put: rows (a negative index), two broadcast index tensors,
    # accumulate with a repeated row.
    Case("index_put", [(5, 3), (2, 3), (4, 5, 2), (2,), (4, 3), (4, 3)], [
        "%i = tp.constant dense<[3, -1]> : tensor<2xi64>",
        "%p1 = tp.index_put %a0[%i], %a1 : (tensor<5x3xf64>, tensor<2xi64>, tensor<2x3xf64>) -> tensor<5x3xf64>",
        "%j = tp.constant dense<[[0], [2]]> : tensor<2x1xi64>",
        "%k = tp.constant dense<[1, 4, -2]> : tensor<3xi64>",
        "%p2 = tp.index_put %a2[%j, %k], %a3 : (tensor<4x5x2xf64>, tensor<2x1xi64>, tensor<3xi64>, tensor<2xf64>) -> tensor<4x5x2xf64>",
        "%r = tp.constant dense<[2, 0, 2, 3]> : tensor<4xi64>",
        "%p3 = tp.index_put %a4[%r], %a5 {accumulate = true} : (tensor<4x3xf64>, tensor<4xi64>, tensor<4x3xf64>) -> tensor<4x3xf64>"] +
        squares([("p1", (5, 3)), ("p2", (4, 5, 2)), ("p3", (4, 3))])),
    # index_put with a boolean mask (decomposed as where): values of one
    # row written, one value (a leading 1) added.
    Case("index_put_mask", [(5, 3), (3,), (4, 3), (1,)], [
        "%m = tp.constant dense<[true, false, true, true, false]> : tensor<5xi1>",
        "%q1 = tp.index_put %a0[%m], %a1 : (tensor<5x3xf64>, tensor<5xi1>, tensor<3xf64>) -> tensor<5x3xf64>",
        "%n = tp.constant dense<[[true, false, false], [false, true, true], [true, true, false], [false, false, false]]> : tensor<4x3xi1>",
        "%q2 = tp.index_put %a2[%n], %a3 {accumulate = true} : (tensor<4x3xf64>, tensor<4x3xi1>, tensor<1xf64>) -> tensor<4x3xf64>"] +
        squares([("q1", (5, 3)), ("q2", (4, 3))])),
]

# The linear algebra cases (their own file, gradcheck_linalg.py).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gradcheck_linalg  # noqa: E402

CASES += gradcheck_linalg.cases(sys.modules[__name__])
# The complex and FFT cases (gradcheck_complex.py).
import gradcheck_complex  # noqa: E402

CASES += gradcheck_complex.cases(sys.modules[__name__])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tp-opt", required=True)
    parser.add_argument("--tp-run", required=True)
    parser.add_argument("--tmp", required=True)
    parser.add_argument("--only", action="append",
                        help="run only these cases (repeatable)")
    parser.add_argument("--skip", action="append", default=[],
                        help="leave these cases out (repeatable)")
    parser.add_argument("--pipeline-options", default="",
                        help="tp-run's --pipeline-options (e.g. the GPU "
                        "mapping: gpu-mapping=1 use-onednn=0)")
    args = parser.parse_args()
    global CASES
    if args.only:
        CASES = [c for c in CASES if c.name in args.only]
    unknown = set(args.skip) - {c.name for c in CASES}
    if unknown:
        print("FAIL: --skip names no case: " + ", ".join(sorted(unknown)))
        return 1
    CASES = [c for c in CASES if c.name not in args.skip]
    if os.path.isdir(args.tmp):
        shutil.rmtree(args.tmp)
    os.makedirs(args.tmp)
    rng = np.random.default_rng(7)

    # Differentiate the cases.
    source = os.path.join(args.tmp, "cases.mlir")
    helpers = "".join(sorted({c.helpers for c in CASES}))
    with open(source, "w") as f:
        f.write(helpers + "\n\n".join(c.func(c.name) for c in CASES) + "\n")
    proc = subprocess.run([args.tp_opt, source, "--tp-autodiff"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        print("tp-opt --tp-autodiff failed:\n" + proc.stderr)
        return 1
    module = proc.stdout

    # One input set of each forward per perturbation.
    plan = []
    for c in CASES:
        inputs = c.inputs(rng) if c.inputs else [
            rng.uniform(-1, 1, s) for s in c.args]
        floating = [a for a, x in enumerate(inputs) if x.dtype == np.float64]
        for i, x in enumerate(inputs):
            np.save(os.path.join(args.tmp, "%s_grad.arg%d.npy" % (c.name, i)),
                    x)
        perturbations = []
        for a in floating:
            x = inputs[a]
            # Each element of a small argument, random directions for a
            # large one (every wrong element shows in a random direction).
            directions = ([np.eye(x.size)[e] for e in range(x.size)]
                          if x.size <= MAX_ELEMENTWISE else
                          [rng.uniform(-1, 1, x.size)
                           for _ in range(DIRECTIONS)])
            for e, v in enumerate(directions):
                for sign in (1, -1):
                    name = "%s@p%d_%d_%s" % (c.name, a, e,
                                             "plus" if sign > 0 else "minus")
                    for i, y in enumerate(inputs):
                        if i == a:
                            y = (y.reshape(-1) + sign * H * v).reshape(x.shape)
                        np.save(os.path.join(args.tmp, "%s.arg%d.npy"
                                             % (name, i)), y)
                    perturbations.append((a, e, v, sign, name))
        plan.append((c, inputs, floating, perturbations))
    path = os.path.join(args.tmp, "gradcheck.mlir")
    with open(path, "w") as f:
        f.write(module)
    proc = subprocess.run([args.tp_run, path, "--npy-dir", args.tmp,
                           "--input-sets"] +
                          (["--pipeline-options=" + args.pipeline_options]
                           if args.pipeline_options else []),
                          capture_output=True, text=True)
    if proc.returncode != 0:
        print("tp-run failed (%d):\n%s%s" % (proc.returncode, proc.stdout,
                                             proc.stderr))
        return 1

    def out(name, k):
        return np.load(os.path.join(args.tmp, "%s.out%d.npy" % (name, k)))

    failures = 0
    checked = 0
    directional = 0
    for c, inputs, floating, perturbations in plan:
        # fd[a][e]: the finite difference along direction e of argument a.
        fd = {a: {} for a in floating}
        dirs = {a: {} for a in floating}
        for a, e, v, sign, name in perturbations:
            fd[a][e] = fd[a].get(e, 0.0) + sign * float(out(name, 0)) / (2 * H)
            dirs[a][e] = v
        worst = 0.0
        ok = True
        # The gradient function's loss is the forward's (a decomposition
        # in the gradient function must compute the same value): the mean
        # of the first central pair is f(x) + O(h^2).
        pair = [name for a, e, v, sign, name in perturbations[:2]]
        if len(pair) == 2:
            middle = (float(out(pair[0], 0)) + float(out(pair[1], 0))) / 2
            loss = float(out(c.name + "_grad", 0))
            if abs(loss - middle) > 1e-8 * (1 + abs(middle)):
                print("FAIL %s: the gradient function's loss %r is not the "
                      "forward's %r" % (c.name, loss, middle))
                ok = False
        for k, a in enumerate(floating):
            x = inputs[a]
            grad = out(c.name + "_grad", 1 + k).reshape(-1)
            for e, v in dirs[a].items():
                got = float(grad @ v)
                err = abs(got - fd[a][e])
                # The bound scales with the direction's length (1 for an
                # element, about sqrt(n / 3) for a random one).
                bound = 1e-7 * np.linalg.norm(v) + 1e-7 * abs(fd[a][e])
                worst = max(worst, err / bound)
                ok = ok and err <= bound
            checked += x.size
            directional += x.size > MAX_ELEMENTWISE
        print("%s %s: %d arguments, worst error %.3g of the bound"
              % ("PASS" if ok else "FAIL", c.name, len(floating), worst))
        failures += not ok
    print("gradcheck: %d cases, %d gradient elements (%d arguments of more "
          "than %d checked along %d random directions), %d failed"
          % (len(CASES), checked, directional, MAX_ELEMENTWISE, DIRECTIONS,
             failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
