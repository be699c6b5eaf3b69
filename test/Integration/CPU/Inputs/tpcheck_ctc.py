"""The 'ctc' family of tpcheck.py: ctc_loss (the runtime's CTC kernel, a
CPU-only call, hence not in 'losses', whose cases the GPU pipeline compiles
too), against float64 NumPy
references: the forward variables of Graves et al. (2006) in log space over
the extended target, and, on small cases, the sum over every alignment
(each of the C^T label paths collapsed: repeats merged, blanks dropped),
which shares no code or recursion with the compiled kernel. Then
tensorplay's zero_infinity and reductions (mean: each loss over its target
length, at least 1, then the batch mean). ctc_loss_backward (tp-autodiff's)
against the same sum over alignments: d(-log p)/d lp[t, c] is minus the
probability share of the alignments that emit c at t."""

import itertools

import numpy as np

from tpcheck import RNG, as_input, log_softmax, op_case


def ctc_forward(lp, target, blank):
    """-log p(target | lp) for one sample: lp (T, C), by the forward
    recursion (T = 0: 0 for an empty target, else inf)."""
    ext = [blank]
    for label in target:
        ext += [int(label), blank]
    if lp.shape[0] == 0:
        return 0.0 if len(target) == 0 else np.inf
    alpha = np.full(len(ext), -np.inf)
    alpha[0] = lp[0, ext[0]]
    if len(ext) > 1:
        alpha[1] = lp[0, ext[1]]
    for t in range(1, lp.shape[0]):
        new = np.full(len(ext), -np.inf)
        for s, label in enumerate(ext):
            terms = [alpha[s]] + ([alpha[s - 1]] if s > 0 else [])
            if s > 1 and ext[s - 2] != label:
                terms.append(alpha[s - 2])
            new[s] = np.logaddexp.reduce(terms) + lp[t, label]
        alpha = new
    return -np.logaddexp.reduce(alpha[-2:] if len(ext) > 1 else alpha[-1:])


def ctc_brute(lp, target, blank):
    """-log of the sum over all label paths that collapse to `target`."""
    total = 0.0
    for path in itertools.product(range(lp.shape[1]), repeat=lp.shape[0]):
        merged = [k for i, k in enumerate(path) if i == 0 or k != path[i - 1]]
        if [k for k in merged if k != blank] == list(target):
            total += np.exp(sum(lp[t, k] for t, k in enumerate(path)))
    return -np.log(total) if total > 0 else np.inf


def ctc_brute_grad(lp, target, blank):
    """d(-log p(target | lp)) / d lp for one sample (T, C), from every
    label path: -sum over the collapsing paths through (t, c) of their
    probability, over p (NaN where no path collapses to the target)."""
    share = np.zeros(lp.shape)
    total = 0.0
    for path in itertools.product(range(lp.shape[1]), repeat=lp.shape[0]):
        merged = [k for i, k in enumerate(path) if i == 0 or k != path[i - 1]]
        if [k for k in merged if k != blank] == list(target):
            weight = np.exp(sum(lp[t, k] for t, k in enumerate(path)))
            total += weight
            for t, k in enumerate(path):
                share[t, k] += weight
    if total == 0:
        return np.full(lp.shape, np.nan)
    return -share / total


def ctc_grad_ref(g, lp, targets, il, tl, blank, zero_infinity):
    """ctc_loss_backward: per-sample gradients g (N), lp (T, N, C)."""
    offsets = np.concatenate([[0], np.cumsum(tl)[:-1]])
    out = np.zeros(lp.shape)
    for n in range(lp.shape[1]):
        target = (targets[n, :tl[n]] if targets.ndim == 2
                  else targets[offsets[n]:offsets[n] + tl[n]])
        steps = int(il[n])
        if steps == 0:
            continue
        grad = ctc_brute_grad(lp[:steps, n], target, blank)
        if zero_infinity and np.isnan(grad).all():
            continue
        out[:steps, n] = grad * g[n]
    return out


def ctc_ref(lp, targets, il, tl, blank=0, reduction="mean",
            zero_infinity=False, per_sample=ctc_forward):
    unbatched = lp.ndim == 2
    targets = np.asarray(targets).astype(np.int64)
    il = np.asarray(il).astype(np.int64)
    tl = np.asarray(tl).astype(np.int64)
    if unbatched:
        lp, targets = lp[:, None], np.reshape(targets, (1, -1))
    il, tl = np.reshape(il, (-1,)), np.reshape(tl, (-1,))
    offsets = np.concatenate([[0], np.cumsum(tl)[:-1]])
    losses = []
    for n in range(lp.shape[1]):
        target = (targets[n, :tl[n]] if targets.ndim == 2
                  else targets[offsets[n]:offsets[n] + tl[n]])
        losses.append(per_sample(lp[:il[n], n], target, blank))
    losses = np.array(losses)
    if zero_infinity:
        losses = np.where(losses == np.inf, 0.0, losses)
    if reduction == "mean":
        return (losses / np.maximum(tl, 1)).mean()
    if reduction == "sum":
        return losses.sum()
    return losses[0] if unbatched else losses


