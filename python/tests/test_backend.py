"""tensorplay.compile(model, backend="mlir"): inference, autocast variants,
fallback and guards, against tensorplay eager (the independent reference)."""

import copy
import warnings

import numpy as np
import pytest
import tensorplay
import tensorplay.nn.functional as F

import models
import tensorplay_mlir
from tensorplay_mlir import backend as backend_module
from tensorplay_mlir.compiled import GuardError

NAMES = ["mlp", "cnn", "encoder"]
# tensorplay 1.1 compiles modules with parameters that require grad through
# its AOT autograd, whose graphs are traced with the ambient autocast.
AOT = tuple(int(p) for p in tensorplay.__version__.split("+")[0].split(".")[:2]) >= (1, 1)


def array(t):
    return t.detach().float().numpy()


def assert_close(got, want, rtol, scale=None):
    """Max error within `rtol` of the reference's largest magnitude (or of
    `scale`, for values that are zero up to rounding)."""
    got, want = array(got), array(want)
    assert got.shape == want.shape
    scale = max(float(np.abs(want).max()), scale or 1e-6)
    err = float(np.abs(got - want).max())
    assert err <= rtol * scale, f"max error {err} > {rtol} * {scale}"


def flat(out):
    return list(out) if isinstance(out, (tuple, list)) else [out]


def test_entry_point_registers_mlir():
    assert "mlir" in tensorplay.compiler.list_backends()
    assert tensorplay.compiler.lookup_backend("mlir") is backend_module.backend


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("autocast", [False, True])
def test_inference_matches_eager(name, autocast):
    model = models.model(name)
    args = models.inputs(name)
    compiled = tensorplay.compile(model, backend="mlir")
    with tensorplay.no_grad(), tensorplay.autocast("cpu", enabled=autocast):
        got = flat(compiled(*args))
        want = flat(model(*args))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype  # eager autocast's dtypes (bf16 logits)
        assert_close(g, w, 2e-2 if autocast else 1e-5)


def test_mlp_gelu_is_one_op():
    captured = {}

    def probe(gm, example_inputs, **kwargs):
        captured["program"] = tensorplay_mlir.translate.translate(
            gm, example_inputs)
        return gm
    model = models.model("mlp")
    with tensorplay.no_grad():
        tensorplay.compile(model, backend=probe)(*models.inputs("mlp"))
    text = captured["program"].text
    assert text.count("tp.gelu") == 2
    assert "tp.erf" not in text


def inference_only(model):
    """`model` with no parameter requiring grad, in eval mode: tensorplay
    1.1 then captures it without AOT autograd, like 1.0."""
    for p in model.parameters():
        p.requires_grad_(False)
    model.eval()
    return model


def check_follows_autocast(compiled, model, args, states):
    """Under each autocast state of `states` in turn, the compiled MLP gives
    eager's dtypes and values."""
    with tensorplay.no_grad():
        for enabled in states:
            with tensorplay.autocast("cpu", enabled=enabled):
                logits, loss = compiled(*args)
                want_logits, want_loss = model(*args)
            assert logits.dtype == want_logits.dtype
            assert loss.dtype == want_loss.dtype
            assert_close(logits, want_logits, 2e-2 if enabled else 1e-5)


def test_variant_follows_ambient_autocast_each_call():
    model = inference_only(models.model("mlp"))
    args = models.inputs("mlp")
    compiled = tensorplay.compile(model, backend="mlir")
    check_follows_autocast(compiled, model, args, (False, True, False, True))


@pytest.mark.skipif(not AOT, reason="tensorplay 1.0 has no AOT graphs")
def test_aot_inference_graph_without_casts_follows_the_autocast_state():
    """Traced in inference without autocast, a graph is plain f32: called
    under autocast, it compiles its autocast variant (as on 1.0) and gives
    eager autocast's dtypes; one variant per state, no second compile of
    the same state."""
    model = models.model("mlp")
    args = models.inputs("mlp")
    compiled, graphs = compile_recording(model)
    with tensorplay.no_grad():
        compiled(*args)  # traced without autocast
    check_follows_autocast(compiled, model, args, (True, False, True))
    assert len(graphs) == 1
    assert sorted(key[0] for key in graphs[0].variants) == ["", "cpu:bf16"]


