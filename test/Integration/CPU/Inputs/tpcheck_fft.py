"""The 'fft' family of tpcheck.py: the torch.fft ops, polar,
view_as_complex, view_as_real and complex arithmetic (add, sub with alpha,
mul, div, neg, sum; real operands promoted, broadcast) against NumPy's
float64 / complex128 transforms and arithmetic (numpy.fft, with the same
n / s, axes and norm): even, odd, prime and Bluestein-sized (a prime
factor above 61) signals, padding and trimming, any dimensions, real,
complex, float64 and integer inputs."""

import numpy as np

from tpcheck import RNG, Case, op_case, rand

NORMS = (None, "ortho", "forward")


def _complex(dt):
    return {"f32": "c64", "f64": "c128", "i64": "c64"}.get(dt, dt)


def fft(mode):
    cases = []
    modes = mode.split("+")
    if {"bf16", "f16"} & set(modes):
        return []  # no half-precision CPU FFT (fft-errors.mlir)

    def case(name, op, x, np_fn, out_shape, out_dt, attrs=None, **kw):
        attr_text = ", ".join(attrs or [])
        norm = kw.pop("norm", None)
        if norm:
            attr_text = ", ".join(filter(None, [attr_text,
                                                f'norm = "{norm}"']))
        cases.append(op_case(
            name, [x], op, "%a0", attr_text, [(out_shape, out_dt)],
            lambda a, fn=np_fn, kw=dict(kw, norm=norm): [fn(a, **kw)]))

    # 1-D transforms along the last or another dimension, sizes 8, 9
    # (odd), 13 (prime butterfly), 67 (Bluestein), 60 (2 * 2 * 3 * 5).
    for n in (8, 9, 13, 67, 60):
        x = rand((3, n), dtype="f32")
        z = rand((3, n), dtype="c64")
        h = n // 2 + 1
        case(f"fft_real_{n}", "fft_fft", x, np.fft.fft, (3, n), "c64")
        case(f"fft_complex_{n}", "fft_fft", z, np.fft.fft, (3, n), "c64")
        case(f"ifft_{n}", "fft_ifft", z, np.fft.ifft, (3, n), "c64")
        case(f"rfft_{n}", "fft_rfft", x, np.fft.rfft, (3, h), "c64")
        zh = rand((3, h), dtype="c64")
        case(f"irfft_{n}", "fft_irfft", zh, np.fft.irfft, (3, n), "f32",
             [f"n = {n} : i64"], n=n)
        case(f"hfft_{n}", "fft_hfft", zh, np.fft.hfft, (3, n), "f32",
             [f"n = {n} : i64"], n=n)
        case(f"ihfft_{n}", "fft_ihfft", x, np.fft.ihfft, (3, h), "c64")
    # Norms, n padding and trimming, another dimension.
    x = rand((4, 6, 5), dtype="f32")
    z = rand((4, 6, 5), dtype="c64")
    for norm in NORMS[1:]:
        case(f"fft_dim1_{norm}", "fft_fft", z, np.fft.fft, (4, 6, 5), "c64",
             ["dim = 1 : i64"], axis=1, norm=norm)
        case(f"ifft_{norm}", "fft_ifft", z, np.fft.ifft, (4, 6, 5), "c64",
             norm=norm)
        case(f"rfft_dim0_{norm}", "fft_rfft", x, np.fft.rfft, (3, 6, 5),
             "c64", ["dim = 0 : i64"], axis=0, norm=norm)
        case(f"irfft_{norm}", "fft_irfft", z, np.fft.irfft, (4, 6, 8), "f32",
             norm=norm)
        case(f"hfft_{norm}", "fft_hfft", z, np.fft.hfft, (4, 6, 8), "f32",
             norm=norm)
        case(f"ihfft_{norm}", "fft_ihfft", x, np.fft.ihfft, (4, 6, 3),
             "c64", norm=norm)
    case("fft_pad", "fft_fft", x, np.fft.fft, (4, 6, 12), "c64",
         ["n = 12 : i64"], n=12)
    case("fft_trim_dim0", "fft_fft", z, np.fft.fft, (2, 6, 5), "c64",
         ["n = 2 : i64", "dim = 0 : i64"], n=2, axis=0)
    case("rfft_pad_odd", "fft_rfft", x, np.fft.rfft, (4, 6, 6), "c64",
         ["n = 11 : i64"], n=11)
    case("irfft_odd_trim", "fft_irfft", z, np.fft.irfft, (4, 6, 7), "f32",
         ["n = 7 : i64"], n=7)
    case("irfft_odd_pad_dim1", "fft_irfft", z, np.fft.irfft, (4, 15, 5),
         "f32", ["n = 15 : i64", "dim = 1 : i64"], n=15, axis=1)
    case("ihfft_pad", "fft_ihfft", x, np.fft.ihfft, (4, 6, 5), "c64",
         ["n = 9 : i64"], n=9)
    # 2-D and n-D.
    case("fft2", "fft_fft2", z, np.fft.fft2, (4, 6, 5), "c64")
    case("fft2_real_s_dims", "fft_fft2", x, np.fft.fft2, (7, 6, 3), "c64",
         ["s = array<i64: 7, 3>", "dim = array<i64: 0, 2>"], s=(7, 3),
         axes=(0, 2))
    case("ifft2_ortho", "fft_ifft2", z, np.fft.ifft2, (4, 6, 5), "c64",
         norm="ortho")
    case("rfft2", "fft_rfft2", x, np.fft.rfft2, (4, 6, 3), "c64")
    case("irfft2", "fft_irfft2", z, np.fft.irfft2, (4, 6, 8), "f32")
    case("irfft2_s", "fft_irfft2", z, np.fft.irfft2, (4, 5, 9), "f32",
         ["s = array<i64: 5, 9>"], s=(5, 9))
    case("fftn", "fft_fftn", z, np.fft.fftn, (4, 6, 5), "c64")
    case("fftn_s_forward", "fft_fftn", x, np.fft.fftn, (4, 3, 7), "c64",
         ["s = array<i64: 3, 7>"], s=(3, 7), norm="forward")
    case("ifftn_dims", "fft_ifftn", z, np.fft.ifftn, (4, 6, 5), "c64",
         ["dim = array<i64: 2, 0>"], axes=(2, 0))
    case("rfftn", "fft_rfftn", x, np.fft.rfftn, (4, 6, 3), "c64")
    case("rfftn_dims_first", "fft_rfftn", x, np.fft.rfftn, (4, 4, 5), "c64",
         ["dim = array<i64: 0, 1>"], axes=(0, 1))
    case("irfftn", "fft_irfftn", z, np.fft.irfftn, (4, 6, 8), "f32")
    case("irfftn_s_ortho", "fft_irfftn", z, np.fft.irfftn, (3, 6, 9), "f32",
         ["s = array<i64: 3, 6, 9>"], s=(3, 6, 9), norm="ortho")
    # float64 and complex128; an integer input (computed in f32).
    case("fft_f64", "fft_fft", rand((5, 12), dtype="f64"), np.fft.fft,
         (5, 12), "c128")
    case("ifftn_c128", "fft_ifftn", rand((3, 4, 7), dtype="c128"),
         np.fft.ifftn, (3, 4, 7), "c128")
    case("irfft_c128_bluestein", "fft_irfft", rand((2, 71), dtype="c128"),
         np.fft.irfft, (2, 140), "f64")
    ints = (RNG.integers(-5, 5, size=(3, 10)).astype(np.int64), "i64")
    case("rfft_i64", "fft_rfft", ints, np.fft.rfft, (3, 6), "c64")

    # stft: frames without centering, windows shorter than n_fft padded
    # on both sides, one- and two-sided, normalized.
    def stft_ref(x, n_fft, hop, win, window=None, normalized=False,
                 onesided=True):
        w = np.ones(win) if window is None else window
        left = (n_fft - win) // 2
        w = np.concatenate([np.zeros(left), w, np.zeros(n_fft - win - left)])
        count = 1 + (x.shape[-1] - n_fft) // hop
        frames = np.stack([x[..., f * hop:f * hop + n_fft] * w
                           for f in range(count)], axis=-2)
        spectrum = (np.fft.rfft if onesided else np.fft.fft)(
            frames, norm="ortho" if normalized else None)
        return np.swapaxes(spectrum, -1, -2)

    def stft(name, shape, n_fft, hop=None, win=None, window=False,
             normalized=False, onesided=None, dt="f32", wdt=None):
        x = rand(shape, dtype=dt)
        h = hop or n_fft // 4
        w = win or n_fft
        ins, text = [x], "%a0"
        wdt = wdt or dt
        if window:
            ins.append(rand((w,), 0, 1, wdt))
            text += " window(%a1)"
        attrs = [f"n_fft = {n_fft} : i64"]
        if hop:
            attrs.append(f"hop_length = {hop} : i64")
        if win:
            attrs.append(f"win_length = {win} : i64")
        if normalized:
            attrs.append("normalized = true")
        if onesided is not None:
            attrs.append(f"onesided = {str(onesided).lower()}")
        sided = onesided if onesided is not None else \
            not ({dt, wdt} & {"c64", "c128"})
        freq = n_fft // 2 + 1 if sided else n_fft
        out = shape[:-1] + (freq, 1 + (shape[-1] - n_fft) // h)
        cases.append(op_case(
            name, ins, "stft", text, ", ".join(attrs), [(out, _complex(dt))],
            lambda a, wv=None: [stft_ref(a, n_fft, h, w, wv, normalized,
                                         sided)]))

    stft("stft_default", (2, 64), 16)
    stft("stft_window_short_normalized", (2, 40), 16, hop=4, win=10,
         window=True, normalized=True)
    stft("stft_unbatched_two_sided", (40,), 16, hop=5, onesided=False)
    stft("stft_no_window_short", (3, 50), 12, hop=3, win=7)
    stft("stft_odd_f64", (45,), 9, hop=2, window=True, dt="f64")
    # Complex signals or windows: two-sided.
    stft("stft_complex", (2, 40), 16, hop=4, dt="c64")
    stft("stft_complex_window_short", (37,), 12, hop=5, win=7, window=True,
         normalized=True, dt="c64", wdt="f32")
    stft("stft_real_complex_window", (2, 30), 8, window=True, dt="f32",
         wdt="c64")
    stft("stft_complex_c128", (2, 33), 10, hop=3, window=True, dt="c128")

    # polar (broadcast) and view_as_complex, then a transform of the
    # complex tensor they build.
    for dt in ("f32", "f64"):
        m, a = rand((3, 5), 0, 2, dt), rand((5,), -4, 4, dt)
        cases.append(op_case(
            f"polar_{dt}", [m, a], "polar", "%a0, %a1", "",
            [((3, 5), _complex(dt))],
            lambda r, t: [r * np.cos(t) + 1j * r * np.sin(t)]))
        v = rand((2, 3, 2), dtype=dt)
        cases.append(op_case(
            f"view_as_complex_{dt}", [v], "view_as_complex", "%a0", "",
            [((2, 3), _complex(dt))], lambda x: [x[..., 0] + 1j * x[..., 1]]))
    v = rand((4, 6, 2), dtype="f32")
    cases.append(Case(
        "view_as_complex_then_ifft", [v],
        ["%c = tp.view_as_complex %a0 : (tensor<4x6x2xf32>) -> "
         "tensor<4x6xcomplex<f32>>",
         "%r0 = tp.fft_ifft %c {dim = 0 : i64} : (tensor<4x6xcomplex<f32>>)"
         " -> tensor<4x6xcomplex<f32>>"],
        [((4, 6), "c64")],
        lambda x: [np.fft.ifft(x[..., 0] + 1j * x[..., 1], axis=0)]))

    # view_as_real, and arithmetic on complex tensors.
    for dt in ("f32", "f64"):
        ct = _complex(dt)
        z = rand((2, 3), dtype=ct)
        cases.append(op_case(
            f"view_as_real_{dt}", [z], "view_as_real", "%a0", "",
            [((2, 3, 2), dt)], lambda x: [np.stack([x.real, x.imag], -1)]))
        zs = rand((4, 5), dtype=ct)
        cases.append(op_case(
            f"complex_sum_{dt}", [zs], "sum", "%a0",
            "dim = array<i64: 0>, keepdim = true", [((1, 5), ct)],
            lambda x: [x.sum(0, keepdims=True)]))
        cases.append(op_case(
            f"complex_sum_all_{dt}", [zs], "sum", "%a0", "", [((), ct)],
            lambda x: [x.sum()]))
    a = rand((3, 4), dtype="c64")
    b = rand((4,), 0.5, 1.5, dtype="c64")
    x = rand((3, 4), dtype="f32")
    tc, tb, tx = "tensor<3x4xcomplex<f32>>", "tensor<4xcomplex<f32>>", \
        "tensor<3x4xf32>"
    cases.append(Case(
        "complex_arithmetic", [a, b, x],
        [f"%m = tp.mul %a0, %a1 : ({tc}, {tb}) -> {tc}",
         f"%d = tp.div %m, %a2 : ({tc}, {tx}) -> {tc}",
         f"%s = tp.sub %d, %a1 {{alpha = 2.5 : f64}} : ({tc}, {tb}) -> {tc}",
         f"%n = tp.neg %s : ({tc}) -> {tc}",
         f"%q = tp.div %n, %a1 : ({tc}, {tb}) -> {tc}",
         f"%r0 = tp.add %a2, %q {{alpha = -0.5 : f64}} : ({tx}, {tc}) -> {tc}"],
        [((3, 4), "c64")],
        lambda z, w, r: [r - 0.5 * (-(z * w / r - 2.5 * w) / w)]))

    # The elementwise functions of complex tensors (principal branches, as
    # NumPy's), and mean.
    functions = {
        "exp": np.exp, "expm1": np.expm1, "log": np.log, "log1p": np.log1p,
        "sqrt": np.sqrt, "rsqrt": lambda z: 1 / np.sqrt(z), "sin": np.sin,
        "cos": np.cos, "tan": np.tan, "tanh": np.tanh,
        "reciprocal": lambda z: 1 / z,
        "sigmoid": lambda z: 1 / (1 + np.exp(-z)), "log2": np.log2,
        "log10": np.log10, "sinh": np.sinh, "cosh": np.cosh}
    for dt in ("f32", "f64"):
        ct = _complex(dt)
        z = rand((3, 7), -2, 2, dtype=ct)
        for name, fn in functions.items():
            cases.append(op_case(f"complex_{name}_{dt}", [z], name, "%a0", "",
                                 [((3, 7), ct)], lambda x, f=fn: [f(x)]))
        cases.append(op_case(f"complex_abs_{dt}", [z], "abs", "%a0", "",
                             [((3, 7), dt)], lambda x: [np.abs(x)]))
        cases.append(op_case(
            f"complex_mean_{dt}", [z], "mean", "%a0", "dim = array<i64: 1>",
            [((3,), ct)], lambda x: [x.mean(1)]))
        # pow: tensorplay's special scalar exponents (roots, reciprocal,
        # products) and others, a complex exponent tensor (broadcast) and
        # a real one promoted; eq and ne against a copy with some
        # elements changed in one part, and against a real tensor.
        w = rand((7,), -1, 1, dtype=ct)
        for e in (0.5, -0.5, -1.0, 2.0, 3.0, -2.0, 1.7):
            cases.append(op_case(
                f"complex_pow_{str(e).replace('-', 'm').replace('.', 'p')}_"
                f"{dt}", [z], "pow", "%a0",
                f"scalar_exponent = {e} : f64", [((3, 7), ct)],
                lambda x, e=e: [np.power(x.astype(np.complex128), e)]))
        cases.append(op_case(
            f"complex_pow_tensor_{dt}", [z, (w[0], ct)], "pow", "%a0, %a1", "",
            [((3, 7), ct)],
            lambda x, y: [np.power(x.astype(np.complex128), y)]))
        r = rand((3, 7), 0.5, 2, dtype=dt)
        cases.append(op_case(
            f"complex_pow_real_exponent_{dt}", [z, r], "pow", "%a0, %a1", "",
            [((3, 7), ct)],
            lambda x, y: [np.power(x.astype(np.complex128), y)]))
        other = z[0].copy()
        other[0, 0] += 1
        other[1, 2] += 1j
        other[2, 5] = np.nan
        real = (np.real(z[0]).astype(np.float32 if dt == "f32"
                                     else np.float64), dt)
        for cmp, fn in (("eq", np.equal), ("ne", np.not_equal)):
            cases.append(op_case(
                f"complex_{cmp}_{dt}", [z, (other, ct)], cmp, "%a0, %a1", "",
                [((3, 7), "i1")], lambda x, y, f=fn: [f(x, y)]))
            cases.append(op_case(
                f"complex_{cmp}_real_{dt}", [(other, ct), real], cmp,
                "%a0, %a1", "", [((3, 7), "i1")],
                lambda x, y, f=fn: [f(x, y)]))
        # Complex products (four real ones): matmul broadcast over a
        # batch, mm, bmm, mv and dot.
        for name, sa, sb, so, fn in (
                ("matmul", (2, 3, 4), (4, 5), (2, 3, 5), np.matmul),
                ("mm", (3, 4), (4, 2), (3, 2), np.matmul),
                ("bmm", (2, 3, 4), (2, 4, 2), (2, 3, 2), np.matmul),
                ("mv", (3, 4), (4,), (3,), np.matmul),
                ("dot", (5,), (5,), (), np.dot)):
            cases.append(op_case(
                f"complex_{name}_{dt}", [rand(sa, dtype=ct), rand(sb, dtype=ct)],
                name, "%a0, %a1", "", [(so, ct)],
                lambda x, y, f=fn: [f(x.astype(np.complex128),
                                      y.astype(np.complex128))]))
        # Edge values: saturating tanh and sigmoid, tiny and huge
        # magnitudes (abs, sqrt and log scale instead of overflowing).
        for name, values in (
                ("tanh", [30 + 1j, -30 + 1j, -100 - 2j, 1e-20 + 1e-20j]),
                ("sigmoid", [30 + 1j, -30 + 1j, 100 - 2j, 1e-20 + 1e-20j]),
                ("exp", [-100 + 1j, 20 - 3j, 1e-20 + 1e-20j, 0]),
                ("abs", [2e30 + 1e30j, 1e-30 - 1e-30j, -3 + 4j, 0]),
                ("sqrt", [2e30 + 1e30j, 1e-30 + 1e-30j, -100 - 2j, 0]),
                ("log", [2e30 + 1e30j, 1e-30 + 1e-30j, -100 - 2j, 1])):
            e = (np.array(values, dtype=np.complex128).astype(
                np.complex64 if dt == "f32" else np.complex128), ct)
            fn = np.abs if name == "abs" else functions[name]
            cases.append(op_case(
                f"complex_{name}_edges_{dt}", [e], name, "%a0", "",
                [((4,), dt if name == "abs" else ct)],
                lambda x, f=fn: [f(x)]))
    return cases
