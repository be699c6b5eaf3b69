"""The differential tester's program representation and reference semantics.

A program is a list of nodes in SSA form over function arguments: every node
is one tp op with its operands, attributes and one result (shape, dtype). The
same representation is printed as MLIR (`emit_function`), parsed back from
MLIR (`parse_module`, for the pinned findings) and evaluated by NumPy
(`Evaluator`).

Reference semantics (see docs/Testing.md, "Differential testing"): every op
is computed in float64 from the values its operands store, as PyTorch
defines it, and the result is rounded to the op's result dtype (bf16: round
to nearest even, directly from float64; f16: NumPy's float16 conversion; f32:
float32), so that a value's reference is what an exact implementation
storing that dtype computes.

Next to each reference value the evaluator propagates a per-element bound E
on how far a correct implementation may be from it (`divergence`): a correct
implementation computes each op in f32 (products and reductions accumulate
in f32) and rounds its result once, so its stored value may differ from the
exact-then-rounded reference by one unit in the last place of the result
dtype (a rounding decision on the other side of a tie) plus the f32 error of
the computation, plus whatever its inputs already differed by, carried
through the op to first order:
  * elementwise ops: |f(x +- Ex, y +- Ey) - f(x, y)| (worst case, corners);
  * products and convolutions: sqrt(P(|A|^2, EB^2) + P(EA^2, |B|^2)) (the
    errors of the K terms of a dot product are independent roundings: their
    root sum of squares), P the product itself;
  * sum / mean: sum / mean of E (worst case: copies made by expand or
    broadcasting are correlated); amax: max of E;
  * softmax, log_softmax, layer_norm: first-order bounds of their Jacobians;
  * shape ops and exact ops (neg, abs, relu, max, casts of exact values):
    E moved with the data, no rounding term (E stays 0 for exact values:
    those elements must match bit for bit).
The comparison (difftest.py) accepts |out - ref| <= C * E + atol * max|ref| +
rtol * |ref| with the per-dtype constants of TOLERANCES.

Autocast (--autocast=cpu:bf16) is modelled from docs/Autocast.md and the
tensorplay.amp CPU tables: products and convolutions (the lower-precision
list) cast every floating operand to bf16 and return bf16; the fp32 list
(prod, mse_loss here) computes in f32; cat/stack promote to the widest
input; every other op runs in its inputs' types and its result type is
re-inferred by the op's dtype rule.
"""

import math
import re

import numpy as np

from tpcheck import conv_nd, erf, gelu, gelu_tanh, sigmoid, to_bf16  # noqa: F401

FLOATS = ("f32", "bf16", "f16", "f64")
INTS = ("i64", "i32", "i1")
NP_DTYPE = {"f32": np.float32, "f64": np.float64, "bf16": np.float32,
            "f16": np.float16, "i64": np.int64, "i32": np.int32,
            "i1": np.bool_}
WIDTH = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}


class Reject(Exception):
    """A generated op that is invalid or ill-conditioned: try another."""


# ----------------------------------------------------------------------------
# Rounding and units in the last place.

def round_bf16(x):
    """float64 -> nearest bf16 (ties to even), in one rounding (no float32
    step: to_bf16 of tpcheck.py rounds from float32, which could round
    twice)."""
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(all="ignore"):
        m, e = np.frexp(x)              # x = m * 2^e, 0.5 <= |m| < 1
        e = np.maximum(e, -125)          # subnormals: fixed quantum 2^-133
        q = np.ldexp(1.0, e - 8)         # 8 significant bits
        r = np.rint(x / q) * q
        r = np.where(np.abs(r) >= 2.0**128 * (1 - 2.0**-9), np.sign(x) * np.inf, r)
        r = np.where(np.isfinite(x), r, x)
    return r


def round_to(dt, x):
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(all="ignore"):
        if dt == "bf16":
            return round_bf16(x)
        if dt == "f16":
            return x.astype(np.float16).astype(np.float64)
        if dt == "f32":
            return x.astype(np.float32).astype(np.float64)
        if dt == "f64":
            return x
        if dt == "i1":
            return (x != 0).astype(np.float64)
        if dt in ("i32", "i64"):
            return np.trunc(x)
    raise ValueError(dt)


MANT = {"bf16": 7, "f16": 10, "f32": 23, "f64": 52}
MINEXP = {"bf16": -126, "f16": -14, "f32": -126, "f64": -1022}


def ulp(dt, x):
    """Distance between adjacent values of dtype `dt` at magnitude |x|."""
    if dt not in MANT:
        return np.zeros_like(np.asarray(x, np.float64))
    a = np.abs(np.asarray(x, dtype=np.float64))
    with np.errstate(all="ignore"):
        _, e = np.frexp(a)
        e = np.maximum(e - 1, MINEXP[dt])
    return np.ldexp(1.0, e - MANT[dt])


U32 = 2.0**-24  # unit roundoff of f32 arithmetic


# ----------------------------------------------------------------------------
# Types.

def ttype(shape, dt):
    dims = "x".join(str(d) for d in shape)
    return "tensor<%s%s%s>" % (dims, "x" if shape else "", dt)


TYPE_RE = re.compile(r"tensor<((?:\d+x)*)([a-z0-9]+)>")


def parse_type(text):
    m = TYPE_RE.fullmatch(text.strip())
    if not m:
        raise ValueError("bad type %r" % text)
    dims = tuple(int(d) for d in m.group(1).split("x") if d)
    return dims, m.group(2)


def is_float(dt):
    return dt in FLOATS


def promote_pair(a, b):
    if a is None:
        return b
    if b is None or a == b:
        return a
    fa, fb = is_float(a), is_float(b)
    if fa and fb:
        if WIDTH[a] != WIDTH[b]:
            return a if WIDTH[a] > WIDTH[b] else b
        return "f32"  # f16 with bf16
    if fa:
        return a
    if fb:
        return b
    if a == "i1":
        return b
    if b == "i1":
        return a
    return a if int(a[1:]) >= int(b[1:]) else b


