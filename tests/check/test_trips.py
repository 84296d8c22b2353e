"""Loops of a constant trip count too long to follow, refused before the walk (check/trips.py): the
count is the walk's own, to the instruction, and a prediction changes no class."""
import time

import pytest
from hypothesis import given, settings, strategies as st

from bitorder import check
from bitorder.check import dataflow, loops, trips
from bitorder.check.ptx import Instr, parse
from bitorder.check.rules import _branches_on_constants

from mutants import checker_test_fails_on_mutant
from test_dataflow import kernel
from test_loops import ADD, LOOP

def _constant_bound(loop: str) -> str:
    """test_loops' loop (acc %r10 over turns of one element a thread) with its bound a constant {bound}
    (Inductor's r0_numel) and no skip: every branch the count meets is then decided on constants."""
    for old, new in (("ld.param.u32 %r20, [k_param_2];\nsetp.lt.s32 %p1, %r20, 1;\n", ""),
                     ("@%p1 bra $L__exit;\n", ""), ("{update}", ADD), ("{step}", "32"),
                     ("setp.lt.s32 %p2, %r11, %r20;", "setp.lt.u32 %p2, %r11, {bound};")):
        assert old in loop
        loop = loop.replace(old, new)
    return loop


CONST_LOOP = _constant_bound(LOOP)


@pytest.fixture(autouse=True)
def follow_constant_loops(monkeypatch):
    # the count is of the walk that follows a constant loop turn by turn: the loops here would be folded
    # (loops.CONST; tests/check/test_const_fold.py), so the fold is off
    monkeypatch.setattr(loops, "CONST", False)


def _entry(turns):
    return parse(kernel(CONST_LOOP.replace("{bound}", str(32 * turns))))[0]


def _labels(entry) -> dict:
    """label -> index, as the walk reads the body's labels."""
    return {item.name: i for i, item in enumerate(entry.body) if not isinstance(item, Instr)}


def _walks(entry, steps) -> bool:
    try:
        dataflow.walk(entry, limits=(steps, 0))
        return True
    except dataflow.Unsupported as e:
        assert "instructions executed" in str(e)
        return False


def _walked_steps(entry, hi=4000) -> int:
    """The fewest steps the walk completes within, found with the prediction off (binary search)."""
    lo = 1
    while lo < hi:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if _walks(entry, mid) else (mid + 1, hi)
    return lo


@pytest.mark.parametrize("turns", [1, 2, 7, 40])
def test_the_count_is_the_walks_to_the_instruction(monkeypatch, turns):
    entry = _entry(turns)
    monkeypatch.setattr(trips, "ON", False)
    exact = _walked_steps(entry)
    monkeypatch.setattr(trips, "ON", True)
    said = []
    real = trips.exceeds
    monkeypatch.setattr(trips, "exceeds", lambda *a: said.append(real(*a)) or said[-1])
    assert _walks(entry, exact) and said[-1] is False          # at the limit: walked, not refused
    assert not _walks(entry, exact - 1) and said[-1] is True   # one below: refused before the walk


def test_a_long_constant_loop_is_refused_at_once_and_classed_as_before(monkeypatch):
    entry = kernel(CONST_LOOP.replace("{bound}", str(32 * 30000)))
    monkeypatch.setattr(trips, "ON", True)
    t0 = time.process_time()
    fast = (check.signature(entry), check.level(entry))
    assert time.process_time() - t0 < 1.0
    monkeypatch.setattr(trips, "ON", False)
    assert (check.signature(entry), check.level(entry)) == fast
    assert fast[0].startswith("v0:") and "20000 instructions executed" in fast[1]


@pytest.mark.parametrize("change", [
    ("setp.lt.u32 %p2, %r11, {bound};", "setp.lt.u32 %p2, %r11, %r1;"),     # the bound is the thread index
    ("mov.u32 %r11, 0;", "ld.param.u32 %r11, [k_param_2];"),              # the counter starts at an argument
    ("add.s32 %r11, %r11, 32;", "cvt.u32.u16 %r11, %rs1;"),               # an opcode the count does not read
])
def test_what_it_cannot_count_it_leaves_to_the_walk(change):
    text = kernel(CONST_LOOP.replace(*change).replace("{bound}", "64"))
    entry = parse(text)[0]
    block = dataflow._Block(entry, dataflow.Nodes())
    assert trips.exceeds(block, entry.body, _labels(entry), {}) is False     # (no branch over straight-line code)


