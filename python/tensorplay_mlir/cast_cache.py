"""Parameters' half-precision copies, kept between calls.

Under autocast every eager call (and every compiled call that casts inside)
rounds the f32 parameters to bf16/f16 again: for the MLP about a fifth of
the bf16 forward. The compiled variants take those parameters already
rounded (tp-cast-arguments), and this cache keeps each copy while its
parameter is unchanged: the key is the parameter object, its ``_version``
(bumped by every in-place update, an optimizer step included) and its
``data_ptr()`` (changed by assigning ``.data``). An in-place update through
``.data`` bumps no version, which no cache can see: turn the cache off with
``options={"cast_cache": False}`` for code that does that.
"""


class CastCache:
    def __init__(self, enabled=True):
        self.enabled = enabled
        self.entries = {}
        self.hits = 0
        self.misses = 0

    def get(self, tensor, dtype):
        """`tensor` rounded to `dtype` (a contiguous copy)."""
        key = (id(tensor), dtype)
        stamp = (tensor._version, tensor.data_ptr())
        entry = self.entries.get(key)
        if self.enabled and entry is not None and entry[0] is tensor and \
                entry[1] == stamp:
            self.hits += 1
            return entry[2]
        self.misses += 1
        copy = tensor.detach().to(dtype).contiguous()
        if self.enabled:
            self.entries[key] = (tensor, stamp, copy)
        return copy