def promote_types(dts, ranks):
    """torch.result_type: 0-d tensors only count for a higher category."""
    dim, zero = None, None
    for dt, r in zip(dts, ranks):
        if r == 0:
            zero = promote_pair(zero, dt)
        else:
            dim = promote_pair(dim, dt)
    if dim is None:
        return zero
    if zero is None:
        return dim
    cat = lambda t: 2 if is_float(t) else (0 if t == "i1" else 1)
    if cat(dim) >= cat(zero):
        return dim
    return promote_pair(dim, zero)


def broadcast_shapes(*shapes):
    return tuple(np.broadcast_shapes(*shapes))


# ----------------------------------------------------------------------------
# Program representation.

class Node:
    """`%res = tp.<op> operands {attrs}`; kw holds the optional named
    operands (bias, weight)."""

    def __init__(self, op, args, attrs, res, shape, dt, kw=None):
        self.op = op
        self.args = list(args)      # value names (positional operands)
        self.kw = dict(kw or {})    # role -> value name (bias, weight)
        self.attrs = dict(attrs)    # name -> python value (see fmt_attr)
        self.res = res
        self.shape = tuple(shape)
        self.dt = dt

    def operands(self):
        return self.args + [self.kw[k] for k in ("weight", "bias", "out") if k in self.kw]

    def copy(self):
        return Node(self.op, self.args, self.attrs, self.res, self.shape,
                    self.dt, self.kw)


class Arg:
    def __init__(self, name, shape, dt, init):
        self.name = name
        self.shape = tuple(shape)
        self.dt = dt
        self.init = init            # ("u", lo, hi) | ("i1",) | ("int", lo, hi)


class Program:
    def __init__(self, name, args, nodes, results, mode, seed=None):
        self.name = name
        self.args = list(args)
        self.nodes = list(nodes)
        self.results = list(results)
        self.mode = mode            # dict: autocast, keep_io, options
        self.seed = seed            # inputs seed
        self.data = None            # arg name -> stored array

    def types(self):
        t = {a.name: (a.shape, a.dt) for a in self.args}
        for n in self.nodes:
            t[n.res] = (n.shape, n.dt)
        return t

    def make_inputs(self):
        rng = np.random.default_rng(self.seed)
        self.data = {}
        for a in self.args:
            self.data[a.name] = make_input(rng, a)
        return self.data


def make_input(rng, a):
    kind = a.init[0]
    if kind == "i1":
        return rng.integers(0, 2, size=a.shape).astype(np.bool_)
    if kind == "int":
        return rng.integers(a.init[1], a.init[2], size=a.shape).astype(NP_DTYPE[a.dt])
    lo, hi = a.init[1], a.init[2]
    x = rng.uniform(lo, hi, size=a.shape).astype(np.float32)
    if a.dt == "bf16":
        x = to_bf16(x)
    elif a.dt == "f16":
        x = x.astype(np.float16)
    elif a.dt == "f64":
        x = x.astype(np.float64)
    return x


def fmt_float(x):
    s = repr(float(x))
    if "e" in s and "." not in s.split("e")[0]:
        m, e = s.split("e")
        s = m + ".0e" + e
    elif "." not in s and "e" not in s:
        s += ".0"
    return s


def fmt_dense(a):
    a = np.asarray(a, dtype=np.float64)
    if a.size and np.all(a == a.reshape(-1)[0]) and a.ndim:
        return "dense<%s>" % fmt_float(a.reshape(-1)[0])

    def rec(x):
        if x.ndim == 0:
            return fmt_float(x)
        return "[" + ", ".join(rec(y) for y in x) + "]"
    return "dense<%s>" % rec(a)


def parse_dense(text, shape):
    inner = text.strip()[len("dense<"):-1]
    vals = [float(v) for v in inner.replace("[", " ").replace("]", " ").replace(",", " ").split()]
    if len(vals) == 1:
        return np.full(shape, vals[0])
    return np.array(vals, dtype=np.float64).reshape(shape)


# Attributes that are enum attributes of the dialect (#tp.<name><value>).
ENUM_ATTRS = ("reduction", "approximate")


def fmt_attr(k, v):
    if v is True and k == "inplace":
        return k
    if isinstance(v, bool):
        return "%s = %s" % (k, "true" if v else "false")
    if isinstance(v, int):
        return "%s = %d : i64" % (k, v)
    if isinstance(v, float):
        return "%s = %s : f64" % (k, fmt_float(v))
    if isinstance(v, tuple):
        return "%s = array<i64%s>" % (k, (": " + ", ".join(str(i) for i in v)) if v else "")
    if isinstance(v, str) and v.startswith("type:"):
        return "%s = %s" % (k, v[5:])
    if isinstance(v, str) and k in ENUM_ATTRS:
        return "%s = #tp.%s<%s>" % (k, k, v)
    if isinstance(v, str):
        return '%s = "%s"' % (k, v)
    raise ValueError((k, v))


