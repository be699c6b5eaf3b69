"""Writes into tensors that share memory: the one pattern the translation
cannot keep.

The translator gives every op its own result (a view becomes a copy) and
an in-place op a new value that later uses of the written tensor see
(Translator.write_back). That is eager's meaning unless the written tensor
shares memory with another value the graph reads after the write: a view
of it made before the write, or the tensor it is a view of. Eager's
readers see the write; the copies would not. Such a graph runs on its
Python executor whole (partitions would split the same memory the same
way), and the backend says so.

Sharing is traced through the ops that may return their input's memory
(views, reshapes, basic indexing, dtype conversions that may be no-ops).
"""

import operator

from .ops import canonical_name

# Ops whose result may share the input's memory in eager.
VIEW_OPS = {
    "view", "view_as", "reshape", "reshape_as", "flatten", "unflatten",
    "squeeze", "unsqueeze", "transpose", "swapaxes", "swapdims", "permute",
    "t", "narrow", "select", "expand", "expand_as", "broadcast_to", "split",
    "split_with_sizes", "chunk", "unbind", "movedim", "moveaxis",
    "as_strided", "diagonal", "unfold", "detach", "alias", "contiguous",
    "to", "type", "type_as", "float", "double", "half", "bfloat16", "real",
    "imag", "view_as_real", "view_as_complex", "T", "mT", "H", "mH",
    "tensor_split", "hsplit", "vsplit", "dsplit", "ravel", "matrix_H",
    "adjoint", "data", "getattr"}


def _is_call(node):
    return node.op in ("call_function", "call_method")


def _shares_input(node):
    """Whether `node`'s result may share its first argument's memory."""
    if not _is_call(node) or not node.args:
        return False
    if node.target is operator.getitem:
        index = node.args[1]
        items = index if isinstance(index, tuple) else (index,)
        # Indexing with a tensor copies; ints, slices, None and ... view.
        return not any(hasattr(i, "op") for i in items)
    return canonical_name(node).removeprefix("op.") in VIEW_OPS


def _mutated(node):
    """The node `node` writes into, or None."""
    if not _is_call(node) or not node.args or not hasattr(node.args[0], "op"):
        return None
    if node.target is operator.setitem:
        return node.args[0]
    schema = getattr(node.target, "_schema", None)
    if schema is not None:
        return node.args[0] if schema.is_mutable else None
    name = node.target if isinstance(node.target, str) else \
        getattr(node.target, "__name__", "")
    if name.endswith("_") and not name.endswith("__"):
        return node.args[0]
    return None


def write_through_shared_memory(gm):
    """A description of the first in-place write into a tensor that shares
    memory with a value the graph reads after the write, or None."""
    nodes = list(gm.graph.nodes)
    position = {n: k for k, n in enumerate(nodes)}
    # Classes of values that may share memory (union-find).
    parent = {n: n for n in nodes}

    def find(n):
        while parent[n] is not n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n
    for n in nodes:
        if _shares_input(n) and hasattr(n.args[0], "op"):
            parent[find(n)] = find(n.args[0])
    for n in nodes:
        target = _mutated(n)
        if target is None:
            continue
        root = find(target)
        for other in nodes:
            if other is target or other is n or find(other) is not root:
                continue
            if any(position[u] > position[n] for u in other.users):
                return (f"'{n.name}' writes in place into '{target.name}', "
                        f"which shares memory with '{other.name}', read "
                        f"after the write")
    return None
