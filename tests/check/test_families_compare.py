"""Float comparisons, a float's bits and branches in the family walk (check/families): a setp of float families is a
predicate family (an Each "fcmp") whose value in each thread is the concrete walk's comparison form of its operands'
keys, selects on it are keyed as the walk keys them, and a select ptxas may lower to a min or max (payloads.py) is
refused at a store as the concrete walk refuses it; integer instructions on a float's bits (libdevice's logf) are
Bits, and its forward branch over straight-line code a region whose registers end as selects:
- put at every thread, the family walk's stores are the concrete walk's roots exactly;
- where the concrete walk refuses a store for its NaN payload, the family walk refuses it too;
- the v2 signature partitions the layouts as v1 does, and tells apart kernels that compare otherwise.
Planted faults from a copied tree make these fail: payload-free selects never marked, a comparison whose operands
are put at each thread in reverse, a region's registers ending as their values before it where it ran, a float's
bits read as another tree's, an integer selp's arms swapped (a predicate's bits: bitorder.math's exp), and one-hot
sums' terms let through (onehot.py keys those sums by their terms; the
family walk leaves them to the concrete walk). Also here: a 16-bit tree's sign cleared (and.b16 x, 0x7FFF, the walk's
node sign0.b16, widened as abs.f16), integer families stored, and slots of different forms named slot by slot, with
planted faults for each (the sign read as integer bits, the widening reading it as itself, a stored integer's token
lost, every slot named as the first)."""
import pytest

from bitorder import check
from bitorder.check import dataflow
from bitorder.check.families import names as fn
from bitorder.check.families import walk as fw
from bitorder.check.signature import _entry, divisible_params
from bitorder.check.symbolic import Unsupported

from bitorder.math.triton_impl import exp as shared_exp, log as shared_log
from mutants import checker_test_fails_on_mutant

triton = pytest.importorskip("triton")
tl = triton.language


@triton.jit
def _where(x_ptr, z_ptr, y_ptr, N, BLOCK: tl.constexpr, HOW: tl.constexpr):
    """HOW 0: where(x > z, x, z), a max ptxas may make of it (payload-free, stored); 1: the same less 1 (sub: a
    canonical NaN); 2: where(x > 0, z, 2x); 3: Inductor's maximum (x > z or x is NaN), times 2; 4: where(x != x, x,
    exp(x)) (a NaN test: not a min or max); 5: as 1 with x < z."""
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + o, mask=o < N, other=0.0)
    z = tl.load(z_ptr + o, mask=o < N, other=0.0)
    if HOW == 0:
        y = tl.where(x > z, x, z)
    elif HOW == 1:
        y = tl.where(x > z, x, z) - 1.0
    elif HOW == 2:
        y = tl.where(x > 0.0, z, x * 2.0)
    elif HOW == 3:
        y = tl.where((x > z) | (x != x), x, z) * 2.0
    elif HOW == 4:
        y = tl.where(x != x, x, tl.exp(x))
    else:
        y = tl.where(x < z, x, z) - 1.0
    tl.store(y_ptr + o, y, mask=o < N)


