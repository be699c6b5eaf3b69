"""The model zoo: small models written the way users write them (not copies
of public code), for test_zoo.py.

- ``gpt``: a GPT-2-style language model: token and position embeddings, a
  ``ModuleList`` of pre-norm blocks with causal
  ``F.scaled_dot_product_attention`` and a GELU MLP, the head's weight tied
  to the token embedding, the loss computed inside.
- ``resnet``: a ResNet-18-style CNN: BatchNorm, a 1x1 stride-2 downsample,
  max pooling, global average pooling.
- ``mobilenet``: a MobileNetV2-style CNN: depthwise convolutions, ReLU6,
  inverted residuals.
- ``lstm``: an LSTM language model (``nn.LSTM`` over an embedding).
- ``vit``: a ViT: patch convolution, a class token expanded and
  concatenated, pre-norm attention with ``F.scaled_dot_product_attention``.
- ``encoder``: a Transformer encoder (``nn.TransformerEncoderLayer``) with
  a padding mask.

Where tensorplay 1.0's tracer cannot capture a model, its workaround is in
WORKAROUNDS (docs/Python.md lists both): GPT blocks held as attributes
instead of a ModuleList, an LSTM written from its gates, an encoder layer
written with ``F.scaled_dot_product_attention``.
"""

import tensorplay as tp
import tensorplay.nn as nn
import tensorplay.nn.functional as F


def _attention(q, k, v, heads, **kwargs):
    """Multi-head attention of (B, T, D) projections."""
    b, t, d = q.shape
    split = [x.view(b, x.shape[1], heads, d // heads).transpose(1, 2)
             for x in (q, k, v)]
    y = F.scaled_dot_product_attention(*split, **kwargs)
    return y.transpose(1, 2).contiguous().view(b, t, d)


class Block(nn.Module):
    """A pre-norm transformer block."""

    def __init__(self, d, heads, causal=True):
        super().__init__()
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.fc = nn.Linear(d, 4 * d)
        self.out = nn.Linear(4 * d, d)
        self.heads = heads
        self.causal = causal

    def forward(self, x):
        q, k, v = self.qkv(self.ln1(x)).split(x.shape[-1], dim=2)
        x = x + self.proj(_attention(q, k, v, self.heads,
                                     is_causal=self.causal))
        return x + self.out(F.gelu(self.fc(self.ln2(x))))


class GPT(nn.Module):
    def __init__(self, vocab=64, d=32, heads=4, layers=2, block=16):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(block, d)
        self.blocks = nn.ModuleList([Block(d, heads) for _ in range(layers)])
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)
        self.head.weight = self.wte.weight  # weight tying

    def embed(self, idx):
        pos = tp.arange(0, idx.shape[1], dtype=tp.long)
        return self.wte(idx) + self.wpe(pos)

    def finish(self, x, targets):
        logits = self.head(self.ln_f(x))
        loss = F.cross_entropy(logits.view(-1, logits.shape[-1]),
                               targets.view(-1))
        return logits, loss

    def forward(self, idx, targets):
        x = self.embed(idx)
        for block in self.blocks:
            x = block(x)
        return self.finish(x, targets)


class GPTAttributes(GPT):
    """tensorplay 1.0's workaround: the blocks as attributes (its tracer
    cannot iterate a ModuleList)."""

    def __init__(self, layers=2, **kwargs):
        super().__init__(layers=layers, **kwargs)
        for i, block in enumerate(self.blocks):
            setattr(self, f"block{i}", block)
        self.layers = layers
        del self.blocks

    def forward(self, idx, targets):
        x = self.embed(idx)
        for i in range(self.layers):
            x = getattr(self, f"block{i}")(x)
        return self.finish(x, targets)