@pytest.mark.skipif(not AOT, reason="tensorplay 1.0 has no AOT graphs")
def test_aot_graph_with_casts_under_another_autocast_state_is_refused():
    from tensorplay_mlir.compiled import AutocastMismatchError
    model = models.model("mlp")
    args = models.inputs("mlp")
    compiled = tensorplay.compile(model, backend="mlir")
    with tensorplay.no_grad():
        with tensorplay.autocast("cpu"):
            compiled(*args)  # traced with autocast's casts
        with pytest.raises(AutocastMismatchError, match=r"cache"):
            compiled(*args)
        with tensorplay.autocast("cpu"):
            logits, _ = compiled(*args)  # its own state still works
    assert logits.dtype == tensorplay.bfloat16


def test_explicit_autocast_option_and_keep_io_types():
    model = models.model("mlp")
    args = models.inputs("mlp")
    with tensorplay.no_grad():
        logits, _ = tensorplay.compile(
            model, backend="mlir", options={"autocast": "cpu:bf16"})(*args)
        assert logits.dtype == tensorplay.bfloat16
        kept, _ = tensorplay.compile(
            model, backend="mlir",
            options={"autocast": "cpu:bf16", "keep_io_types": True})(*args)
        assert kept.dtype == tensorplay.float32
        with tensorplay.autocast("cpu"):
            want, _ = model(*args)
        assert_close(kept, want, 2e-2)


def test_inner_autocast_is_lost_and_the_option_restores_it():
    model = models.model("mlp")
    args = models.inputs("mlp")

    def inner(x, labels):
        with tensorplay.autocast("cpu"):
            return model(x, labels)
    with tensorplay.no_grad():
        eager, _ = inner(*args)
        lost, _ = tensorplay.compile(inner, backend="mlir")(*args)
        restored, _ = tensorplay.compile(
            inner, backend="mlir", options={"autocast": "cpu:bf16"})(*args)
    assert eager.dtype == tensorplay.bfloat16
    assert lost.dtype == tensorplay.float32  # the frontend drops it
    assert restored.dtype == tensorplay.bfloat16
    assert_close(restored, eager, 2e-2)


def test_bad_options_are_refused():
    model = models.model("mlp")
    for options in ({"autocast": "cuda:fp16"}, {"autocast": "bf16"},
                    {"bogus": 1}, {"opt_level": 4}, {"opt_level": "O2"}):
        with pytest.raises(backend_module.BackendError):
            with tensorplay.no_grad():
                tensorplay.compile(model, backend="mlir",
                                   options=options)(*models.inputs("mlp"))


def test_unsupported_node_falls_back_with_one_warning():
    model = models.Sorted()
    (x,) = models.inputs("encoder")
    compiled = tensorplay.compile(model, backend="mlir")
    with tensorplay.no_grad():
        with pytest.warns(RuntimeWarning, match=r"'sort'"):
            got = compiled(x)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            again = compiled(x)
        want = model(x)
    assert_close(got, want, 1e-6)
    assert_close(again, want, 1e-6)


def test_fallback_false_is_an_error_naming_the_node():
    model = models.Sorted()
    (x,) = models.inputs("encoder")
    compiled = tensorplay.compile(model, backend="mlir",
                                  options={"fallback": False})
    with tensorplay.no_grad():
        with pytest.raises(backend_module.BackendError, match=r"sort"):
            compiled(x)


def capture(model, args):
    inference_only(model)
    graphs = []

    def probe(gm, example_inputs, **kwargs):
        graphs.append((gm, list(example_inputs)))
        return gm
    with tensorplay.no_grad():
        tensorplay.compile(model, backend=probe)(*args)
    return graphs[0]


def test_guard_refuses_another_shape_or_dtype():
    model = models.model("mlp")
    args = models.inputs("mlp")
    gm, example = capture(model, args)
    compiled = backend_module.backend(gm, example)
    with tensorplay.no_grad():
        compiled(*args)
        with pytest.raises(GuardError, match=r"shape \[8, 64\].*\[4, 64\]"):
            compiled(tensorplay.randn(4, 64), args[1][:4])
        with pytest.raises(GuardError, match=r"dtype f32.*f64"):
            compiled(args[0].double(), args[1])
        with pytest.raises(GuardError, match=r"takes input #1, got 1 "
                                             r"arguments"):
            compiled(args[0])
        with pytest.raises(GuardError, match=r"must be a tensor, got list"):
            compiled(args[0], [1.0])


