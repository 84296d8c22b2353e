import os
import sys
import tempfile

import pytest

# The tests test the tree they sit in: its src/ comes first, here and (absolute) for the
# subprocesses the lit and planted-fault tests start, even where another checkout of bitorder
# is installed (a git worktree next to an editable install of the main one).
_SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
if sys.path[:1] != [_SRC]:
    sys.path.insert(0, _SRC)
os.environ["PYTHONPATH"] = os.pathsep.join([_SRC] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep)
                                                     if p and os.path.abspath(p) != _SRC])

# The checker's tests test its levels one at a time: v1 and v0 here and in the subprocesses the planted-fault tests
# start; the family walk (v2, on by default in the package) where a test turns signature.FAMILIES on
# (tests/check/test_signature_families.py: the default itself, the wiring and pruning with it on).
os.environ["BITORDER_FAMILIES"] = "0"

# Compile-heavy tests share one disk cache per run (and across runs on CI, when it keeps it).
os.environ.setdefault("BITORDER_CACHE_DIR", os.path.join(tempfile.gettempdir(), "bitorder-test-cache"))


def _cuda():
    try:
        import torch
        return torch.cuda.is_available()
    except Exception:
        return False


def pytest_collection_modifyitems(config, items):
    if os.environ.get("BITORDER_ALL_TESTS") != "1":     # CI time: a few long duplicates run by hand
        by_hand = pytest.mark.skip(reason="by hand: BITORDER_ALL_TESTS=1 (keeps .ci/run under 20 minutes)")
        for item in items:
            if "by_hand" in item.keywords:
                item.add_marker(by_hand)
    from bitorder.check import NATIVE   # scripts/build-native-checker: no Python internals to patch
    if NATIVE:
        compiled = pytest.mark.skip(reason="patches the interpreted checker; scripts/build-native-checker --clean")
        for item in items:
            if "interpreted_only" in item.keywords:
                item.add_marker(compiled)
    if _cuda():
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU (run scripts/gpu-run on the H200)")
    for item in items:
        if "gpu" in item.keywords or "/gpu/" in str(item.fspath):
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _compile_state_restored():
    """A test that leaves Triton's stage hook or cache directory changed fails here, by name: the next
    tests of its worker would compile in another state (2026-12-02e: test_rowperm left the layout pass
    on, then pin_all's exit pointed its compiles at the unhooked cache and CI failed six later tests)."""
    import triton
    import bitorder     # noqa: F401  (its first import installs pinned reductions: their cache directory)
    knobs = triton.knobs
    before = knobs.runtime.add_stages_inspection_hook, knobs.cache.dir
    yield
    after = knobs.runtime.add_stages_inspection_hook, knobs.cache.dir
    if after != before:
        knobs.runtime.add_stages_inspection_hook, knobs.cache.dir = before
        pytest.fail(f"the test left Triton's compile state changed: hook, cache dir {before} -> {after}")
