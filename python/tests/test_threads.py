"""Compiled calls from several threads at once: the codegen runtime keeps
one error status per calling thread, so the backend runs calls
concurrently (no process-wide lock). Two threads calling one executable
(and two executables), one failing at run time on every call and one
succeeding, each get their own outcome; a model compiled with
tensorplay.compile serves two threads with eager's results."""

import threading

import numpy as np
import pytest
import tensorplay

import tensorplay_mlir

INVERSE = """
func.func @inv(%a: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %r = tp.linalg_inv %a : (tensor<3x3xf32>) -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}
"""

SINGULAR = np.array([[1, 2, 3], [2, 4, 6], [0, 1, 1]], np.float32)
DIAGONAL = np.diag([2.0, 4.0, 0.5]).astype(np.float32)


def _call(exe, matrix):
    a = np.ascontiguousarray(matrix)
    out = np.zeros((3, 3), np.float32)
    exe.run("inv", [(a.ctypes.data, "f32", [3, 3])],
            [(out.ctypes.data, "f32", [3, 3])])
    return out


def _in_threads(*jobs):
    errors = []

    def guarded(job):
        try:
            job()
        except Exception as e:  # reported to the test below
            errors.append(e)
    threads = [threading.Thread(target=guarded, args=(j,)) for j in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


@pytest.mark.parametrize("executables", [1, 2])
def test_errors_reach_their_own_caller(executables):
    first = tensorplay_mlir.Executable(INVERSE)
    second = first if executables == 1 else tensorplay_mlir.Executable(
        INVERSE)
    outcomes = {"failed": 0, "clean": 0}

    def failing():
        for _ in range(300):
            with pytest.raises(RuntimeError, match="diagonal element"):
                _call(first, SINGULAR)
            outcomes["failed"] += 1

    def clean():
        for _ in range(300):
            np.testing.assert_allclose(_call(second, DIAGONAL),
                                       np.linalg.inv(DIAGONAL), rtol=1e-6)
            outcomes["clean"] += 1
    _in_threads(failing, clean)
    assert outcomes == {"failed": 300, "clean": 300}


def test_a_compiled_model_serves_two_threads():
    import tensorplay.nn as nn
    tensorplay.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    compiled = tensorplay.compile(model, backend="mlir",
                                  options={"fallback": False})
    inputs = [tensorplay.rand(8, 16) for _ in range(2)]
    with tensorplay.no_grad():
        wants = [model(x).numpy() for x in inputs]
        compiled(inputs[0])  # compiled once, before the threads
        results = {}

        def serve(i):
            def job():
                # (Grad mode is per thread: inference in each.)
                with tensorplay.no_grad():
                    for _ in range(50):
                        results[i] = compiled(inputs[i]).numpy()
                        np.testing.assert_allclose(results[i], wants[i],
                                                   rtol=1e-5, atol=1e-6)
            return job
        _in_threads(serve(0), serve(1))