def emit_node(n, types):
    ops = n.operands()
    tin = ", ".join(ttype(*types[o]) for o in ops)
    tout = ttype(n.shape, n.dt)
    if n.op == "constant":
        return "%%%s = tp.constant %s : %s" % (n.res, fmt_dense(n.attrs["value"]), tout)
    attrs = ""
    if n.attrs:
        attrs = " {" + ", ".join(fmt_attr(k, v) for k, v in n.attrs.items()) + "}"
    if n.op == "cast":
        return "%%%s = tp.cast %%%s : %s to %s" % (n.res, n.args[0], tin, tout)
    if n.op == "constant":
        return "%%%s = tp.constant %s : %s" % (n.res, fmt_dense(n.attrs["value"]), tout)
    if n.op in ("cat", "stack"):
        body = "[" + ", ".join("%" + a for a in n.args) + "]"
        return "%%%s = tp.%s %s%s : (%s) -> %s" % (n.res, n.op, body, attrs, tin, tout)
    body = ", ".join("%" + a for a in n.args)
    for k in ("weight", "bias", "out"):
        if k in n.kw:
            body += " %s(%%%s)" % (k, n.kw[k])
    return "%%%s = tp.%s %s%s : (%s) -> %s" % (n.res, n.op, body, attrs, tin, tout)


def result_types(p, types, mode_dts=None):
    return [ttype(types[r][0], mode_dts[r] if mode_dts else types[r][1])
            for r in p.results]


def emit_function(p, line0=1):
    """MLIR text of `p`; also returns {node result: line number}."""
    types = p.types()
    args = ", ".join("%%%s: %s" % (a.name, ttype(a.shape, a.dt)) for a in p.args)
    res = result_types(p, types)
    lines = ["func.func @%s(%s) -> (%s) {" % (p.name, args, ", ".join(res))]
    where = {}
    for n in p.nodes:
        where[n.res] = line0 + len(lines)
        lines.append("  " + emit_node(n, types))
    lines.append("  return %s : %s" % (", ".join("%" + r for r in p.results),
                                       ", ".join(res)))
    lines.append("}")
    return "\n".join(lines), where


# ----------------------------------------------------------------------------
# Parsing the subset emit_function prints (pinned findings).

ATTR_RE = re.compile(r"\s*([a-z_][a-z0-9_]*)(?:\s*=\s*(array<i64(?::[^>]*)?>|\"[^\"]*\"|#tp\.[a-z_]+<[a-z]+>|"
                     r"[-+0-9.eE]+\s*:\s*[a-z0-9]+|true|false|[a-z0-9]+))?\s*,?")


def parse_attrs(text):
    attrs = {}
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = ATTR_RE.match(text, pos)
        if not m or m.end() == pos:
            raise ValueError("bad attributes %r" % text)
        k, v = m.group(1), m.group(2)
        pos = m.end()
        if v is None:
            attrs[k] = True
        elif v.startswith("array"):
            inner = v[len("array<i64"):-1].lstrip(":").strip()
            attrs[k] = tuple(int(i) for i in inner.split(",")) if inner else ()
        elif v.startswith('"'):
            attrs[k] = v[1:-1]
        elif v.startswith("#tp."):
            attrs[k] = v[v.index("<") + 1:-1]
        elif v in ("true", "false"):
            attrs[k] = v == "true"
        elif ":" in v:
            num, ty = [s.strip() for s in v.split(":")]
            attrs[k] = float(num) if ty.startswith("f") else int(num)
        else:
            attrs[k] = "type:" + v
    return attrs


FUNC_RE = re.compile(r"func\.func @([A-Za-z0-9_]+)\((.*)\)\s*->\s*\(?(.*?)\)?\s*\{")
OP_RE = re.compile(r"%([A-Za-z0-9_]+) = tp\.([a-z0-9_]+) (.*)$")


def split_top(s, sep=","):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == sep and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return [x.strip() for x in out]


def parse_module(text):
    """Functions of a module printed by emit_function (or written by hand in
    that form) -> [(name, args [(name, shape, dt)], nodes, results)]."""
    funcs = []
    cur = None
    for raw in text.splitlines():
        line = raw.split("//")[0].strip()
        if not line:
            continue
        m = FUNC_RE.match(line)
        if m:
            args = []
            for a in split_top(m.group(2)):
                nm, ty = a.split(":", 1)
                shape, dt = parse_type(ty.strip())
                args.append((nm.strip()[1:], shape, dt))
            cur = [m.group(1), args, [], []]
            funcs.append(cur)
            continue
        if line.startswith("return"):
            vals = line[len("return"):].split(":")[0]
            cur[3] = [v.strip()[1:] for v in vals.split(",") if v.strip()]
            continue
        if line == "}":
            cur = None
            continue
        m = OP_RE.match(line)
        if not m:
            raise ValueError("cannot parse %r" % line)
        res, op, rest = m.groups()
        if op == "constant":
            dense, ty = rest.rsplit(" : ", 1)
            shape, dt = parse_type(ty)
            cur[2].append(Node("constant", [], {"value": parse_dense(dense, shape)}, res, shape, dt))
            continue
        if op == "cast":
            src, tys = rest.split(":", 1)
            tin, tout = tys.split(" to ")
            shape, dt = parse_type(tout)
            cur[2].append(Node("cast", [src.strip()[1:]], {}, res, shape, dt))
            continue
        body, sig = rest.rsplit(" : ", 1)
        tout = sig.split("->")[1].strip()
        shape, dt = parse_type(tout)
        attrs = {}
        if "{" in body:
            body, a = body.split("{", 1)
            attrs = parse_attrs(a.rsplit("}", 1)[0])
        kw = {}
        for k in ("weight", "bias", "out"):
            km = re.search(r"\b%s\(%%([A-Za-z0-9_]+)\)" % k, body)
            if km:
                kw[k] = km.group(1)
                body = body[:km.start()] + body[km.end():]
        body = body.strip().strip("[]")
        args = [v.strip()[1:] for v in body.split(",") if v.strip()]
        cur[2].append(Node(op, args, attrs, res, shape, dt, kw))
    return funcs


# ----------------------------------------------------------------------------
# Op semantics: dtype rules, references, divergence bounds.

LOWER = {"mm", "bmm", "matmul", "linear", "addmm", "baddbmm", "conv1d",
         "conv2d", "scaled_dot_product_attention"}   # cpu lower-precision list (ours)
