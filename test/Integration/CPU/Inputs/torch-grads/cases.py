"""The programs of torch-grads.mlir: small f64 tp functions with inputs
chosen where PyTorch's backward makes a choice that finite differences
cannot see (ties, zeros, clamps, masked rows, padding_idx), or where the
forward's definition matters (label smoothing, ignored targets).

Each case is (name, args, body, torch_body, dtype): args a list of (shape, values)
with values a nested list (f64) or ("i64", values); body the tp lines
defining %loss from %a0...; torch_body the same loss in PyTorch, a Python
expression of a0... (tensors) and `F` (torch.nn.functional), `torch`, used
only by gen.py. The expected gradients, made once by gen.py with PyTorch,
are in expected.json. The cases here are f64 (their dtype is added at
the end); attention_cases.py adds f64 and f32 attention cases.
"""

from attention_cases import ATTENTION_CASES

X34 = [[1.0, 3.0, 3.0, 0.0], [2.0, 2.0, 2.0, 2.0], [-1.0, 5.0, 0.0, 5.0]]

CASES = [
    ("amax_ties", [((3, 4), X34)], [
        "%m = tp.amax %a0 {dim = array<i64: 1>} : (tensor<3x4xf64>) -> tensor<3xf64>",
        "%c = tp.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf64>",
        "%p = tp.mul %m, %c : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>",
        "%loss = tp.sum %p : (tensor<3xf64>) -> tensor<f64>",
    ], "(a0.amax(1) * torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)).sum()"),
    ("max_all_ties", [((3, 4), X34)], [
        "%m = tp.max %a0 : (tensor<3x4xf64>) -> tensor<f64>",
        "%loss = tp.mul %m, %m : (tensor<f64>, tensor<f64>) -> tensor<f64>",
    ], "a0.max() * a0.max()"),
    ("max_dim_ties", [((3, 4), X34)], [
        "%v, %i = tp.max_dim %a0 {dim = 1 : i64} : (tensor<3x4xf64>) -> (tensor<3xf64>, tensor<3xi64>)",
        "%c = tp.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf64>",
        "%p = tp.mul %v, %c : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>",
        "%loss = tp.sum %p : (tensor<3xf64>) -> tensor<f64>",
    ], "(a0.max(1).values * torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)).sum()"),
    ("maximum_minimum_ties", [((2, 4), [[1.0, 2.0, 3.0, 4.0], [0.0, 5.0, -1.0, 4.0]]),
                              ((4,), [1.0, 5.0, 3.0, 0.0])], [
        "%hi = tp.maximum %a0, %a1 : (tensor<2x4xf64>, tensor<4xf64>) -> tensor<2x4xf64>",
        "%lo = tp.minimum %a0, %a1 : (tensor<2x4xf64>, tensor<4xf64>) -> tensor<2x4xf64>",
        "%c = tp.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf64>",
        "%h = tp.mul %hi, %c : (tensor<2x4xf64>, tensor<2x4xf64>) -> tensor<2x4xf64>",
        "%l = tp.mul %lo, %lo : (tensor<2x4xf64>, tensor<2x4xf64>) -> tensor<2x4xf64>",
        "%s = tp.add %h, %l : (tensor<2x4xf64>, tensor<2x4xf64>) -> tensor<2x4xf64>",
        "%loss = tp.sum %s : (tensor<2x4xf64>) -> tensor<f64>",
    ], "(torch.maximum(a0, a1) * torch.arange(1.0, 9.0, dtype=torch.float64).reshape(2, 4)"
       " + torch.minimum(a0, a1) ** 2).sum()"),
    ("embedding_padding", [((5, 3), [[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9],
                                     [1.0, 1.1, 1.2], [1.3, 1.4, 1.5]])], [
        "%i = tp.constant dense<[[0, 2, 1], [2, 4, 0]]> : tensor<2x3xi64>",
        "%e = tp.embedding %a0, %i {padding_idx = 2 : i64} : (tensor<5x3xf64>, tensor<2x3xi64>) -> tensor<2x3x3xf64>",
        "%f = tp.embedding %a0, %i {scale_grad_by_freq = true} : (tensor<5x3xf64>, tensor<2x3xi64>) -> tensor<2x3x3xf64>",
        "%ee = tp.mul %e, %e : (tensor<2x3x3xf64>, tensor<2x3x3xf64>) -> tensor<2x3x3xf64>",
        "%ff = tp.mul %f, %e : (tensor<2x3x3xf64>, tensor<2x3x3xf64>) -> tensor<2x3x3xf64>",
        "%s = tp.add %ee, %ff : (tensor<2x3x3xf64>, tensor<2x3x3xf64>) -> tensor<2x3x3xf64>",
        "%loss = tp.sum %s : (tensor<2x3x3xf64>) -> tensor<f64>",
    ], "(lambda i: (F.embedding(i, a0, padding_idx=2) ** 2"
       " + F.embedding(i, a0, scale_grad_by_freq=True) * F.embedding(i, a0, padding_idx=2)).sum())"
       "(torch.tensor([[0, 2, 1], [2, 4, 0]]))"),
    ("l1_smooth_huber_kinks", [((4,), [1.0, 0.5, -0.5, 2.0]), ((4,), [1.0, 0.0, 0.0, 1.0])], [
        "%a = tp.l1_loss %a0, %a1 : (tensor<4xf64>, tensor<4xf64>) -> tensor<f64>",
        "%b = tp.smooth_l1_loss %a0, %a1 {beta = 0.5 : f64, reduction = #tp.reduction<sum>} : (tensor<4xf64>, tensor<4xf64>) -> tensor<f64>",
        "%c = tp.huber_loss %a0, %a1 {delta = 1.0 : f64} : (tensor<4xf64>, tensor<4xf64>) -> tensor<f64>",
        "%ab = tp.add %a, %b : (tensor<f64>, tensor<f64>) -> tensor<f64>",
        "%loss = tp.add %ab, %c : (tensor<f64>, tensor<f64>) -> tensor<f64>",
    ], "F.l1_loss(a0, a1) + F.smooth_l1_loss(a0, a1, beta=0.5, reduction='sum')"
       " + F.huber_loss(a0, a1, delta=1.0)"),
    ("norms_zero_ties", [((3, 3), [[0.0, 0.0, 0.0], [3.0, -4.0, 0.0], [1.0, -3.0, 3.0]])], [
        "%n2 = tp.norm %a0 {p = 2.0 : f64, dim = array<i64: 1>} : (tensor<3x3xf64>) -> tensor<3xf64>",
        "%ni = tp.norm %a0 {p = 0x7FF0000000000000 : f64, dim = array<i64: 1>} : (tensor<3x3xf64>) -> tensor<3xf64>",
        "%n1 = tp.norm %a0 {p = 1.0 : f64} : (tensor<3x3xf64>) -> tensor<f64>",
        "%c = tp.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf64>",
        "%p = tp.mul %n2, %c : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>",
        "%q = tp.add %p, %ni : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>",
        "%s = tp.sum %q : (tensor<3xf64>) -> tensor<f64>",
        "%loss = tp.add %s, %n1 : (tensor<f64>, tensor<f64>) -> tensor<f64>",
    ], "(torch.linalg.vector_norm(a0, 2, dim=1) * torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)"
       " + torch.linalg.vector_norm(a0, float('inf'), dim=1)).sum() + torch.linalg.vector_norm(a0, 1)"),
    ("prod_zeros", [((3, 4), [[1.0, 0.0, 3.0, 2.0], [0.0, 2.0, 0.0, 1.0], [1.0, 2.0, 3.0, 4.0]])], [
        "%p = tp.prod %a0 {dim = 1 : i64} : (tensor<3x4xf64>) -> tensor<3xf64>",
        "%c = tp.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf64>",
        "%q = tp.mul %p, %c : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>",
        "%s = tp.sum %q : (tensor<3xf64>) -> tensor<f64>",
        "%all = tp.prod %a0 : (tensor<3x4xf64>) -> tensor<f64>",
        "%loss = tp.add %s, %all : (tensor<f64>, tensor<f64>) -> tensor<f64>",
    ], "(a0.prod(1) * torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)).sum() + a0.prod()"),
    ("normalize_small_rows", [((3, 3), [[0.0, 0.0, 0.0], [1e-13, 0.0, -1e-13], [1.0, 2.0, 2.0]])], [
        "%y = tp.normalize %a0 {dim = 1 : i64} : (tensor<3x3xf64>) -> tensor<3x3xf64>",
        "%c = tp.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf64>",
        "%p = tp.mul %y, %c : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>",
        "%loss = tp.sum %p : (tensor<3x3xf64>) -> tensor<f64>",
    ], "(F.normalize(a0, dim=1) * torch.arange(1.0, 10.0, dtype=torch.float64).reshape(3, 3)).sum()"),
    ("bce_edges", [((4,), [1e-15, 0.5, 1.0 - 1e-9, 0.25]), ((4,), [0.0, 1.0, 0.3, 0.75])], [
        "%w = tp.constant dense<[1.0, 2.0, 0.5, 1.5]> : tensor<4xf64>",
        "%a = tp.binary_cross_entropy %a0, %a1 weight(%w) {reduction = #tp.reduction<sum>} : (tensor<4xf64>, tensor<4xf64>, tensor<4xf64>) -> tensor<f64>",
        "%b = tp.binary_cross_entropy %a0, %a1 : (tensor<4xf64>, tensor<4xf64>) -> tensor<f64>",
        "%loss = tp.add %a, %b : (tensor<f64>, tensor<f64>) -> tensor<f64>",
    ], "F.binary_cross_entropy(a0, a1, weight=torch.tensor([1.0, 2.0, 0.5, 1.5], dtype=torch.float64),"
       " reduction='sum') + F.binary_cross_entropy(a0, a1)"),
    ("pointwise_losses", [((2, 3), [[0.5, -1.2, 2.0], [0.1, 0.9, -0.4]]),
                          ((2, 3), [[0.2, 0.7, 0.3], [1.5, 0.4, 0.6]])], [
        "%sign = tp.constant dense<[[1.0, -1.0, -1.0], [1.0, -1.0, 1.0]]> : tensor<2x3xf64>",
        "%probs = tp.constant dense<[[0.0, 0.5, 0.5], [0.2, 0.3, 0.5]]> : tensor<2x3xf64>",
        "%sm = tp.soft_margin_loss %a0, %sign : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<f64>",
        "%he = tp.hinge_embedding_loss %a0, %sign {margin = 1.0 : f64} : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<f64>",
        "%kl = tp.kl_div %a0, %probs {reduction = #tp.reduction<sum>} : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<f64>",
        "%kt = tp.kl_div %a0, %a1 {log_target = true} : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<f64>",
        "%pn = tp.poisson_nll_loss %a0, %a1 {full = true} : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<f64>",
        "%mr = tp.margin_ranking_loss %a0, %a1, %sign {margin = 0.1 : f64} : (tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<f64>",
        "%x1 = tp.add %sm, %he : (tensor<f64>, tensor<f64>) -> tensor<f64>",
        "%x2 = tp.add %x1, %kl : (tensor<f64>, tensor<f64>) -> tensor<f64>",
        "%x3 = tp.add %x2, %kt : (tensor<f64>, tensor<f64>) -> tensor<f64>",
        "%x4 = tp.add %x3, %pn : (tensor<f64>, tensor<f64>) -> tensor<f64>",
        "%loss = tp.add %x4, %mr : (tensor<f64>, tensor<f64>) -> tensor<f64>",
    ], "(lambda s, p: F.soft_margin_loss(a0, s) + F.hinge_embedding_loss(a0, s, margin=1.0)"
       " + F.kl_div(a0, p, reduction='sum') + F.kl_div(a0, a1, log_target=True, reduction='mean')"
       " + F.poisson_nll_loss(a0, a1, full=True) + F.margin_ranking_loss(a0, a1, s, margin=0.1))"
       "(torch.tensor([[1.0, -1.0, -1.0], [1.0, -1.0, 1.0]], dtype=torch.float64),"
       " torch.tensor([[0.0, 0.5, 0.5], [0.2, 0.3, 0.5]], dtype=torch.float64))"),
    ("cross_entropy_smoothing", [((2, 3, 2), [[[0.5, -1.0], [1.5, 0.2], [-0.3, 0.8]],
                                              [[2.0, 0.1], [-1.2, 0.4], [0.6, -0.7]]])], [
        "%t = tp.constant dense<[[0, 2], [-100, 1]]> : tensor<2x2xi64>",
        "%w = tp.constant dense<[0.5, 2.0, 1.25]> : tensor<3xf64>",
        "%a = tp.cross_entropy %a0, %t weight(%w) {label_smoothing = 0.2 : f64} : (tensor<2x3x2xf64>, tensor<2x2xi64>, tensor<3xf64>) -> tensor<f64>",
        "%b = tp.cross_entropy %a0, %t {label_smoothing = 0.3 : f64, reduction = #tp.reduction<none>} : (tensor<2x3x2xf64>, tensor<2x2xi64>) -> tensor<2x2xf64>",
        "%bb = tp.mul %b, %b : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>",
        "%s = tp.sum %bb : (tensor<2x2xf64>) -> tensor<f64>",
        "%c = tp.cross_entropy %a0, %t {label_smoothing = 0.1 : f64} : (tensor<2x3x2xf64>, tensor<2x2xi64>) -> tensor<f64>",
        "%ab = tp.add %a, %s : (tensor<f64>, tensor<f64>) -> tensor<f64>",
        "%loss = tp.add %ab, %c : (tensor<f64>, tensor<f64>) -> tensor<f64>",
    ], "(lambda t, w: F.cross_entropy(a0, t, weight=w, label_smoothing=0.2)"
       " + (F.cross_entropy(a0, t, label_smoothing=0.3, reduction='none') ** 2).sum()"
       " + F.cross_entropy(a0, t, label_smoothing=0.1))"
       "(torch.tensor([[0, 2], [-100, 1]]), torch.tensor([0.5, 2.0, 1.25], dtype=torch.float64))"),
    ("gathers_contractions", [
        ((2, 3), [[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]),
        ((1, 2, 3), [[[0.3, -0.6, 0.9], [1.2, -1.5, 1.8]]]),
        ((3, 3), [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.5]]),
        ((3, 2, 2), [[[0.1, 0.2], [0.3, 0.4]], [[0.5, 0.6], [0.7, 0.8]],
                     [[0.9, 1.0], [1.1, 1.2]]])], [
        "%rp = tp.reflection_pad1d %a0 {padding = array<i64: 2, 1>} : (tensor<2x3xf64>) -> tensor<2x6xf64>",
        "%pp = tp.replication_pad2d %a1 {padding = array<i64: 1, 2, 2, 1>} : (tensor<1x2x3xf64>) -> tensor<1x5x6xf64>",
        "%c = tp.cat [%a0, %rp] {dim = 1 : i64} : (tensor<2x3xf64>, tensor<2x6xf64>) -> tensor<2x9xf64>",
        "%st = tp.stack [%a0, %a0] {dim = 2 : i64} : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3x2xf64>",
        "%td = tp.tensordot %a3, %st {dims_self = array<i64: 1, 2>, dims_other = array<i64: 0, 2>} : (tensor<3x2x2xf64>, tensor<2x3x2xf64>) -> tensor<3x3xf64>",
        "%tr = tp.trace %a2 : (tensor<3x3xf64>) -> tensor<f64>",
        "%tm = tp.mul %td, %a2 : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>",
        "%cc = tp.mul %c, %c : (tensor<2x9xf64>, tensor<2x9xf64>) -> tensor<2x9xf64>",
        "%p3 = tp.mul %pp, %pp : (tensor<1x5x6xf64>, tensor<1x5x6xf64>) -> tensor<1x5x6xf64>",
        "%s1 = tp.sum %tm : (tensor<3x3xf64>) -> tensor<f64>",
        "%s2 = tp.sum %cc : (tensor<2x9xf64>) -> tensor<f64>",
        "%s3 = tp.sum %p3 : (tensor<1x5x6xf64>) -> tensor<f64>",
        "%t2 = tp.mul %tr, %tr : (tensor<f64>, tensor<f64>) -> tensor<f64>",
        "%x1 = tp.add %s1, %s2 : (tensor<f64>, tensor<f64>) -> tensor<f64>",
        "%x2 = tp.add %x1, %s3 : (tensor<f64>, tensor<f64>) -> tensor<f64>",
        "%loss = tp.add %x2, %t2 : (tensor<f64>, tensor<f64>) -> tensor<f64>",
    ], "(lambda rp: (torch.tensordot(a3, torch.stack([a0, a0], 2), dims=([1, 2], [0, 2])) * a2).sum()"
       " + (torch.cat([a0, rp], 1) ** 2).sum()"
       " + (F.pad(a1, (1, 2, 2, 1), mode='replicate') ** 2).sum() + torch.trace(a2) ** 2)"
       "(F.pad(a0.unsqueeze(0), (2, 1), mode='reflect').squeeze(0))"),
    ("convolutions_bilinear", [
        ((1, 2, 3, 3), [[[[0.1, -0.2, 0.3], [0.4, 0.5, -0.6], [0.7, 0.8, 0.9]],
                         [[-1.0, 1.1, 1.2], [1.3, -1.4, 1.5], [1.6, 1.7, -1.8]]]]),
        ((2, 3, 3, 3), [[[[((i * 7 + j * 3 + k) % 11 - 5) / 5.0 for k in range(3)]
                          for j in range(3)] for i in range(3)] for _ in range(2)]),
        ((2, 3), [[0.2, -0.4, 0.6], [0.8, -1.0, 1.2]]),
        ((2, 2), [[1.0, -0.5], [0.25, 2.0]]),
        ((4, 3, 2), [[[((i * 5 + j * 2 + k) % 7 - 3) / 4.0 for k in range(2)]
                      for j in range(3)] for i in range(4)])], [
        "%y = tp.conv_transpose2d %a0, %a1 {stride = array<i64: 2>, padding = array<i64: 1>, output_padding = array<i64: 1>} : (tensor<1x2x3x3xf64>, tensor<2x3x3x3xf64>) -> tensor<1x3x6x6xf64>",
        "%yy = tp.mul %y, %y : (tensor<1x3x6x6xf64>, tensor<1x3x6x6xf64>) -> tensor<1x3x6x6xf64>",
        "%s1 = tp.sum %yy : (tensor<1x3x6x6xf64>) -> tensor<f64>",
        "%b = tp.bilinear %a2, %a3, %a4 : (tensor<2x3xf64>, tensor<2x2xf64>, tensor<4x3x2xf64>) -> tensor<2x4xf64>",
        "%bb = tp.mul %b, %b : (tensor<2x4xf64>, tensor<2x4xf64>) -> tensor<2x4xf64>",
        "%s2 = tp.sum %bb : (tensor<2x4xf64>) -> tensor<f64>",
        "%loss = tp.add %s1, %s2 : (tensor<f64>, tensor<f64>) -> tensor<f64>",
    ], "(F.conv_transpose2d(a0, a1, stride=2, padding=1, output_padding=1) ** 2).sum()"
       " + (F.bilinear(a2, a3, a4) ** 2).sum()"),
    ("grouped_conv_distances", [
        ((1, 4, 4, 4), [[[[((c * 13 + i * 5 + j * 3) % 9 - 4) / 3.0 for j in range(4)]
                          for i in range(4)] for c in range(4)]]),
        ((6, 2, 2, 3), [[[[((o * 7 + c * 3 + i * 2 + j) % 5 - 2) / 2.0 for j in range(3)]
                          for i in range(2)] for c in range(2)] for o in range(6)]),
        ((3, 4), [[0.5, -1.0, 2.0, 0.25], [1.5, 0.75, -0.5, 1.0], [-2.0, 0.3, 0.6, -0.9]]),
        ((4,), [0.2, -0.4, 1.1, 0.7])], [
        "%c = tp.conv2d %a0, %a1 {groups = 2 : i64, stride = array<i64: 2, 1>, padding = array<i64: 1>} : (tensor<1x4x4x4xf64>, tensor<6x2x2x3xf64>) -> tensor<1x6x3x4xf64>",
        "%cc = tp.mul %c, %c : (tensor<1x6x3x4xf64>, tensor<1x6x3x4xf64>) -> tensor<1x6x3x4xf64>",
        "%s1 = tp.sum %cc : (tensor<1x6x3x4xf64>) -> tensor<f64>",
        "%d = tp.dist %a2, %a3 {p = 3.0 : f64} : (tensor<3x4xf64>, tensor<4xf64>) -> tensor<f64>",
        "%cs = tp.cosine_similarity %a2, %a3 : (tensor<3x4xf64>, tensor<4xf64>) -> tensor<3xf64>",
        "%k = tp.constant dense<[1.0, -2.0, 3.0]> : tensor<3xf64>",
        "%ck = tp.mul %cs, %k : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>",
        "%s2 = tp.sum %ck : (tensor<3xf64>) -> tensor<f64>",
        "%x = tp.add %s1, %d : (tensor<f64>, tensor<f64>) -> tensor<f64>",
        "%loss = tp.add %x, %s2 : (tensor<f64>, tensor<f64>) -> tensor<f64>",
    ], "(F.conv2d(a0, a1, groups=2, stride=(2, 1), padding=1) ** 2).sum() + torch.dist(a2, a3, p=3)"
       " + (F.cosine_similarity(a2, a3, dim=-1)"
       " * torch.tensor([1.0, -2.0, 3.0], dtype=torch.float64)).sum()"),
]

CASES = [case + ("f64",) for case in CASES] + ATTENTION_CASES