def test_non_contiguous_input_is_made_dense():
    model = models.model("mlp")
    x, labels = models.inputs("mlp")
    gm, example = capture(model, (x, labels))
    compiled = backend_module.backend(gm, example)
    xt = tensorplay.randn(64, 8).t()
    assert not xt.is_contiguous()
    with tensorplay.no_grad():
        got, _ = compiled(xt, labels)
        want, _ = model(xt.contiguous(), labels)
    assert_close(got, want, 1e-5)


def test_parameter_updates_are_seen_without_recompiling():
    model = models.model("mlp")
    args = models.inputs("mlp")
    compiled = tensorplay.compile(model, backend="mlir")
    with tensorplay.no_grad():
        before, _ = compiled(*args)
        for p in model.parameters():
            p.mul_(0.5)
        after, _ = compiled(*args)
        want, _ = model(*args)
    assert_close(after, want, 1e-5)
    assert float(np.abs(array(after) - array(before)).max()) > 1e-3


def test_core_errors_are_clear():
    with pytest.raises(RuntimeError, match=r"unknown"):
        tensorplay_mlir.Executable(
            "func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
            "  %y = tp.bogus %x : (tensor<2xf32>) -> tensor<2xf32>\n"
            "  return %y : tensor<2xf32>\n}")
    exe = tensorplay_mlir.Executable(
        "func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
        "  %y = tp.exp %x : (tensor<2xf32>) -> tensor<2xf32>\n"
        "  return %y : tensor<2xf32>\n}")
    x = np.array([0.0, 1.0], dtype=np.float32)
    y = np.zeros(2, dtype=np.float32)
    with pytest.raises(RuntimeError, match=r"has 1 arguments, got 0"):
        exe.run("f", [], [])
    with pytest.raises(RuntimeError, match=r"must be tensor<2xf32>"):
        exe.run("f", [(x.ctypes.data, "f32", [3])], [(y.ctypes.data, "f32",
                                                       [2])])
    with pytest.raises(ValueError, match=r"unsupported dtype"):
        exe.run("f", [(x.ctypes.data, "f8", [2])], [(y.ctypes.data, "f32",
                                                      [2])])
    exe.run("f", [(x.ctypes.data, "f32", [2])], [(y.ctypes.data, "f32", [2])])
    np.testing.assert_allclose(y, np.exp(x), rtol=1e-6)
    # run_addresses: the buffers' dtypes and shapes are the signature's.
    with pytest.raises(ValueError, match=r"@f has 1 results, got 2"):
        exe.run_addresses("f", [x.ctypes.data], [y.ctypes.data] * 2)
    with pytest.raises(KeyError, match=r"no public function @g"):
        exe.run_addresses("g", [x.ctypes.data], [y.ctypes.data])
    x2 = np.array([2.0, -1.0], dtype=np.float32)
    exe.run_addresses("f", [x2.ctypes.data], [y.ctypes.data])
    np.testing.assert_allclose(y, np.exp(x2), rtol=1e-6)


def compile_recording(model, **kwargs):
    """tensorplay.compile(model, backend="mlir"), and the list the backend's
    CompiledGraphs are appended to."""
    graphs = []

    def recording(gm, example_inputs, **kw):
        graphs.append(backend_module.backend(gm, example_inputs, **kw))
        return graphs[-1]
    return tensorplay.compile(model, backend=recording, **kwargs), graphs