FP32 = {"prod", "mse_loss"}              # cpu fp32 list (ours)
FP32_SET_DTYPE = {"prod", "sum", "softmax", "log_softmax"}
PROMOTE = {"cat", "stack"}

UNARY = {
    # name: (f, exact, needs)  needs: None | "pos" (x > 0) | "gtm1" (x > -1)
    "neg": (np.negative, True, None),
    "abs": (np.abs, True, None),
    "relu": (lambda x: np.maximum(x, 0.0), True, None),
    "gelu": (gelu, False, None),
    "gelu_tanh": (gelu_tanh, False, None),
    "sigmoid": (sigmoid, False, None),
    "tanh": (np.tanh, False, None),
    "exp": (np.exp, False, None),
    "expm1": (np.expm1, False, None),
    "log": (np.log, False, "pos"),
    "log1p": (np.log1p, False, "gtm1"),
    "log2": (np.log2, False, "pos"),
    "sin": (np.sin, False, None),
    "cos": (np.cos, False, None),
    "sqrt": (np.sqrt, False, "pos"),
    "rsqrt": (lambda x: 1 / np.sqrt(x), False, "pos"),
    "reciprocal": (lambda x: 1 / x, False, "pos"),
    "silu": (lambda x: x * sigmoid(x), False, None),
    "erf": (erf, False, None),
    "softplus": (lambda x: np.where(x > 20, x, np.log1p(np.exp(np.minimum(x, 20)))), False, None),
}
BINARY = {
    "add": lambda x, y, a: x + a.get("alpha", 1.0) * y,
    "sub": lambda x, y, a: x - a.get("alpha", 1.0) * y,
    "mul": lambda x, y, a: x * y,
    "div": lambda x, y, a: div_ref(x, y, a.get("rounding_mode")),
    "maximum": lambda x, y, a: np.maximum(x, y),
    "minimum": lambda x, y, a: np.minimum(x, y),
    "atan2": lambda x, y, a: np.arctan2(x, y),
}
EXACT_BINARY = {"maximum", "minimum"}
SHAPE_OPS = {"reshape", "transpose", "permute", "unsqueeze", "squeeze",
             "expand", "flatten", "cat", "stack"}


# Known deviations of the compiler, as alternative semantics: a generated
# program that fails, and passes when evaluated with one of these, is
# counted as that known finding (difftest-findings/, `// difftest-quirk:`).
ACTIVE_QUIRKS = set()


def div_ref(x, y, mode):
    """torch.div: floor is Python's and NumPy's floor division, the floor
    of the exact quotient (1.0 // 0.1 is 9: 0.1f is above 0.1); trunc is
    trunc of the quotient computed in float (torch's div_trunc_kernel:
    trunc(a / b), 1.0 / 0.1f rounds to 10)."""
    with np.errstate(all="ignore"):
        q = x / y
        if mode == "floor":
            if "div-floor-rounded" in ACTIVE_QUIRKS:
                return np.floor(q.astype(np.float32).astype(np.float64))
            return np.floor(q)
        if mode == "trunc":
            return np.trunc(q.astype(np.float32).astype(np.float64))
    return q


def unary_name(n):
    if n.op == "gelu" and n.attrs.get("approximate") == "tanh":
        return "gelu_tanh"
    return n.op


def red_dims(attrs, rank):
    d = attrs.get("dim")
    if d is None:
        return tuple(range(rank))
    if isinstance(d, int):
        d = (d,)
    return tuple(sorted(i % rank for i in d)) if rank else ()


def infer_dtype(n, dts, ranks):
    """The tp dtype rule of `n` for operand dtypes `dts` (the verifier's rule;
    also autocast's re-inference of unlisted ops)."""
    op = n.op
    explicit = n.attrs.get("dtype")
    if explicit:
        return explicit[5:]
    if op in ("cast", "constant"):
        return n.dt
    if op == "argmax":
        return "i64"
    if op in ("add", "sub", "mul", "maximum", "minimum", "where", "cat",
              "stack", "mse_loss"):
        ds, rs = dts, ranks
        if op == "where":
            ds, rs = dts[1:], ranks[1:]
        return promote_types(ds, rs)
    if op in ("addcmul", "addcdiv"):
        t = promote_types(dts, ranks)
        return t
    if op in ("div", "atan2") or op in UNARY or op == "pow":
        t = promote_types(dts, ranks)
        return t if is_float(t) else "f32"
    if op in LOWER:
        fl = [d for d in dts if is_float(d)]
        if len(set(fl)) > 1:
            raise Reject("%s: mixed floating operands %s" % (op, fl))
        return fl[0] if fl else dts[0]
    if op in ("sum", "prod", "cumsum"):
        return "i64" if not is_float(dts[0]) else dts[0]
    return dts[0]   # First: mean, amax, softmax, layer_norm, shape ops


def result_dtype(n, dts, ranks):
    """The result dtype of `n` for its operand dtypes (the `out` operand
    last when present): the dtype rule, or the first operand's type for the
    in-place form, the out operand's type for the out= form."""
    if "out" in n.kw:
        return dts[-1]
    if n.attrs.get("inplace"):
        return dts[0]
    return infer_dtype(n, dts, ranks)


def autocast_decision(n, dts):
    """(list, per-operand target dtypes) for autocast cpu:bf16."""
    fl = [d for d in dts if is_float(d)]
    if n.op in ("cast", "constant") or n.attrs.get("dtype") or not fl or "f64" in dts:
        return "unlisted", list(dts)
    if n.op in LOWER:
        return "lower", ["bf16" if is_float(d) else d for d in dts]
    if n.op in FP32:
        if n.op in FP32_SET_DTYPE:
            return "fp32-dtype", list(dts)
        return "fp32", ["f32" if is_float(d) else d for d in dts]
    if n.op in PROMOTE:
        w = None
        for d in fl:
            w = promote_pair(w, d)
        return "promote", [w if is_float(d) else d for d in dts]
    return "unlisted", list(dts)


