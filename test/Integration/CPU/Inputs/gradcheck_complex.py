"""gradcheck.py's cases for the complex and FFT rules
(BackwardRulesComplex): real f64 arguments made complex inside the
program (view_as_complex, polar, a transform of a real signal), each loss
a weighted sum of real results (view_as_real of the complex ones). They
cover the elementwise functions, every FFT op with trimmed and zero-padded
signal sizes, the three norms and transforms over chosen dims, complex
products, quotients and broadcasting, the shape ops, a complex value read
twice, and stft with a window."""


FUNCTIONS = ["exp", "expm1", "log", "log1p", "sqrt", "rsqrt", "sin", "cos",
             "tan", "tanh", "reciprocal", "sigmoid", "log2", "log10", "sinh",
             "cosh"]
# pow's scalar exponents (tensorplay's special ones and others).
EXPONENTS = {"p2": 2.0, "p3": 3.0, "ph": 0.5, "pm": -1.0, "p17": 1.7,
             "p0": 0.0}


def cases(g):
    """The cases, built with gradcheck.py's module `g` (Case, t, weighted)."""
    def ty(shape, complex_=False):
        return g.t(shape, "complex<f64>" if complex_ else "f64")

    def op(result, name, operands, ins, out, attrs=""):
        """`%result = tp.<name> %a, .. {attrs} : (ins) -> out`, each type a
        (shape, complex) pair."""
        return "%%%s = tp.%s %s%s : (%s) -> %s" % (
            result, name, ", ".join("%" + o for o in operands),
            " {%s}" % attrs if attrs else "",
            ", ".join(ty(*i) for i in ins), ty(*out))

    def as_complex(result, x, shape):
        """%result = view_as_complex(%x), x of shape + (2,)."""
        return op(result, "view_as_complex", [x], [(shape + (2,), False)],
                  (shape, True))

    def as_real(result, z, shape):
        return op(result, "view_as_real", [z], [(shape, True)],
                  (shape + (2,), False))

    return [
        # rfft zero-padding (n = 10), irfft trimming its input (n = 7 reads
        # 4 of the 6 bins): the one-sided adjoints and the mirrored bins.
        g.Case("fft_rfft_irfft", [(3, 8)], [
            op("c", "fft_rfft", ["a0"], [((3, 8), False)], ((3, 6), True),
               "n = 10 : i64"),
            op("y", "fft_irfft", ["c"], [((3, 6), True)], ((3, 7), False),
               "n = 7 : i64"),
            op("y2", "fft_irfft", ["c"], [((3, 6), True)], ((3, 10), False),
               'norm = "ortho"')] +
            g.weighted([("y", (3, 7)), ("y2", (3, 10))], 41)),
        # fft of a real signal along dim 0, trimmed (n = 3), and of its
        # complex view along the last dim, padded (n = 5), norm forward.
        g.Case("fft_of_real", [(4, 6), (3, 4, 2)], [
            op("z", "fft_fft", ["a0"], [((4, 6), False)], ((3, 6), True),
               "dim = 0 : i64, n = 3 : i64"),
            as_real("zr", "z", (3, 6)),
            as_complex("w", "a1", (3, 4)),
            op("v", "fft_ifft", ["w"], [((3, 4), True)], ((3, 5), True),
               'n = 5 : i64, norm = "forward"'),
            as_real("vr", "v", (3, 5))] +
            g.weighted([("zr", (3, 6, 2)), ("vr", (3, 5, 2))], 42)),
        # fft2 padding one dim and trimming the other (ortho), ifftn over
        # a chosen dim, fftn over all.
        g.Case("fft_2d_nd", [(3, 4, 2), (2, 3, 2)], [
            as_complex("w", "a0", (3, 4)),
            op("f", "fft_fft2", ["w"], [((3, 4), True)], ((4, 3), True),
               's = array<i64: 4, 3>, norm = "ortho"'),
            op("i", "fft_ifftn", ["f"], [((4, 3), True)], ((4, 3), True),
               "dim = array<i64: 0>"),
            as_real("ir", "i", (4, 3)),
            op("n", "fft_fftn", ["a1"], [((2, 3, 2), False)],
               ((2, 3, 2), True)),
            as_real("nr", "n", (2, 3, 2)),
            op("i2", "fft_ifft2", ["w"], [((3, 4), True)], ((3, 4), True)),
            as_real("i2r", "i2", (3, 4))] +
            g.weighted([("ir", (4, 3, 2)), ("nr", (2, 3, 2, 2)),
                        ("i2r", (3, 4, 2))], 43)),
        # rfftn / irfftn over two dims of three (norm forward), and the 2-D
        # forms with sizes.
        g.Case("fft_rfftn_irfftn", [(2, 4, 6), (3, 5)], [
            op("c", "fft_rfftn", ["a0"], [((2, 4, 6), False)],
               ((2, 4, 4), True), 'dim = array<i64: 1, 2>, norm = "forward"'),
            op("y", "fft_irfftn", ["c"], [((2, 4, 4), True)],
               ((2, 4, 6), False), "s = array<i64: 4, 6>"),
            op("c2", "fft_rfft2", ["a1"], [((3, 5), False)], ((4, 3), True),
               "s = array<i64: 4, 4>"),
            as_real("c2r", "c2", (4, 3)),
            op("y2", "fft_irfft2", ["c2"], [((4, 3), True)], ((2, 5), False),
               's = array<i64: 2, 5>, norm = "ortho"')] +
            g.weighted([("y", (2, 4, 6)), ("c2r", (4, 3, 2)),
                        ("y2", (2, 5))], 44)),
        # hfft of a Hermitian half (even and odd n), ihfft of a real signal.
        g.Case("fft_hfft_ihfft", [(5, 2), (7,)], [
            as_complex("h", "a0", (5,)),
            op("y", "fft_hfft", ["h"], [((5,), True)], ((8,), False),
               "n = 8 : i64"),
            op("y2", "fft_hfft", ["h"], [((5,), True)], ((7,), False),
               'n = 7 : i64, norm = "forward"'),
            op("v", "fft_ihfft", ["a1"], [((7,), False)], ((4,), True),
               'n = 6 : i64, norm = "ortho"'),
            as_real("vr", "v", (4,))] +
            g.weighted([("y", (8,)), ("y2", (7,)), ("vr", (4, 2))], 45)),
        # polar: magnitude and angle, broadcast magnitude.
        g.Case("complex_polar", [(2, 3), (2, 3), (3,)], [
            op("z", "polar", ["a0", "a1"], [((2, 3), False), ((2, 3), False)],
               ((2, 3), True)),
            op("w", "polar", ["a2", "a1"], [((3,), False), ((2, 3), False)],
               ((2, 3), True)),
            op("p", "mul", ["z", "w"], [((2, 3), True), ((2, 3), True)],
               ((2, 3), True)),
            as_real("pr", "p", (2, 3))] +
            g.weighted([("pr", (2, 3, 2))], 46)),
        # Products and quotients of complex values, a real factor, a
        # broadcast complex operand, sub with alpha, neg, and a value read
        # twice.
        g.Case("complex_arithmetic", [(3, 2), (3, 2), (3,), (1, 2)], [
            as_complex("z", "a0", (3,)),
            as_complex("w0", "a1", (3,)),
            "%two = tp.constant dense<[2.0, 0.5]> : " + ty((2,)),
            as_complex("two_c", "two", ()),
            op("w", "add", ["w0", "two_c"], [((3,), True), ((), True)],
               ((3,), True)),
            as_complex("b", "a3", (1,)),
            op("p", "mul", ["z", "w"], [((3,), True), ((3,), True)],
               ((3,), True)),
            op("q", "div", ["p", "w"], [((3,), True), ((3,), True)],
               ((3,), True)),
            op("q2", "div", ["z", "w"], [((3,), True), ((3,), True)],
               ((3,), True)),
            op("m", "mul", ["q2", "a2"], [((3,), True), ((3,), False)],
               ((3,), True)),
            op("s", "sub", ["m", "b"], [((3,), True), ((1,), True)],
               ((3,), True), "alpha = 1.5 : f64"),
            op("n", "neg", ["s"], [((3,), True)], ((3,), True)),
            op("zz", "mul", ["z", "n"], [((3,), True), ((3,), True)],
               ((3,), True)),
            op("u", "add", ["zz", "q"], [((3,), True), ((3,), True)],
               ((3,), True)),
            as_real("ur", "u", (3,))] +
            g.weighted([("ur", (3, 2))], 47)),
        # The shape ops and sum on complex values (their real rules).
        g.Case("complex_shape_ops", [(2, 3, 2), (3, 2)], [
            as_complex("z", "a0", (2, 3)),
            op("t", "transpose", ["z"], [((2, 3), True)], ((3, 2), True),
               "dim0 = 0 : i64, dim1 = 1 : i64"),
            op("p", "permute", ["z"], [((2, 3), True)], ((3, 2), True),
               "dims = array<i64: 1, 0>"),
            op("r", "reshape", ["t"], [((3, 2), True)], ((6,), True),
               "shape = array<i64: 6>"),
            op("sl", "slice", ["r"], [((6,), True)], ((4,), True),
               "dim = 0 : i64, start = 1 : i64, end = 5 : i64"),
            as_complex("w", "a1", (3,)),
            "%%c = tp.cat [%%sl, %%w] {dim = 0 : i64} : (%s, %s) -> %s"
            % (ty((4,), True), ty((3,), True), ty((7,), True)),
            op("s", "sum", ["p"], [((3, 2), True)], ((1, 2), True),
               "dim = array<i64: 0>, keepdim = true"),
            op("e", "expand", ["s"], [((1, 2), True)], ((4, 2), True),
               "size = array<i64: 4, 2>"),
            as_real("cr", "c", (7,)),
            as_real("er", "e", (4, 2))] +
            g.weighted([("cr", (7, 2)), ("er", (4, 2, 2))], 49)),
        # The elementwise functions of a complex value (each G conj(f')),
        # abs (real), mean.
        g.Case("complex_functions", [(3, 2)], [as_complex("z", "a0", (3,))] +
            [op(f, f, ["z"], [((3,), True)], ((3,), True)) for f in FUNCTIONS] +
            [op(p, "pow", ["z"], [((3,), True)], ((3,), True),
                "scalar_exponent = %r : f64" % e)
             for p, e in EXPONENTS.items()] +
            [op("ab", "abs", ["z"], [((3,), True)], ((3,), False)),
             op("mn", "mean", ["z"], [((3,), True)], ((), True))] +
            [as_real(f + "_r", f, (3,)) for f in FUNCTIONS + list(EXPONENTS)] +
            [as_real("mn_r", "mn", ())] +
            g.weighted([(f + "_r", (3, 2)) for f in FUNCTIONS +
                        list(EXPONENTS)] +
                       [("ab", (3,)), ("mn_r", (2,))], 50)),
        # A complex matmul (four real products) broadcast over a batch.
        g.Case("complex_matmul", [(2, 3, 4, 2), (4, 2, 2)], [
            as_complex("x", "a0", (2, 3, 4)), as_complex("y", "a1", (4, 2)),
            op("p", "matmul", ["x", "y"], [((2, 3, 4), True), ((4, 2), True)],
               ((2, 3, 2), True)),
            as_real("pr", "p", (2, 3, 2))] +
            g.weighted([("pr", (2, 3, 2, 2))], 53)),
        # stft (decomposed into frames and an rfft) of a signal and its
        # window.
        g.Case("complex_stft", [(24,), (6,)], [
            "%s = tp.stft %%a0 window(%%a1) {hop_length = 3 : i64, "
            "n_fft = 8 : i64, win_length = 6 : i64} : (%s, %s) -> %s"
            % ("%z", ty((24,)), ty((6,)), ty((5, 6), True)),
            as_real("zr", "z", (5, 6))] +
            g.weighted([("zr", (5, 6, 2))], 48)),
        # stft of a complex signal (two-sided: frames gathered from complex
        # values, complex times real window, fft).
        g.Case("complex_stft_complex_signal", [(24, 2), (6,)], [
            as_complex("x", "a0", (24,)),
            "%s = tp.stft %%x window(%%a1) {hop_length = 3 : i64, "
            "n_fft = 8 : i64, win_length = 6 : i64} : (%s, %s) -> %s"
            % ("%z", ty((24,), True), ty((6,)), ty((8, 6), True)),
            as_real("zr", "z", (8, 6))] +
            g.weighted([("zr", (8, 6, 2))], 52)),
        # A magnitude spectrogram: abs of the stft.
        g.Case("complex_spectrogram", [(20,)], [
            "%%z = tp.stft %%a0 {hop_length = 2 : i64, n_fft = 6 : i64} : "
            "(%s) -> %s" % (ty((20,)), ty((4, 8), True)),
            op("m", "abs", ["z"], [((4, 8), True)], ((4, 8), False))] +
            g.weighted([("m", (4, 8))], 51)),
    ]