def test_cast_copies_are_kept_while_parameters_are_unchanged():
    model = inference_only(models.model("mlp"))
    args = models.inputs("mlp")
    compiled, graphs = compile_recording(model)
    with tensorplay.no_grad(), tensorplay.autocast("cpu"):
        for _ in range(3):
            compiled(*args)
        graph = graphs[0]
        (variant,) = [v for key, v in graph.variants.items()
                      if key[:2] == ("cpu:bf16", None)]
        # The compiled forward takes every weight and bias in bf16.
        kinds = [kind for kind, _ in variant.arg_specs]
        assert kinds[2:] == ["bf16"] * 6 and kinds[:2] == ["f32", "i64"]
        assert graph.cast_cache.misses == 6 and graph.cast_cache.hits == 12
        # An in-place update (as an optimizer step does) is seen...
        model.fc0.weight.mul_(0.5)
        got, _ = compiled(*args)
        want, _ = model(*args)
        assert graph.cast_cache.misses == 7
        assert_close(got, want, 2e-2)
        # ... and so is a new .data (which eager autocast's own cache, alive
        # for the whole autocast region, does not see: the reference is
        # computed in a region of its own).
        model.out.weight.data = tensorplay.randn(10, 128)
        got, _ = compiled(*args)
        assert graph.cast_cache.misses == 8
    with tensorplay.no_grad(), tensorplay.autocast("cpu"):
        want, _ = model(*args)
    assert_close(got, want, 2e-2)


def compile_and_translate(model, autocast, inputs="encoder",
                          eager_autocast=True):
    """`model` on the `inputs` of models.py, compiled without fallback and
    run eagerly (under autocast too unless `eager_autocast` is false, for
    ops eager tensorplay has no bf16 kernel of): (compiled result, eager
    result, the translated program)."""
    captured = {}

    def probe(gm, example_inputs, **kwargs):
        captured["program"] = tensorplay_mlir.translate.translate(
            gm, example_inputs)
        return backend_module.backend(gm, example_inputs, **kwargs)
    model = inference_only(model)
    args = models.inputs(inputs)
    compiled = tensorplay.compile(model, backend=probe,
                                  options={"fallback": False})
    with tensorplay.no_grad(), tensorplay.autocast("cpu", enabled=autocast):
        got = compiled(*args)
    with tensorplay.no_grad(), tensorplay.autocast(
            "cpu", enabled=autocast and eager_autocast):
        want = model(*args)
    return got, want, captured["program"]


@pytest.mark.parametrize("autocast", [False, True])
def test_decomposed_activations_become_tp_ops(autocast):
    got, want, program = compile_and_translate(models.Activations(),
                                               autocast)
    if not AOT:  # 1.1 hands softplus and tanh-gelu over as themselves
        assert sorted(program.recomposed) == ["gelu", "gelu", "sigmoid",
                                              "silu", "softplus"]
    for op in ("tp.silu", "tp.sigmoid", "tp.softplus", "tp.gelu"):
        assert op in program.text
    for primitive in ("tp.exp", "tp.erf", "tp.tanh", "tp.log "):
        assert primitive not in program.text
    assert "approximate = #tp.approximate<tanh>" in program.text
    assert got.dtype == want.dtype
    assert np.isfinite(array(got)).all()
    assert_close(got, want, 2e-2 if autocast else 1e-5)


@pytest.mark.parametrize("autocast", [False, True])
def test_masks_and_comparisons_compile(autocast):
    got, want, program = compile_and_translate(models.Masking(), autocast)
    text = program.text
    # (leaky_relu and hardswish may arrive decomposed by the frontend.)
    for op in ("tp.gt", "tp.lt", "tp.ge", "tp.eq", "tp.where",
               "tp.masked_fill", "tp.clamp"):
        assert op + " " in text, op
    assert "0xFFF0000000000000" in text  # the -inf fill value
    assert got.dtype == want.dtype
    assert_close(got, want, 2e-2 if autocast else 1e-5)


@pytest.mark.parametrize("autocast", [False, True])
def test_pools_compile(autocast):
    # tensorplay has no bf16 max_pool2d kernel ("not implemented for
    # 'BFloat16'"): the bf16 result is measured against f32 eager.
    got, want, program = compile_and_translate(
        models.model("pooled_cnn"), autocast, "pooled_cnn",
        eager_autocast=False)
    text = program.text
    for op in ("tp.max_pool2d ", "tp.avg_pool2d ", "tp.adaptive_avg_pool2d "):
        assert op in text, op
    assert "count_include_pad = false" in text
    assert "ceil_mode = true" in text
    assert got.dtype == (tensorplay.bfloat16 if autocast else want.dtype)
    assert_close(got, want, 3e-2 if autocast else 1e-5)