_U32 = st.integers(0, 2**32 - 1)
_OPS = ["add.u32", "sub.s32", "mul.lo.s32", "mad.lo.s32", "and.b32", "or.b32", "xor.b32", "shl.b32", "shr.u32",
        "shr.s32", "add.s64", "mov.b16", "setp.lt.s32", "setp.ge.u32", "setp.ne.s32", "selp.b32", "and.pred"]


@settings(deadline=None)
@given(_U32, _U32, _U32, st.sampled_from(_OPS), st.booleans())
def test_a_value_is_the_walks(a, b, c, op, p):
    # the count computes through the walk's own evaluator: the value it reads for an instruction is the
    # one the walk's handler writes (every thread holding the same operands)
    entry = _entry(1)
    block = dataflow._Block(entry, dataflow.Nodes())
    regs = {"%r1": a, "%r2": b, "%r3": c, "%p1": p, "%p2": not p}
    for r, v in regs.items():
        block.cols[r] = [v] * block.n
    srcs = {"mad": ("%r1", "%r2", "%r3"), "selp": ("%r1", "%r2", "%p1"), "mov": (str(a),)}.get(
        op.split(".")[0], ("%p1", "%p2") if op.endswith(".pred") else ("%r1", "%r2"))
    ins = Instr(None, op, ("%p9" if op.startswith("setp") or op.endswith(".pred") else "%r9", *srcs), 0)
    run, _ = block._handler(ins)
    run(0, ins, True)
    got = trips._execute(ins, lambda o: regs.get(o, int(o) if o.isdigit() else None), block)
    assert got == block.cols[ins.operands[0]][0]


# after the loop, a branch on data over straight-line code (a hammock, as libdevice's log has one)
HAMMOCK = """setp.lt.f32 %p3, %r10, 0f00000000;
@%p3 bra $L__skip;
add.rn.f32 %r10, %r10, %r10;
add.rn.f32 %r10, %r10, %r10;
$L__skip:
st.global.b32 [%rd5], %r10;"""


def test_code_a_branch_on_data_may_skip_is_counted_as_skipped(monkeypatch):
    entry = parse(kernel(CONST_LOOP.replace("st.global.b32 [%rd5], %r10;", HAMMOCK).replace("{bound}", "224")))[0]
    monkeypatch.setattr(trips, "ON", False)
    exact = _walked_steps(entry)
    monkeypatch.setattr(trips, "ON", True)
    block = dataflow._Block(entry, dataflow.Nodes(), max_steps=exact - 3)
    labels = _labels(entry)
    straight = _branches_on_constants(entry.body, labels)   # what the walk hands the count: the hammock
    assert list(straight) == [k for k, i in enumerate(entry.body) if isinstance(i, Instr) and i.opcode == "bra"
                              and i.operands == ("$L__skip",)]
    assert trips.exceeds(block, entry.body, labels, straight)         # the hammock's two adds counted as skipped
    assert not trips.exceeds(dataflow._Block(entry, dataflow.Nodes(), max_steps=exact - 2), entry.body, labels,
                             straight)
    assert _walks(entry, exact)
    long = parse(kernel(CONST_LOOP.replace("st.global.b32 [%rd5], %r10;", HAMMOCK).replace("{bound}", str(32 * 30000))))[0]
    t0 = time.process_time()
    assert not _walks(long, 0)
    assert time.process_time() - t0 < 1.0


def test_planted_fault_a_count_one_over_per_instruction_is_caught(tmp_path):
    # from a copied tree (tests/mutants.py): every instruction counted twice, so walks that complete
    # within the limit are refused; the count-equals-the-walk's test must then fail
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/trips.py", "        steps += 1\n",
                                 "        steps += 2\n",
                                 "tests/check/test_trips.py::test_the_count_is_the_walks_to_the_instruction")


def test_planted_fault_a_count_that_reads_operands_reversed_is_caught(tmp_path):
    # from a copied tree (tests/mutants.py): the count hands the walk's integer evaluator its operands reversed,
    # so sub, shl, shr and mad give values the walk would not; test_a_value_is_the_walks must fail
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/trips.py", "        r = block.integer(op, args)\n",
                                 "        r = block.integer(op, args[::-1])\n",
                                 "tests/check/test_trips.py::test_a_value_is_the_walks")
