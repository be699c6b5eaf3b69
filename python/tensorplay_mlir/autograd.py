"""Training through tensorplay 1.0, which hands backends forward graphs only.

A call that autograd records runs as a ``tensorplay.autograd.Function``:
its forward runs the compiled ``@forward``; its backward runs the compiled
``@forward_vjp_grad`` (tp-autodiff of ``sum_k <result_k, cotangent_k>``),
which recomputes the forward in the same compiled code and returns the
gradients of the arguments that require grad, each in its argument's dtype
(the f32 parameters' gradients are f32 under autocast: the cast-reversal
rule). The variant was compiled for the autocast state of the forward call,
so a backward that runs outside autocast keeps the forward's dtypes.
"""

import tensorplay


class _CompiledFunction(tensorplay.autograd.Function):
    @staticmethod
    def forward(ctx, variant, *tensors):
        ctx.variant = variant
        ctx.save_for_backward(*tensors)
        outs = variant.forward(list(tensors))
        for k, (kind, _) in enumerate(variant.result_specs):
            if k not in variant.cot_results:
                ctx.mark_non_differentiable(outs[k])
        return tuple(outs)

    @staticmethod
    def backward(ctx, *grads):
        variant = ctx.variant
        tensors = ctx.saved_tensors
        cots = [grads[k] for k in variant.cot_results]
        if all(g is None for g in cots):
            return (None,) * (1 + len(tensors))
        computed = variant.vjp(tensors, cots)
        result = [None] * len(tensors)
        for i, g in zip(variant.wrt, computed):
            result[i] = g
        return (None,) + tuple(result)


def apply_compiled(variant, tensors):
    """The results of `variant` on `tensors`, recorded by autograd."""
    return list(_CompiledFunction.apply(variant, *tensors))
