"""Binding a node's arguments to its handler by name, never by guessed position.

A target's arguments have names: an OpOverload's schema
(``batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor?
running_mean, ...)``), a Python function's signature
(``F.batch_norm(input, running_mean=None, running_var=None, weight=None,
...)``). The same handler serves several forms whose orders differ, so the
node's arguments are first named by the target's own parameters (defaults
filled), then handed to the handler's parameters of the same name. A
handler parameter and a target parameter at the same position whose names
both appear only on their own side are one argument renamed (the handler's
``x`` is the schema's ``self`` or the function's ``input``). What is left
goes to the handler's ``*rest`` / ``**kwargs`` or, where it has neither,
must be at the target's default: an argument no handler parameter reads is
refused, never dropped.

A method (``x.clamp_max(v)``) takes its function's signature
(``tensorplay.clamp_max(input, max)``). Targets without a readable
signature (C++ builtins) are called positionally, in the order the node
holds them.
"""

import functools
import inspect
from dataclasses import dataclass

_EMPTY = inspect.Parameter.empty


class BindingError(ValueError):
    """The node's arguments do not fit its target or its handler."""


@dataclass(frozen=True)
class Param:
    name: str
    has_default: bool
    default: object = None


def target_params(target):
    """The target's parameters (a tuple of Param), or None when they cannot
    be read or the target takes variadic arguments."""
    schema = getattr(target, "_schema", None)
    if schema is not None and hasattr(schema, "arguments"):
        if getattr(schema, "is_vararg", False):
            return None
        return tuple(Param(a.name, bool(a.has_default),
                           _schema_default(a) if a.has_default else None)
                     for a in schema.arguments)
    if isinstance(target, str):
        # A method: its function's signature, whose first parameter is
        # the tensor the method is called on.
        import tensorplay
        target = getattr(tensorplay.functional, target, None) or getattr(
            tensorplay, target, None)
    if target is None or not callable(target):
        return None
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):
        return None
    params = []
    for p in signature.parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            return None
        if p.name == "out":
            continue  # an out= argument never reaches a graph
        params.append(Param(p.name, p.default is not _EMPTY,
                            None if p.default is _EMPTY else p.default))
    return tuple(params)


def _schema_default(argument):
    """A schema argument's default as a Python value: the absent dtype
    (``ScalarType dtype='Undefined'``) is None, as the node's own absent
    dtype resolves."""
    value = argument.default_value
    return None if value == "Undefined" else value


def name_arguments(params, args, kwargs, resolve=None):
    """{name: value} over `params` in their order, defaults filled (passed
    through `resolve`, as the node's own arguments were)."""
    if len(args) > len(params):
        raise BindingError(f"{len(args)} positional arguments for "
                           f"{len(params)} parameters")
    values, given = {}, set()
    for p, a in zip(params, args):
        values[p.name] = a
        given.add(p.name)
    names = {p.name for p in params}
    for key, value in kwargs.items():
        if key not in names:
            raise BindingError(f"unknown argument '{key}'")
        if key in given:
            raise BindingError(f"argument '{key}' given twice")
        values[key] = value
        given.add(key)
    for p in params:
        if p.name not in values:
            if not p.has_default:
                raise BindingError(f"missing argument '{p.name}'")
            values[p.name] = resolve(p.default) if resolve else p.default
    return {p.name: values[p.name] for p in params}


@functools.lru_cache(maxsize=None)
def _handler_shape(handler):
    params = list(inspect.signature(handler).parameters.values())[2:]
    positional = [p for p in params if p.kind == p.POSITIONAL_OR_KEYWORD]
    keyword = [p for p in params if p.kind == p.KEYWORD_ONLY]
    var_pos = any(p.kind == p.VAR_POSITIONAL for p in params)
    var_kw = any(p.kind == p.VAR_KEYWORD for p in params)
    return positional, keyword, var_pos, var_kw


def _source(p, j, order, handler_names):
    """The target parameter (of the names `order`) that the handler's
    parameter `p`, at position j, reads: the one of its name, or the one at
    its position when neither name appears on the other side (the same
    argument, renamed); None for none."""
    if p.name in order:
        return p.name
    if j < len(order) and order[j] not in handler_names:
        return order[j]
    return None


def _same(a, b):
    try:
        return a is b or bool(a == b)
    except Exception:  # tensors, dtypes with odd __eq__
        return False


def bind(handler, target, args, kwargs, resolve=None):
    """(args, kwargs) to call `handler(tr, node, *args, **kwargs)` with for
    a node of `target` holding `args` and `kwargs`, resolved by `resolve`
    (which the filled defaults go through too)."""
    params = target_params(target)
    if params is None:
        return tuple(args), dict(kwargs)
    try:
        values = name_arguments(params, args, kwargs, resolve)
    except BindingError:
        if isinstance(target, str):
            # Methods take varargs their functions do not (x.view(2, 3)).
            return tuple(args), dict(kwargs)
        raise
    order = [p.name for p in params]
    default = {p.name: resolve(p.default) if resolve else p.default
               for p in params if p.has_default}
    positional, keyword, var_pos, var_kw = _handler_shape(handler)
    handler_names = {p.name for p in positional + keyword}
    consumed = set()
    call_args = []
    for j, p in enumerate(positional):
        name = _source(p, j, order, handler_names)
        if name is not None:
            consumed.add(name)
            call_args.append(values[name])
        elif p.default is not _EMPTY:
            call_args.append(p.default)
        else:
            raise BindingError(f"the handler's '{p.name}' has no argument")
    call_kwargs = {}
    for p in keyword:
        if p.name in values:
            consumed.add(p.name)
            call_kwargs[p.name] = values[p.name]
    # Leftovers at their default change nothing.
    rest = [n for n in order if n not in consumed and
            not _same(values[n], default.get(n, _EMPTY))]
    if not rest:
        return tuple(call_args), call_kwargs
    if var_kw and not var_pos:
        call_kwargs.update({n: values[n] for n in rest})
    elif var_pos:
        # Positionally after the named ones, in the target's order: every
        # leftover up to the last one that matters.
        leftovers = [n for n in order if n not in consumed]
        last = max(leftovers.index(n) for n in rest)
        call_args += [values[n] for n in leftovers[:last + 1]]
    else:
        raise BindingError("no handler parameter reads " + ", ".join(
            f"'{n}'={values[n]!r}" for n in rest))
    return tuple(call_args), call_kwargs


def check_handler(handler, target):
    """Raises BindingError when `handler` cannot bind `target`'s parameters
    by name: a handler parameter without a default that no target
    parameter feeds. (Static: no node needed.)"""
    params = target_params(target)
    if params is None:
        return
    order = [p.name for p in params]
    positional, keyword, _, _ = _handler_shape(handler)
    handler_names = {p.name for p in positional + keyword}
    for j, p in enumerate(positional):
        if _source(p, j, order, handler_names) is None and \
                p.default is _EMPTY:
            raise BindingError(f"the handler's '{p.name}' has no argument")
