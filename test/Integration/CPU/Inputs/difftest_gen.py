"""Random valid tp programs for the differential tester.

gen_program(seed, index) builds one program (a function) from its own
random stream: a DAG of products (mm, bmm, matmul, linear with and without
bias, addmm, baddbmm), convolutions (conv1d/conv2d with stride, padding,
dilation, groups), elementwise unary and binary ops with broadcasting and
0-d operands, reductions (sum/mean/amax/prod/argmax with dims and keepdim),
normalizations (softmax, log_softmax, layer_norm), shape ops (reshape,
transpose, permute, unsqueeze, squeeze, expand, flatten, cat, stack) and
casts between f32, bf16, f16 (and to integers). Operands are reused often:
values read by several products with elementwise ops between them whose
results have the shared value's type and shape (the bufferization bug class
of 821d380), values returned and read again, one value returned twice.

Every op is evaluated while it is generated (difftest_core.Evaluator, in the
program's mode: plain or autocast), so the generator only keeps ops whose
reference is finite, of moderate magnitude, inside the op's domain with a
margin (log, sqrt, division...) and well conditioned (the propagated
divergence bound stays a small fraction of the values): a rejected op is
drawn again.
"""

import math

import numpy as np

from difftest_core import (Arg, Evaluator, Node, Program, Reject, UNARY,
                           broadcast_shapes, infer_dtype, is_float, result_dtype,
                           make_input, red_dims)

SMALL = [1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 16, 17]
BIG = [31, 33, 48, 64, 65, 96, 100, 127, 128, 129, 200, 256, 300]

# Modes: how tp-run runs a program. Weights of the random draw.
MODES = {
    "plain": ({"autocast": False, "keep_io": False, "options": ""}, 26),
    "plain+linalg": ({"autocast": False, "keep_io": False, "options": "use-onednn=0"}, 12),
    "plain+serial": ({"autocast": False, "keep_io": False, "options": "parallel=0 vectorize=0"}, 5),
    "plain+vw4": ({"autocast": False, "keep_io": False, "options": "vector-width=4"}, 4),
    "autocast": ({"autocast": True, "keep_io": False, "options": ""}, 30),
    "autocast+linalg": ({"autocast": True, "keep_io": False, "options": "use-onednn=0"}, 12),
    "autocast+keepio": ({"autocast": True, "keep_io": True, "options": ""}, 6),
    "autocast+serial": ({"autocast": True, "keep_io": False, "options": "parallel=0 vectorize=0"}, 5),
}


def mode_of(key):
    return dict(MODES[key][0], key=key)


def program_rng(seed, index):
    return np.random.default_rng([int(seed), int(index), 0x7D1F])


class Builder:
    """A program under construction, evaluated as it grows."""

    def __init__(self, rng, mode, name, big):
        self.rng = rng
        self.mode = mode
        self.name = name
        self.big = big
        self.max_numel = 40000 if big else 2500
        self.args, self.nodes = [], []
        self.data = {}
        self.ev = Evaluator(mode["autocast"], mode["keep_io"])
        self.env = {}
        self.types = {}
        self.uses = {}
        self.product_operand = set()   # values read by a product
        self.kind = {}                 # value -> "arg" | op
        self.input_rng = np.random.default_rng(rng.integers(2**32))
        self.inputs_seed = None

    # -- transactions ------------------------------------------------------
    def mark(self):
        return (len(self.args), len(self.nodes))

    def rollback(self, m):
        na, nn = m
        for a in self.args[na:]:
            for d in (self.env, self.types, self.kind, self.data):
                d.pop(a.name, None)
        for n in self.nodes[nn:]:
            for d in (self.env, self.types, self.kind):
                d.pop(n.res, None)
            for o in n.operands():
                if o in self.uses:
                    self.uses[o] -= 1
        del self.args[na:]
        del self.nodes[nn:]

    # -- values --------------------------------------------------------------
    def fresh(self):
        return "v%d" % len(self.nodes)

    def arg(self, shape, dt, init=None):
        shape = tuple(int(d) for d in shape)
        if int(np.prod(shape)) > self.max_numel:
            raise Reject("arg too big")
        if init is None:
            init = ("u", -1.0, 1.0)
        a = Arg("a%d" % len(self.args), shape, dt, init)
        self.args.append(a)
        x = make_input(self.input_rng, a)
        self.data[a.name] = x
        self.env[a.name] = self.ev.arg(a, x)
        self.types[a.name] = (shape, dt)
        self.kind[a.name] = "arg"
        self.uses[a.name] = 0
        return a.name

    def weight(self, shape, dt, fan_in):
        s = 1.0 / math.sqrt(max(fan_in, 1)) * float(self.rng.choice([1.0, 1.5, 2.0]))
        return self.arg(shape, dt, ("u", -s, s))

    def add(self, op, args, attrs=None, shape=None, kw=None, dt=None):
        attrs = dict(attrs or {})
        kw = dict(kw or {})
        n = Node(op, args, attrs, self.fresh(), (), "f32", kw)
        ops = n.operands()
        dts = [self.types[o][1] for o in ops]
        ranks = [len(self.types[o][0]) for o in ops]
        n.dt = dt if op in ("cast", "constant") else result_dtype(n, dts, ranks)
        if shape is None:
            shape = self.env[args[0]].shape
        n.shape = tuple(int(d) for d in shape)
        if int(np.prod(n.shape)) > self.max_numel:
            raise Reject("too big")
        x = self.ev.node(n, self.env)     # raises Reject on shape/dtype errors
        self.check(n, x, [self.env[o] for o in ops])
        self.nodes.append(n)
        self.env[n.res] = x
        self.types[n.res] = (n.shape, n.dt)
        self.kind[n.res] = op
        self.uses[n.res] = 0
        for o in ops:
            self.uses[o] += 1
            if op in ("mm", "bmm", "matmul", "linear", "addmm", "baddbmm", "conv1d", "conv2d"):
                self.product_operand.add(o)
        return n.res

    def check(self, n, x, ins):
        with np.errstate(all="ignore"):
            if not (np.all(np.isfinite(x.v)) and np.all(np.isfinite(x.e))):
                raise Reject("not finite")
            if not is_float(x.dt):
                return
            mx = float(np.max(np.abs(x.v))) if x.v.size else 0.0
            cap = 1000.0 if "f16" in (x.dt, n.dt) else 1e4
            if mx > cap:
                raise Reject("too large")
            if x.v.size and float(np.max(x.e)) > 0.03 * max(mx, 1e-3):
                raise Reject("ill-conditioned")

    # -- picking ---------------------------------------------------------------
    def values(self, pred=None, floats=True):
        out = []
        for name, (shape, dt) in self.types.items():
            if floats and not is_float(dt):
                continue
            if pred is None or pred(shape, dt):
                out.append(name)
        return out

    def pick(self, names, shared=False):
        if not names:
            return None
        order = {nm: i for i, nm in enumerate(self.types)}
        w = []
        for nm in names:
            k = (1.0 + 2.0 * order[nm] / max(len(order), 1)) ** 2   # recent
            if self.kind[nm] != "arg":
                k *= 2.5
            if shared and nm in self.product_operand:
                k *= 4.0
            elif self.kind[nm] != "arg" and not self.uses.get(nm, 0):
                k *= 2.0                                          # chains
            w.append(k)
        w = np.array(w) / sum(w)
        return names[int(self.rng.choice(len(names), p=w))]

    def dtype_choice(self, base):
        r = self.rng.random()
        if r < 0.8:
            return base
        return str(self.rng.choice(["f32", "bf16", "f16"]))

    def dim(self, big_ok=True):
        if self.big and big_ok and self.rng.random() < 0.35:
            return int(self.rng.choice(BIG))
        return int(self.rng.choice(SMALL))

    def shape(self, rank, big_ok=True):
        for _ in range(20):
            s = tuple(self.dim(big_ok) for _ in range(rank))
            if int(np.prod(s)) <= self.max_numel:
                return s
        return tuple(int(self.rng.choice([1, 2, 3, 5])) for _ in range(rank))

    def cast_to(self, name, dt):
        if self.types[name][1] == dt:
            return name
        return self.add("cast", [name], dt=dt, shape=self.types[name][0])



