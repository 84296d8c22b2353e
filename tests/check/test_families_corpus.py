"""The families of check/families/ beside the concrete walk on stored PTX (tests/check/data's TorchInductor kernels,
whose indices mix the thread index with wrapping 64-bit arithmetic): at every thread, every integer and predicate
family must be the walk's value (benchmarks/families_check.py's comparison). A planted fault from a copied tree (the
wrap of a value that reads no symbol dropped) makes it fail, as the first corpus run found."""
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


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(DATA, "inductor_*.ptx"))), ids=os.path.basename)
def test_families_are_the_walks_values_at_every_thread(monkeypatch, path):
    mirror = families_check.Mirror()
    monkeypatch.setattr(dataflow._Block, "step", mirror.step(dataflow._Block.step))
    for memo in ("_MEMO", "_BY_TEXT"):      # walk it here, though an earlier test of this process classed it
        monkeypatch.setattr(SIGNATURE, memo, {})
    mirror.kernel = os.path.basename(path)
    walked = check.signature(open(path).read(), store=False).startswith("v1:")
    assert mirror.counts["mismatch"] == 0 and mirror.counts["predicate mismatch"] == 0, mirror.mismatches[:3]
    if walked:   # (a kernel the walk declines before its first step compares nothing)
        assert mirror.counts["exact"] > 20 and mirror.counts["predicate mask"] + mirror.counts["predicate exact"] > 0


def test_planted_fault_a_family_of_constants_left_unwrapped_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/integers.py",
                                 "        return None if x is None else wrap(x, signed, bits)\n",
                                 "        return x\n",
                                 "tests/check/test_families_corpus.py::test_families_are_the_walks_values_at_every_thread")
