"""Joins (max.f32 / .f16 / .bf16) over one symbolic thread (check/families: floats.Node of a join's opcode, its
butterfly Red, families/joins.py), on row maxima compiled here for sm_90:
- put at every thread, the family walk's stores are the concrete walk's roots exactly (the join a flattened set of
  keys, a widened 16-bit join the f32 join of its widened members: symbolic.Nodes._key and _widen);
- the v2 signature partitions a row maximum's layouts as v1 does (one set, joined within threads, across lanes or
  across warps: one name);
- it tells apart maxima of other sets (the lanes' strides are part of the name; the stores of
  test_v2_names_a_joins_members_by_their_lanes_strides are built as families directly: compiled kernels that differ
  only in a lane's stride change their registers' offsets too);
- a select on a lane bit of a shuffled value (walk.selp, walk.moved: one warp bringing each row's result to the
  thread that stores it) is the concrete roots, and meets the layouts that do it through shared words;
- a warp barrier orders one warp's shared accesses, not two warps' (both walks refuse the race); stmatrix and
  ldmatrix exchanges are the concrete roots, and a row's widened maxima meet across them;
- rows' maxima whose rows reach the storing threads through a case split (a select on a thread mask between joins)
  are named per element, as v1 names them, and told from the tile's maximum.
Planted faults from a copied tree make these fail: a join that does not flatten a nested one, a widened bf16 join
without its NaN mark, the lanes' strides dropped from a member's offsets, a case split whose cases are ignored, a
shuffled value read from its own lane, a warp barrier that orders every warp, and a matrix lane that reads another
word of its row."""
import pytest

from bitorder import check
from bitorder.check import dataflow
from bitorder.check.families import names as fn
from bitorder.check.families import walk as fw
from bitorder.check.signature import _entry, divisible_params

from mutants import checker_test_fails_on_mutant

triton = pytest.importorskip("triton")
torch = pytest.importorskip("torch")
tl = triton.language


@triton.jit
def _row_max(x_ptr, y_ptr, N, BLOCK: tl.constexpr, HOW: tl.constexpr):
    """y[program] = max over its BLOCK elements, masked by o < N (HOW 0) or not (HOW 3); over those whose index has
    bit 2 clear, each twice, not masked (HOW 1: the lanes' stride changes, the registers' offsets do not)."""
    i = tl.arange(0, BLOCK)
    if HOW == 1:
        i = i & (BLOCK - 5)
    o = tl.program_id(0) * BLOCK + i
    if HOW == 0:
        x = tl.load(x_ptr + o, mask=o < N, other=-float("inf"))
    else:
        x = tl.load(x_ptr + o)
    tl.store(y_ptr + tl.program_id(0), tl.max(x, 0))


@triton.jit
def _quad_max(x_ptr, y_ptr, N, BLOCK: tl.constexpr, HOW: tl.constexpr):
    """y[r] = the maximum of x[4r .. 4r + 3], widened to f32 after the max: within each thread, so the widened
    16-bit join is stored itself."""
    r = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + r[:, None] * 4 + tl.arange(0, 4)[None, :])
    tl.store(y_ptr + r, tl.max(x, 1).to(tl.float32))


@triton.jit
def _rows_max(x_ptr, y_ptr, N, BLOCK: tl.constexpr, HOW: tl.constexpr):
    """y[r] = the maximum of row r of a 4 x BLOCK tile (HOW 0), or of the whole tile, stored to its 4 rows
    (HOW 1): at some num_warps a warp's rows reach the threads that store them through shared words several
    warps wrote, a case split on the reader between joins (joins.is_join)."""
    r = tl.program_id(0) * 4 + tl.arange(0, 4)
    x = tl.load(x_ptr + r[:, None] * BLOCK + tl.arange(0, BLOCK)[None, :])
    m = tl.max(x, 1)
    if HOW == 1:
        m = tl.max(m, 0) + tl.zeros([4], tl.float32)
    tl.store(y_ptr + r, m)


@triton.jit
def _two_rows(x_ptr, y_ptr, N, BLOCK: tl.constexpr, HOW: tl.constexpr):
    """y[r] = the maximum (HOW 0) or sum (HOW 1) of row r of a 2 x BLOCK tile: with one warp each row's result
    reaches the thread that stores it through a select on a lane bit and a shuffle of the selected value
    (walk.selp, walk.moved)."""
    r = tl.program_id(0) * 2 + tl.arange(0, 2)
    x = tl.load(x_ptr + r[:, None] * BLOCK + tl.arange(0, BLOCK)[None, :])
    tl.store(y_ptr + r, tl.max(x, 1) if HOW == 0 else tl.sum(x, 1))


