"""The families of check/families/ beside the concrete walk on stored PTX (tests/check/data's TorchInductor kernels,
whose indices mix the thread index with wrapping 64-bit arithmetic): at every thread, every integer and predicate
family must be the walk's value, and every float family's key the walk's node key (benchmarks/families_check.py's
comparison). Planted faults from a copied tree make it fail: the wrap of a value that reads no symbol dropped (as the
first corpus run found), and a commuting node's children left unsorted."""
import glob
import importlib
import os
import sys

import pytest

from bitorder import check
from bitorder.check import dataflow

from mutants import checker_test_fails_on_mutant

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
import families_check   # noqa: E402

SIGNATURE = importlib.import_module("bitorder.check.signature")   # (check.signature is the function: its module)

DATA = os.path.join(os.path.dirname(__file__), "data")

triton = pytest.importorskip("triton")
tl = triton.language


@triton.jit
def _axpy_like(x_ptr, z_ptr, y_ptr, N, BLOCK: tl.constexpr):
    """Masked f32 elementwise code: the float families' loads, selects and commuting nodes."""
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + o, mask=o < N, other=0.0)
    z = tl.load(z_ptr + o, mask=o < N, other=0.0)
    tl.store(y_ptr + o, (x + z) * x + 1.0, mask=o < N)


def _mirrored(monkeypatch, ptx: str, name: str):
    """benchmarks/families_check.py's Mirror over one walk of ptx (the signature memos emptied first)."""
    mirror = families_check.Mirror()
    monkeypatch.setattr(dataflow._Block, "step", mirror.step(dataflow._Block.step))
    for memo in ("_MEMO", "_BY_TEXT"):      # walk it here, though an earlier test of this process classed it
        monkeypatch.setattr(SIGNATURE, memo, {})
    mirror.kernel = name
    walked = check.signature(ptx, store=False).startswith("v1:")
    assert mirror.counts["mismatch"] == 0 and mirror.counts["predicate mismatch"] == 0 and \
        mirror.counts["float mismatch"] == 0, mirror.mismatches[:3]
    return mirror, walked


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(DATA, "inductor_*.ptx"))), ids=os.path.basename)
def test_families_are_the_walks_values_at_every_thread(monkeypatch, path):
    mirror, walked = _mirrored(monkeypatch, open(path).read(), os.path.basename(path))
    if walked:   # (a kernel the walk declines before its first step compares nothing)
        assert mirror.counts["exact"] > 20 and mirror.counts["predicate mask"] + mirror.counts["predicate exact"] > 0


@pytest.mark.parametrize("block,warps", [(256, 2), (128, 4), (1024, 1)])
def test_float_families_key_as_the_walk_keys_its_nodes(monkeypatch, block, warps):
    import torch
    from bitorder.check.prune import compile_config
    named = {"x_ptr": torch.empty(8), "z_ptr": torch.empty(8), "y_ptr": torch.empty(8), "N": 1000}
    ptx = compile_config(_axpy_like, triton.Config({"BLOCK": block}, num_warps=warps), named, {}, "sm90").asm
    mirror, walked = _mirrored(monkeypatch, ptx, f"axpy_like {block} {warps}")
    assert walked and mirror.counts["float exact"] >= 2, dict(mirror.counts)   # (an add and an fma at least)


def test_planted_fault_a_family_of_constants_left_unwrapped_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/integers.py",
                                 "        return None if x is None else wrap(x, signed, bits)\n",
                                 "        return x\n",
                                 "tests/check/test_families_corpus.py::test_families_are_the_walks_values_at_every_thread")


def test_planted_fault_a_commuting_nodes_children_left_unsorted_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/floats.py",
                                 "return sorted(keys) if k == _COMMUTES", "return list(keys) if k == _COMMUTES",
                                 "tests/check/test_families_corpus.py::test_float_families_key_as_the_walk_keys_its_nodes")
