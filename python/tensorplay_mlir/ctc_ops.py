"""aten's _ctc_loss and _ctc_loss_backward, what tensorplay 1.1's training
graphs of F.ctc_loss hold: each sample's negative log-likelihood is
tp.ctc_loss without reduction, and the backward is tp.ctc_loss_backward,
which recomputes the forward variables from log_probs, plus the term
exp(log_probs) times each sample's gradient aten's kernel adds (so that the
operator's result is eager's, not only its gradient through log_softmax). tp computes no
log_alpha: the forward's second result is NaN throughout (its only reader,
the backward, does not read it), so a graph that reads it otherwise gets
NaN, never a plausible number.
"""

from .composite import Composer
from .ops import Unsupported, _value, handles


def _lengths(tr, v, batch):
    v = _value(tr, v)
    if v.rank != 1 or v.shape[0] != batch:
        raise Unsupported(f"ctc lengths of shape {v.shape}")
    return v


@handles("_ctc_loss")
def _ctc_loss_forward(tr, node, log_probs, targets, input_lengths,
                      target_lengths, blank=0, zero_infinity=False):
    lp, targets = _value(tr, log_probs), _value(tr, targets)
    if lp.rank != 3:
        raise Unsupported(f"_ctc_loss of rank-{lp.rank} log_probs")
    batch = lp.shape[1]
    il = _lengths(tr, input_lengths, batch)
    tl = _lengths(tr, target_lengths, batch)
    attrs = (f"blank = {int(blank)} : i64, zero_infinity = "
             f"{'true' if zero_infinity else 'false'}, "
             "reduction = #tp.reduction<none>")
    nll_meta, alpha_meta = tr.meta_of(node, 0), tr.meta_of(node, 1)
    nll = tr.emit("ctc_loss", [lp, targets, il, tl],
                  nll_meta[0] if nll_meta else (batch,),
                  nll_meta[1] if nll_meta else lp.elt, attrs)
    alpha = None if alpha_meta is None else \
        tr.constant(float("nan"), alpha_meta[1], alpha_meta[0])
    return (nll, alpha)


@handles("_ctc_loss_backward")
def _ctc_loss_backward(tr, node, grad_output, log_probs, targets,
                       input_lengths, target_lengths, neg_log_likelihood,
                       log_alpha, blank, zero_infinity=False):
    from .ops import _result
    lp, targets = _value(tr, log_probs), _value(tr, targets)
    if lp.rank != 3:
        raise Unsupported(f"_ctc_loss_backward of rank-{lp.rank} log_probs")
    batch = lp.shape[1]
    shape, elt = _result(node)
    attrs = (f"blank = {int(blank)} : i64, zero_infinity = "
             f"{'true' if zero_infinity else 'false'}")
    g = _value(tr, grad_output)
    il = _lengths(tr, input_lengths, batch)
    exact = tr.emit("ctc_loss_backward", [
        g, lp, targets, il, _lengths(tr, target_lengths, batch)], shape,
        elt, attrs)
    # aten's kernel also adds exp(log_probs) times the sample's gradient
    # (a term the log_softmax before it removes), before each sample's
    # input length and, with zero_infinity, for finite losses only.
    c = Composer(tr)
    steps = lp.shape[0]
    times = c.reshape(tr.dense(list(range(steps)), il.elt, (steps,)),
                      (steps, 1))
    live = c.binary("lt", times, c.reshape(il, (1, batch)))
    per_sample = c.reshape(tr.cast(g, lp.elt), (1, batch))
    if zero_infinity:
        nll = _value(tr, neg_log_likelihood)
        per_sample = c.where(c.binary("eq", c.reshape(nll, (1, batch)),
                                      float("inf")), 0.0, per_sample)
    weight = c.reshape(c.where(live, per_sample, 0.0), (steps, batch, 1))
    extra = c.mul(c.unary("exp", lp), weight)
    return tr.cast(c.add(exact, extra), elt)
