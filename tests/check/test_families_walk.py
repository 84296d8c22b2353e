"""The walk over one symbolic thread (check/families/walk.py) and its canonical names (families/names.py), on
elementwise kernels compiled here for sm_90:
- put at every thread, the family walk's stores are the concrete walk's roots exactly;
- the v2 signature partitions the configurations as the v1 signature does (num_warps and vector widths meet);
- it tells apart kernels that store other values, at other elements or under other guards;
- butterfly shuffles and shared-memory exchanges (a block's sum) put at every thread are the concrete roots too;
- so is a selp of a float and a constant on a comparison that reads a symbol.
Planted faults from a copied tree make these fail: a guarded load's guard ignored, the slots' re-rolling that
forgets all but the first slot, the guard's low terms dropped without their range checked, a butterfly that binds
another lane bit, a shared read whose writer's bits are taken from the reader's in reverse, a commuting node named
as a reduction of its first operand twice, and a selp with its arms swapped."""
import pytest

from bitorder import check
from bitorder.check import dataflow
from bitorder.check.families import names as fn
from bitorder.check.families import walk as fw
from bitorder.check.signature import _entry, divisible_params

from mutants import checker_test_fails_on_mutant

triton = pytest.importorskip("triton")
tl = triton.language


@triton.jit
def _gelu_like(x_ptr, z_ptr, y_ptr, N, BLOCK: tl.constexpr):
    """Masked f32 elementwise code with exp (ex2) and a division."""
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + o, mask=o < N, other=0.0)
    z = tl.load(z_ptr + o, mask=o < N, other=0.0)
    tl.store(y_ptr + o, x / (1.0 + tl.exp(-x)) * z, mask=o < N)


@triton.jit
def _copy(x_ptr, y_ptr, N, BLOCK: tl.constexpr, HOW: tl.constexpr):
    """y[o] = x[o] (HOW 0), x[o with bit 0 cleared] (1), x[o] + 1 (2), x[o] where o < N - 3 else 1 (4: a selp of a
    float and a constant on a comparison that reads N); HOW 3: masked by o + 8 < N."""
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if HOW == 1:
        x = tl.load(x_ptr + (o & ~1), mask=o < N, other=0.0)
    else:
        x = tl.load(x_ptr + o, mask=o < N, other=0.0)
    if HOW == 2:
        x = x + 1.0
    if HOW == 4:
        x = tl.where(o < N - 3, x, 1.0)
    if HOW == 3:
        tl.store(y_ptr + o, x, mask=o + 8 < N)
    else:
        tl.store(y_ptr + o, x, mask=o < N)


def _ptx(fn, block, warps, **constexprs):
    import torch
    from bitorder.check.prune import compile_config
    args = {"x_ptr": torch.empty(8), "y_ptr": torch.empty(8), "N": 1024}
    if "z_ptr" in fn.arg_names:
        args["z_ptr"] = torch.empty(8)
    return compile_config(fn, triton.Config({"BLOCK": block, **constexprs}, num_warps=warps), args, {}, "sm90")


def _v2(compiled) -> str:
    divisible = divisible_params(compiled)
    stores, n = fw.walk(_entry(compiled.asm), divisible)
    return fn.signature(stores, n, divisible)


_LAYOUTS = [(128, 1), (128, 4), (256, 1), (256, 2), (256, 8), (1024, 4)]


@pytest.mark.parametrize("block,warps", _LAYOUTS)
def test_family_stores_put_at_every_thread_are_the_concrete_roots(block, warps):
    compiled = _ptx(_gelu_like, block, warps)
    entry, divisible = _entry(compiled.asm), divisible_params(compiled)
    stores, n = fw.walk(entry, divisible)
    assert fw.roots_at(stores, n) == dataflow.walk(entry, divisible=divisible)[0]


def test_v2_partitions_the_layouts_as_v1_does():
    asms = [_ptx(_gelu_like, b, w) for b, w in _LAYOUTS]
    v1 = [check.signature(a) for a in asms]
    v2 = [_v2(a) for a in asms]
    assert all(s.startswith("v2:") for s in v2)
    same1 = {(i, j) for i in range(len(asms)) for j in range(len(asms)) if v1[i] == v1[j]}
    same2 = {(i, j) for i in range(len(asms)) for j in range(len(asms)) if v2[i] == v2[j]}
    assert same1 == same2 and len(set(v2)) < len(v2)    # (some layouts meet: a partition with a merge)


