"""Names of case splits on thread bits (names.by_thread_bits) and of slots that differ in form (names.per_slot), on
corpus kernels compiled here for sm_90:
- a row a lane picks among the rows its thread holds (one warp, two rows: a select on a mask of the row's thread
  bit) and a row a warp bit holds get one v2 name, so the v2 partition of those layouts is v1's (l2norm; row_max,
  whose case split is between two rows' joins);
- rotary's slots, vectorised differently in some places, are split only along the bits where their forms differ,
  so one warp and four warps meet as under v1;
- put at every thread, the family walk's stores there are the concrete walk's roots (the walk is unchanged; the
  names are what changed), and a kernel reading the rows swapped is told apart.
A shuffle of integer work on a float's bits (row_absmax's and with 0x7FFFFFFF) put at every thread is the concrete
roots too. Planted faults from copied trees make these fail: the cases' thread bits put to the wrong values, each case
of a form split named by its first slot, and a substitution that leaves integer work on bits unmoved."""
import os
import sys

import pytest

from bitorder import check
from bitorder.check import dataflow
from bitorder.check.families import names as fn
from bitorder.check.families import walk as fw
from bitorder.check.signature import _entry, divisible_params

from mutants import checker_test_fails_on_mutant

triton = pytest.importorskip("triton")
tl = triton.language
HERE = os.path.dirname(os.path.abspath(__file__))


def _compiled(name, warps, **kw):
    pytest.importorskip("torch")
    sys.path.insert(0, os.path.join(HERE, "..", "..", "benchmarks"))
    from corpus import SPECS
    from bitorder.check.prune import compile_config
    spec = SPECS[name]
    args = {**spec.make("cpu", 7), **spec.fixed}
    cfg = triton.Config(kw, num_warps=warps)
    return compile_config(spec.fn, cfg, args, {}, "sm90")


def _v2(compiled) -> str:
    divisible = divisible_params(compiled)
    stores, n = fw.walk(_entry(compiled.asm), divisible)
    return fn.signature(stores, n, divisible)


def _same(sigs) -> set:
    return {(i, j) for i in range(len(sigs)) for j in range(len(sigs)) if sigs[i] == sigs[j]}


@pytest.mark.parametrize("name,block,warps", [("l2norm_c128", 2, (1, 2, 4)), ("row_max_c128", 4, (1, 2, 4)),
                                              ("rotary", 1, (1, 4)), ("row_absmax_c128", 1, (2, 8))])
def test_v2_partitions_layouts_that_hold_rows_in_lanes_or_slots_as_v1_does(name, block, warps):
    key = "BS" if name == "rotary" else "BR"
    asms = [_compiled(name, w, **{key: block}) for w in warps]
    v1, v2 = [check.signature(a) for a in asms], [_v2(a) for a in asms]
    assert all(s.startswith("v1:") for s in v1) and all(s.startswith("v2:") for s in v2)
    assert _same(v1) == _same(v2) and len(set(v2)) < len(v2)       # (some layouts meet)


@pytest.mark.interpreted_only     # (patches a method of the family walk: compiled, it cannot be)
def test_a_row_picked_by_a_lane_bit_is_named_by_cases_and_its_stores_are_the_concrete_roots(monkeypatch):
    taken = []
    plain = fn._Group.by_thread_bits

    def spy(self, fs, n):
        out = plain(self, fs, n)
        taken.append(out is not None)
        return out
    monkeypatch.setattr(fn._Group, "by_thread_bits", spy)
    compiled = _compiled("l2norm_c128", 1, BR=2)
    entry, divisible = _entry(compiled.asm), divisible_params(compiled)
    stores, n = fw.walk(entry, divisible)
    assert fw.roots_at(stores, n) == dataflow.walk(entry, divisible=divisible)[0]
    fn.signature(stores, n, divisible)
    assert any(taken)


@pytest.mark.parametrize("warps", [8, 16])
def test_a_shuffled_absolute_values_bits_put_at_every_thread_are_the_concrete_roots(warps):
    """row_absmax at 128 columns clears the sign with and.b32 0x7FFFFFFF, then shuffles those bits across lanes at 8
    and 16 warps: a shuffle of integer work on a float's bits moves it as it moves a float."""
    compiled = _compiled("row_absmax_c128", warps, BR=1)
    entry, divisible = _entry(compiled.asm), divisible_params(compiled)
    stores, n = fw.walk(entry, divisible)
    assert fw.roots_at(stores, n) == dataflow.walk(entry, divisible=divisible)[0]


@triton.jit
def _norms(x_ptr, y_ptr, R, C: tl.constexpr, BR: tl.constexpr, SWAP: tl.constexpr):
    """y[r] = sqrt(sum of x[r ^ SWAP]^2): the rows read as they are (SWAP 0) or each pair swapped (SWAP 1)."""
    r = tl.program_id(0) * BR + tl.arange(0, BR)
    x = tl.load(x_ptr + (r ^ SWAP)[:, None] * C + tl.arange(0, C)[None, :])
    tl.store(y_ptr + r, tl.sqrt(tl.sum(x * x, axis=1)))


def test_rows_read_swapped_are_told_apart():
    import torch
    from bitorder.check.prune import compile_config
    args = {"x_ptr": torch.empty(8), "y_ptr": torch.empty(8), "R": 1024}
    asm = {(w, s): compile_config(_norms, triton.Config({"C": 128, "BR": 2, "SWAP": s}, num_warps=w), args, {}, "sm90")
           for w in (1, 2) for s in (0, 1)}
    v2 = {k: _v2(a) for k, a in asm.items()}
    assert v2[(1, 0)] == v2[(2, 0)] and v2[(1, 1)] == v2[(2, 1)]
    assert v2[(1, 0)] != v2[(1, 1)]
    assert check.signature(asm[(1, 0)]) != check.signature(asm[(1, 1)])


def test_planted_fault_the_cases_thread_bits_put_to_the_wrong_values_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/names.py",
                                 "        cases = [tuple(fsub.family(g, tuple((-2 if a >> js.index(q) & 1 else -1)",
                                 "        cases = [tuple(fsub.family(g, tuple((-1 if a >> js.index(q) & 1 else -2)",
                                 "tests/check/test_families_cases.py::test_rows_read_swapped_are_told_apart")


def test_planted_fault_each_case_of_a_form_split_named_by_its_first_slot_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/names.py",
                                 "                names.append(name(tuple(fs[at[i]] for i in idx), n))",
                                 "                names.append(name(tuple(fs[at[idx[0]]] for i in idx), n))",
                                 "tests/check/test_families_cases.py::"
                                 "test_v2_partitions_layouts_that_hold_rows_in_lanes_or_slots_as_v1_does[rotary-1-warps2]")


def test_planted_fault_integer_work_on_bits_left_unmoved_by_a_substitution_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/subst.py",
                                 "        out = ff.Bits(f.op, tuple(family(a, sigma, n, memo) for a in f.args))",
                                 "        out = ff.Bits(f.op, f.args)",
                                 "tests/check/test_families_cases.py::"
                                 "test_a_shuffled_absolute_values_bits_put_at_every_thread_are_the_concrete_roots[8]")
