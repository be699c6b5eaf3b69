"""The models the backend tests compile: an MLP with its loss, a small CNN
and a transformer encoder block, as users write them with tensorplay.nn."""

import tensorplay
import tensorplay.nn as nn
import tensorplay.nn.functional as F


class MLP(nn.Module):
    """Linear + GELU layers, logits and cross entropy (the issue's MLP)."""

    def __init__(self, features=64, hidden=128, classes=10, layers=2):
        super().__init__()
        dims = [features] + [hidden] * layers
        self.layers = layers
        # Attributes, not a ModuleList: tensorplay's tracer cannot iterate one.
        for i, (a, b) in enumerate(zip(dims, dims[1:])):
            setattr(self, f"fc{i}", nn.Linear(a, b))
        self.act = nn.GELU()
        self.out = nn.Linear(hidden, classes)

    def forward(self, x, labels):
        for i in range(self.layers):
            x = self.act(getattr(self, f"fc{i}")(x))
        logits = self.out(x)
        return logits, F.cross_entropy(logits, labels)


class CNN(nn.Module):
    """Two strided convolutions with ReLU, flattened into a classifier."""

    def __init__(self, classes=10):
        super().__init__()
        self.c1 = nn.Conv2d(1, 8, 3, padding=1)
        self.c2 = nn.Conv2d(8, 16, 3, stride=2, padding=1)
        self.fc = nn.Linear(16 * 4 * 4, classes)

    def forward(self, x):
        h = F.relu(self.c1(x))
        h = F.relu(self.c2(h))
        return self.fc(h.flatten(1))


