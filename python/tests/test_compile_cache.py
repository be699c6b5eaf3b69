"""The persistent compile cache through tensorplay.compile: a second process
compiling the same model takes every function's machine code from the cache
(no lowering, no code generation) and computes the same bits; the option
`compile_cache=False` and TENSORPLAY_MLIR_CACHE=0 keep nothing; a malformed size
bound is an error. Each run is its own process, as a user's would be.
The times are printed, never asserted (docs/benchmarks.md has them)."""

import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))

# One process: the zoo's ViT under cpu bf16 autocast, an inference call and
# two SGD steps; prints the bits of its results and what the cache did.
SCRIPT = r"""
import json, sys, time, warnings
sys.path.insert(0, %(here)r)
import numpy as np
import tensorplay
import zoo
from tensorplay_mlir import _core

options = json.loads(sys.argv[1])
tensorplay.manual_seed(0)
model = zoo.model_class("vit")()
fn = tensorplay.compile(model, backend="mlir",
                        options=dict(fallback=False, **options))
args, targets = zoo.inputs("vit")
opt = tensorplay.optim.SGD(model.parameters(), lr=1e-2)
bits = []
started = time.perf_counter()
with tensorplay.autocast("cpu", dtype=tensorplay.bfloat16):
    with tensorplay.no_grad():
        bits.append(fn(*args).float().numpy().tobytes().hex())
    for _ in range(2):
        opt.zero_grad()
        loss = zoo.loss_of("vit", fn(*args), targets)
        loss.backward()
        opt.step()
        bits.append(loss.detach().float().numpy().tobytes().hex())
seconds = time.perf_counter() - started
for p in model.parameters():
    bits.append(p.detach().numpy().tobytes().hex())
print(json.dumps({"bits": bits, "seconds": seconds,
                  "stats": _core.compile_cache_stats()}))
"""


def run(options, env_changes, tmp_path):
    env = dict(os.environ)
    env.update(env_changes)
    for k, v in env_changes.items():
        if v is None:
            del env[k]
    script = tmp_path / "run.py"
    script.write_text(SCRIPT % {"here": HERE})
    out = subprocess.run([sys.executable, str(script), json.dumps(options)],
                         env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1]), out.stderr


def entries(directory):
    if not directory.exists():
        return []
    return sorted(p.name for p in directory.iterdir())


def test_a_second_process_takes_the_code_and_computes_the_same_bits(
        tmp_path):
    cache = tmp_path / "cache"
    env = {"TENSORPLAY_MLIR_CACHE_DIR": str(cache), "TENSORPLAY_MLIR_CACHE": None}
    cold, _ = run({}, env, tmp_path)
    stored = entries(cache)
    # (The optimized tier of the last functions is stored by the background
    # compiles, which the process waits for at exit, after the counts.)
    assert 0 < cold["stats"]["stores"] <= len(stored)
    assert cold["stats"]["hits"] == 0
    warm, _ = run({}, env, tmp_path)
    assert warm["bits"] == cold["bits"]
    # Every function's code came from the cache; nothing new was stored.
    assert warm["stats"]["misses"] == 0 and warm["stats"]["stores"] == 0
    assert warm["stats"]["hits"] > 0
    assert entries(cache) == stored
    print(f"\nViT bf16 inference + 2 steps: cold {cold['seconds']:.2f} s, "
          f"from the cache {warm['seconds']:.2f} s")


def test_the_cache_can_be_turned_off(tmp_path):
    cache = tmp_path / "cache"
    env = {"TENSORPLAY_MLIR_CACHE_DIR": str(cache), "TENSORPLAY_MLIR_CACHE": None}
    on, _ = run({}, env, tmp_path)
    assert entries(cache)
    off = tmp_path / "off"
    by_option, _ = run({"compile_cache": False},
                       {**env, "TENSORPLAY_MLIR_CACHE_DIR": str(off)}, tmp_path)
    assert not entries(off) and by_option["stats"]["hits"] == 0
    assert by_option["bits"] == on["bits"]
    # TENSORPLAY_MLIR_CACHE=0 overrides everything: the full cache is not read.
    by_env, _ = run({}, {**env, "TENSORPLAY_MLIR_CACHE": "0"}, tmp_path)
    assert by_env["stats"] == {"hits": 0, "misses": 0, "stores": 0,
                               "evictions": 0, "damaged": 0}
    assert by_env["bits"] == on["bits"]


def test_a_malformed_size_bound_is_an_error(monkeypatch):
    from tensorplay_mlir import _core
    monkeypatch.setenv("TENSORPLAY_MLIR_CACHE_MAX_MB", "a lot")
    with pytest.raises(ValueError, match="TENSORPLAY_MLIR_CACHE_MAX_MB"):
        _core.compile_cache_config()
    with pytest.raises(ValueError, match="TENSORPLAY_MLIR_CACHE_MAX_MB"):
        _core.Executable("module {}")


def _train_bits(tiered, name="gpt"):
    """Three SGD steps of zoo model `name` under cpu bf16 autocast: the
    bits of the losses and of the parameters, and the compiled graphs."""
    import numpy as np
    import tensorplay
    import zoo
    graphs = []

    def recording(gm, example_inputs, **kwargs):
        from tensorplay_mlir.backend import backend
        compiled = backend(gm, example_inputs, **kwargs)
        graphs.append(compiled)
        return compiled
    tensorplay.manual_seed(0)
    model = zoo.model_class(name)()
    fn = tensorplay.compile(model, backend=recording, options={
        "fallback": False, "tiered": tiered, "compile_cache": False})
    args, targets = zoo.inputs(name)
    opt = tensorplay.optim.SGD(model.parameters(), lr=1e-2)
    bits = []
    with tensorplay.autocast("cpu", dtype=tensorplay.bfloat16):
        for step in range(3):
            opt.zero_grad()
            loss = zoo.loss_of(name, fn(*args), targets)
            loss.backward()
            opt.step()
            bits.append(loss.detach().float().numpy().tobytes())
            if step == 0:
                first = [g for g in graphs if hasattr(g, "wait_for_background")]
                for g in first:
                    g.wait_for_background()
    bits += [np.asarray(p.detach().numpy()).tobytes()
             for p in model.parameters()]
    return bits, graphs


def test_tiered_code_computes_the_same_bits():
    """Step 1 runs the O0 tier, steps 2 and 3 the O3 code swapped in: the
    same bits as O3 from the start."""
    tiered, graphs = _train_bits(True)
    direct, _ = _train_bits(False)
    assert tiered == direct
    optimized = sum(v.exe.functions_optimized_in_background()
                    for g in graphs if hasattr(g, "built")
                    for v in g.built.values())
    assert optimized >= 1