@triton.jit
def _onehot(x_ptr, t_ptr, y_ptr, N, BLOCK: tl.constexpr, HOW: tl.constexpr):
    """y = x - where(column == t[row], 1, 0) over rows of 16 (cross-entropy's gradient: an integer comparison of a
    loaded index's bits); HOW 1: where(column < t[row], ...)."""
    i = tl.arange(0, BLOCK)
    o = tl.program_id(0) * BLOCK + i
    x = tl.load(x_ptr + o, mask=o < N, other=0.0)
    t = tl.load(t_ptr + tl.program_id(0) * (BLOCK // 16) + i // 16, mask=o < N, other=0)
    hot = (i % 16) == t if HOW == 0 else (i % 16) < t
    tl.store(y_ptr + o, x - tl.where(hot, 1.0, 0.0), mask=o < N)


@triton.jit
def _log(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    """y = log(x): libdevice's logf, its bit tricks on x's bits and a branch over its infinity case."""
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + o, mask=o < N, other=1.0)
    tl.store(y_ptr + o, tl.log(x), mask=o < N)


@triton.jit
def _shared_math(x_ptr, y_ptr, N, BLOCK: tl.constexpr, HOW: tl.constexpr):
    """bitorder.math's shared exp (HOW 0: a predicate's bits as integers, selp.b32 1, 0, p, in its exponent
    scaling) and log (HOW 1: the float's bits split by integer instructions)."""
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + o, mask=o < N, other=1.0)
    tl.store(y_ptr + o, shared_exp(x) if HOW == 0 else shared_log(x), mask=o < N)


def _ptx(block, warps, how):
    import torch
    from bitorder.check.prune import compile_config
    args = {"x_ptr": torch.empty(8), "z_ptr": torch.empty(8), "y_ptr": torch.empty(8), "N": 1024}
    return compile_config(_where, triton.Config({"BLOCK": block, "HOW": how}, num_warps=warps), args, {}, "sm90")


def _onehot_ptx(block, warps, how):
    import torch
    from bitorder.check.prune import compile_config
    args = {"x_ptr": torch.empty(8), "t_ptr": torch.empty(8, dtype=torch.int32), "y_ptr": torch.empty(8), "N": 1024}
    return compile_config(_onehot, triton.Config({"BLOCK": block, "HOW": how}, num_warps=warps), args, {}, "sm90")


def _roots_are_concrete(compiled) -> bool:
    """Whether the family walk's stores, put at every thread, are the concrete walk's roots exactly."""
    entry, divisible = _entry(compiled.asm), divisible_params(compiled)
    stores, n = fw.walk(entry, divisible)
    return fw.roots_at(stores, n) == dataflow.walk(entry, divisible=divisible)[0]


def _v2(compiled) -> str:
    divisible = divisible_params(compiled)
    stores, n = fw.walk(_entry(compiled.asm), divisible)
    return fn.signature(stores, n, divisible)


_LAYOUTS = [(128, 1), (256, 2), (256, 8), (1024, 4)]


@pytest.mark.parametrize("how", [1, 2, 3, 4])
@pytest.mark.parametrize("block,warps", _LAYOUTS[:3])
def test_selects_on_float_comparisons_put_at_every_thread_are_the_concrete_roots(block, warps, how):
    compiled = _ptx(block, warps, how)
    assert "setp" in compiled.asm and ".f32" in compiled.asm
    assert _roots_are_concrete(compiled)


@pytest.mark.parametrize("block,warps", _LAYOUTS[:2])
def test_a_payload_free_select_stored_is_refused_as_the_concrete_walk_refuses_it(block, warps):
    compiled = _ptx(block, warps, 0)
    entry, divisible = _entry(compiled.asm), divisible_params(compiled)
    with pytest.raises(Unsupported, match="min or max"):
        dataflow.walk(entry, divisible=divisible)
    with pytest.raises(Unsupported, match="min or max"):
        fw.walk(entry, divisible)


def test_v2_partitions_comparisons_as_v1_does():
    for how in (1, 2, 3, 4):
        v1 = [check.signature(_ptx(b, w, how)) for b, w in _LAYOUTS]
        v2 = [_v2(_ptx(b, w, how)) for b, w in _LAYOUTS]
        assert [v1.index(s) for s in v1] == [v2.index(s) for s in v2], how


@pytest.mark.parametrize("how", [0, 1])
@pytest.mark.parametrize("block,warps", _LAYOUTS[:3])
def test_integer_comparisons_of_loaded_bits_put_at_every_thread_are_the_concrete_roots(block, warps, how):
    compiled = _onehot_ptx(block, warps, how)
    assert _roots_are_concrete(compiled)


def test_v2_partitions_integer_comparisons_of_loaded_bits_as_v1_does():
    for how in (0, 1):
        v1 = [check.signature(_onehot_ptx(b, w, how)) for b, w in _LAYOUTS]
        v2 = [_v2(_onehot_ptx(b, w, how)) for b, w in _LAYOUTS]
        assert [v1.index(s) for s in v1] == [v2.index(s) for s in v2], how
    assert _v2(_onehot_ptx(256, 2, 0)) != _v2(_onehot_ptx(256, 2, 1))


@pytest.mark.parametrize("block,warps", _LAYOUTS[:3])
def test_a_floats_bits_and_a_branch_put_at_every_thread_are_the_concrete_roots(block, warps):
    import torch
    from bitorder.check.prune import compile_config
    compiled = compile_config(_log, triton.Config({"BLOCK": block}, num_warps=warps),
                              {"x_ptr": torch.empty(8), "y_ptr": torch.empty(8), "N": 1024}, {}, "sm90")
    assert "bra" in compiled.asm and "and.b32" in compiled.asm
    assert _roots_are_concrete(compiled)


@triton.jit
def _sign0(x_ptr, y_ptr, N, BLOCK: tl.constexpr, HOW: tl.constexpr):
    """An f16's bits and-ed: HOW 0, its sign cleared (and.b16 x, 0x7FFF: the walk's node sign0.b16) and widened
    (read as abs.f16); 1, another mask (the walk's integer rules on its bits); 2, a row's maximum of HOW 0's (a join
    of sign0 members, widened member by member)."""
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b = tl.load(x_ptr + o, mask=o < N, other=0.0).to(tl.int16, bitcast=True)
    if HOW == 0:
        tl.store(y_ptr + o, (b & 0x7FFF).to(tl.float16, bitcast=True).to(tl.float32) * 2.0, mask=o < N)
    elif HOW == 1:
        tl.store(y_ptr + o, (b & 0x3FFF).to(tl.float16, bitcast=True).to(tl.float32) * 2.0, mask=o < N)
    else:
        tl.store(y_ptr + tl.program_id(0), tl.max((b & 0x7FFF).to(tl.float16, bitcast=True), 0).to(tl.float32))


@pytest.mark.parametrize("how", [0, 1, 2])
@pytest.mark.parametrize("block,warps", [(32, 1), (128, 4)])
def test_a_16_bit_trees_sign_cleared_put_at_every_thread_is_the_concrete_roots(block, warps, how):
    """One f16 a thread (ld.global.b16): and.b16 of the tree's own bits (at 128 elements a warp the halves of a
    32-bit load are cvt.u16.u32 of it, integer bits the family walk refuses to and with 0x7FFF)."""
    import torch
    from bitorder.check.prune import compile_config
    compiled = compile_config(_sign0, triton.Config({"BLOCK": block, "HOW": how}, num_warps=warps),
                              {"x_ptr": torch.empty(8, dtype=torch.float16), "y_ptr": torch.empty(8), "N": 1024}, {},
                              "sm90")
    assert "and.b16" in compiled.asm
    assert _roots_are_concrete(compiled)


def test_slots_of_different_forms_are_named_slot_by_slot():
    """bitorder.math's exp at 32 elements a thread: LLVM does part of its integer work in 16-bit pairs for some
    register slots only, so no one family stands for the slots; named slot by slot, the roots still are the
    concrete walk's, and the names tell the exp from the log."""
    import torch
    from bitorder.check.prune import compile_config
    named = {"x_ptr": torch.empty(8), "y_ptr": torch.empty(8), "N": 4096}
    compiled = [compile_config(_shared_math, triton.Config({"BLOCK": 1024, "HOW": how}, num_warps=1), named, {},
                               "sm90") for how in (0, 1)]
    assert _roots_are_concrete(compiled[0])
    assert len({_v2(c) for c in compiled}) == 2


@triton.jit
def _index(y_ptr, N, BLOCK: tl.constexpr):
    """An integer family stored: y[o] = 3 o + 1 (dataflow.fnode's token of a polynomial, "int:...")."""
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + o, o * 3 + 1, mask=o < N)