@pytest.mark.parametrize("autocast", [False, True])
def test_indexing_and_splits_compile(autocast):
    got, want, program = compile_and_translate(models.Slicing(), autocast)
    assert "tp.slice " in program.text
    assert "step = 2 : i64" in program.text
    assert got.dtype == want.dtype
    assert_close(got, want, 2e-2 if autocast else 1e-5)


@pytest.mark.parametrize("autocast", [False, True])
def test_selection_and_factories_compile(autocast):
    got, want, program = compile_and_translate(models.Selecting(), autocast)
    text = program.text
    for op in ("tp.topk ", "tp.gather ", "tp.argmax ", "tp.scatter_add ",
               "tp.index_copy ", "tp.maximum ", "tp.minimum "):
        assert op in text, op
    # The f32 positions' arange (the frontend folds arange(2) * 2 and
    # ones(2, 32) into graph constants), and zeros_like in h's dtype.
    assert "dense<[0.00000000000000000e+00, 1.00000000000000000e+00, " in text
    assert "tp.masked_fill " in text
    assert got.dtype == want.dtype
    assert_close(got, want, 2e-2 if autocast else 1e-5)


@pytest.mark.parametrize("autocast", [False, True])
def test_decomposed_ops_compile_as_one_op_each(autocast):
    got, want, program = compile_and_translate(models.Decomposed(), autocast)
    text = program.text
    assert "is_causal = true" in text
    for op in ("tp.scaled_dot_product_attention ", "tp.cross ", "tp.cdist ",
               "tp.pdist ", "tp.renorm ", "tp.multi_margin_loss ",
               "tp.multilabel_margin_loss "):
        assert op in text, op
    assert got.dtype == want.dtype
    assert_close(got, want, 3e-2 if autocast else 1e-5)


@pytest.mark.parametrize("autocast", [False, True])
def test_linear_algebra_compiles_through_lapack(autocast):
    got, want, program = compile_and_translate(models.Linalg(), autocast)
    for op in ("tp.linalg_inv ", "tp.inverse ", "tp.linalg_cholesky ",
               "tp.linalg_solve ", "tp.linalg_eigvalsh ", "tp.linalg_svdvals ",
               "tp.pinverse "):
        assert op in program.text, op
    assert got.dtype == want.dtype
    # The ops run in f32 under autocast too (the fp32 list).
    assert_close(got, want, 1e-5)


def test_placements_are_exact():
    got, want, program = compile_and_translate(models.Placements(), False)
    for op in ("tp.slice_backward ", "tp.where ", "tp.gather ",
               "tp.max_dim "):
        assert op in program.text, op
    for g, w in zip(flat(got), flat(want)):
        assert g.dtype == w.dtype and g.shape == w.shape
        assert np.array_equal(array(g), array(w))


@pytest.mark.skipif(not AOT, reason="tensorplay 1.0 cannot capture "
                    "F.ctc_loss (its tracer passes graph proxies to "
                    "_C._ctc_loss)")
@pytest.mark.parametrize("autocast", [False, True])
def test_ctc_loss_compiles_through_its_kernel(autocast):
    got, want, program = compile_and_translate(models.Ctc(), autocast)
    assert program.text.count("tp.ctc_loss ") == 3
    assert "blank = 31 : i64" in program.text
    assert "zero_infinity = true" in program.text
    # ctc_loss is on the cpu fp32 list: f32 under autocast too.
    assert got.dtype == want.dtype == tensorplay.float32
    assert np.isfinite(want.numpy()).all()
    assert_close(got, want, 1e-5)


@pytest.mark.parametrize("autocast", [False, True])
def test_fake_quantize_compiles_as_its_tp_op(autocast):
    got, want, program = compile_and_translate(models.FakeQuantized(),
                                               autocast)
    assert ("tp.fake_quantize_per_tensor_affine" in program.text and
            "zero_point = 3 : i64" in program.text)
    levels = np.round(got.numpy() / 0.05) + 3
    assert levels.min() == -16 and levels.max() == 15
    assert_close(got, want, 1e-6)