class Val:
    """A value during evaluation: reference v (float64), divergence bound e,
    the dtype it has in the mode (after autocast) and in the program."""

    __slots__ = ("v", "e", "dt", "odt", "shape")

    def __init__(self, v, e, dt, odt):
        self.v = v
        self.e = e
        self.dt = dt
        self.odt = odt
        self.shape = v.shape


def cast_val(x, dt):
    """x converted to dtype dt (what tp.cast and autocast's casts do)."""
    if x.dt == dt:
        return x
    v = round_to(dt, x.v)
    narrowing = is_float(dt) and (not is_float(x.dt) or WIDTH[dt] < WIDTH[x.dt]
                                  or (dt != x.dt and WIDTH[dt] == WIDTH[x.dt]))
    e = x.e
    if is_float(dt) and narrowing:
        # A diverged input may round to the neighbouring value.
        e = np.where(x.e > 0, x.e + ulp(dt, np.abs(x.v) + x.e), 0.0)
    if dt in INTS:
        e = np.zeros_like(v)
    return Val(v, e, dt, x.odt)


def corners(f, xs, es):
    """max |f(x +- e) - f(x)| over the corners of the box (elementwise)."""
    with np.errstate(all="ignore"):
        base = f(*xs)
    worst = np.zeros(np.shape(base))
    k = len(xs)
    if not any(np.any(e > 0) for e in es):
        return base, worst
    with np.errstate(all="ignore"):
        for signs in range(3**k):
            pert = []
            s = signs
            for i in range(k):
                pert.append(xs[i] + ((s % 3) - 1) * es[i])
                s //= 3
            d = np.abs(f(*pert) - base)
            worst = np.maximum(worst, np.where(np.isnan(d), np.inf, d))
    return base, worst


def shape_fn(n, x):
    """The shape op `n` applied to an array (values and bounds alike)."""
    a = n.attrs
    if n.op == "reshape":
        return x.reshape(a["shape"])
    if n.op == "transpose":
        return np.swapaxes(x, a["dim0"], a["dim1"])
    if n.op == "permute":
        return np.transpose(x, a["dims"])
    if n.op == "unsqueeze":
        d = a["dim"]
        if d < 0:
            d += x.ndim + 1
        return np.expand_dims(x, d)
    if n.op == "squeeze":
        if "dim" in a:
            ds = tuple(d % x.ndim for d in a["dim"] if x.shape[d % x.ndim] == 1)
            return np.squeeze(x, ds) if ds else x
        return np.squeeze(x)
    if n.op == "expand":
        size = list(a["size"])
        off = len(size) - x.ndim
        for i in range(x.ndim):
            if size[off + i] == -1:
                size[off + i] = x.shape[i]
        return np.broadcast_to(x, size).copy()
    if n.op == "flatten":
        s = a.get("start_dim", 0) % max(x.ndim, 1)
        e = a.get("end_dim", -1) % max(x.ndim, 1)
        if x.ndim == 0:
            return x.reshape(1)
        return x.reshape(x.shape[:s] + (-1,) + x.shape[e + 1:])
    raise ValueError(n.op)


def product_fn(n):
    """Bilinear map of a product/convolution: (A, B) -> P(A, B), without
    bias or scaling."""
    op, a = n.op, n.attrs
    if op in ("mm", "bmm", "matmul", "addmm", "baddbmm"):
        return np.matmul
    if op == "linear":
        return lambda x, w: np.matmul(x, np.swapaxes(w, -1, -2)) if w.ndim > 1 else np.matmul(x, w)
    if op in ("conv1d", "conv2d"):
        r = 1 if op == "conv1d" else 2
        st = tuple(a.get("stride", (1,) * r)) or (1,) * r
        pd = tuple(a.get("padding", (0,) * r)) or (0,) * r
        dl = tuple(a.get("dilation", (1,) * r)) or (1,) * r
        if len(st) == 1:
            st = st * r
        if len(pd) == 1:
            pd = pd * r
        if len(dl) == 1:
            dl = dl * r
        g = a.get("groups", 1)
        return lambda x, w: conv_nd(x, w, None, st, pd, dl, g)
    raise ValueError(op)


def reduce_k(n, shapes):
    """Number of terms each product output sums."""
    if n.op in ("conv1d", "conv2d"):
        w = shapes[1]
        return int(np.prod(w[1:]))
    if n.op == "linear":
        return shapes[1][-1]
    if n.op in ("addmm", "baddbmm"):
        return shapes[1][-1]
    return shapes[0][-1]