def choose(b, items, weights=None):
    if weights is None:
        return items[int(b.rng.integers(len(items)))]
    w = np.array(weights, dtype=float)
    return items[int(b.rng.choice(len(items), p=w / w.sum()))]


# ----------------------------------------------------------------------------
# Families. Each adds one or more nodes or raises Reject.

def variant_form(b, op, args, attrs, kw, shape):
    """Sometimes the in-place form (`inplace`: the result has the first
    operand's type; PyTorch's x.op_(y) computes in the promoted type and
    stores x's dtype) or the out= form (`out(%o)`: an existing value of the
    result's type whose own value must stay what it was, SSA). Both are left
    alone by autocast."""
    r = b.rng.random()
    first = b.types[args[0]] if args else None
    if r < 0.08 and first is not None and is_float(first[1]) and tuple(first[0]) == tuple(shape):
        attrs = dict(attrs, inplace=True)
    elif r < 0.16:
        n = Node(op, args, attrs, "tmp", shape, "f32", kw)
        ops = n.operands()
        dt = infer_dtype(n, [b.types[o][1] for o in ops], [len(b.types[o][0]) for o in ops])
        cands = b.values(lambda s, d: tuple(s) == tuple(shape) and d == dt)
        if cands and b.rng.random() < 0.7:
            o = b.pick(cands, shared=True)
        else:
            o = b.arg(shape, dt)
        kw = dict(kw, out=o)
    return attrs, kw


def matrix_like(b, rank, dt):
    """An existing value of the rank (a computed one preferred) or a new
    argument."""
    names = b.values(lambda s, d: len(s) == rank)
    if names and b.rng.random() < 0.75:
        return b.pick(names, shared=True)
    return b.arg(b.shape(rank), dt)


def unify(b, names, dt):
    return [b.cast_to(n, dt) for n in names]


def second_operand(b, shape_req, dt, fan_in, shared=True):
    """A value of exactly `shape_req` (preferring values already read by a
    product: shared operands) or a new weight argument."""
    names = b.values(lambda s, d: tuple(s) == tuple(shape_req))
    if names and b.rng.random() < 0.6:
        return b.pick(names, shared=shared)
    if len(shape_req) >= 2 and b.rng.random() < 0.3:
        # A transposed view of a value (the product reads it strided).
        t = tuple(shape_req[:-2]) + (shape_req[-1], shape_req[-2])
        names = b.values(lambda s, d: tuple(s) == t)
        src = b.pick(names, shared=shared) if names and b.rng.random() < 0.7 else b.weight(t, dt, fan_in)
        r = len(shape_req)
        if r == 2 or b.rng.random() < 0.5:
            return b.add("transpose", [src], {"dim0": r - 1, "dim1": r - 2 if b.rng.random() < 0.5 else -2},
                         shape=tuple(shape_req))
        perm = tuple(range(r - 2)) + (r - 1, r - 2)
        return b.add("permute", [src], {"dims": perm}, shape=tuple(shape_req))
    return b.weight(shape_req, dt, fan_in)


