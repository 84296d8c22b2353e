import os
import tempfile

import pytest

# Compile-heavy tests share one disk cache per run (and across runs on CI, when it keeps it).
os.environ.setdefault("BITORDER_CACHE_DIR", os.path.join(tempfile.gettempdir(), "bitorder-test-cache"))


def _cuda():
    try:
        import torch
        return torch.cuda.is_available()
    except Exception:
        return False


def pytest_collection_modifyitems(config, items):
    if _cuda():
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU (run scripts/gpu-run on the H200)")
    for item in items:
        if "gpu" in item.keywords or "/gpu/" in str(item.fspath):
            item.add_marker(skip)
