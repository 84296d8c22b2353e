"""The CPU twin of pinned reductions: the balanced tree in logical element order.

pinned_sum(x, axis) adds neighbours first, ((x0+x1)+(x2+x3))+..., each add rounded once
in x's type, exactly as tl.sum(x, axis, pinned=True) does on the GPU for any layout.
"""
from __future__ import annotations

import numpy as np


def pinned_reduce(x, axis=None, combine=np.add, keep_dims: bool = False) -> np.ndarray:
    """Fold `axis` (None: every element, in row-major order) as the pinned tree with `combine`."""
    x = np.asarray(x)
    ndim = x.ndim
    if axis is None:
        x, ax = x.reshape(-1), 0
    else:
        ax = axis % ndim
    n = x.shape[ax]
    if n & (n - 1) or n == 0:
        raise ValueError(f"pinned reductions fold power-of-two extents; axis has {n}")
    while x.shape[ax] > 1:
        shape = list(x.shape)
        shape[ax:ax + 1] = [shape[ax] // 2, 2]
        pairs = x.reshape(shape)
        left = np.take(pairs, 0, axis=ax + 1)
        right = np.take(pairs, 1, axis=ax + 1)
        with np.errstate(over="ignore", invalid="ignore"):
            x = combine(left, right).astype(x.dtype)
    x = np.take(x, 0, axis=ax)
    if keep_dims:
        x = np.expand_dims(x, tuple(range(ndim)) if axis is None else ax)
    return x


def pinned_sum(x, axis=None, keep_dims: bool = False) -> np.ndarray:
    """tl.sum(x, axis, pinned=True)'s exact result (float types add in their own precision;
    integers narrower than 32 bits sum in int32, as tl.sum promotes them)."""
    x = np.asarray(x)
    if x.dtype.kind in "iu" and x.dtype.itemsize < 4:
        x = x.astype(np.int32 if x.dtype.kind == "i" else np.uint32)
    return pinned_reduce(x, axis, np.add, keep_dims)