def _ptx(block, warps, how=0, dtype="float32", kernel=_row_max):
    from bitorder.check.prune import compile_config
    args = {"x_ptr": torch.empty(8, dtype=getattr(torch, dtype)), "y_ptr": torch.empty(8), "N": 1024}
    return compile_config(kernel, triton.Config({"BLOCK": block, "HOW": how}, num_warps=warps), args, {}, "sm90")


def _v2(compiled) -> str:
    divisible = divisible_params(compiled)
    stores, n = fw.walk(_entry(compiled.asm), divisible)
    return fn.signature(stores, n, divisible)


def _roots_equal(compiled) -> bool:
    entry, divisible = _entry(compiled.asm), divisible_params(compiled)
    stores, n = fw.walk(entry, divisible)
    return fw.roots_at(stores, n) == dataflow.walk(entry, divisible=divisible)[0]


_LAYOUTS = [(256, 1), (256, 2), (256, 8), (1024, 4)]


@pytest.mark.parametrize("block,warps", _LAYOUTS)
@pytest.mark.parametrize("how", [0, 3])
def test_a_row_maximum_put_at_every_thread_is_the_concrete_roots(how, block, warps):
    assert _roots_equal(_ptx(block, warps, how=how))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_a_widened_16_bit_maximum_put_at_every_thread_is_the_concrete_roots(dtype):
    assert _roots_equal(_ptx(128, 4, dtype=dtype, kernel=_quad_max))
    assert _roots_equal(_ptx(256, 2, how=0, dtype=dtype))       # (widened within threads, joined across lanes)


@pytest.mark.parametrize("how,dtype", [(0, "float32"), (3, "float32"), (3, "bfloat16")])
def test_v2_partitions_a_row_maximums_layouts_as_v1_does(how, dtype):
    """(bf16: some layouts widen each thread's join and join the results in f32, others widen every element first:
    one set of widened members, one name.)"""
    asms = [_ptx(b, w, how=how, dtype=dtype) for b, w in _LAYOUTS]
    v1, v2 = [check.signature(a) for a in asms], [_v2(a) for a in asms]
    same = range(len(asms))
    assert {(i, j) for i in same for j in same if v1[i] == v1[j]} == \
        {(i, j) for i in same for j in same if v2[i] == v2[j]}


def test_v2_tells_apart_maxima_of_other_sets():
    assert _v2(_ptx(256, 1, how=3)) != _v2(_ptx(256, 1, how=1))
    assert _v2(_ptx(128, 4, dtype="float16", kernel=_quad_max)) != \
        _v2(_ptx(128, 4, dtype="bfloat16", kernel=_quad_max))


_ROWS = [(128, 2), (128, 4), (128, 8), (64, 4)]   # (128, 2): the case split


@pytest.mark.parametrize("block,warps", _ROWS)
def test_rows_maxima_put_at_every_thread_are_the_concrete_roots(block, warps):
    assert _roots_equal(_ptx(block, warps, kernel=_rows_max))


def test_v2_partitions_rows_maxima_as_v1_does():
    asms = [_ptx(b, w, kernel=_rows_max) for b, w in _ROWS]
    v1, v2 = [check.signature(a) for a in asms], [_v2(a) for a in asms]
    same = range(len(asms))
    assert {(i, j) for i in same for j in same if v1[i] == v1[j]} == \
        {(i, j) for i in same for j in same if v2[i] == v2[j]}


def test_v2_tells_each_rows_maximum_from_the_tiles():
    for b, w in _ROWS:
        assert _v2(_ptx(b, w, kernel=_rows_max)) != _v2(_ptx(b, w, how=1, kernel=_rows_max))


@pytest.mark.parametrize("how", [0, 1])
@pytest.mark.parametrize("block", [128, 256])
def test_a_select_on_a_lane_bit_of_a_shuffled_value_put_at_every_thread_is_the_concrete_roots(block, how):
    assert _roots_equal(_ptx(block, 1, how=how, kernel=_two_rows))


def test_v2_partitions_two_rows_maxima_as_v1_does():
    """One warp (a select and a shuffle bring each row to its thread) and two or four (shared words) meet."""
    asms = [_ptx(128, w, kernel=_two_rows) for w in (1, 2, 4)]
    assert len({check.signature(a) for a in asms}) == len({_v2(a) for a in asms}) == 1