@pytest.mark.parametrize("autocast", [False, True])
def test_batch_norm_inference_compiles(autocast):
    got, want, program = compile_and_translate(
        models.model("normed_cnn"), autocast, "normed_cnn")
    assert "tp.batch_norm " in program.text
    assert "running_mean(" in program.text
    assert got.dtype == want.dtype
    assert_close(got, want, 3e-2 if autocast else 1e-5)


def test_keyword_arguments_bind_to_the_graph_inputs():
    model = inference_only(models.model("mlp"))
    x, labels = models.inputs("mlp")
    compiled = tensorplay.compile(model, backend="mlir")
    with tensorplay.no_grad():
        want, _ = model(x, labels)
        got, _ = compiled(x, labels=labels)
        assert_close(got, want, 1e-5)
        again, _ = compiled(labels=labels, x=x)
        assert_close(again, want, 1e-5)


def test_the_gil_is_released_while_compiled_code_runs():
    """While another thread is inside a long compiled call, this thread
    runs Python: held, the GIL would stop it until the call returns."""
    import threading
    import time
    n = 1024
    chain = "\n".join(
        f"  %m{i + 1} = tp.matmul %m{i}, %b : (tensor<{n}x{n}xf32>, "
        f"tensor<{n}x{n}xf32>) -> tensor<{n}x{n}xf32>" for i in range(12))
    exe = tensorplay_mlir.Executable(
        f"func.func @f(%m0: tensor<{n}x{n}xf32>, %b: tensor<{n}x{n}xf32>) -> "
        f"tensor<{n}x{n}xf32> {{\n{chain}\n  return %m12 : "
        f"tensor<{n}x{n}xf32>\n}}")
    a = np.full((n, n), 1.0 / n, dtype=np.float32)
    out = np.zeros((n, n), dtype=np.float32)
    buffers = ([(a.ctypes.data, "f32", [n, n])] * 2,
               [(out.ctypes.data, "f32", [n, n])])
    t0 = time.perf_counter()
    exe.run("f", *buffers)
    duration = time.perf_counter() - t0
    started = []

    def work():
        started.append(time.perf_counter())
        exe.run("f", *buffers)
    worker = threading.Thread(target=work)
    worker.start()
    stamps = []
    while worker.is_alive():
        stamps.append(time.perf_counter())
    worker.join()
    # Iterations in the middle of the call (its ends are blurred by the
    # switch of the GIL before and after it).
    lo, hi = started[0] + 0.25 * duration, started[0] + 0.75 * duration
    during = sum(1 for t in stamps if lo < t < hi)
    np.testing.assert_allclose(out, a, rtol=1e-5)
    assert during > 1000, during


def broken_exp(monkeypatch):
    """Makes the translation of exp emit an op no compiler knows."""
    from tensorplay_mlir import ops

    def handler(tr, node, x):
        shape, elt = tr.meta_of(node)
        return tr.emit("not_an_op", [x], shape, elt)
    monkeypatch.setitem(ops.HANDLERS, "exp", handler)


class Exp(tensorplay.nn.Module):
    def forward(self, x):
        return (x * 0.5).exp() + 1.0


def test_a_graph_that_fails_to_compile_falls_back(monkeypatch):
    broken_exp(monkeypatch)
    (x,) = models.inputs("encoder")
    compiled = tensorplay.compile(Exp(), backend="mlir")
    with tensorplay.no_grad():
        with pytest.warns(RuntimeWarning, match=r"(?s)compiling it failed.*"
                          r"not_an_op"):
            got = compiled(x)
    assert_close(got, Exp()(x), 1e-6)


def test_compile_failure_without_fallback_is_an_error(monkeypatch):
    broken_exp(monkeypatch)
    (x,) = models.inputs("encoder")
    compiled = tensorplay.compile(Exp(), backend="mlir",
                                  options={"fallback": False})
    with tensorplay.no_grad():
        with pytest.raises(backend_module.BackendError, match=r"not_an_op"):
            compiled(x)