def fam_product(b, base):
    kind = choose(b, ["mm", "linear", "matmul", "bmm", "addmm", "baddbmm"],
                  [3, 4, 3, 2, 2, 1])
    if kind in ("mm", "addmm"):
        a = matrix_like(b, 2, base)
        m, k = b.types[a][0]
        n_ = b.dim()
        w = second_operand(b, (k, n_), b.types[a][1], k)
        n_ = b.types[w][0][1]
        dt = b.types[a][1]
        if kind == "mm":
            a, w = unify(b, [a, w], dt)
            attrs, kw = variant_form(b, "mm", [a, w], {}, {}, (m, n_))
            return b.add("mm", [a, w], attrs, kw=kw, shape=(m, n_))
        cs = choose(b, [(n_,), (m, n_), (1, n_), (m, 1)])
        c = second_operand(b, cs, dt, 1)
        c, a, w = unify(b, [c, a, w], dt)
        attrs = {}
        if b.rng.random() < 0.5:
            attrs["beta"] = float(choose(b, [0.5, 2.0, -1.0, 0.0]))
        if b.rng.random() < 0.5:
            attrs["alpha"] = float(choose(b, [0.5, 2.0, -1.5]))
        return b.add("addmm", [c, a, w], attrs, shape=(m, n_))
    if kind == "linear":
        rank = choose(b, [1, 2, 3], [1, 6, 2])
        x = matrix_like(b, rank, base)
        k = b.types[x][0][-1]
        n_ = b.dim()
        dt = b.types[x][1]
        w = second_operand(b, (n_, k), dt, k)
        kw = {}
        if b.rng.random() < 0.6:
            kw["bias"] = second_operand(b, (n_,), dt, 1)
        x, w = unify(b, [x, w], dt)
        if "bias" in kw:
            kw["bias"] = b.cast_to(kw["bias"], dt)
        shape = b.types[x][0][:-1] + (n_,)
        attrs, kw = variant_form(b, "linear", [x, w], {}, kw, shape)
        return b.add("linear", [x, w], attrs, kw=kw, shape=shape)
    if kind == "bmm" or kind == "baddbmm":
        a = matrix_like(b, 3, base)
        bs, m, k = b.types[a][0]
        n_ = b.dim()
        dt = b.types[a][1]
        w = second_operand(b, (bs, k, n_), dt, k)
        if kind == "bmm":
            a, w = unify(b, [a, w], dt)
            return b.add("bmm", [a, w], shape=(bs, m, n_))
        c = second_operand(b, choose(b, [(bs, m, n_), (n_,), (1, m, n_)]), dt, 1)
        c, a, w = unify(b, [c, a, w], dt)
        attrs = {}
        if b.rng.random() < 0.5:
            attrs["beta"] = float(choose(b, [0.5, 0.0, -1.0]))
            attrs["alpha"] = float(choose(b, [2.0, 0.5]))
        return b.add("baddbmm", [c, a, w], attrs, shape=(bs, m, n_))
    # matmul: broadcasting forms.
    form = choose(b, ["2x2", "3x2", "2x3", "3x3", "1bx3", "1x2", "2x1", "1x1", "4x2"])
    ra, rb = {"2x2": (2, 2), "3x2": (3, 2), "2x3": (2, 3), "3x3": (3, 3),
              "1bx3": (3, 3), "1x2": (1, 2), "2x1": (2, 1), "1x1": (1, 1),
              "4x2": (4, 2)}[form]
    a = matrix_like(b, ra, base)
    sa = b.types[a][0]
    k = sa[-1]
    dt = b.types[a][1]
    if rb == 1:
        sb = (k,)
    elif rb == 2:
        sb = (k, b.dim())
    else:
        batch = sa[0] if ra == 3 else b.dim(False)
        if form == "1bx3":
            batch = 1 if b.rng.random() < 0.5 else batch
        sb = (batch, k, b.dim())
    w = second_operand(b, sb, dt, k)
    sb = b.types[w][0]
    a, w = unify(b, [a, w], dt)
    out = tuple(np.matmul(np.zeros(sa), np.zeros(sb)).shape)
    return b.add("matmul", [a, w], shape=out)


def divisors(n):
    return [d for d in range(1, n + 1) if n % d == 0]