_MATRIX = [(_quad_max, "float16", 128, 1), (_quad_max, "bfloat16", 256, 1), (_rows_max, "float16", 256, 1),
           (_rows_max, "bfloat16", 512, 1), (_rows_max, "float32", 256, 2)]


@pytest.mark.parametrize("case", range(len(_MATRIX)))
def test_stmatrix_and_ldmatrix_exchanges_put_at_every_thread_are_the_concrete_roots(case):
    """One warp converts layouts through stmatrix / ldmatrix and a warp barrier (shared.matrix)."""
    kernel, dtype, block, warps = _MATRIX[case]
    compiled = _ptx(block, warps, dtype=dtype, kernel=kernel)
    assert "matrix.sync.aligned" in compiled.asm and _roots_equal(compiled)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_v2_partitions_quad_maxima_as_v1_does(dtype):
    """stmatrix at one warp, shared words at two and four: each element's four widened members meet."""
    asms = [_ptx(128, w, dtype=dtype, kernel=_quad_max) for w in (1, 2, 4)]
    assert len({check.signature(a) for a in asms}) == len({_v2(a) for a in asms}) == 1


def test_a_warp_barrier_does_not_order_two_warps_shared_exchange():
    """_two_rows at two warps with its bar.sync made a bar.warp.sync: the warps' exchange through shared words
    races, and both walks refuse it (shared.ordered; dataflow's epochs)."""
    from bitorder.check.symbolic import Unsupported
    compiled = _ptx(128, 2, kernel=_two_rows)
    assert compiled.asm.count("bar.sync \t0;") == 1
    entry = _entry(compiled.asm.replace("bar.sync \t0;", "bar.warp.sync \t-1;"))
    with pytest.raises(Unsupported):
        fw.walk(entry, divisible_params(compiled))
    with pytest.raises(Unsupported):
        dataflow.walk(entry, divisible=divisible_params(compiled))


def _lane_max(stride: int, lanes: int = 2) -> str:
    """The v2 signature of a block of `lanes` threads storing max over its lanes of x[lane * stride] (a butterfly's
    Red over each lane bit, built as families directly): the join's members differ only in their lanes' stride."""
    from bitorder.check.families import floats as ff
    from bitorder.check.families import integers as fi
    x = {("param:arg0/16",): 16, **{(f"{fi.TBIT}{j}",): stride << j for j in range(lanes.bit_length() - 1)}}
    value = ff.Leaf(x, 4)
    for j in range(lanes.bit_length() - 1):
        value = ff.Red("max.f32", value, j)
    return fn.signature([fw.Store({("param:arg1/16",): 16}, True, value, "b32")], lanes)


def test_v2_names_a_joins_members_by_their_lanes_strides():
    assert _lane_max(4) != _lane_max(8) and _lane_max(4, 4) != _lane_max(8, 4)
    assert _lane_max(4, 4) == _lane_max(4, 4)


def _case_max(split: bool, alike: bool = True) -> str:
    """The v2 signature of 4 threads storing, at element t0, the max over lane bit 1 of x[8 t1] and x[16 + 8 t1]:
    element 0 the first pair and element 1 the second (split: a select on the mask t0 == 0), or both pairs each.
    Not alike: the second case joins x[16 + 8 t1] and x[24 + 8 t1] within each thread too, so the cases are not one
    expression (names.by_thread_bits declines) and the join names its members case by case (joins.offsets)."""
    from bitorder.check.families import floats as ff
    from bitorder.check.families import integers as fi
    from bitorder.check.families import predicates as fp
    x = {("param:arg0/16",): 16}

    def leaf(c):
        return ff.Leaf({**x, (): c, (f"{fi.TBIT}1",): 8}, 4) if c else ff.Leaf({**x, (f"{fi.TBIT}1",): 8}, 4)
    second = leaf(16) if alike else ff.Node("max.f32", (leaf(16), leaf(24)))
    value = ff.Select(fp.Mask(0b0101, 4), ff.Red("max.f32", leaf(0), 1), ff.Red("max.f32", second, 1)) if split \
        else ff.Red("max.f32", ff.Node("max.f32", (leaf(0), second)), 1)
    return fn.signature([fw.Store({("param:arg1/16",): 16, (f"{fi.TBIT}0",): 4}, True, value, "b32")], 4)


