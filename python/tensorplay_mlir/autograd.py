"""Training through tensorplay 1.0, which hands backends forward graphs only.

A call that autograd records runs as a ``tensorplay.autograd.Function``.
Its backward runs the compiled ``@forward_vjp_grad`` (tp-autodiff of
``sum_k <result_k, cotangent_k>``), which recomputes the forward in the same
compiled code and returns the gradients of the arguments that require grad,
each in its argument's dtype (f32 parameters get f32 gradients under
autocast: the cast-reversal rule). The variant was compiled for the autocast
state of the forward call, so a backward outside autocast keeps the
forward's dtypes.

Speculation: when the graph has one scalar floating result (a loss), the
forward runs ``@forward_loss_grad`` instead, which computes the results and
the gradients of ``seed * loss`` in one compiled call, with the seed the
last backward used (1.0 at first; a GradScaler's scale after). A backward
whose cotangent is exactly that seed for the loss and nothing for the other
results uses those gradients, bit for bit what the recomputing path gives;
any other backward takes the recomputing path and teaches the next forward
its seed. Forwards whose gradients no backward consumes (evaluation with
grad enabled) turn speculation off for the variant.
"""

import tensorplay

_MAX_UNCONSUMED = 3


class _CompiledFunction(tensorplay.autograd.Function):
    @staticmethod
    def forward(ctx, variant, cache, *tensors):
        ctx.variant = variant
        # Results without a gradient arrive as None, not as zeros: no
        # zero tensors to build, and speculation can see them.
        ctx.set_materialize_grads(False)
        # The arguments the call updates in place (running statistics) are
        # saved as copies: the update would invalidate the saved tensors.
        ctx.updated = {i: tensors[i].clone() for i in variant.updated_args}
        ctx.save_for_backward(*[t for i, t in enumerate(tensors)
                                if i not in ctx.updated])
        ctx.speculated = None
        if variant.speculate:
            seed = variant.seed
            outs, grads = variant.forward_and_grads(list(tensors), seed,
                                                    cache)
            ctx.speculated = (seed, grads)
            variant.unconsumed += 1
            if variant.unconsumed > _MAX_UNCONSUMED:
                variant.speculate = False
        else:
            outs = variant.forward(list(tensors), cache)
        # (Results outside cot_results are detached by apply_compiled:
        # tensorplay 1.0's mark_non_differentiable refuses the fresh
        # tensors a forward returns as leaves.)
        return tuple(outs)

    @staticmethod
    def backward(ctx, *grads):
        variant = ctx.variant
        saved = iter(ctx.saved_tensors)
        tensors = [ctx.updated[i] if i in ctx.updated else next(saved)
                   for i in range(len(ctx.updated) + len(ctx.saved_tensors))]
        cots = [grads[k] for k in variant.cot_results]
        if all(g is None for g in cots):
            return (None,) * (2 + len(tensors))
        computed = None
        if ctx.speculated is not None:
            variant.unconsumed = max(0, variant.unconsumed - 1)
            seed, speculative = ctx.speculated
            ctx.speculated = None
            loss_cot = grads[variant.loss_index]
            others = [grads[k] for k in variant.cot_results
                      if k != variant.loss_index]
            if loss_cot is not None and all(g is None for g in others):
                value = float(loss_cot)
                if value == seed:
                    computed = speculative
                else:
                    variant.seed = value
        if computed is None:
            computed = variant.vjp(tensors, cots)
        result = [None] * len(tensors)
        for i, g in zip(variant.wrt, computed):
            result[i] = g
        return (None, None) + tuple(result)


def apply_compiled(variant, tensors, cache=None):
    """The results of `variant` on `tensors`, recorded by autograd; those
    without a gradient (integers, in-place updates of arguments) detached."""
    outs = list(_CompiledFunction.apply(variant, cache, *tensors))
    differentiable = set(variant.cot_results)
    return [o if k in differentiable else o.detach()
            for k, o in enumerate(outs)]
