"""check.signature's "grid_x": program_id(0) below the launch grid's x extent. Comparisons that
range decides are constants (bits.grid_decides, checked by brute force against PTX's semantics);
a mask the grid makes always true merges a kernel with its unmasked twin, and only for that grid."""
import itertools
import os
import sys

import triton
import triton.language as tl

import bitorder
from bitorder import check
from bitorder.check import loops
from bitorder.check.bits import grid_decides

from test_bits import _ucmp

HERE = os.path.dirname(os.path.abspath(__file__))
X = {("ctaid_x",): 1}


def _lin(k1, k0):
    return {("ctaid_x",): k1, (): k0} if k0 else {("ctaid_x",): k1}


def test_grid_decides_only_what_every_block_agrees_on():
    """For a = k1 * ctaid.x + k0 against a constant b, every opcode type and comparison and grids
    of 1-40 blocks: a decided comparison has that value in every block (register wrapping
    included); an undecided one is left symbolic (None). Some of each occur."""
    decided = undecided = 0
    ops = [("u32", False, 32), ("s32", True, 32), ("u16", False, 16), ("b64", False, 64), ("s64", True, 64)]
    for (ty, signed, width), cmp, k1, k0, b, n in itertools.product(
            ops, ["eq", "ne", "lt", "le", "gt", "ge"], [1, 2, -1, 3], [0, 5, -7, 65530, 2 ** 31 - 2],
            [0, 7, 8, 39, 65535, -3], [1, 2, 8, 9, 40]):
        if not signed and cmp in ("lt", "le", "gt", "ge") and ty == "b64":
            continue
        op = f"setp.{cmp}.{ty}"
        got = grid_decides(op, cmp, _lin(k1, k0), b, n)
        truth = {_ucmp(cmp, k1 * x + k0, b, signed, width) for x in range(n)}
        if got is None:
            undecided += 1
        else:
            decided += 1
            assert truth == {got}, (op, k1, k0, b, n, got, truth)
    assert decided > 1000 and undecided > 100, (decided, undecided)


@triton.jit
def _masked_rows(x_ptr, y_ptr, XN: tl.constexpr, N: tl.constexpr, BLOCK: tl.constexpr, MASKED: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], tl.float32)
    for off in range(0, N, BLOCK):
        r = off + tl.arange(0, BLOCK)
        if MASKED:
            acc = tl.where(row < XN, acc + tl.load(x_ptr + row * N + r, mask=row < XN, other=0.0), acc)
        else:
            acc = acc + tl.load(x_ptr + row * N + r)
    if MASKED:
        tl.store(y_ptr + row, tl.sum(acc, 0), mask=row < XN)
    else:
        tl.store(y_ptr + row, tl.sum(acc, 0))


def _compile(masked):
    return bitorder.compile(_masked_rows, "sm90", num_warps=2, num_stages=1,
                            signature={"x_ptr": "*fp32", "y_ptr": "*fp32"},
                            constexprs={"XN": 8, "N": 512, "BLOCK": 128, "MASKED": masked})


def test_a_mask_the_grid_decides_merges_with_the_unmasked_kernel_for_that_grid_only():
    """Inductor's `xindex < xnumel` mask over a grid of exactly xnumel blocks is always true: with
    grid_x = 8 the masked kernel is its unmasked twin; over 9 blocks (the ninth masked off) or an
    unknown grid it is not."""
    print(f"bitorder from {os.path.dirname(bitorder.__file__)}")
    masked, plain = _compile(True), _compile(False)
    assert check.level(masked, {"grid_x": 8}).startswith("v1")
    assert check.signature(masked, {"grid_x": 8}) == check.signature(plain, {"grid_x": 8})
    assert check.signature(masked, {"grid_x": 9}) != check.signature(plain, {"grid_x": 9})
    assert check.signature(masked) != check.signature(plain)


def test_planted_fault_an_equality_decided_for_every_block_fails(tmp_path):
    """A copied tree whose grid_decides forgets that an equality can hold for one block only: the
    brute force above must catch it."""
    sys.path.insert(0, os.path.dirname(HERE))
    from mutants import checker_test_fails_on_mutant
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/bits.py",
                                 "        if n == 1:                # equal at the one value x takes\n",
                                 "        if True:\n", "tests/check/test_grid_x.py::test_grid_decides_only_what_every_block_agrees_on")


def test_limits_let_a_long_loop_walk_and_are_not_part_of_the_class(monkeypatch):
    """A loop of 4,096 turns followed turn by turn passes the default 20,000 instructions: v0; with
    "steps" raised the walk follows it (v1), and the class does not name the limit. (loops.CONST folds
    it instead: off here.)"""
    monkeypatch.setattr(loops, "CONST", False)
    k = bitorder.compile(_masked_rows, "sm90", num_warps=1, num_stages=1, signature={"x_ptr": "*fp32", "y_ptr": "*fp32"},
                         constexprs={"XN": 8, "N": 4096 * 32, "BLOCK": 32, "MASKED": False})
    assert check.level(k).startswith("v0") and "instructions executed" in check.level(k)
    big = check.signature(k, {"steps": 400_000})
    assert big.startswith("v1") and big == check.signature(k, {"steps": 500_000})


def test_popc_counts_the_set_bits_of_a_concrete_register():
    """popc (Inductor counts packed predicates with it): a concrete operand gives its count, wrapped
    to the type's width first (a symbolic one is an atom, as any other integer op the ring lacks)."""
    from bitorder.check.predicates import _concrete
    assert _concrete("popc.b32", [0b1011]) == 3 and _concrete("popc.b32", [-1]) == 32
    assert _concrete("popc.b64", [-1]) == 64


def test_equivalent_explains_a_difference_under_the_same_launch_facts():
    """equivalent() re-walks both kernels with shapes to say where their trees part; it must walk them
    under the grid_x the signatures used (without it the masked kernel's keys differ and the answer
    named two bare keys "at root")."""
    a = _compile(True)
    b = bitorder.compile(_masked_rows, "sm90", num_warps=2, num_stages=1, signature={"x_ptr": "*fp32", "y_ptr": "*fp32"},
                         constexprs={"XN": 8, "N": 512, "BLOCK": 256, "MASKED": True})
    v = check.equivalent(a, b, {"grid_x": 8})
    assert not v.equivalent and "the trees differ" in v.explanation
    assert " over " in v.explanation and "loads" in v.explanation, v.explanation
