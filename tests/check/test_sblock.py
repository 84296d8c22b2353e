"""Super-block classes (check.signature's sblock, check.prune's grid): configurations of other block sizes, launched
over the same elements, meet in one class when their programs together store the same."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
import torch
import triton
import triton.language as tl

import bitorder
from bitorder import check
from bitorder.check.prune import super_blocks
from bitorder.compiler.demo import ROWS_SUM_SIGNATURE, rows_sum

SIG = {"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32"}


@triton.jit
def scale_shift(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, x * 2.0 + 1.0, mask=offs < n)


def _scale_shift(block):
    return bitorder.compile(scale_shift, "sm90", signature=SIG, constexprs={"BLOCK": block},
                            aligned=["x_ptr", "y_ptr"], num_warps=4)


def _rows_sum(rows, warps):
    return bitorder.compile(rows_sum, "sm90", signature=ROWS_SUM_SIGNATURE, constexprs={"ROWS": rows, "COLS": 128},
                            aligned=["x_ptr", "y_ptr"], num_warps=warps)


def test_block_sizes_of_an_elementwise_kernel_meet_over_a_super_block():
    """BLOCK 128, 256 and 512, walked as 4, 2 and 1 programs of a super-block: one class (their plain signatures,
    each for one grid, are three); a wrong program count is another class."""
    c = {b: _scale_shift(b) for b in (128, 256, 512)}
    assert len({check.signature(k) for k in c.values()}) == 3
    sigs = {check.signature(c[b], {"sblock": 512 // b}) for b in c}
    assert len(sigs) == 1 and next(iter(sigs)).startswith("v1:")
    assert check.signature(c[256], {"sblock": 1}) not in sigs and check.signature(c[256], {"sblock": 4}) not in sigs
    assert check.signature(c[512], {"sblock": 1}) != check.signature(c[512])   # a super-block class says it is one


def test_a_super_block_keeps_reduction_trees_apart():
    """Rows of 128 summed by one warp a row (1 row a program on 1 warp, 4 rows on 4 warps) meet; 1 row on 4 warps
    sums in another order and stays apart, though it stores to the same addresses under the same guards."""
    one_warp = check.signature(_rows_sum(1, 1), {"sblock": 4})
    assert check.signature(_rows_sum(4, 4), {"sblock": 1}) == one_warp
    assert check.signature(_rows_sum(1, 4), {"sblock": 4}) != one_warp
    why = check.equivalent(_rows_sum(1, 1), _rows_sum(1, 4), {"sblock": 4}).explanation
    assert "the trees differ" in why and "super-block" in why


def test_super_block_arguments_are_checked():
    c = _scale_shift(256)
    for bad in (0, 257, True, 2.0):
        with pytest.raises(ValueError, match="sblock"):
            check.signature(c, {"sblock": bad})
    with pytest.raises(ValueError, match="grid_x"):
        check.signature(c, {"sblock": 2, "grid_x": 8})


def test_super_blocks_of_launch_grids():
    """Grids that differ in x alone: r over the common divisor that the most of them reach within the walk's limit;
    other y or z extents, a lone grid, and a grid no other meets within the limit are compared within their own
    grid, and the grids one divisor leaves out are grouped again among themselves."""
    assert super_blocks([(5, 1, 1), (6, 3, 1), (200, 3, 1)]) == {}   # r 100 past the limit over 2
    assert super_blocks([(704, 1, 1), (2816, 1, 1), (5, 1, 1)]) == {(704, 1, 1): (1, 704), (2816, 1, 1): (4, 704)}
    # Inductor's column sums over 6, 24, 96 and 768 programs (2026-12-06c): 768 = 128 x 6 is past the limit
    assert super_blocks([(6, 1, 1), (24, 1, 1), (96, 1, 1), (768, 1, 1)]) == \
        {(6, 1, 1): (1, 6), (24, 1, 1): (4, 6), (96, 1, 1): (16, 6)}
    # two families no one divisor reaches within the limit: 640 and 1280 over 640, then 99 and 297 over 99
    assert super_blocks([(640, 1, 1), (1280, 1, 1), (99, 1, 1), (297, 1, 1)]) == \
        {(640, 1, 1): (1, 640), (1280, 1, 1): (2, 640), (99, 1, 1): (1, 99), (297, 1, 1): (3, 99)}
    assert super_blocks([(3, 1, 1), (8, 1, 1), (9, 1, 1)]) == {(3, 1, 1): (3, 1), (8, 1, 1): (8, 1), (9, 1, 1): (9, 1)}
    # the gcd of all, which no two share alone: every grid over it
    assert super_blocks([(6, 1, 1), (10, 1, 1), (15, 1, 1)]) == {(6, 1, 1): (6, 1), (10, 1, 1): (10, 1), (15, 1, 1): (15, 1)}
    got = super_blocks([(704, 1, 1), (1408, 1, 1), (2816, 1, 1), (704, 2, 1), (6, 3, 1), (12, 3, 1)])
    assert got == {(704, 1, 1): (1, 704), (1408, 1, 1): (2, 704), (2816, 1, 1): (4, 704),
                   (6, 3, 1): (1, 6), (12, 3, 1): (2, 6)}
    assert super_blocks([(1, 1, 1), (64, 1, 1)]) == {} and super_blocks([(8, 1, 1), (8, 1, 1)]) == {}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([1, 2, 3, 5, 6, 8, 12, 16, 24, 48, 96, 128, 768, 1000]),
                          st.sampled_from([1, 7]), st.sampled_from([1, 2])), min_size=1, max_size=7))
def test_super_blocks_cover_each_launch_and_keep_the_whole_gcd_where_it_reaches(parts):
    """Every grid given a super-block launches r x C programs along x, r within the walk's limit; where the gcd of
    a (y, z)'s x extents reaches all of them within the limit, all are classed over it (the rule before 2026-12-06c,
    so its classes stand); a grid no other meets is left out."""
    import math
    grids = [(a * b, y, 1) for a, b, y in parts]
    got = super_blocks(grids)
    for g, (r, c) in got.items():
        assert r * c == g[0] and 1 <= r <= 32
    for yz in {g[1:] for g in grids}:
        xs = sorted({g[0] for g in grids if g[1:] == yz})
        gcd = math.gcd(*xs)
        if len(xs) > 1 and max(xs) // gcd <= 32:
            assert all(got[(x, *yz)] == (x // gcd, gcd) for x in xs)
        if len(xs) == 1:
            assert (xs[0], *yz) not in got


CONFIGS = [triton.Config({"BLOCK": b}, num_warps=4) for b in (128, 256, 512)]


def test_prune_with_the_launch_grid_keeps_block_sizes_over_the_same_elements():
    """prune(grid=...) with the grid kernel[grid] takes: n = 4096, a multiple of every BLOCK, keeps all three;
    n = 600 (grids 5, 3, 2 programs) keeps the reference's alone; without grid, each BLOCK is its own class."""
    grid = lambda META: (triton.cdiv(META["n"], META["BLOCK"]),)   # noqa: E731
    for n, kept in ((4096, 3), (600, 1)):
        named = {"x_ptr": torch.zeros(n), "y_ptr": torch.zeros(n), "n": n}
        early = check.prune(kernel=scale_shift, grid=grid, store=False)
        assert len(early(CONFIGS, named)) == kept, (n, early.last)
    named = {"x_ptr": torch.zeros(4096), "y_ptr": torch.zeros(4096), "n": 4096}
    assert len(check.prune(kernel=scale_shift, store=False)(CONFIGS, named)) == 1
    by_config = check.prune(kernel=scale_shift, grid=grid, store=False, reference=triton.Config({"BLOCK": 1024}))
    assert len(by_config(CONFIGS, named)) == 3   # a reference of its own block size meets them over super-blocks
    two = check.prune(kernel=scale_shift, grid=grid, store=False, jobs=2)   # spawned workers class with sblock too
    assert len(two(CONFIGS, named)) == 3 and two.last["jobs"] == 2
    two_d = check.prune(kernel=scale_shift, grid=lambda META: (4096 // META["BLOCK"], META["BLOCK"] // 128),
                        store=False)
    assert len(two_d(CONFIGS, named)) == 1    # grids that differ in y too: never kept together
    with pytest.raises(ValueError, match="grid"):
        check.prune(kernel=scale_shift, grid=lambda META: (0,), store=False)(CONFIGS, named)


def test_super_block_planted_fault_forgets_the_trees(tmp_path):
    """scripts/gpu-run mutant-sblock-gate's fault (a super-block's class hashed from its addresses and guards, not
    its trees), built from a copied tree: the reduction-order test above fails."""
    from mutants import checker_test_fails_on_mutant
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/signature.py", SBLOCK_FAULT[0], SBLOCK_FAULT[1],
                                 "tests/check/test_sblock.py::test_a_super_block_keeps_reduction_trees_apart")


SBLOCK_FAULT = ("        return dataflow.signature_of(r, divisible, kept), (r, nodes), None",
                "        return dataflow.signature_of({k: v[0] for k, v in r.items()} if sblock is not None else r, "
                "divisible, kept), (r, nodes), None")


def test_gpu_run_plants_the_tested_fault():
    """scripts/gpu-run's mutant-sblock-gate replaces the very line the CPU fault test replaces."""
    from pathlib import Path
    text = (Path(__file__).resolve().parents[2] / "scripts" / "gpu-run").read_text()
    assert f"'{SBLOCK_FAULT[0]}'" in text and f"'{SBLOCK_FAULT[1]}'" in text