class Evaluator:
    """Evaluates a program's nodes on Vals. `autocast`: model autocast
    cpu:bf16; `keep_io`: results are cast back to the program's types."""

    def __init__(self, autocast=False, keep_io=False):
        self.autocast = autocast
        self.keep_io = keep_io
        self.decisions = {}   # node result -> (list, dtype it runs in)

    def arg(self, a, data):
        v = np.asarray(data, dtype=np.float64)
        return Val(v, np.zeros_like(v), a.dt, a.dt)

    # -- one node --------------------------------------------------------
    def node(self, n, env):
        ins = [env[o] for o in n.operands()]
        out = ins.pop() if "out" in n.kw else None
        dts = [x.dt for x in ins]
        ranks = [x.v.ndim for x in ins]
        lst = "unlisted"
        special = bool(n.attrs.get("inplace")) or out is not None
        if self.autocast:
            lst, targets = autocast_decision(n, dts)
            if special:   # in-place and out= forms are left alone
                targets = list(dts)
                lst = {"fp32-dtype": "fp32"}.get(lst, lst)
            ins = [cast_val(x, t) for x, t in zip(ins, targets)]
            dts = [x.dt for x in ins]
        if special and n.op in LOWER:
            # Products need one floating dtype in every form (torch.mm(bf16,
            # f32, out=) is an error): an in-place or out= product that
            # autocast leaves with mixed operands is not a valid program.
            infer_dtype(n, dts, ranks)
        if out is not None:
            rdt = out.dt
        elif n.attrs.get("inplace"):
            rdt = dts[0]
        else:
            rdt = infer_dtype(n, dts, ranks)
        if lst == "fp32-dtype" and not special:
            rdt = "f32"
        if not self.autocast and rdt != n.dt:
            raise Reject("%s: dtype rule gives %s, node says %s" % (n.op, rdt, n.dt))
        v, e, exact = self.compute(n, ins, rdt)
        if out is not None and is_float(rdt) and n.op not in LOWER:
            # out= of a wider type than the operands: torch computes in the
            # operands' common dtype, which may round before the out cast.
            cdt = promote_types(dts, ranks)
            if is_float(cdt) and WIDTH[cdt] < WIDTH[rdt]:
                e = e + ulp(cdt, np.abs(v) + e)
                exact = False
        if tuple(v.shape) != tuple(n.shape):
            raise Reject("%s: reference shape %s, node says %s" % (n.op, v.shape, n.shape))
        # The result's own rounding: a correct implementation may land on
        # the neighbouring value of the result dtype (never for exact ops on
        # exact inputs: those elements must match bit for bit).
        with np.errstate(all="ignore"):
            if is_float(rdt):
                r = round_to(rdt, v)
                step = ulp(rdt, np.abs(v) + e)
                if exact:
                    e = np.where(e > 0, e + step, 0.0)
                else:
                    e = e + step
                v = r
            else:
                v = round_to(rdt, v)
        # What the op runs in: its result dtype; for an integer result of
        # floating operands (argmax) the report may name either.
        runs_in = {rdt}
        if not is_float(rdt) and dts and is_float(dts[0]):
            runs_in.add(dts[0])
        if special:   # computes in the promoted type, stores the result's
            runs_in.add(promote_types(dts, ranks))
        self.decisions[n.res] = (lst, rdt, runs_in)
        return Val(v, e, rdt, n.dt)

    def compute(self, n, ins, rdt):
        """(reference before rounding, divergence before rounding, exact)."""
        op, a = n.op, n.attrs
        xs = [x.v for x in ins]
        es = [x.e for x in ins]
        # An operand of a wider floating type than the result (a 0-d f32
        # scalar with a bf16 tensor) may be rounded to the result dtype first
        # (tensorplay's CPU kernels do for add/sub, not for mul/div).
        if is_float(rdt) and op not in LOWER and op not in ("cast",):
            es = [e + ulp(rdt, x) if is_float(iv.dt) and WIDTH[iv.dt] > WIDTH[rdt] else e
                  for x, e, iv in zip(xs, es, ins)]
        if op == "cast":
            x = cast_val(ins[0], rdt)
            return x.v, x.e, True
        if op == "constant":
            v = np.asarray(a["value"], dtype=np.float64)
            return v, np.zeros_like(v), True
        if op == "scaled_dot_product_attention":
            return self.attention(n, ins, rdt)
        if op in ("addcmul", "addcdiv"):
            val = a.get("value", 1.0)
            if op == "addcmul":
                f = lambda s, t1, t2: s + val * t1 * t2
            else:
                f = lambda s, t1, t2: s + val * t1 / t2
            base, d = corners(f, xs, es)
            return base, d + 4 * ulp("f32", base) + 2 * U32 * np.abs(base), False
        if op == "softplus":
            beta, thr = a.get("beta", 1.0), a.get("threshold", 20.0)
            f = lambda x: np.where(x * beta > thr, x, np.log1p(np.exp(np.minimum(x * beta, thr))) / beta)
            base, d = corners(f, [xs[0]], [es[0] + 4 * U32 * np.abs(xs[0])])
            return base, d + 16 * ulp("f32", base) + 2 * U32, False
        if op in UNARY or op == "pow":
            if op == "pow":
                p = a["scalar_exponent"]
                f = lambda x: np.power(x, p)
                exact = False
            else:
                f, exact, _ = UNARY[unary_name(n)]
            x, e = xs[0], es[0]
            if exact:
                base, d = corners(f, [x], [e])
                return base, d, True
            # f32 evaluation error: argument error 2^-22 |x| (range
            # reduction), 16 f32 ulps of the result.
            base, d = corners(f, [x], [e + 4 * U32 * np.abs(x)])
            return base, d + 16 * ulp("f32", base) + 2 * U32, False
        if op in BINARY:
            f = lambda x, y: BINARY[op](x, y, a)
            base, d = corners(f, xs, es)
            if op == "div" and a.get("rounding_mode"):
                # Integer-valued: exact for exact inputs (the only ones the
                # generator gives it), unbounded otherwise.
                return base, np.where(d > 0, np.inf, 0.0), True
            exact = op in EXACT_BINARY
            if not exact:
                d = d + 2 * ulp("f32", base)
            return base, d, exact
        if op == "where":
            c = xs[0] != 0
            b = np.broadcast_to
            base = np.where(c, xs[1], xs[2])
            return base, np.where(c, b(es[1], base.shape), b(es[2], base.shape)), True
        if op in LOWER:
            P = product_fn(n)
            A, B = xs[0], xs[1]
            EA, EB = es[0], es[1]
            if op in ("addmm", "baddbmm"):
                A, B, EA, EB = xs[1], xs[2], es[1], es[2]
            prod = P(A, B)
            var = P(A * A, EB * EB) + P(EA * EA, B * B)
            k = reduce_k(n, [x.shape for x in xs])
            mag = P(np.abs(A), np.abs(B))
            e = np.sqrt(var) + (math.log2(max(k, 1)) + 4) * U32 * mag
            if op in ("addmm", "baddbmm"):
                beta, alpha = a.get("beta", 1.0), a.get("alpha", 1.0)
                c = xs[0]
                base = alpha * prod + (beta * c if beta != 0 else 0.0)
                e = abs(alpha) * e + (abs(beta) * es[0] if beta != 0 else 0.0) + 2 * U32 * np.abs(base)
                return base, np.broadcast_to(e, base.shape).copy(), False
            if "bias" in n.kw:
                bias, eb = xs[2], es[2]
                if op.startswith("conv"):
                    bias = bias.reshape((1, -1) + (1,) * (prod.ndim - 2))
                    eb = eb.reshape(bias.shape)
                prod = prod + bias
                e = e + eb + 2 * U32 * np.abs(prod)
            return prod, e, False
        if op in SHAPE_OPS:
            if op in ("cat", "stack"):
                d = a.get("dim", 0)
                f = np.concatenate if op == "cat" else np.stack
                return f(xs, axis=d), f(es, axis=d), True
            return shape_fn(n, xs[0]), shape_fn(n, es[0]), True
        if op in ("sum", "mean", "amax", "prod"):
            x, e = xs[0], es[0]
            dims = red_dims(a, x.ndim)
            keep = bool(a.get("keepdim", False))
            cnt = int(np.prod([x.shape[d] for d in dims])) if dims else 1
            acc = (math.log2(max(cnt, 1)) + 4) * U32
            if op == "amax":
                return np.max(x, axis=dims, keepdims=keep), np.max(e, axis=dims, keepdims=keep), True
            if op == "sum":
                s = np.sum(x, axis=dims, keepdims=keep)
                return s, np.sum(e, axis=dims, keepdims=keep) + acc * np.sum(np.abs(x), axis=dims, keepdims=keep), False
            if op == "mean":
                s = np.mean(x, axis=dims, keepdims=keep)
                return s, np.mean(e, axis=dims, keepdims=keep) + acc * np.mean(np.abs(x), axis=dims, keepdims=keep), False
            # prod: relative errors add.
            p = np.prod(x, axis=dims, keepdims=keep)
            with np.errstate(all="ignore"):
                rel = np.sum(e / np.abs(x), axis=dims, keepdims=keep)
            return p, np.abs(p) * (rel + acc * cnt), False
        if op == "argmax":
            x = xs[0]
            d = a.get("dim")
            keep = bool(a.get("keepdim", False))
            if d is None:
                r = np.array(np.argmax(x.reshape(-1)))
                if keep:
                    r = r.reshape((1,) * x.ndim)
            else:
                r = np.argmax(x, axis=d)
                if keep:
                    r = np.expand_dims(r, d)
            return r.astype(np.float64), np.zeros(r.shape), True
        if op == "cumsum":
            x, e = xs[0], es[0]
            d = a["dim"] % x.ndim
            c = np.cumsum(x, axis=d)
            n_ = x.shape[d]
            acc = (math.log2(max(n_, 1)) + 4) * U32
            return c, np.cumsum(e, axis=d) + acc * np.cumsum(np.abs(x), axis=d), False
        if op == "embedding":
            w, idx = xs[0], xs[1].astype(np.int64)
            return w[idx], es[0][idx], True
        if op in ("softmax", "log_softmax"):
            x, e = xs[0], es[0]
            d = a["dim"] % max(x.ndim, 1) if x.ndim else None
            if x.ndim == 0:
                y = np.ones_like(x) if op == "softmax" else np.zeros_like(x)
                return y, np.zeros_like(x), False
            m = np.max(x, axis=d, keepdims=True)
            ex = np.exp(x - m)
            s = ex.sum(axis=d, keepdims=True)
            y = ex / s
            spread = e + np.sum(y * e, axis=d, keepdims=True)
            n_ = x.shape[d]
            impl = (math.log2(n_) + 16) * U32
            if op == "softmax":
                return y, y * spread + impl * (y + np.max(y, axis=d, keepdims=True) * U32), False
            ls = x - m - np.log(s)
            return ls, spread + impl * (np.abs(ls) + 1), False
        if op == "layer_norm":
            x, e = xs[0], es[0]
            k = len(a["normalized_shape"])
            axes = tuple(range(x.ndim - k, x.ndim))
            eps = a.get("eps", 1e-5)
            mu = x.mean(axis=axes, keepdims=True)
            var = ((x - mu) ** 2).mean(axis=axes, keepdims=True)
            sig = np.sqrt(var + eps)
            xh = (x - mu) / sig
            ex = (e + e.mean(axis=axes, keepdims=True)
                  + np.abs(xh) * (np.abs(xh) * e).mean(axis=axes, keepdims=True)) / sig
            cnt = int(np.prod(x.shape[x.ndim - k:]))
            impl = (math.log2(max(cnt, 1)) + 16) * U32 * (np.abs(xh) + 1)
            y, ey = xh, ex + impl
            if "weight" in n.kw:
                w, ew = env_kw(n, ins, "weight")
                ey = np.abs(w) * ey + np.abs(xh) * ew
                y = y * w
            if "bias" in n.kw:
                b, eb = env_kw(n, ins, "bias")
                y = y + b
                ey = ey + eb
            return y, ey + 2 * U32 * np.abs(y), False
        if op == "mse_loss":
            x, y = xs
            f = lambda p, q: (p - q) ** 2
            base, d = corners(f, [x, y], es[:2])
            red = a.get("reduction", "mean")
            acc = (math.log2(max(base.size, 1)) + 4) * U32
            if red == "none":
                return base, d + 2 * U32 * base, False
            if red == "sum":
                return base.sum(), d.sum() + acc * base.sum(), False
            return base.mean(), d.mean() + acc * base.mean(), False
        raise ValueError("no reference for tp.%s" % op)

    def stage(self, op, attrs, vals, rdt):
        """One op of a composite, as an op of its own (rounded to rdt)."""
        n = Node(op, ["_"] * len(vals), attrs, "_", (), rdt)
        v, e, exact = self.compute(n, vals, rdt)
        with np.errstate(all="ignore"):
            step = ulp(rdt, np.abs(v) + e)
            e = np.where(e > 0, e + step, 0.0) if exact else e + step
        return Val(round_to(rdt, v), e, rdt, rdt)

    def attention(self, n, ins, rdt):
        """scaled_dot_product_attention as its decomposition (tensorplay
        runs it as matmul, scale, mask, softmax, matmul in the op's dtype; a
        fused kernel that rounds once stays inside the bound too)."""
        q, k, v = ins[:3]
        a = n.attrs
        scale = a.get("scale", 1.0 / math.sqrt(q.shape[-1]))
        kt = Val(np.swapaxes(k.v, -1, -2), np.swapaxes(k.e, -1, -2), k.dt, k.dt)
        s = self.stage("matmul", {}, [q, kt], rdt)
        sc = Val(np.array(scale), np.array(0.0), "f64", "f64")
        s = self.stage("mul", {}, [s, sc], rdt)
        if a.get("is_causal"):
            L, S = s.shape[-2], s.shape[-1]
            keep = np.tril(np.ones((L, S), dtype=bool))
            s = Val(np.where(keep, s.v, -np.inf), np.where(keep, s.e, 0.0), rdt, rdt)
        p = self.stage("softmax", {"dim": -1}, [s], rdt)
        p = Val(np.nan_to_num(p.v), np.nan_to_num(p.e), rdt, rdt)
        o = self.stage("matmul", {}, [p, v], rdt)
        # node() rounds the result again (a no-op) and adds one more ulp.
        return o.v, o.e, False

    def run(self, prog, data=None):
        """Evaluates every node; returns env (name -> Val)."""
        data = data if data is not None else prog.data
        env = {a.name: self.arg(a, data[a.name]) for a in prog.args}
        for n in prog.nodes:
            env[n.res] = self.node(n, env)
        return env

    def result(self, prog, env, name):
        x = env[name]
        orig = prog.types()[name][1]
        if self.autocast and self.keep_io and x.dt != orig:
            x = cast_val(x, orig)
        return x