@pytest.mark.parametrize("how", [1, 2, 3])
def test_v2_tells_apart_other_values_elements_and_guards(how):
    for block, warps in [(256, 1), (256, 2)]:       # 8 and 4 elements a thread: bit 0 a slot bit
        assert _v2(_ptx(_copy, block, warps, HOW=0)) != _v2(_ptx(_copy, block, warps, HOW=how))
    assert _v2(_ptx(_copy, 256, 1, HOW=0)) == _v2(_ptx(_copy, 256, 2, HOW=0))


@triton.jit
def _row_sums(x_ptr, y_ptr, N, BLOCK: tl.constexpr, HOW: tl.constexpr):
    """Each program sums BLOCK masked elements (HOW 0) or takes their maximum (HOW 1: test_families_joins.py)."""
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + o, mask=o < N, other=0.0)
    tl.store(y_ptr + tl.program_id(0), tl.sum(x, 0) if HOW == 0 else tl.max(x, 0))


_REDUCTIONS = [(256, 1), (256, 2), (256, 8), (1024, 4), (1024, 16)]


@pytest.mark.parametrize("block,warps", _REDUCTIONS)
def test_butterflies_and_shared_exchanges_put_at_every_thread_are_the_concrete_roots(block, warps):
    compiled = _ptx(_row_sums, block, warps, HOW=0)
    entry, divisible = _entry(compiled.asm), divisible_params(compiled)
    stores, n = fw.walk(entry, divisible)
    assert fw.roots_at(stores, n) == dataflow.walk(entry, divisible=divisible)[0]


def test_v2_partitions_reductions_as_v1_does():
    asms = [_ptx(_row_sums, b, w, HOW=0) for b, w in _REDUCTIONS]
    v1, v2 = [check.signature(a) for a in asms], [_v2(a) for a in asms]
    assert {(i, j) for i in range(len(asms)) for j in range(len(asms)) if v1[i] == v1[j]} == \
        {(i, j) for i in range(len(asms)) for j in range(len(asms)) if v2[i] == v2[j]}


@triton.jit
def _pinned_rows(x_ptr, y_ptr, N, BLOCK: tl.constexpr, HOW: tl.constexpr):
    """A pinned sum of a row of BLOCK: one tree whatever the layout."""
    x = tl.load(x_ptr + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK))
    tl.store(y_ptr + tl.program_id(0), tl.sum(x, axis=0, pinned=True))


@triton.jit
def _pairs(x_ptr, y_ptr, N, BLOCK: tl.constexpr, HOW: tl.constexpr):
    """y[i] = x[2i] + x[2i + HOW]: a sum within a thread of two loads (HOW 1) or of one load twice (HOW 0)."""
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + i, tl.load(x_ptr + 2 * i) + tl.load(x_ptr + 2 * i + HOW))


def test_v2_partitions_pinned_sums_as_v1_does():
    """Layouts that sum a level of the pinned tree within a thread or across lanes meet (names.as_reduction)."""
    import bitorder  # noqa: F401  (installs pinned=)
    assert bitorder
    asms = [_ptx(_pinned_rows, b, w, HOW=0) for b, w in ((1024, 1), (1024, 8), (1024, 16), (512, 1))]
    v1, v2 = [check.signature(a) for a in asms], [_v2(a) for a in asms]
    assert {(i, j) for i in range(4) for j in range(4) if v1[i] == v1[j]} == \
        {(i, j) for i in range(4) for j in range(4) if v2[i] == v2[j]} and len(set(v2)) < 4


def test_v2_tells_a_sum_of_two_loads_from_one_load_twice():
    assert _v2(_ptx(_pairs, 128, 1, HOW=1)) != _v2(_ptx(_pairs, 128, 1, HOW=0))


@pytest.mark.parametrize("block,warps", [(128, 1), (256, 2)])
def test_a_select_of_a_constant_on_a_comparison_put_at_every_thread_is_the_concrete_roots(block, warps):
    compiled = _ptx(_copy, block, warps, HOW=4)
    assert "selp" in compiled.asm
    entry, divisible = _entry(compiled.asm), divisible_params(compiled)
    stores, n = fw.walk(entry, divisible)
    assert fw.roots_at(stores, n) == dataflow.walk(entry, divisible=divisible)[0]
    assert _v2(compiled) != _v2(_ptx(_copy, block, warps, HOW=0))


