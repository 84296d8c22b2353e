"""What `import bitorder` adds to triton.language: pinned reductions (tl.sum(x, axis, pinned=True))."""
from .pinned import install, pin_all, pin_all_enabled

install()

__all__ = ["install", "pin_all", "pin_all_enabled"]