def test_an_integer_family_stored_put_at_every_thread_is_the_concrete_roots():
    import torch
    from bitorder.check.prune import compile_config
    compiled = compile_config(_index, triton.Config({"BLOCK": 32}, num_warps=1),
                              {"y_ptr": torch.empty(8, dtype=torch.int32), "N": 1024}, {}, "sm90")
    assert _roots_are_concrete(compiled)


def _two_slots(second) -> str:
    """The v2 signature of one thread storing neg(x[0]) at y[0] and `second` at y[1]: slots of different forms."""
    from bitorder.check.families import floats as ff
    x = {("param:arg0/16",): 16}
    return fn.signature([fw.Store({("param:arg1/16",): 16}, True, ff.Node("neg.f32", (ff.Leaf(x, 4),)), "b32"),
                         fw.Store({("param:arg1/16",): 16, (): 4}, True, second, "b32")], 1)


def test_slot_by_slot_names_read_every_slot():
    from bitorder.check.families import floats as ff
    x = {("param:arg0/16",): 16}
    assert _two_slots(ff.Leaf({**x, (): 4}, 4)) != _two_slots(ff.Leaf({**x, (): 8}, 4))
    assert _two_slots(ff.Leaf({**x, (): 4}, 4)) == _two_slots(ff.Leaf({**x, (): 4}, 4))