@triton.jit
def _groups(x_ptr, y_ptr, N, CG: tl.constexpr, HW: tl.constexpr):
    """groupnorm's two-level sum of bf16 (benchmarks/corpus/norms.py): its layout change is an idx shuffle whose lane
    has a complemented thread bit at one warp."""
    off = tl.program_id(0) * CG * HW + tl.arange(0, CG)[:, None] * HW + tl.arange(0, HW)[None, :]
    x = tl.load(x_ptr + off)
    mean = tl.sum(tl.sum(x, axis=1), axis=0) / (CG * HW)
    tl.store(y_ptr + off, x - mean)


def test_idx_shuffles_put_at_every_thread_are_the_concrete_roots():
    import torch
    from bitorder.check.prune import compile_config
    compiled = compile_config(_groups, triton.Config({"CG": 4, "HW": 256}, num_warps=1),
                              {"x_ptr": torch.empty(8, dtype=torch.bfloat16), "y_ptr": torch.empty(8), "N": 1024}, {},
                              "sm90")
    assert "shfl.sync.idx" in compiled.asm
    entry, divisible = _entry(compiled.asm), divisible_params(compiled)
    stores, n = fw.walk(entry, divisible)
    assert fw.roots_at(stores, n) == dataflow.walk(entry, divisible=divisible)[0]


def test_planted_fault_an_idx_shuffles_complemented_lane_bit_read_uncomplemented_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/walk.py",
                                 "read(one, rest), read(zero, rest))", "read(zero, rest), read(one, rest))",
                                 "tests/check/test_families_walk.py::"
                                 "test_idx_shuffles_put_at_every_thread_are_the_concrete_roots")


def test_planted_fault_a_selp_with_its_arms_swapped_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/walk.py",
                                 "        return ff.Select(p, a, b)     #", "        return ff.Select(p, b, a)     #",
                                 "tests/check/test_families_walk.py::"
                                 "test_a_select_of_a_constant_on_a_comparison_put_at_every_thread_is_the_concrete_roots")


def test_planted_fault_a_butterfly_that_binds_another_lane_bit_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/walk.py",
                                 "                return ff.Red(op, other, sh.bit)\n",
                                 "                return ff.Red(op, other, sh.bit ^ 1)\n",
                                 "tests/check/test_families_walk.py::"
                                 "test_butterflies_and_shared_exchanges_put_at_every_thread_are_the_concrete_roots[256-1]")


def test_planted_fault_a_shared_reads_writer_bits_reversed_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/shared.py",
                                 "                out.append(q)\n",
                                 "                out.append(k - 1 - q)\n",
                                 "tests/check/test_families_walk.py::"
                                 "test_butterflies_and_shared_exchanges_put_at_every_thread_are_the_concrete_roots[1024-16]")


def test_planted_fault_a_node_named_as_a_reduction_of_one_operand_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/names.py",
                                 '            return _h(f"red.{op}({self.value(a + b, n)})")\n',
                                 '            return _h(f"red.{op}({self.value(a + a, n)})")\n',
                                 "tests/check/test_families_walk.py::test_v2_tells_a_sum_of_two_loads_from_one_load_twice")


def test_planted_fault_a_guarded_loads_guard_ignored_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/walk.py",
                                 "                self.write(d, ff.Select(pred, leaf, old))\n",
                                 "                self.write(d, leaf)\n",
                                 "tests/check/test_families_walk.py::"
                                 "test_family_stores_put_at_every_thread_are_the_concrete_roots[256-2]")


def test_planted_fault_the_slots_rerolled_as_the_first_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/names.py",
                                 "                _into(out, _mul(c, {bits: 1}) if bits else c)\n",
                                 "                _into(out, {} if bits else c)\n",
                                 "tests/check/test_families_walk.py::test_v2_tells_apart_other_values_elements_and_guards[1]")


def test_planted_fault_a_guards_low_terms_dropped_unchecked_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/names.py",
                                 "    if not any(low.values()) or lo < 0 or hi >= g:\n",
                                 "    if not any(low.values()):\n",
                                 "tests/check/test_families_walk.py::test_v2_tells_apart_other_values_elements_and_guards[3]")