def fam_conv(b, base):
    r = choose(b, [1, 2], [1, 1])
    names = b.values(lambda s, d: len(s) == r + 2 and all(x >= 3 for x in s[2:]))
    if names and b.rng.random() < 0.6:
        x = b.pick(names, shared=True)
    else:
        sp = tuple(int(b.rng.integers(3, 18 if not b.big else (40 if r == 2 else 200))) for _ in range(r))
        x = b.arg((int(choose(b, [1, 2, 3])), int(choose(b, [1, 2, 3, 4, 6, 8]))) + sp, base)
    s = b.types[x][0]
    dt = b.types[x][1]
    nb, c = s[:2]
    g = int(choose(b, divisors(c))) if b.rng.random() < 0.35 else 1
    o = g * int(b.rng.integers(1, 4 if g > 1 else 9))
    ks, st, pd, dl = [], [], [], []
    for i in range(r):
        L = s[2 + i]
        for _ in range(20):
            k_ = int(b.rng.integers(1, 6))
            p_ = int(b.rng.integers(0, 3)) if b.rng.random() < 0.5 else 0
            d_ = 2 if b.rng.random() < 0.2 else 1
            s_ = int(b.rng.integers(1, 4)) if b.rng.random() < 0.4 else 1
            if p_ > k_ // 2 + 1:
                p_ = 0
            if L + 2 * p_ - d_ * (k_ - 1) - 1 >= 0:
                break
        else:
            raise Reject("conv shape")
        ks.append(k_), st.append(s_), pd.append(p_), dl.append(d_)
    out_sp = tuple((s[2 + i] + 2 * pd[i] - dl[i] * (ks[i] - 1) - 1) // st[i] + 1 for i in range(r))
    fan = (c // g) * int(np.prod(ks))
    w = b.weight((o, c // g) + tuple(ks), dt, fan)
    kw = {}
    if b.rng.random() < 0.5:
        kw["bias"] = b.arg((o,), dt)
    attrs = {}
    uniform = lambda v: (v[0],) if len(set(v)) == 1 and b.rng.random() < 0.5 else tuple(v)
    if any(v != 1 for v in st) or b.rng.random() < 0.2:
        attrs["stride"] = uniform(st)
    if any(pd) or b.rng.random() < 0.2:
        attrs["padding"] = uniform(pd)
    if any(v != 1 for v in dl):
        attrs["dilation"] = uniform(dl)
    if g > 1 or b.rng.random() < 0.1:
        attrs["groups"] = g
    return b.add("conv%dd" % r, [x, w], attrs, kw=kw, shape=(nb, o) + out_sp)


UNARY_W = {"neg": 2, "abs": 2, "relu": 4, "gelu": 3, "gelu_tanh": 1,
           "sigmoid": 3, "tanh": 3, "exp": 2, "expm1": 1, "log": 2,
           "log1p": 1, "log2": 1, "sin": 1, "cos": 1, "sqrt": 2, "rsqrt": 1,
           "reciprocal": 1, "silu": 2, "erf": 1, "softplus": 1, "pow": 2}


def positive(b, x):
    """x, made positive (> 0.1) if it is not."""
    v = b.env[x]
    if np.all(v.v - 3 * v.e > 0.05):
        return x
    how = choose(b, ["abs", "exp", "sigmoid"], [3, 1, 1])
    if how == "exp":
        y = b.add("tanh", [x])
        y = b.add("exp", [y])
        return y
    if how == "sigmoid":
        return b.add("sigmoid", [x])
    y = b.add("abs", [x])
    s = b.types[y][0]
    cs = choose(b, [(), s[-1:] if s else (), s])
    c = b.arg(cs, b.dtype_choice(b.types[y][1]), ("u", 0.2, 1.0))
    return b.add("add", [y, c], shape=broadcast_shapes(s, cs))


def fam_unary(b, base):
    names = b.values()
    x = b.pick(names) if names and b.rng.random() < 0.9 else b.arg(b.shape(int(b.rng.integers(1, 4))), base)
    ops = list(UNARY_W)
    op = choose(b, ops, [UNARY_W[o] for o in ops])
    attrs = {}
    if op == "pow":
        p = float(choose(b, [2.0, 3.0, 0.5, -0.5, 1.5, -1.0]))
        if p not in (2.0, 3.0):
            x = positive(b, x)
        attrs["scalar_exponent"] = p
        return b.add("pow", [x], attrs)
    need = UNARY[op][2]
    if need == "pos" or op == "rsqrt":
        x = positive(b, x)
    if need == "gtm1" and not np.all(b.env[x].v - 3 * b.env[x].e > -0.9):
        x = positive(b, x)
    if op in ("exp", "expm1"):
        v = b.env[x].v
        lo = -9 if b.types[x][1] == "f16" else -30
        if v.size and (v.max() > 5 or v.min() < lo):
            x = b.add("tanh", [x])
    if op in ("sin", "cos") and b.env[x].v.size and np.abs(b.env[x].v).max() > 50:
        raise Reject("trig of large argument")
    if op == "gelu_tanh":
        op, attrs = "gelu", {"approximate": "tanh"}
    elif op == "gelu" and b.rng.random() < 0.2:
        attrs = {"approximate": "none"}
    if op in ("relu", "gelu", "tanh", "sigmoid", "neg", "exp", "abs"):
        attrs, kw = variant_form(b, op, [x], attrs, {}, b.types[x][0])
        return b.add(op, [x], attrs, kw=kw)
    if op == "softplus" and b.rng.random() < 0.4:
        attrs = {"beta": float(choose(b, [2.0, 0.5])), "threshold": float(choose(b, [5.0, 2.0]))}
    return b.add(op, [x], attrs)


def bcast_shape_of(b, s):
    """A shape that broadcasts with s (to s, or growing its 1-dims)."""
    kind = choose(b, ["suffix", "ones", "grow", "scalar"], [3, 3, 1, 1])
    if kind == "scalar" or not s:
        return ()
    if kind == "suffix":
        k = int(b.rng.integers(1, len(s) + 1))
        return tuple(s[len(s) - k:])
    if kind == "ones":
        return tuple(1 if b.rng.random() < 0.5 else d for d in s)
    out = tuple(b.dim(False) if d == 1 and b.rng.random() < 0.7 else d for d in s)
    return out


BINARY_W = {"add": 5, "sub": 3, "mul": 5, "div": 2, "maximum": 2,
            "minimum": 1, "atan2": 1, "where": 2, "addcmul": 0.7, "addcdiv": 0.5}


def fam_binary(b, base):
    names = b.values()
    x = b.pick(names) if names else b.arg(b.shape(2), base)
    s, dx = b.types[x]
    how = choose(b, ["same", "bcast", "scalar", "self"], [5, 4, 1, 0.5])
    if how == "same":
        cands = [n for n in b.values(lambda sh, d: tuple(sh) == tuple(s)) if n != x]
        # Prefer product results: elementwise ops between products.
        prods = [n for n in cands if b.kind[n] in ("mm", "linear", "matmul", "bmm", "addmm", "conv1d", "conv2d", "baddbmm")]
        if prods and b.rng.random() < 0.6:
            y = b.pick(prods)
        elif cands and b.rng.random() < 0.6:
            y = b.pick(cands)
        else:
            y = b.arg(s, b.dtype_choice(dx))
    elif how == "self":
        y = x
    else:
        ys = () if how == "scalar" else bcast_shape_of(b, s)
        cands = b.values(lambda sh, d: tuple(sh) == ys)
        if cands and b.rng.random() < 0.4:
            y = b.pick(cands)
        else:
            dt = b.dtype_choice(dx)
            if how == "scalar" and b.rng.random() < 0.5:
                dt = "f32"
            y = b.arg(ys, dt)
    ops = list(BINARY_W)
    op = choose(b, ops, [BINARY_W[o] for o in ops])
    if b.rng.random() < 0.3:
        x, y = y, x
    attrs = {}
    if op == "where":
        sh = broadcast_shapes(b.types[x][0], b.types[y][0])
        cs = bcast_shape_of(b, sh) if b.rng.random() < 0.5 else sh
        c = b.arg(cs, "i1", ("i1",))
        return b.add("where", [c, x, y], shape=broadcast_shapes(cs, sh))
    if op in ("addcmul", "addcdiv"):
        shp = broadcast_shapes(b.types[x][0], b.types[y][0])
        zs = bcast_shape_of(b, shp) if b.rng.random() < 0.5 else shp
        cands = b.values(lambda sh, d: tuple(sh) == tuple(zs))
        z = b.pick(cands) if cands and b.rng.random() < 0.5 else b.arg(zs, b.dtype_choice(dx))
        if op == "addcdiv":
            zv = b.env[z]
            if not np.all(np.abs(zv.v) - 3 * zv.e > 0.1):
                z = positive(b, z)
        if b.rng.random() < 0.6:
            attrs["value"] = float(choose(b, [0.5, 2.0, -1.0]))
        return b.add(op, [x, y, z], attrs, shape=broadcast_shapes(shp, b.types[z][0]))
    if op in ("add", "sub") and b.rng.random() < 0.3:
        attrs["alpha"] = float(choose(b, [2.0, 0.5, -1.0, 0.3]))
    if op == "div":
        yv = b.env[y]
        if not np.all(np.abs(yv.v) - 3 * yv.e > 0.1):
            y = positive(b, y)
        r = b.rng.random()
        if r < 0.06:
            # Floor and trunc division where the f32 quotient of the stored
            # values rounds onto an integer the exact quotient is below
            # (k / 0.1f, k / 0.7f): the two modes differ there.
            k = int(b.rng.integers(2, 9))
            num = b.rng.integers(-20, 21, size=(k,)).astype(np.float64)
            den = np.array([float(np.float32(v)) for v in b.rng.choice(
                [0.1, 0.2, 0.3, 0.6, 0.7, 1.1, -0.1, 0.05, 0.9], size=k)])
            x = b.add("constant", [], {"value": num}, shape=(k,), dt="f32")
            y = b.add("constant", [], {"value": den}, shape=(k,), dt="f32")
            attrs["rounding_mode"] = choose(b, ["floor", "trunc"])
        elif r < 0.15 and np.all(b.env[x].e == 0) and np.all(b.env[y].e == 0):
            q = b.env[x].v / b.env[y].v
            if np.all(np.abs(q - np.round(q)) > 1e-9 * np.maximum(1, np.abs(q))):
                attrs["rounding_mode"] = choose(b, ["floor", "trunc"])
    if op == "atan2":
        xv, yv = b.env[x], b.env[y]
        shp = broadcast_shapes(xv.shape, yv.shape)
        rad = np.broadcast_to(xv.v, shp) ** 2 + np.broadcast_to(yv.v, shp) ** 2
        if not np.all(rad > 0.05):
            raise Reject("atan2 near the origin")
    shape = broadcast_shapes(b.types[x][0], b.types[y][0])
    attrs, kw = variant_form(b, op, [x, y], attrs, {}, shape)
    return b.add(op, [x, y], attrs, kw=kw, shape=shape)


def fam_reduce(b, base):
    names = b.values(lambda s, d: len(s) >= 1)
    x = b.pick(names) if names else b.arg(b.shape(2), base)
    s, dt = b.types[x]
    op = choose(b, ["sum", "mean", "amax", "prod", "argmax", "mse_loss", "cumsum"],
                [4, 4, 2, 0.5, 1, 0.7, 1])
    rank = len(s)
    attrs = {}
    if op == "cumsum":
        d = int(b.rng.integers(rank))
        attrs["dim"] = d - rank if b.rng.random() < 0.3 else d
        if dt in ("bf16", "f16") and b.rng.random() < 0.25:
            attrs["dtype"] = "type:f32"
        return b.add("cumsum", [x], attrs)
    if op == "mse_loss":
        cands = [n for n in b.values(lambda sh, d: tuple(sh) == tuple(s)) if n != x]
        y = b.pick(cands) if cands and b.rng.random() < 0.6 else b.arg(s, b.dtype_choice(dt))
        red = choose(b, ["mean", "sum", "none", None])
        if red:
            attrs["reduction"] = red
        return b.add("mse_loss", [x, y], attrs, shape=s if red == "none" else ())
    if op == "argmax":
        if not np.all(b.env[x].e == 0):
            raise Reject("argmax of an inexact value")
        keep = b.rng.random() < 0.3
        if b.rng.random() < 0.2:
            if keep:
                attrs["keepdim"] = True
            return b.add("argmax", [x], attrs, shape=(1,) * rank if keep else ())
        d = int(b.rng.integers(rank))
        attrs["dim"] = d - rank if b.rng.random() < 0.3 else d
        if keep:
            attrs["keepdim"] = True
        out = tuple(1 if i == d else v for i, v in enumerate(s)) if keep else tuple(v for i, v in enumerate(s) if i != d)
        return b.add("argmax", [x], attrs, shape=out)
    if op == "prod":
        d = int(b.rng.integers(rank))
        if s[d] > 8:
            raise Reject("long prod")
        xv = b.env[x]
        if not np.all(np.abs(xv.v) > 0.3) or np.any(xv.e > 0.05 * np.abs(xv.v)):
            raise Reject("prod of small values")
        attrs["dim"] = d
        keep = b.rng.random() < 0.4
        if keep:
            attrs["keepdim"] = True
        out = tuple(1 if i == d else v for i, v in enumerate(s)) if keep else tuple(v for i, v in enumerate(s) if i != d)
        return b.add("prod", [x], attrs, shape=out)
    # sum / mean / amax
    if b.rng.random() < 0.2:
        dims = None if op != "amax" else list(range(rank))
    else:
        k = 1 if rank == 1 or b.rng.random() < 0.7 else 2
        dims = sorted(int(d) for d in b.rng.choice(rank, size=k, replace=False))
    keep = b.rng.random() < 0.4
    if dims is not None:
        attrs["dim"] = tuple(d - rank if b.rng.random() < 0.3 else d for d in dims)
    if keep:
        attrs["keepdim"] = True
    if op in ("sum", "mean") and dt in ("bf16", "f16") and b.rng.random() < 0.25:
        attrs["dtype"] = "type:f32"
    rd = red_dims(attrs, rank) if dims is not None else tuple(range(rank))
    out = tuple(1 if i in rd else v for i, v in enumerate(s)) if keep else tuple(v for i, v in enumerate(s) if i not in rd)
    return b.add(op, [x], attrs, shape=out)


def fam_norm(b, base):
    names = b.values(lambda s, d: len(s) >= 1)
    x = b.pick(names) if names else b.arg(b.shape(2), base)
    s, dt = b.types[x]
    op = choose(b, ["softmax", "log_softmax", "layer_norm"], [3, 2, 4])
    rank = len(s)
    if op in ("softmax", "log_softmax"):
        d = int(b.rng.integers(rank))
        attrs = {"dim": d - rank if b.rng.random() < 0.4 else d}
        if dt in ("bf16", "f16") and b.rng.random() < 0.2:
            attrs["dtype"] = "type:f32"
        return b.add(op, [x], attrs)
    k = 1 if rank == 1 or b.rng.random() < 0.75 else 2
    ns = tuple(s[rank - k:])
    attrs = {"normalized_shape": ns}
    if b.rng.random() < 0.4:
        attrs["eps"] = float(choose(b, [1e-5, 1e-3, 0.1]))
    kw = {}
    wdt = dt if b.rng.random() < 0.7 else b.dtype_choice("f32")
    if b.rng.random() < 0.6:
        kw["weight"] = b.arg(ns, wdt, ("u", 0.5, 1.5))
    if b.rng.random() < 0.6:
        kw["bias"] = b.arg(ns, wdt)
    return b.add("layer_norm", [x], attrs, kw=kw)


def factor_split(n, rng):
    ds = [d for d in divisors(n) if 1 < d < n]
    if not ds:
        return None
    a = int(rng.choice(ds))
    return (a, n // a)


def fam_shape(b, base):
    names = b.values(floats=False)
    names = [n for n in names if b.types[n][1] not in ("i1",)]
    x = b.pick(names) if names else b.arg(b.shape(2), base)
    s, dt = b.types[x]
    rank = len(s)
    op = choose(b, ["reshape", "transpose", "permute", "unsqueeze", "squeeze",
                    "expand", "flatten", "cat", "stack"], [3, 3, 2, 2, 2, 2, 1, 3, 1])
    if op == "reshape":
        dims = list(s)
        how = choose(b, ["merge", "split", "ones", "flat"])
        if how == "merge" and rank >= 2:
            i = int(b.rng.integers(rank - 1))
            new = dims[:i] + [dims[i] * dims[i + 1]] + dims[i + 2:]
        elif how == "split" and rank >= 1:
            i = int(b.rng.integers(rank))
            f = factor_split(dims[i], b.rng)
            if not f:
                raise Reject("prime dim")
            new = dims[:i] + list(f) + dims[i + 1:]
        elif how == "ones":
            new = [d for d in dims if d != 1]
            new.insert(int(b.rng.integers(len(new) + 1)), 1)
        else:
            new = [int(np.prod(dims))]
        shape = tuple(new)
        spec = list(shape)
        if spec and b.rng.random() < 0.4:
            spec[int(b.rng.integers(len(spec)))] = -1
        return b.add("reshape", [x], {"shape": tuple(spec)}, shape=shape)
    if op == "transpose":
        if rank < 2:
            raise Reject("rank")
        d0, d1 = (int(v) for v in b.rng.choice(rank, size=2, replace=False))
        out = list(s)
        out[d0], out[d1] = out[d1], out[d0]
        if b.rng.random() < 0.3:
            d0 -= rank
        return b.add("transpose", [x], {"dim0": d0, "dim1": d1}, shape=tuple(out))
    if op == "permute":
        if rank < 2:
            raise Reject("rank")
        p = tuple(int(v) for v in b.rng.permutation(rank))
        return b.add("permute", [x], {"dims": p}, shape=tuple(s[i] for i in p))
    if op == "unsqueeze":
        if rank >= 4:
            raise Reject("rank")
        d = int(b.rng.integers(-rank - 1, rank + 1))
        return b.add("unsqueeze", [x], {"dim": d}, shape=tuple(np.expand_dims(np.zeros(s), d).shape))
    if op == "squeeze":
        ones = [i for i, d in enumerate(s) if d == 1]
        if not ones:
            raise Reject("no unit dim")
        if b.rng.random() < 0.5:
            return b.add("squeeze", [x], shape=tuple(d for d in s if d != 1))
        ds = tuple(sorted(int(v) for v in b.rng.choice(ones, size=int(b.rng.integers(1, len(ones) + 1)), replace=False)))
        out = tuple(d for i, d in enumerate(s) if i not in ds)
        ds = tuple(d - rank if b.rng.random() < 0.3 else d for d in ds)
        return b.add("squeeze", [x], {"dim": ds}, shape=out)
    if op == "expand":
        lead = int(b.rng.integers(0, 2)) if rank < 3 else 0
        size = [b.dim(False) for _ in range(lead)]
        out = list(size)
        for d in s:
            if d == 1 and b.rng.random() < 0.7:
                nd = b.dim(False)
                size.append(nd)
                out.append(nd)
            else:
                size.append(-1 if b.rng.random() < 0.5 else d)
                out.append(d)
        if tuple(out) == tuple(s):
            raise Reject("nothing to expand")
        return b.add("expand", [x], {"size": tuple(size)}, shape=tuple(out))
    if op == "flatten":
        if rank < 2:
            raise Reject("rank")
        st = int(b.rng.integers(rank - 1))
        en = int(b.rng.integers(st + 1, rank))
        attrs = {}
        if st or b.rng.random() < 0.5:
            attrs["start_dim"] = st
        if en != rank - 1 or b.rng.random() < 0.5:
            attrs["end_dim"] = en if b.rng.random() < 0.5 else en - rank
        out = s[:st] + (int(np.prod(s[st:en + 1])),) + s[en + 1:]
        return b.add("flatten", [x], attrs, shape=out)
    if not is_float(dt):
        raise Reject("cat of ints")
    if op == "stack":
        k = int(b.rng.integers(2, 4))
        parts = [x]
        for _ in range(k - 1):
            cands = b.values(lambda sh, d: tuple(sh) == tuple(s))
            parts.append(b.pick(cands) if cands and b.rng.random() < 0.7 else b.arg(s, b.dtype_choice(dt)))
        d = int(b.rng.integers(-rank - 1, rank + 1))
        out = tuple(np.stack([np.zeros(s)] * k, axis=d).shape)
        return b.add("stack", parts, {"dim": d}, shape=out)
    # cat
    if rank == 0:
        raise Reject("rank")
    d = int(b.rng.integers(rank))
    k = int(b.rng.integers(2, 4))
    parts = [x]
    for _ in range(k - 1):
        cands = b.values(lambda sh, dd: len(sh) == rank and all(sh[i] == s[i] for i in range(rank) if i != d))
        if cands and b.rng.random() < 0.6:
            parts.append(b.pick(cands))
        elif b.rng.random() < 0.3:
            parts.append(b.add(choose(b, ["tanh", "neg", "relu"]), [x]))
        else:
            sh = list(s)
            sh[d] = b.dim(False)
            parts.append(b.arg(tuple(sh), b.dtype_choice(dt)))
    out = list(s)
    out[d] = sum(b.types[p][0][d] for p in parts)
    attrs = {"dim": d - rank if b.rng.random() < 0.3 else d}
    return b.add("cat", parts, attrs, shape=tuple(out))


def fam_cast(b, base):
    names = b.values(floats=False)
    names = [n for n in names if b.types[n][1] != "i1"]
    x = b.pick(names) if names else b.arg(b.shape(2), base)
    s, dt = b.types[x]
    if not is_float(dt):
        return b.add("cast", [x], dt=str(choose(b, ["f32", "bf16", "f16"])), shape=s)
    if b.rng.random() < 0.12:
        if not np.all(b.env[x].e == 0):
            raise Reject("int cast of an inexact value")
        return b.add("cast", [x], dt=str(choose(b, ["i32", "i64"])), shape=s)
    to = str(choose(b, [t for t in ("f32", "bf16", "f16") if t != dt]))
    if to == "f16" and b.env[x].v.size and np.abs(b.env[x].v).max() > 1000:
        raise Reject("f16 overflow")
    return b.add("cast", [x], dt=to, shape=s)


def computed(b, base, rank=2, shape=None):
    """A value computed inside the function (arguments are never written):
    an existing one of the rank, or an exact op or cast of a new argument."""
    if shape is None:
        names = [n for n in b.values(lambda s, d: len(s) == rank) if b.kind[n] != "arg"]
        if names and b.rng.random() < 0.6:
            return b.pick(names, shared=True)
        shape = b.shape(rank)
    how = choose(b, ["neg", "cast", "tanh", "abs"], [2, 2, 1, 1])
    if how == "cast":
        src = "f32" if base != "f32" else str(choose(b, ["bf16", "f16"]))
        if b.mode["autocast"]:
            src = "f32"
        a = b.arg(shape, src)
        return b.cast_to(a, base) if src != base else b.add("neg", [a])
    a = b.arg(shape, base)
    return b.add(how, [a])


def fam_share(b, base):
    """A value S read by two products with an elementwise op between them
    whose result has S's type and shape (what bufferization could write
    into S's buffer while the second product still reads it)."""
    variant = choose(b, ["mm", "linear", "weight", "conv", "bmm"], [3, 3, 2, 2, 1])
    dt = base
    if variant == "conv":
        r = choose(b, [1, 2])
        c = int(choose(b, [2, 3, 4, 8]))
        sp = tuple(int(b.rng.integers(4, 12)) for _ in range(r))
        S = computed(b, dt, shape=(int(choose(b, [1, 2])), c) + sp)
        dt = b.types[S][1]
        k = int(choose(b, [1, 3, 5]))
        w1 = b.weight((c, c) + (k,) * r, dt, c * k**r)
        op = "conv%dd" % r
        P1 = b.add(op, [S, w1], {"padding": (k // 2,)}, shape=b.types[S][0])
    elif variant == "bmm":
        S = computed(b, dt, rank=3)
        bs, m, k = b.types[S][0]
        dt = b.types[S][1]
        w1 = b.weight((bs, k, k), dt, k)
        P1 = b.add("bmm", [S, w1], shape=(bs, m, k))
    elif variant == "weight":
        # The shared value is linear's weight (a transposed view).
        k = b.dim()
        S = computed(b, dt, shape=(k, k))
        dt = b.types[S][1]
        x = b.arg((k, k), dt)
        P1 = b.add("linear", [x, S], shape=(k, k))
    else:
        S = computed(b, dt)
        m, k = b.types[S][0]
        dt = b.types[S][1]
        w1 = b.weight((k, k), dt, k)
        if variant == "mm":
            P1 = b.add("mm", [S, w1], shape=(m, k))
        else:
            kw = {"bias": b.arg((k,), dt)} if b.rng.random() < 0.5 else {}
            P1 = b.add("linear", [S, w1], kw=kw, shape=(m, k))
    # Q: an elementwise op of P1 with S's type and shape (an epilogue
    # candidate or not).
    qop = choose(b, ["relu", "gelu", "tanh", "sigmoid", "add", "mul", "neg"])
    if qop in ("add", "mul"):
        other = S if b.rng.random() < 0.5 else b.arg(b.types[S][0], dt)
        Q = b.add(qop, [P1, other], shape=b.types[S][0])
    else:
        Q = b.add(qop, [P1])
    if b.types[Q] != b.types[S]:
        return Q
    # The second product reads S again.
    s = b.types[S][0]
    if variant == "conv":
        r = len(s) - 2
        k = int(choose(b, [1, 3]))
        w2 = b.weight((s[1], s[1]) + (k,) * r, dt, s[1] * k**r)
        P2 = b.add("conv%dd" % r, [S, w2], {"padding": (k // 2,)}, shape=s)
    elif variant == "bmm":
        w2 = b.weight((s[0], s[2], s[2]), dt, s[2])
        P2 = b.add("bmm", [S, w2], shape=s)
    elif variant == "weight":
        P2 = b.add("linear", [Q, S], shape=s)
    else:
        how = choose(b, ["mm", "linear", "qs"])
        if how == "qs":
            P2 = b.add("mm", [Q, b.add("transpose", [S], {"dim0": 0, "dim1": 1}, shape=(s[1], s[0]))], shape=(s[0], s[0]))
            return P2
        w2 = b.weight((s[1], s[1]), dt, s[1])
        P2 = b.add("mm" if how == "mm" else "linear", [S, w2], shape=s)
    comb = choose(b, ["add", "mul", "sub"])
    return b.add(comb, [Q, P2], shape=s)


def fam_gather(b, base):
    """embedding: rows of a (computed or argument) table picked by i64
    indices: an argument, or argmax results."""
    names = b.values(lambda s, d: len(s) == 2 and s[0] >= 2)
    w = b.pick(names) if names and b.rng.random() < 0.6 else b.arg((b.dim(False) + 1, b.dim()), base)
    V = b.types[w][0][0]
    ints = [n for n in b.values(floats=False) if b.types[n][1] == "i64" and b.env[n].v.size
            and b.env[n].v.min() >= 0 and b.env[n].v.max() < V and len(b.types[n][0]) <= 2]
    if ints and b.rng.random() < 0.5:
        idx = b.pick(ints)
    else:
        idx = b.arg(b.shape(int(b.rng.integers(1, 3)), big_ok=False), "i64", ("int", 0, V))
    shape = b.types[idx][0] + (b.types[w][0][1],)
    return b.add("embedding", [w, idx], shape=shape)


def fam_attention(b, base):
    """scaled_dot_product_attention (a composite tensorplay decomposes;
    autocast's lower-precision list)."""
    rank = choose(b, [3, 4])
    lead = tuple(int(choose(b, [1, 2, 3])) for _ in range(rank - 2))
    L, S, E, Ev = (int(choose(b, [1, 3, 4, 5, 8, 13, 16])) for _ in range(4))
    names = b.values(lambda s, d: len(s) == rank)
    if names and b.rng.random() < 0.5:
        q = b.pick(names)
        lead, L, E = b.types[q][0][:-2], b.types[q][0][-2], b.types[q][0][-1]
    else:
        q = b.arg(lead + (L, E), base)
    dt = b.types[q][1]
    k = b.arg(lead + (S, E), dt)
    v = second_operand(b, lead + (S, Ev), dt, 1)
    k, v = unify(b, [k, v], dt)
    attrs = {}
    if b.rng.random() < 0.4:
        attrs["is_causal"] = True
    if b.rng.random() < 0.3:
        attrs["scale"] = float(choose(b, [0.5, 0.125, 1.0]))
    return b.add("scaled_dot_product_attention", [q, k, v], attrs, shape=lead + (L, Ev))


def fam_constant(b, base):
    """A tp.constant (read-only global after bufferization) used by an
    elementwise op or a product."""
    names = b.values(lambda s, d: len(s) >= 1)
    x = b.pick(names) if names else b.arg(b.shape(2), base)
    s, dt = b.types[x]
    cs = choose(b, [s, s[-1:], (1,) * len(s), ()])
    if int(np.prod(cs)) > 256:
        cs = s[-1:]
    if int(np.prod(cs)) > 256:
        raise Reject("big constant")
    if b.rng.random() < 0.3:
        val = np.full(cs, float(b.rng.integers(-8, 9)) / 4)
    else:
        val = b.rng.integers(-12, 13, size=cs) / 8.0
    cdt = dt if b.rng.random() < 0.8 else b.dtype_choice(dt)
    c = b.add("constant", [], {"value": val}, shape=cs, dt=cdt)
    op = choose(b, ["add", "mul", "sub", "maximum", "mm"], [3, 3, 1, 1, 1])
    if op == "mm":
        if len(s) != 2 or tuple(cs) != tuple(s):
            raise Reject("shape")
        t = b.add("transpose", [c], {"dim0": 0, "dim1": 1}, shape=(s[1], s[0]))
        t = b.cast_to(t, dt)
        return b.add("mm", [x, t], shape=(s[0], s[0]))
    if b.rng.random() < 0.5:
        x, c = c, x
    return b.add(op, [x, c], shape=broadcast_shapes(b.types[x][0], b.types[c][0]))


FAMILIES = {"product": (fam_product, 4), "conv": (fam_conv, 1.5),
            "unary": (fam_unary, 4), "binary": (fam_binary, 5),
            "reduce": (fam_reduce, 2), "norm": (fam_norm, 2),
            "shape": (fam_shape, 3), "cast": (fam_cast, 1.5),
            "share": (fam_share, 2.5), "constant": (fam_constant, 0.8),
            "gather": (fam_gather, 0.6), "attention": (fam_attention, 0.6)}


def gen_program(seed, index, mode_key=None, families=None, steps=(3, 12)):
    """Program `index` of run `seed` (deterministic); `steps`: the range
    of the number of families drawn (each adds one to five ops)."""
    rng = program_rng(seed, index)
    if mode_key is None:
        keys = list(MODES)
        w = np.array([MODES[k][1] for k in keys], dtype=float)
        mode_key = keys[int(rng.choice(len(keys), p=w / w.sum()))]
    else:
        rng.random()
    mode = mode_of(mode_key)
    big = rng.random() < 0.15
    b = Builder(rng, mode, "p%d_%d" % (seed, index), big)
    if mode["autocast"]:
        base = str(choose(b, ["f32", "bf16", "f16"], [8, 1, 1]))
    else:
        base = str(choose(b, ["f32", "bf16", "f16"], [4, 3.5, 2.5]))
    fams = families or list(FAMILIES)
    fw = np.array([FAMILIES[f][1] for f in fams], dtype=float)
    target = int(rng.integers(steps[0], steps[1] if not big else max(steps[0] + 1, steps[1] // 2 + 1)))
    steps = 0
    attempts = 0
    while steps < target and attempts < 60:
        attempts += 1
        fam = fams[int(rng.choice(len(fams), p=fw / fw.sum()))]
        m = b.mark()
        try:
            FAMILIES[fam][0](b, base)
            steps += 1
        except Reject:
            b.rollback(m)
        except (ValueError, IndexError, ZeroDivisionError) as exc:  # generator bug
            b.rollback(m)
            raise RuntimeError("generator error in %s: %r" % (fam, exc))
    if not b.nodes:
        b.add("neg", [b.arg(b.shape(2), base)])
    # Results: every sink (up to 4), sometimes an intermediate (a shared
    # operand), an argument, a value twice.
    sinks = [n.res for n in b.nodes if b.uses[n.res] == 0]
    rng.shuffle(sinks)
    results = sinks[:4]
    inner = [n.res for n in b.nodes if b.uses[n.res] > 0]
    if inner and rng.random() < 0.35:
        results.append(b.pick(inner, shared=True))
    if rng.random() < 0.05:
        results.append(b.args[int(rng.integers(len(b.args)))].name)
    if rng.random() < 0.05:
        results.append(results[0])
    p = Program(b.name, b.args, b.nodes, results, mode)
    p.data = b.data
    p = dce(p)
    return p


def dce(p):
    live = set(p.results)
    keep = []
    for n in reversed(p.nodes):
        if n.res in live:
            keep.append(n)
            live.update(n.operands())
    keep.reverse()
    args = [a for a in p.args if a.name in live]
    q = Program(p.name, args, keep, p.results, p.mode, p.seed)
    q.data = p.data
    return q