class Basic(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.downsample = None
        if stride != 1 or cin != cout:
            self.downsample = nn.Sequential(
                nn.Conv2d(cin, cout, 1, stride, bias=False),
                nn.BatchNorm2d(cout))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        shortcut = x if self.downsample is None else self.downsample(x)
        return F.relu(out + shortcut)


class ResNet(nn.Module):
    def __init__(self, classes=10, width=8):
        super().__init__()
        self.conv1 = nn.Conv2d(3, width, 3, 1, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.pool = nn.MaxPool2d(3, 2, 1)
        self.layer1 = nn.Sequential(Basic(width, width, 1),
                                    Basic(width, width, 1))
        self.layer2 = nn.Sequential(Basic(width, 2 * width, 2),
                                    Basic(2 * width, 2 * width, 1))
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(2 * width, classes)

    def forward(self, x):
        x = self.pool(F.relu(self.bn1(self.conv1(x))))
        x = self.layer2(self.layer1(x))
        return self.fc(tp.flatten(self.avgpool(x), 1))


class InvertedResidual(nn.Module):
    def __init__(self, cin, cout, stride, expand):
        super().__init__()
        hidden = cin * expand
        self.use_residual = stride == 1 and cin == cout
        layers = []
        if expand != 1:
            layers += [nn.Conv2d(cin, hidden, 1, bias=False),
                       nn.BatchNorm2d(hidden), nn.ReLU6()]
        layers += [nn.Conv2d(hidden, hidden, 3, stride, 1, groups=hidden,
                             bias=False),
                   nn.BatchNorm2d(hidden), nn.ReLU6(),
                   nn.Conv2d(hidden, cout, 1, bias=False),
                   nn.BatchNorm2d(cout)]
        self.conv = nn.Sequential(*layers)

    def forward(self, x):
        return x + self.conv(x) if self.use_residual else self.conv(x)


class MobileNetV2(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, 2, 1, bias=False), nn.BatchNorm2d(8),
            nn.ReLU6(),
            InvertedResidual(8, 8, 1, 1), InvertedResidual(8, 12, 2, 4),
            InvertedResidual(12, 12, 1, 4),
            nn.Conv2d(12, 32, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU6())
        self.classifier = nn.Linear(32, classes)

    def forward(self, x):
        x = F.adaptive_avg_pool2d(self.features(x), 1).flatten(1)
        return self.classifier(x)


class LSTMLM(nn.Module):
    def __init__(self, vocab=50, d=16, hidden=24, layers=2):
        super().__init__()
        self.embedding = nn.Embedding(vocab, d)
        self.rnn = nn.LSTM(d, hidden, num_layers=layers)
        self.decoder = nn.Linear(hidden, vocab)

    def forward(self, tokens):
        output, _ = self.rnn(self.embedding(tokens))
        return self.decoder(output)


class GateLSTMLM(nn.Module):
    """tensorplay 1.0's workaround: one LSTM layer written from its gates
    (its tracer can capture neither nn.LSTM nor nn.LSTMCell)."""

    def __init__(self, vocab=50, d=16, hidden=24):
        super().__init__()
        self.embedding = nn.Embedding(vocab, d)
        self.input_gates = nn.Linear(d, 4 * hidden)
        self.hidden_gates = nn.Linear(hidden, 4 * hidden, bias=False)
        self.decoder = nn.Linear(hidden, vocab)
        self.hidden = hidden

    def forward(self, tokens):
        x = self.embedding(tokens)
        h = tp.zeros(tokens.shape[1], self.hidden)
        c = tp.zeros(tokens.shape[1], self.hidden)
        outputs = []
        for t in range(tokens.shape[0]):
            gates = self.input_gates(x[t]) + self.hidden_gates(h)
            i, f, g, o = gates.chunk(4, dim=1)
            c = f.sigmoid() * c + i.sigmoid() * g.tanh()
            h = o.sigmoid() * c.tanh()
            outputs.append(h)
        return self.decoder(tp.stack(outputs))


class ViT(nn.Module):
    def __init__(self, classes=10, d=32, heads=4, patch=4, size=16):
        super().__init__()
        self.patch = nn.Conv2d(3, d, patch, patch)
        n = (size // patch) ** 2
        self.cls_token = nn.Parameter(tp.zeros(1, 1, d))
        self.pos_embedding = nn.Parameter(tp.randn(1, n + 1, d) * 0.02)
        self.block = Block(d, heads, causal=False)
        self.norm = nn.LayerNorm(d)
        self.head = nn.Linear(d, classes)

    def forward(self, images):
        x = self.patch(images).flatten(2).transpose(1, 2)
        cls = self.cls_token.expand(x.shape[0], -1, -1)
        x = tp.cat([cls, x], dim=1) + self.pos_embedding
        x = self.norm(self.block(x))
        return self.head(x[:, 0])


class Encoder(nn.Module):
    def __init__(self, vocab=40, d=32, heads=4, classes=3):
        super().__init__()
        self.embedding = nn.Embedding(vocab, d, padding_idx=0)
        self.layer = nn.TransformerEncoderLayer(d, heads, 64, dropout=0.0)
        self.classifier = nn.Linear(d, classes)

    def forward(self, tokens, padding_mask):
        x = self.embedding(tokens).transpose(0, 1)
        x = self.layer(x, src_key_padding_mask=padding_mask)
        return self.classifier(x.mean(0))


class SdpaEncoder(nn.Module):
    """tensorplay 1.0's workaround: the encoder layer (post-norm, ReLU) with
    F.scaled_dot_product_attention and the padding mask as a boolean
    attention mask (its tracer can capture neither nn.TransformerEncoder
    nor nn.MultiheadAttention). It classifies from the first token: 1.0's
    eager backward of LayerNorm followed by mean (or sum and division)
    gives garbage gradients, 1e31 or NaN, which the reference would
    inherit."""

    def __init__(self, vocab=40, d=32, heads=4, classes=3):
        super().__init__()
        self.embedding = nn.Embedding(vocab, d, padding_idx=0)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.norm1 = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 64)
        self.fc2 = nn.Linear(64, d)
        self.norm2 = nn.LayerNorm(d)
        self.classifier = nn.Linear(d, classes)
        self.heads = heads

    def forward(self, tokens, padding_mask):
        x = self.embedding(tokens)
        keep = padding_mask.logical_not().view(tokens.shape[0], 1, 1, -1)
        q, k, v = self.qkv(x).split(x.shape[-1], dim=2)
        x = self.norm1(x + self.proj(_attention(q, k, v, self.heads,
                                                attn_mask=keep)))
        x = self.norm2(x + self.fc2(F.relu(self.fc1(x))))
        return self.classifier(x[:, 0])


MODELS = {"gpt": GPT, "resnet": ResNet, "mobilenet": MobileNetV2,
          "lstm": LSTMLM, "vit": ViT, "encoder": Encoder}

# tensorplay 1.0 cannot trace these; the workaround each test runs instead.
WORKAROUNDS = {"gpt": GPTAttributes, "lstm": GateLSTMLM,
               "encoder": SdpaEncoder}


def model_class(name):
    """The model `name` as the running tensorplay can trace it: 1.0 gets
    its workaround where it has one."""
    if tp.__version__.startswith("1.0") and name in WORKAROUNDS:
        return WORKAROUNDS[name]
    return MODELS[name]


def inputs(name, seed=1):
    """(inputs, targets or None) of model `name`: targets for the models
    whose loss the test computes (the GPT computes its own)."""
    tp.manual_seed(seed)
    if name == "gpt":
        return (tp.randint(0, 64, (2, 16)), tp.randint(0, 64, (2, 16))), None
    if name in ("resnet", "mobilenet", "vit"):
        return (tp.randn(2, 3, 16, 16),), tp.randint(0, 10, (2,))
    if name == "lstm":
        return (tp.randint(0, 50, (7, 2)),), tp.randint(0, 50, (7 * 2,))
    tokens = tp.randint(1, 40, (2, 9))
    padding = tp.zeros(2, 9, dtype=tp.bool)
    padding[1, 6:] = True
    tokens[1, 6:] = 0
    return (tokens, padding), tp.randint(0, 3, (2,))


def loss_of(name, output, targets):
    """The training loss of `output` (the model's result)."""
    if name == "gpt":
        return output[1]
    if name == "lstm":
        output = output.reshape(-1, output.shape[-1])
    return F.cross_entropy(output.float(), targets)