def test_a_case_split_on_a_thread_bit_is_named_as_the_family_that_reads_the_bit():
    """Element t0 joins x[16 t0 + 8 t1] over lane bit 1, once as a select on t0 between the two pairs, once as one
    family whose address reads t0: one name (names.by_thread_bits), as one warp and two warps holding rows meet."""
    from bitorder.check.families import floats as ff
    from bitorder.check.families import integers as fi
    rolled = ff.Red("max.f32", ff.Leaf({("param:arg0/16",): 16, (f"{fi.TBIT}0",): 16, (f"{fi.TBIT}1",): 8}, 4), 1)
    store = fw.Store({("param:arg1/16",): 16, (f"{fi.TBIT}0",): 4}, True, rolled, "b32")
    assert _case_max(True) == fn.signature([store], 4)


def test_v2_tells_a_case_split_from_the_union_of_its_cases():
    assert _case_max(True) != _case_max(False)
    assert _case_max(True, alike=False) != _case_max(False, alike=False)


def test_planted_fault_a_case_split_whose_cases_are_ignored_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/joins.py",
                                 "                if all((ps[slot if len(ps) > 1 else 0].bits >> t & 1) == yes "
                                 "for ps, yes in cond):\n",
                                 "                if True:\n",
                                 "tests/check/test_families_joins.py::test_v2_tells_a_case_split_from_the_union_of_its_cases")


def test_planted_fault_a_case_splits_thread_bits_put_to_the_wrong_values_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/names.py",
                                 "        cases = [tuple(fsub.family(g, tuple((-2 if a >> js.index(q) & 1 else -1)",
                                 "        cases = [tuple(fsub.family(g, tuple((-1 if a >> js.index(q) & 1 else -2)",
                                 "tests/check/test_families_joins.py::"
                                 "test_a_case_split_on_a_thread_bit_is_named_as_the_family_that_reads_the_bit")


def test_planted_fault_a_shuffled_value_read_from_its_own_lane_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/walk.py",
                                 "v.bit, False), self.n), one, zero)\n",
                                 "v.bit, False), self.n), zero, one)\n",
                                 "tests/check/test_families_joins.py::"
                                 "test_a_select_on_a_lane_bit_of_a_shuffled_value_put_at_every_thread_is_the_concrete_roots")


def test_planted_fault_a_warp_barrier_that_orders_every_warp_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/shared.py",
                                 "        return when[1] != self.epoch[1] if a >> 5 == b >> 5 else when[0] != self.epoch[0]\n",
                                 "        return when[1] != self.epoch[1]\n",
                                 "tests/check/test_families_joins.py::"
                                 "test_a_warp_barrier_does_not_order_two_warps_shared_exchange")


def test_planted_fault_a_matrix_lane_reading_another_word_of_its_row_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/shared.py",
                                 "(t & 31) // 4] + 4 * (t & 3)", "(t & 31) // 4] + 4 * (3 - (t & 3))",
                                 "tests/check/test_families_joins.py::"
                                 "test_stmatrix_and_ldmatrix_exchanges_put_at_every_thread_are_the_concrete_roots")


def test_planted_fault_a_join_that_does_not_flatten_a_nested_one_is_caught(tmp_path):
    """(key_at's lattice left unrecorded: a join over a join no longer finds it to flatten; the flattening itself,
    symbolic.joined, is the concrete walk's too, so a fault there would move both walks alike.)"""
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/floats.py",
                                 "    lattice[key] = (op, frozenset(out))\n", "",
                                 "tests/check/test_families_joins.py::"
                                 "test_a_row_maximum_put_at_every_thread_is_the_concrete_roots[0-256-2]")


def test_planted_fault_a_widened_bf16_join_without_its_nan_mark_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/floats.py",
                                 'out = _hash("max.f32", widened, _WIDENS[f.op][1])',
                                 'out = _hash("max.f32", widened, "")',
                                 "tests/check/test_families_joins.py::"
                                 "test_a_widened_16_bit_maximum_put_at_every_thread_is_the_concrete_roots[bfloat16]")


def test_planted_fault_the_lanes_strides_dropped_from_the_offsets_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/joins.py",
                                 "                    steps[int(m[0][2:])] += c\n",
                                 "                    steps[int(m[0][2:])] += 0\n",
                                 "tests/check/test_families_joins.py::test_v2_names_a_joins_members_by_their_lanes_strides")
