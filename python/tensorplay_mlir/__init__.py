"""tensorplay-mlir: the ``mlir`` backend of ``tensorplay.compile``.

``tensorplay.compile(model, backend="mlir")`` finds it through the
``tensorplay_compiler_backends`` entry point. The graph is translated to the
tp dialect (:mod:`tensorplay_mlir.translate`), compiled to CPU code with the
autocast state it is called under, and run on the tensors' own memory.
``tensorplay_mlir.explain(model, *args)`` reports what it did
(:mod:`tensorplay_mlir.explain`).
"""

from ._openmp import share_openmp_runtime

share_openmp_runtime()

from ._core import Executable, transform, has_onednn  # noqa: F401,E402
from .explain import explain  # noqa: F401,E402

__all__ = ["Executable", "transform", "has_onednn", "explain"]
