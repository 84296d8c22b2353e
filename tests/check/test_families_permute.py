"""prmt.b32 in the family walk (families/walk.py, permute): LLVM packs the two 16-bit halves a butterfly moved (each
widened by cvt.u32.u16 and shuffled alone) into one register with prmt 0x5410, and an f16x2 instruction combines it
with the register the halves came from. On a corpus kernel compiled here for sm_90 (an f16 row sum, free order, one
warp): the family walk takes it, its stores put at every thread are the concrete walk's roots, and the default
checker classes it at v2. A prmt of another selector falls back to the concrete walk. Planted faults from a copied
tree make these fail: the halves of a packed reduction step swapped (the roots differ), and a shuffled half read as
the thread's own (the walk's own checks then decline the kernel)."""
import importlib
import os
import sys

import pytest

from bitorder import check
from bitorder.check import dataflow
from bitorder.check.families import walk as fw
from bitorder.check.signature import _entry, divisible_params
from bitorder.check.symbolic import Unsupported

from mutants import checker_test_fails_on_mutant

triton = pytest.importorskip("triton")
S = importlib.import_module("bitorder.check.signature")   # (check.signature is the function: its module)
HERE = os.path.dirname(os.path.abspath(__file__))
NODE = "tests/check/test_families_permute.py::test_a_permuted_pack_of_shuffled_halves_is_the_concrete_roots"


def _compiled(block: int):
    pytest.importorskip("torch")
    sys.path.insert(0, os.path.join(HERE, "..", "..", "benchmarks"))
    from corpus import SPECS
    from bitorder.check.prune import compile_config
    spec = SPECS["pinned_row_sum_f16"]
    args = {**spec.make("cpu", 7), **spec.fixed}
    return compile_config(spec.fn, triton.Config({"BR": block, "PINNED": False}, num_warps=1), args, {}, "sm90")


@pytest.mark.parametrize("block", [4, 8])
def test_a_permuted_pack_of_shuffled_halves_is_the_concrete_roots(monkeypatch, block):
    compiled = _compiled(block)
    ptx = compiled.asm
    assert "prmt.b32" in ptx and "0x5410U" in ptx and "max" not in ptx     # (the pack this test is about)
    entry, divisible = _entry(ptx), divisible_params(compiled)
    try:
        stores, n = fw.walk(entry, divisible)
    except Unsupported as e:
        raise AssertionError(f"the family walk declined the kernel: {e}")
    assert fw.roots_at(stores, n) == dataflow.walk(entry, divisible=divisible)[0]
    monkeypatch.setattr(S, "FAMILIES", True)      # (the package's default; tests/conftest.py turns it off)
    assert check.signature(compiled, store=False).startswith("v2:")


def test_a_prmt_of_another_selector_falls_back_to_the_concrete_walk():
    compiled = _compiled(4)
    ptx = compiled.asm.replace("0x5410U", "0x3210U", 1)      # (a's four bytes: no pack of halves)
    entry = _entry(ptx)
    with pytest.raises(Unsupported, match="prmt"):
        fw.walk(entry, divisible_params(compiled))


def test_planted_fault_the_halves_of_a_packed_reduction_step_swapped_is_caught(tmp_path):
    # (a wrong family the walk takes: the roots differ)
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/walk.py",
                                 "for i in range(2)], 2))", "for i in range(2)][::-1], 2))", NODE)


def test_planted_fault_a_shuffled_half_read_as_the_threads_own_is_caught(tmp_path):
    # (the walk's own checks refuse what follows: a value that still reads lane bit 0, stored to shared memory by
    # the two threads of a pair; so the kernel falls back, which the test counts as a failure)
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/walk.py",
                                 "        return ff.Shfl(x.of.of, x.bit)", "        return x.of.of", NODE)