def env_kw(n, ins, role):
    idx = len(n.args) + [k for k in ("weight", "bias", "out") if k in n.kw].index(role)
    return ins[idx].v, ins[idx].e


# ----------------------------------------------------------------------------
# Comparison.

# Per result dtype: (C, atol, rtol). Accept |out - ref| <= C * E + atol *
# max|ref| + rtol * |ref|, E the propagated divergence bound (which already
# holds one unit in the last place of the result dtype per inexact op on the
# path): see docs/Testing.md.
TOLERANCES = {
    "f32": (2.0, 1e-6, 1e-6),
    "f64": (2.0, 1e-12, 1e-12),
    "bf16": (2.0, 2.0**-10, 2.0**-10),
    "f16": (2.0, 2.0**-13, 2.0**-13),
    "i64": (0, 0, 0), "i32": (0, 0, 0), "i1": (0, 0, 0),
}


def compare(out, x, dt):
    """(ok, message, max error, worst ratio) of an output against its Val."""
    ref = x.v
    if tuple(out.shape) != tuple(ref.shape):
        return False, "shape %s, expected %s" % (out.shape, ref.shape), float("inf"), float("inf")
    o = out.astype(np.float64)
    if dt in INTS:
        bad = o != ref
        if bad.any():
            idx = np.unravel_index(np.argmax(bad), bad.shape) if bad.ndim else ()
            return False, "at %s got %r, expected %r (exact)" % (idx, o[idx], ref[idx]), float(np.max(np.abs(o - ref))), float("inf")
        return True, "exact", 0.0, 0.0
    C, atol, rtol = TOLERANCES[dt]
    if dt == "bf16":
        notbf = o != round_bf16(o)
        if np.any(notbf & np.isfinite(o)):
            idx = np.unravel_index(np.argmax(notbf), notbf.shape) if notbf.ndim else ()
            return False, "result is not bf16 (at %s: %r)" % (idx, o[idx]), 0.0, float("inf")
    scale = float(np.max(np.abs(ref))) if ref.size else 0.0
    bound = C * x.e + atol * scale + rtol * np.abs(ref)
    bound = np.where(x.e == 0, 0.0, bound)       # exact elements: bit for bit
    with np.errstate(all="ignore"):
        err = np.abs(o - ref)
        same = (o == ref) | (np.isnan(o) & np.isnan(ref))
        err = np.where(same, 0.0, err)
        err = np.where(np.isnan(err), np.inf, err)
        bad = err > bound
        ratio = np.where(err > 0, err / np.where(bound > 0, bound, 1e-300), 0.0)
    maxerr = float(np.max(err)) if err.size else 0.0
    worst = float(np.max(ratio)) if ratio.size else 0.0
    if bad.any():
        idx = np.unravel_index(np.argmax(np.where(bad, ratio, -1)), bad.shape) if bad.ndim else ()
        return (False, "max |err| %.3g; at %s got %r, expected %r (bound %.3g, %d of %d elements off)"
                % (maxerr, idx, float(o[idx]), float(ref[idx]), float(bound[idx]), int(bad.sum()), bad.size),
                maxerr, worst)
    return True, "max |err| %.3g (%.2f of the bound)" % (maxerr, worst), maxerr, worst