def test_bad_pipeline_option_is_an_error():
    with pytest.raises(backend_module.BackendError, match=r"pipeline"):
        with tensorplay.no_grad():
            tensorplay.compile(models.model("mlp"), backend="mlir",
                               options={"pipeline": "bogus=1"})(
                *models.inputs("mlp"))


class InPlace(tensorplay.nn.Module):
    def forward(self, x):
        x.mul_(2.0)
        return x + 1.0


def test_an_in_place_update_happens_once():
    """The backend re-propagates shapes by running the graph, which repeats
    its in-place updates (here of the input): the touched tensors are
    restored, and the compiled code makes the update itself, once. (The
    frontend itself runs the graph several times while capturing, as it
    updates batch_norm's statistics: the reference is a backend that
    returns the graph untouched.)"""
    def plain(gm, example_inputs, **kwargs):
        return gm
    results = {}
    for name, backend in (("plain", plain), ("mlir", "mlir")):
        x = tensorplay.ones(3)
        compiled = tensorplay.compile(InPlace(), backend=backend)
        with tensorplay.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = compiled(x)
        results[name] = (array(x), array(out))
    for got, want in zip(results["mlir"], results["plain"]):
        np.testing.assert_array_equal(got, want)


@pytest.mark.skipif(not AOT, reason="tensorplay 1.0 has no AOT graphs")
def test_aot_inference_loop_takes_cached_weight_copies():
    model = models.model("mlp")  # parameters require grad: AOT graphs
    args = models.inputs("mlp")
    compiled, graphs = compile_recording(model)
    with tensorplay.no_grad(), tensorplay.autocast("cpu"):
        for _ in range(3):
            got, _ = compiled(*args)
        graph = graphs[0]
        rounded = [v for key, v in graph.variants.items() if len(key) == 3]
        assert len(rounded) == 1
        kinds = [kind for kind, _ in rounded[0].arg_specs]
        assert kinds.count("bf16") >= 6  # the weights and biases
        assert graph.cast_cache.hits >= 6
        want, _ = model(*args)
        assert_close(got, want, 2e-2)
        for p in model.parameters():
            p.mul_(0.5)  # a changed parameter: the casting variant again
        got, _ = compiled(*args)
    with tensorplay.no_grad(), tensorplay.autocast("cpu"):
        want, _ = model(*args)
    assert_close(got, want, 2e-2)


def test_expanded_cotangent():
    """y.sum().backward() hands the compiled backward an expanded (stride
    0) cotangent (1.0: it was refused with 'a non-contiguous tensor reached
    the compiled code')."""
    tensorplay.manual_seed(0)
    layer = tensorplay.nn.Linear(4, 3)
    twin = copy.deepcopy(layer)
    x = tensorplay.randn(5, 4)
    compiled = tensorplay.compile(layer, backend="mlir",
                                  options={"fallback": False})
    compiled(x).sum().backward()
    twin(x).sum().backward()
    assert_close(layer.weight.grad, twin.weight.grad, 1e-5)
    assert_close(layer.bias.grad, twin.bias.grad, 1e-5)


