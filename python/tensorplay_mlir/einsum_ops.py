"""einsum as tp ops, two operands at a time from the left: the labels both
operands carry and a later operand or the output keeps are batch labels,
those both carry and nothing later keeps are contracted, the rest belong to
one side. Each side is permuted and reshaped to (batch, rows, contracted)
and (batch, contracted, columns), multiplied by tp.bmm (autocast as eager's
einsum, which calls bmm: bf16 under cpu autocast) and reshaped back; the
last result is permuted to the output's order. Refused, with the reason:
a label repeated within one operand (a diagonal), a label summed within one
operand, and sizes that differ between operands (broadcasting).
"""

import math

from .composite import Composer
from .ops import HANDLERS, Unsupported, _result, _value

_ELLIPSIS = [chr(0x100 + i) for i in range(64)]


def _labels(equation, ranks):
    """([labels of each operand], output labels), ellipses expanded."""
    eq = equation.replace(" ", "")
    lhs, arrow, out = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(ranks):
        raise Unsupported(f"einsum '{equation}' of {len(ranks)} operands")
    widths = [rank - (len(t) - 3) for t, rank in zip(terms, ranks)
              if "..." in t]
    ell = max(widths, default=0)
    labels = []
    for term, rank in zip(terms, ranks):
        if "..." in term:
            n = rank - (len(term) - 3)
            term = term.replace("...", "".join(_ELLIPSIS[ell - n:ell]))
        if len(term) != rank or not all(c.isalpha() or c in _ELLIPSIS
                                        for c in term):
            raise Unsupported(f"einsum term '{term}' for a rank-{rank} "
                              "operand")
        if len(set(term)) != len(term):
            raise Unsupported(f"einsum term '{term}' repeats a label (a "
                              "diagonal)")
        labels.append(term)
    if arrow:
        out = out.replace("...", "".join(_ELLIPSIS[:ell]))
    else:
        counts = {}
        for term in labels:
            for c in term:
                counts[c] = counts.get(c, 0) + 1
        out = "".join(_ELLIPSIS[:ell]) + "".join(
            sorted(c for c, k in counts.items() if k == 1
                   and c not in _ELLIPSIS))
    return labels, out


def einsum(tr, equation, operands, elt):
    c = Composer(tr)
    labels, out = _labels(equation, [v.rank for v in operands])
    size = {}
    for term, v in zip(labels, operands):
        for label, n in zip(term, v.shape):
            if size.setdefault(label, n) != n:
                raise Unsupported(f"einsum label of sizes {size[label]} and "
                                  f"{n} (broadcasting)")
    current, value = labels[0], operands[0]
    for i in range(1, len(operands)):
        other, right_value = labels[i], operands[i]
        later = set(out).union(*labels[i + 1:])
        batch = [x for x in current if x in other and x in later]
        contracted = [x for x in current if x in other and x not in later]
        left = [x for x in current if x not in other]
        right = [x for x in other if x not in current]
        if any(x not in later for x in left + right):
            raise Unsupported(f"einsum '{equation}' sums a label within one "
                              "operand")
        b, m, k, n = (math.prod(size[x] for x in part)
                      for part in (batch, left, contracted, right))
        lhs = c.reshape(c.permute(value, [current.index(x) for x in
                                          batch + left + contracted]),
                        (b, m, k))
        rhs = c.reshape(c.permute(right_value, [other.index(x) for x in
                                                batch + contracted + right]),
                        (b, k, n))
        product = tr.emit("bmm", [lhs, rhs], (b, m, n), elt)
        current = "".join(batch + left + right)
        value = c.reshape(product, [size[x] for x in current])
    if sorted(current) != sorted(out):
        raise Unsupported(f"einsum '{equation}' sums a label within one "
                          "operand")
    return c.permute(value, [current.index(x) for x in out])


def _einsum(tr, node, equation, *operands, path=None):
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = operands[0]
    operands = [_value(tr, v) for v in operands]
    shape, elt = _result(node)
    if len(set(v.elt for v in operands)) > 1:
        raise Unsupported("einsum of operands of different dtypes")
    result = einsum(tr, equation, operands, elt)
    if tuple(result.shape) != tuple(shape):
        raise Unsupported(f"einsum '{equation}': shape {result.shape}, the "
                          f"graph says {shape}")
    return result


HANDLERS["einsum"] = _einsum