def ctc(mode):
    modes = mode.split("+")
    # tensorplay's CPU kernel takes float and double only; bf16 and f16
    # log-probabilities are refused at compile time (ctc-errors.mlir).
    if {"bf16", "f16"} & set(modes):
        return []
    cases = []

    def ctc(name, shape, targets, il, tl, dt="f32", blank=0,
            reduction="mean", zero_infinity=False, index="i64",
            per_sample=ctc_forward):
        logits = RNG.uniform(-2, 2, size=shape)
        lp = as_input(log_softmax(logits, logits.ndim - 1), dt)
        ins = [lp, (np.array(targets, np.int64), index),
               (np.array(il, np.int64), index),
               (np.array(tl, np.int64), index)]
        attrs = [f"blank = {blank} : i64"] if blank else []
        if zero_infinity:
            attrs.append("zero_infinity = true")
        attrs.append(f"reduction = #tp.reduction<{reduction}>")
        out = (() if reduction != "none" or len(shape) == 2
               else (shape[1],))
        cases.append(op_case(
            name, ins, "ctc_loss", "%a0, %a1, %a2, %a3", ", ".join(attrs),
            [(out, dt)],
            lambda x, t, i, l: [ctc_ref(x, t, i, l, blank, reduction,
                                        zero_infinity, per_sample)]))

    # Padded targets (their padding, 7, is no class and is never read); a
    # repeated label (a blank must separate the two); shorter inputs.
    padded = [[2, 2, 3, 1], [4, 1, 7, 7], [3, 4, 1, 7]]
    ctc("ctc_padded_mean", (12, 3, 5), padded, [12, 9, 10], [4, 2, 3])
    ctc("ctc_padded_none", (12, 3, 5), padded, [12, 9, 10], [4, 2, 3],
        reduction="none")
    # Concatenated targets, i32 indices and lengths, blank = 2.
    ctc("ctc_concatenated_sum_blank2", (9, 3, 4), [1, 3, 0, 3, 3, 1],
        [9, 7, 9], [2, 1, 3], blank=2, reduction="sum", index="i32")
    # Unbatched (T, C) with 0-d lengths.
    ctc("ctc_unbatched", (8, 6), [5, 1, 1], 8, 3, reduction="none")
    ctc("ctc_unbatched_mean", (8, 6), [5, 1, 1], 7, 3)
    # An empty target, an empty input with an empty target (loss 0), an
    # alignment that cannot exist (a target with a repeat needs 2 * 2 + 1
    # = 5 frames but has 3: inf) and an empty input with a target (inf).
    impossible = dict(shape=(6, 4, 5), targets=[[1, 1, 0], [2, 2, 0],
                                                [3, 3, 4], [1, 0, 0]],
                      il=[6, 0, 3, 0], tl=[0, 0, 3, 1])
    ctc("ctc_edge_lengths_none", **impossible, reduction="none")
    ctc("ctc_zero_infinity_none", **impossible, reduction="none",
        zero_infinity=True)
    ctc("ctc_zero_infinity_mean", **impossible, zero_infinity=True)
    # float64, against the sum over all alignments on a small case.
    ctc("ctc_f64_brute_force", (6, 2, 4), [[1, 2, 2], [3, 1, 0]], [6, 5],
        [3, 2], dt="f64", per_sample=ctc_brute)
    ctc("ctc_f32_brute_force_blank3", (5, 2, 4), [2, 0, 1, 1], [5, 4],
        [2, 2], blank=3, reduction="none", per_sample=ctc_brute)

    # ctc_loss_backward against the alignments' shares: padded targets with
    # a repeat, a shorter input (zeros after it), an empty target; and
    # concatenated targets, blank 1, an impossible sample zeroed by
    # zero_infinity.
    def backward(name, shape, targets, il, tl, dt, blank=0,
                 zero_infinity=False):
        logits = RNG.uniform(-2, 2, size=shape)
        lp = as_input(log_softmax(logits, 2) + RNG.uniform(-0.3, 0.3, shape),
                      dt)
        g = as_input(RNG.uniform(-2, 2, size=(shape[1],)), dt)
        attrs = [f"blank = {blank} : i64"] if blank else []
        if zero_infinity:
            attrs.append("zero_infinity = true")
        t = np.array(targets, np.int64)
        cases.append(op_case(
            name, [g, lp, (t, "i64"), (np.array(il, np.int64), "i64"),
                   (np.array(tl, np.int64), "i64")],
            "ctc_loss_backward", "%a0, %a1, %a2, %a3, %a4", ", ".join(attrs),
            [(shape, dt)],
            lambda gg, x, tt, i, l: [ctc_grad_ref(
                gg, x, tt.astype(np.int64), i.astype(np.int64),
                l.astype(np.int64), blank, zero_infinity)]))

    backward("ctc_backward_padded_f64", (5, 3, 3), [[1, 1], [2, 0], [0, 0]],
             [5, 3, 4], [2, 1, 0], "f64")
    backward("ctc_backward_concatenated_f32", (4, 3, 4), [0, 2, 3, 3, 3],
             [4, 4, 3], [2, 0, 3], "f32", blank=1, zero_infinity=True)
    return cases
