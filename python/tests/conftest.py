import atexit
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))

# The suite's compiles share a compile cache of their own (graphs compiled
# twice take the cache's path), never the user's ~/.cache.
if "TENSORPLAY_MLIR_CACHE_DIR" not in os.environ:
    _cache = tempfile.mkdtemp(prefix="tp-compile-cache-")
    os.environ["TENSORPLAY_MLIR_CACHE_DIR"] = _cache
    atexit.register(shutil.rmtree, _cache, ignore_errors=True)