class WithDropout(tensorplay.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = tensorplay.nn.Linear(8, 16)
        self.b = tensorplay.nn.Linear(16, 4)
        self.drop = tensorplay.nn.Dropout(0.5)

    def forward(self, x):
        return self.b(self.drop(F.gelu(self.a(x)))).softmax(-1)


def test_an_untranslatable_node_runs_alone_between_compiled_partitions():
    """Training-mode dropout cannot be compiled (its mask would not be
    eager's): it runs on the executor, the nodes before and after it are
    compiled, one warning names it; values and gradients are the
    executor's."""
    from tensorplay_mlir.compiled import CompiledGraph
    from tensorplay_mlir.partition import Partitioned
    tensorplay.manual_seed(0)
    model = WithDropout()
    twin = copy.deepcopy(model)
    compiled, graphs = compile_recording(model)
    reference = tensorplay.compile(twin, backend=lambda gm, ex, **kw: gm)
    x = tensorplay.randn(3, 8)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for call in range(2):
            # (The frontend's first call draws random numbers while
            # capturing: compared from the second call on.)
            tensorplay.manual_seed(5 + call)
            got = compiled(x)
            tensorplay.manual_seed(5 + call)
            want = reference(x)
        # (Not the sum: a softmax's rows sum to one.)
        got[:, 0].sum().backward()
        want[:, 0].sum().backward()
    assert_close(got, want, 1e-5)
    assert_close(model.a.weight.grad, twin.a.weight.grad, 1e-5)
    assert_close(model.b.weight.grad, twin.b.weight.grad, 1e-5)
    messages = [str(w.message) for w in caught
                if "Python executor" in str(w.message)]
    assert messages and all("dropout" in m for m in messages), messages
    forward = graphs[0]
    assert isinstance(forward, Partitioned)
    assert len(forward.partitions) == 2
    assert all(isinstance(p.compiled, CompiledGraph)
               for p in forward.partitions.values())


def test_explain_reports_partitions_fallbacks_decisions_and_lines():
    import inspect
    tensorplay.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with tensorplay.autocast("cpu"):
            report = tensorplay_mlir.explain(WithDropout(),
                                             tensorplay.randn(3, 8),
                                             backward=True)
    forward = report.graphs[0]
    assert forward.kind == "forward"
    assert [f.name for f in forward.fallbacks] in (["dropout"],
                                                   ["native_dropout"])
    assert "random mask" in forward.fallbacks[0].reason or \
        "no tp translation" in forward.fallbacks[0].reason
    compiled = [p for p in forward.partitions if p.compiled]
    assert len(compiled) == 2
    assert all(t > 0 for p in compiled for t in p.compile_seconds.values())
    linears = [n for n in forward.nodes if "linear" in n.target]
    # autocast's decision: the products compute in bf16
    assert linears and all("xbf16>" in types for n in linears
                           for op, types in n.ops if op == "linear")
    if not AOT:
        # 1.0's nodes carry the user's line: WithDropout.forward's.
        lines, first = inspect.getsourcelines(WithDropout.forward)
        assert linears[0].source.endswith(
            f"test_backend.py:{first + len(lines) - 1}")
    text = str(report)
    assert "Python executor" in text and "partitions" in text


def test_opt_level_option():
    """O0 code (a fast cold start) computes what O3 code does."""
    model = inference_only(models.model("mlp"))
    args = models.inputs("mlp")
    with tensorplay.no_grad():
        fast = tensorplay.compile(model, backend="mlir",
                                  options={"opt_level": 0})(*args)
        full = tensorplay.compile(model, backend="mlir")(*args)
    for a, b in zip(fast, full):
        assert_close(a, b, 1e-6)


class GroupNormed(tensorplay.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = tensorplay.nn.Conv2d(3, 8, 3, padding=1)
        self.norm = tensorplay.nn.GroupNorm(4, 8)

    def forward(self, x):
        return self.norm(self.conv(x))


class Rows(tensorplay.nn.Module):
    def __init__(self):
        super().__init__()
        self.table = tensorplay.nn.Parameter(tensorplay.randn(10, 8))

    def forward(self, idx):
        return self.table[idx] * 2.0


@pytest.mark.parametrize("name", ["group_norm", "index"])
def test_group_norm_and_tensor_index(name):
    """F.group_norm (1.0) / group_norm and group_norm_backward (1.1), and
    x[idx] with negative indices, against eager: values and gradients. (1.1
    spells the index's backward as an auto_functionalized index_put_, which
    runs on the executor between compiled partitions.)"""
    tensorplay.manual_seed(0)
    model = GroupNormed() if name == "group_norm" else Rows()
    twin = copy.deepcopy(model)
    args = (tensorplay.randn(2, 3, 6, 6),) if name == "group_norm" else \
        (tensorplay.tensor([3, -1, 0, 3]),)
    strict = name == "group_norm" or not AOT
    compiled = tensorplay.compile(model, backend="mlir",
                                  options={"fallback": not strict})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = compiled(*args)
        want = twin(*args)
        tensorplay.manual_seed(1)
        weights = tensorplay.randn(*want.shape)
        (got * weights).sum().backward()
        (want * weights).sum().backward()
    assert_close(got, want, 1e-5)
    for p, q in zip(model.parameters(), twin.parameters()):
        assert_close(p.grad, q.grad, 1e-5)