@triton.jit
def _grouped(t_ptr, x_ptr, y_ptr, N: tl.constexpr):
    """benchmarks/corpus' grouped_sum in one block: sum of where(r // 8 == target, x, 0) over a row, a sum of
    select(eq, x, 0) terms that onehot.py keys by its terms."""
    row = tl.program_id(0)
    r = tl.arange(0, N)
    target = tl.load(t_ptr + row)
    tl.store(y_ptr + row, tl.sum(tl.where(r // 8 == target, tl.load(x_ptr + row * N + r), 0.0), 0))


@pytest.mark.parametrize("warps", [1, 4])
def test_a_one_hot_sum_is_refused_or_its_roots_are_the_concrete_ones(warps):
    import torch
    from bitorder.check.prune import compile_config
    compiled = compile_config(_grouped, triton.Config({"N": 256}, num_warps=warps),
                              {"t_ptr": torch.empty(8, dtype=torch.int64), "x_ptr": torch.empty(8),
                               "y_ptr": torch.empty(8)}, {}, "sm90")
    entry, divisible = _entry(compiled.asm), divisible_params(compiled)
    try:
        stores, n = fw.walk(entry, divisible)
    except Unsupported as e:
        assert "one-hot" in str(e)
        return
    assert fw.roots_at(stores, n) == dataflow.walk(entry, divisible=divisible)[0]


@pytest.mark.parametrize("how", [0, 1])
@pytest.mark.parametrize("block,warps", _LAYOUTS[:2])
def test_the_shared_exp_and_log_put_at_every_thread_are_the_concrete_roots(block, warps, how):
    import torch
    from bitorder.check.prune import compile_config
    compiled = compile_config(_shared_math, triton.Config({"BLOCK": block, "HOW": how}, num_warps=warps),
                              {"x_ptr": torch.empty(8), "y_ptr": torch.empty(8), "N": 1024}, {}, "sm90")
    assert how or "selp.b32" in compiled.asm
    assert _roots_are_concrete(compiled)


def test_v2_tells_apart_kernels_that_compare_otherwise():
    names = {how: _v2(_ptx(256, 2, how)) for how in (1, 2, 3, 5)}
    assert len(set(names.values())) == 4


def test_planted_fault_payload_free_selects_never_marked_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/floats.py",
                                 '            out = all(h & among or "*" in h',
                                 '            out = False and all(h & among or "*" in h',
                                 "tests/check/test_families_compare.py::"
                                 "test_a_payload_free_select_stored_is_refused_as_the_concrete_walk_refuses_it")


def test_planted_fault_a_comparisons_operands_put_in_reverse_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/floats.py",
                                 "else float_form(p.op, ka, kb)", "else float_form(p.op, kb, ka)",
                                 "tests/check/test_families_compare.py::"
                                 "test_selects_on_float_comparisons_put_at_every_thread_are_the_concrete_roots")


def test_planted_fault_a_regions_registers_kept_as_before_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/walk.py",
                                 "self.regs[r] = ff.Select(ran, v, old)", "self.regs[r] = ff.Select(ran, old, v)",
                                 "tests/check/test_families_compare.py::"
                                 "test_a_floats_bits_and_a_branch_put_at_every_thread_are_the_concrete_roots")


def test_planted_fault_a_floats_bits_read_as_another_tree_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/floats.py",
                                 'return None if k is None else atom(f"tree:{k}")',
                                 'return None if k is None else atom(f"tree:{k[:-1]}")',
                                 "tests/check/test_families_compare.py::"
                                 "test_a_floats_bits_and_a_branch_put_at_every_thread_are_the_concrete_roots")


def test_planted_fault_one_hot_terms_not_refused_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/walk.py",
                                 "def _may_be_term(f, memo: dict) -> bool:\n",
                                 "def _may_be_term(f, memo: dict) -> bool:\n    return False\n",
                                 "tests/check/test_families_compare.py::"
                                 "test_a_one_hot_sum_is_refused_or_its_roots_are_the_concrete_ones")


def test_planted_fault_an_integer_selps_arms_swapped_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/floats.py",
                                 "return _integers().bits.selp(f.op, c, a, b)",
                                 "return _integers().bits.selp(f.op, c, b, a)",
                                 "tests/check/test_families_compare.py::"
                                 "test_the_shared_exp_and_log_put_at_every_thread_are_the_concrete_roots")


def test_planted_fault_a_sign_cleared_read_as_integer_bits_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/walk.py",
                                 '                return ff.Node("sign0.b16", (a,))\n',
                                 "                return ff.Bits(op, tuple(args))\n",
                                 "tests/check/test_families_compare.py::"
                                 "test_a_16_bit_trees_sign_cleared_put_at_every_thread_is_the_concrete_roots[32-1-0]")


def test_planted_fault_a_sign_cleared_widened_as_itself_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/floats.py",
                                 "    return k if x is None or op not in _SIGN0_WIDENS else",
                                 "    return k if True or op not in _SIGN0_WIDENS else",
                                 "tests/check/test_families_compare.py::"
                                 "test_a_16_bit_trees_sign_cleared_put_at_every_thread_is_the_concrete_roots[32-1-0]")


def test_planted_fault_every_slot_named_as_the_first_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/names.py",
                                 "                names.append(name(tuple(fs[at[i]] for i in idx), n))\n",
                                 "                names.append(name((fs[0],) * len(idx), n))\n",
                                 "tests/check/test_families_compare.py::test_slot_by_slot_names_read_every_slot")


def test_planted_fault_a_stored_integer_named_as_any_other_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/floats.py",
                                 'out = f"bits:{v & _M64}" if v.__class__ is int else f"int:{pkey(v)}"',
                                 'out = f"bits:{v & _M64}" if v.__class__ is int else "int:?"',
                                 "tests/check/test_families_compare.py::"
                                 "test_an_integer_family_stored_put_at_every_thread_is_the_concrete_roots")
