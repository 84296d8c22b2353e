"""Triton 3.6's interpreter turns scalars into 1-element arrays and calls int() on them,
which numpy >= 2.3 refuses: index through the one element instead (test harness only)."""
import numpy as np
import triton.runtime.interpreter as _interp

_patch = _interp._patch_lang_tensor


def _patch_lang_tensor(tensor, scope):
    _patch(tensor, scope)
    scope.set_attr(tensor, "__index__", lambda self: int(np.asarray(self.handle.data).reshape(-1)[0]))


_interp._patch_lang_tensor = _patch_lang_tensor