class PooledCNN(nn.Module):
    """Convolutions with the pools CNNs use: a max pool module, an average
    pool without the padding in its divisor, global adaptive pooling."""

    def __init__(self, classes=10):
        super().__init__()
        self.c1 = nn.Conv2d(1, 8, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.c2 = nn.Conv2d(8, 16, 3, padding=1)
        self.fc = nn.Linear(16, classes)

    def forward(self, x):
        h = self.pool(F.relu(self.c1(x)))
        h = F.avg_pool2d(F.relu(self.c2(h)), 3, stride=1, padding=1,
                         count_include_pad=False)
        h = F.max_pool2d(h, kernel_size=2, stride=1, ceil_mode=True)
        h = F.adaptive_avg_pool2d(h, (1, 1))
        return self.fc(h.flatten(1))


class EncoderBlock(nn.Module):
    """Multi-head self-attention and a GELU feed-forward, post-norm."""

    def __init__(self, d=32, heads=4, ff=64):
        super().__init__()
        self.heads = heads
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.v = nn.Linear(d, d)
        self.o = nn.Linear(d, d)
        self.n1 = nn.LayerNorm(d)
        self.n2 = nn.LayerNorm(d)
        self.f1 = nn.Linear(d, ff)
        self.f2 = nn.Linear(ff, d)

    def forward(self, x):
        b, t, d = x.shape
        h = self.heads

        def split(y):
            return y.view(b, t, h, d // h).transpose(1, 2)
        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        a = (q @ k.transpose(-2, -1)) * (1.0 / (d // h) ** 0.5)
        y = (a.softmax(dim=-1) @ v).transpose(1, 2).reshape(b, t, d)
        x = self.n1(x + self.o(y))
        return self.n2(x + self.f2(F.gelu(self.f1(x))))


class Sorted(nn.Module):
    """A projection followed by sort, which the tp dialect has no op for
    yet, so the backend falls back."""

    def __init__(self, d=32):
        super().__init__()
        self.fc = nn.Linear(d, d)

    def forward(self, x):
        values, _ = tensorplay.sort(self.fc(x), dim=-1)
        return values * 2


class NormedCNN(nn.Module):
    """Convolutions with batch normalization (inference form: the running
    statistics, set to values far from the identity)."""

    def __init__(self, classes=10):
        super().__init__()
        self.c1 = nn.Conv2d(1, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.fc = nn.Linear(8 * 8 * 8, classes)
        with tensorplay.no_grad():
            self.bn.running_mean.uniform_(-0.5, 0.5)
            self.bn.running_var.uniform_(0.5, 2.0)
            self.bn.weight.uniform_(0.5, 1.5)
            self.bn.bias.uniform_(-0.2, 0.2)

    def forward(self, x):
        h = F.relu(self.bn(self.c1(x)))
        return self.fc(h.flatten(1))


class Selecting(nn.Module):
    """topk, gather, argmax, scatter_add, index_copy, clamp with tensor
    bounds and the factories (zeros_like, full, arange, ones)."""

    def __init__(self, d=32):
        super().__init__()
        self.fc = nn.Linear(d, d)

    def forward(self, x):
        h = self.fc(x)                                        # (B, T, 32)
        values, idx = tensorplay.topk(h, 4, dim=-1)
        again = tensorplay.gather(h, -1, idx)
        best = h.argmax(dim=-1)                               # (B, T)
        lo = tensorplay.zeros_like(h) - 0.5
        hi = tensorplay.full((h.shape[-1],), 0.7)
        clamped = h.clamp(min=lo, max=hi)
        pos = tensorplay.arange(h.shape[1], dtype=tensorplay.float32)
        placed = tensorplay.zeros_like(h).scatter_add(-1, idx, values)
        rows = tensorplay.arange(2) * 2
        copied = h.index_copy(1, rows, h[:, 3:5] + tensorplay.ones(2, 32))
        return ((clamped * pos[:, None]).mean() + placed.sum() +
                copied.mean() + values.sum() + 2 * again.mean() +
                best.float().mean())


class Decomposed(nn.Module):
    """The ops the compiler decomposes into other tp ops: causal attention
    (F.scaled_dot_product_attention; not grouped-query: tensorplay 1.0's
    eager enable_gqa fails on every input, "shape [...] is invalid"), cross,
    cdist, pdist, renorm and the multi-class hinge losses (targets computed
    in the graph: argmax and topk, padded with -1)."""

    def __init__(self, d=32):
        super().__init__()
        self.q = nn.Linear(d, d)
        self.kv = nn.Linear(d, 2 * d)

    def forward(self, x):
        b, t, d = x.shape
        q = self.q(x).reshape(b, t, 8, 4).transpose(1, 2)
        kv = self.kv(x).reshape(b, t, 16, 4).transpose(1, 2)
        a = F.scaled_dot_product_attention(q, kv[:, :8], kv[:, 8:],
                                           is_causal=True)
        rows = a.transpose(1, 2).reshape(b * t, d)
        crossed = tensorplay.cross(rows[:, :3], rows[:, 3:6], dim=1)
        far = tensorplay.cdist(rows[:4], rows[4:9])
        pairs = tensorplay.pdist(rows[:5])  # F.pdist does not trace (dim())
        renormed = tensorplay.renorm(rows, 2, 0, 0.5)
        logits = rows[:, :10]
        labels = rows[:, 10:20].argmax(dim=1)
        top = rows[:, 20:30].topk(3, dim=1)[1]
        padded = tensorplay.cat(
            [top, tensorplay.full((b * t, 7), -1, dtype=tensorplay.int64)],
            dim=1)
        return (a.mean() + crossed.sum() + far.mean() + pairs.mean() +
                renormed.sum() + F.multi_margin_loss(logits, labels) +
                F.multilabel_margin_loss(logits, padded))


class Linalg(nn.Module):
    """The linear-algebra ops that trace as one op each: inverses,
    Cholesky, solve, eigvalsh, svdvals, pinverse, on a well-conditioned
    8 x 8 matrix built from the encoder's inputs and a symmetric, diagonally
    dominant one (no product: under autocast everything stays f32, the
    tables' dtype for these ops. tensorplay 1.0's eager linalg.eigvalsh
    given a bf16 product under autocast fails, "unsupported dtype BFloat16
    for linalg on CPU", although the tables list it as fp32)."""

    def forward(self, x):
        r = x.reshape(-1, 8)
        m = r[:8] + 4 * tensorplay.eye(8)
        spd = m + m.transpose(0, 1) + 16 * tensorplay.eye(8)
        return (tensorplay.linalg.inv(m).sum() + tensorplay.inverse(m).mean() +
                tensorplay.linalg.cholesky(spd).sum() +
                tensorplay.linalg.solve(m, r[8:16]).sum() +
                tensorplay.linalg.solve(m, r[16]).sum() +
                tensorplay.linalg.eigvalsh(spd).sum() +
                tensorplay.linalg.svdvals(m).sum() +
                tensorplay.pinverse(m[:, :5]).sum())


class Factorizations(nn.Module):
    """What tensorplay 1.1's AOT graphs spell with several results and the
    backward's factor solves: eigh and svd with their vectors (in
    sign-invariant products), solve from the right, upper Cholesky, a
    batched inverse, tril, triu and diag_embed. (tensorplay 1.0 cannot
    trace the multi-result ones.)"""

    def forward(self, x):
        r = x.reshape(-1, 8)
        eye = tensorplay.eye(8)
        m = r[:8] + 4 * eye
        spd = m.matmul(m.transpose(0, 1)) + eye
        c = r[8:16]
        w, v = tensorplay.linalg.eigh(spd)
        root = (v * w.sqrt()).matmul(v.transpose(0, 1))
        u, s, vh = tensorplay.linalg.svd(r[16:24, :6], full_matrices=False)
        left = (u * s).matmul(u.transpose(0, 1))
        right = (vh.transpose(0, 1) * s.square()).matmul(vh)
        batch = r[24:40].reshape(2, 8, 8) + 4 * eye
        return ((root * c).sum() + (left * c).sum() +
                (right * c[:6, :6]).sum() +
                tensorplay.linalg.solve(m, c, left=False).sum() +
                (tensorplay.linalg.cholesky(spd, upper=True) * c).sum() +
                tensorplay.linalg.inv(batch).sum() +
                (tensorplay.tril(m, -1) * c).sum() +
                (tensorplay.triu(m, 1) * c).sum() +
                (tensorplay.diag_embed(r[40]) * c).sum())


class Placements(nn.Module):
    """tril, triu, diag_embed, diagonal (off the main one, of other
    dimensions), slice_scatter and select_scatter into a tensor that is not
    zeros, and max over a dimension with its indices."""

    def forward(self, x):
        r = x.reshape(-1, 8)
        m = r[:8]
        placed = tensorplay.slice_scatter(r[8:16], m[:, :3] * 2, 1, 1, 7, 2)
        placed = tensorplay.select_scatter(placed, m[2], 0, -1)
        values, indices = placed.max(1)
        return (tensorplay.tril(m, 1) + tensorplay.triu(m, -2) + placed,
                tensorplay.diag_embed(tensorplay.diagonal(m, -1) + 1),
                tensorplay.diagonal(x, -3, 2, 0), values, indices)


class FakeQuantized(nn.Module):
    """fake_quantize_per_tensor_affine with a zero point and bounds that
    clip (the encoder's inputs times 4 reach past both)."""

    def forward(self, x):
        return tensorplay.fake_quantize_per_tensor_affine(x * 4, 0.05, 3,
                                                          -16, 15)


class Ctc(nn.Module):
    """ctc_loss on the encoder's inputs as (T, N, C) log-probabilities:
    padded targets with list lengths (mean), concatenated targets with
    tensor lengths (sum), and an unbatched sample whose target cannot be
    aligned (inf, zeroed by zero_infinity)."""

    def forward(self, x):
        lp = x.transpose(0, 1).log_softmax(2)
        padded = tensorplay.tensor([[1, 2, 2], [3, 4, 0]])
        concatenated = tensorplay.tensor([5, 6, 6, 7])
        lengths = tensorplay.tensor([3, 1])
        one = F.ctc_loss(lp, padded, [6, 5], [3, 2])
        two = F.ctc_loss(lp, concatenated, tensorplay.tensor([6, 4]),
                         lengths, blank=31, reduction="sum")
        three = F.ctc_loss(lp[:2, 0], tensorplay.tensor([8, 8]), 2, 2,
                           reduction="none", zero_infinity=True)
        return one + two + three


def inputs(name, batch=8, seed=0):
    tensorplay.manual_seed(seed)
    if name == "mlp":
        return (tensorplay.randn(batch, 64),
                tensorplay.randint(0, 10, (batch,)))
    if name in ("cnn", "pooled_cnn", "normed_cnn"):
        return (tensorplay.randn(batch, 1, 8, 8),)
    return (tensorplay.randn(batch // 4 or 1, 6, 32),)


def model(name, seed=0):
    tensorplay.manual_seed(seed)
    return {"mlp": MLP, "cnn": CNN, "pooled_cnn": PooledCNN,
            "normed_cnn": NormedCNN,
            "encoder": EncoderBlock}[name]()


class Masking(nn.Module):
    """Comparisons, where and masked_fill (an attention-style -inf mask
    before softmax), clamp with scalar bounds, leaky_relu and hardswish."""

    def __init__(self, d=32):
        super().__init__()
        self.fc = nn.Linear(d, d)

    def forward(self, x):
        h = self.fc(x)
        keep = h > -0.2
        scores = h.masked_fill(x < -0.5, float("-inf"))
        a = F.softmax(scores, dim=-1)
        b = tensorplay.where(keep, F.leaky_relu(h, 0.1), F.hardswish(x))
        c = h.clamp(min=-0.25, max=0.75) * (x >= 0.0).float()
        return a + b + c + (h == h).float()


class Slicing(nn.Module):
    """Python indexing and the splitting methods: slices with steps and
    negative bounds, ints, None and ..., chunk (a GLU), split, narrow,
    select, unbind."""

    def __init__(self, d=32):
        super().__init__()
        self.fc = nn.Linear(d, 2 * d)

    def forward(self, x):
        a, b = self.fc(x).chunk(2, dim=-1)
        h = a * tensorplay.sigmoid(b)                      # (B, T, 32)
        first, rest = h.split([1, h.shape[1] - 1], dim=1)
        odd = h[:, 1::2, -16:]                             # (B, T/2, 16)
        col = h[..., 3]                                    # (B, T)
        row = h.select(1, -1)[:, None, :]                  # (B, 1, 32)
        mid = h.narrow(2, 8, 16)                           # (B, T, 16)
        parts = h.unbind(0)
        return (first.sum() + rest.mean() + odd.sum() + col.sum() +
                (row * h).mean() + mid.sum() + parts[-1].sum())


class Activations(nn.Module):
    """The activations the frontend decomposes (silu, sigmoid, softplus,
    gelu with either approximation) and clamp and softmax, which it
    normalizes."""

    def __init__(self, d=32):
        super().__init__()
        self.fc = nn.Linear(d, d)

    def forward(self, x):
        h = self.fc(x)
        a = F.silu(h) + F.softplus(x * 50.0)  # softplus past exp's range
        b = F.gelu(h, approximate="tanh") * x.sigmoid()
        c = F.gelu(h).clamp(-0.1, 0.5) + F.softmax(h, dim=-1)
        return a + b + c
