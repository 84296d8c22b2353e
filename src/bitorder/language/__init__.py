"""What `import bitorder` adds to triton.language: pinned reductions (tl.sum(x, axis, pinned=True))."""
import os

from .pinned import install, pin_all, pin_all_enabled

install()
if os.environ.get("BITORDER_PINNED_LAYOUTS") == "1":   # the layout pass for pinned reductions
    from . import layouts
    layouts.enable()

__all__ = ["install", "pin_all", "pin_all_enabled"]
