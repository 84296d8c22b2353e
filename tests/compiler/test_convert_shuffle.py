"""The shuffle mode of the accumulator conversion (BITORDER_PINNED_CONVERT_SHUFFLE, the pass's
default since 2026-12-02c; =0 turns it off): before each tree level whose pair bit sits in a lane, one
convert_layout that swaps that lane bit with a kept axis' register bit and changes nothing
else, which Triton 3.6 lowers with warp shuffles (one mixed register/lane transposition:
cvtNeedsWarpShuffle); the level's add then runs in registers. Checked here: the plans for the
wgmma and mma.sync accumulators (each conversion one exchange, every planned level's pair in
registers, the tensor covered once), the PTX on sm90 (shuffles, no shared memory or barrier for
the lane levels), a planted fault (a swap of the wrong lane bit fails the check), and the
fallback to the stock conversion when the edited text does not parse."""
import os
import re
import sys

import pytest

from bitorder.compiler import convert

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lit", "kernels"))
from test_convert import _coords  # noqa: E402

# The accumulators' linear layouts over 128 x 64 (rows, columns), as Triton 3.6 infers them for
# the chain's first reshape (read back from its TTGIR with unsplit): wgmma m64n64k16 at 4 warps
# (warpsPerCTA [4, 1]) over 128 x 64, mma.sync m16n8k16 at 2 warps (warpsPerCTA [1, 2]) over
# 128 x 128, wgmma m64n32k16 at 8 warps ([8, 1]) over 128 x 32.
WGMMA_4 = {"register": [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [64, 0]],
           "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], "warp": [[16, 0], [32, 0]]}
MMA2_2 = {"register": [[0, 1], [8, 0], [0, 16], [0, 32], [0, 64], [16, 0], [32, 0], [64, 0]],
          "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], "warp": [[0, 8]]}
WGMMA_8 = {"register": [[0, 1], [8, 0], [0, 8], [0, 16]],
           "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], "warp": [[16, 0], [32, 0], [64, 0]]}


def _exchanges(a: dict, b: dict) -> list:
    """The (kind, index) slots where layouts a and b differ, and whether b is a with pairs of
    slots exchanged (the same multiset of bases)."""
    return [(k, i) for k in a for i, (x, y) in enumerate(zip(a[k], b[k])) if x != y]


def check_plan(source: dict, axis: int, plan: list) -> None:
    """A plan is sound when every conversion is its input with one register/lane exchange (a
    level in a lane) or warp bases traded for kept bases (a level in a warp), the pair bit
    (the axis' coordinate 1) then sits in a register, each layout covers the tensor once, and
    each step's layout is the reshape (split) of what was converted, the next input its
    reduction (drop)."""
    shape = [1 << (max((v[d] for vs in source.values() for v in vs), default=0)).bit_length() for d in range(2)]
    cur = source
    for k, (conv, shaped) in enumerate(plan):
        pair = [1 if d == axis else 0 for d in range(2)]
        if conv is not None:
            diff = _exchanges(cur, conv)
            assert sorted(map(tuple, sum(cur.values(), []))) == sorted(map(tuple, sum(conv.values(), [])))
            kinds = {kind for kind, _ in diff}
            assert kinds == {"register", "lane"} and len(diff) == 2 or "warp" in kinds, (k, diff)
            assert len(set(_coords(conv, shape).values())) == shape[0] * shape[1]
            no_register = not any(any(v) for v in conv["register"])     # (then a lane's butterfly is all there is)
            assert pair in conv["register"] or no_register and pair in conv["lane"], \
                f"level {k}: the pair bit is not in a register after the conversion"
        elif pair in cur["lane"] and any(any(v) for v in cur["register"]):
            raise AssertionError(f"level {k}: the pair bit stays in a lane")
        assert shaped == convert.split(conv or cur, axis)
        cur = convert.drop(shaped, axis + 1)
        shape = [shape[0] // 2, shape[1]] if axis == 0 else [shape[0], shape[1] // 2]


def test_wgmma_plan_swaps_each_lane_row_bit_with_a_column_register_bit():
    plan = convert.shuffle_plan(WGMMA_4, 0, 7)
    check_plan(WGMMA_4, 0, plan)
    assert plan[0][0] == {"register": [[1, 0], [8, 0], [0, 8], [0, 16], [0, 32], [64, 0]],
                          "lane": [[0, 2], [0, 4], [0, 1], [2, 0], [4, 0]], "warp": [[16, 0], [32, 0]]}
    swapped = [k for k, (conv, _) in enumerate(plan) if conv is not None]
    # rows 0-2 in lanes; rows 4-5 in warps, gathered at level 4 into the last column register bit
    # and a lane (row 5, swapped at level 5 with row 6's register; row 6 then reduced in its lane)
    assert swapped == [0, 1, 2, 4, 5]


@pytest.mark.parametrize("source, swapped", [(MMA2_2, [0, 1, 2]), (WGMMA_8, [0, 1, 2, 4])])
def test_mma_sync_and_eight_warp_plans(source, swapped):
    """mma.sync at 2 warps keeps its warps on the columns: three swaps and no shared memory. At 8
    warps the three warp row bits trade places with lanes at level 4 (no register is left)."""
    plan = convert.shuffle_plan(source, 0, 7)
    check_plan(source, 0, plan)
    assert [k for k, (conv, _) in enumerate(plan) if conv is not None] == swapped


def test_planted_fault_a_swap_of_the_wrong_lane_bit_fails_the_check(monkeypatch):
    """A plan whose swap moves row bit 1's lane (not the pair's) into registers: the level's
    pair stays in a lane and the check says so."""
    def wrong(layout, axis):
        two = [2 if d == axis else 0 for d in range(2)]
        if two not in layout["lane"]:
            return None
        out = {k: [list(v) for v in vs] for k, vs in layout.items()}
        i = next(i for i, v in enumerate(out["register"]) if v[axis] == 0)
        j = out["lane"].index(two)
        out["register"][i], out["lane"][j] = out["lane"][j], out["register"][i]
        return out
    monkeypatch.setattr(convert, "swap_pair_into_registers", wrong)
    with pytest.raises(AssertionError, match="pair bit"):
        check_plan(WGMMA_4, 0, convert.shuffle_plan(WGMMA_4, 0, 7))


def test_swap_takes_a_later_bit_of_the_axis_when_no_kept_bit_is_in_registers():
    """A row reduced along its only axis (cross_entropy's 1 x 1024): the lane pair bit trades
    places with the axis' highest register bit, which a later level reduces."""
    in_registers = {"register": [[0, 1], [0, 256]], "lane": [[0, 2], [0, 4]], "warp": []}
    assert convert.swap_pair_into_registers(in_registers, 1) is None     # nothing to do
    lane_pair = {"register": [[0, 2], [0, 256]], "lane": [[0, 1], [0, 4]], "warp": []}
    assert convert.swap_pair_into_registers(lane_pair, 1) == {"register": [[0, 2], [0, 1]],
                                                              "lane": [[0, 256], [0, 4]], "warp": []}


def test_parse_linear_and_unsplit_invert_text_and_split():
    lay = {"register": [[0, 1], [8, 0]], "lane": [[1, 0]], "warp": [[16, 0]]}
    assert convert.parse_linear(convert.text(lay)) == lay
    assert convert.unsplit(convert.split(lay, 0), 0) == lay
    assert convert.parse_linear("#ttg.blocked<{sizePerThread = [1]}>") is None


# -- compiled on the CPU ---------------------------------------------------------------------------

SIG = {"a_ptr": "*fp16", "b_ptr": "*fp16", "y_ptr": "*fp32"}


def build(monkeypatch, tmp_path, shuffle, warps, bn, target="sm90"):
    """gemm_col_sum compiled afresh (neither cache: the switch is read at import and keys the
    caches) with the layout pass on and the shuffle mode as given; the row permutation off (at 1-2
    warps it rewrites this dot first, so the lane levels these tests read would not be there)."""
    pytest.importorskip("torch")
    import triton
    from bitorder.compiler import harness, layouts
    from reductions import gemm_col_sum
    monkeypatch.setattr(layouts, "CONVERT_SHUFFLE", shuffle)
    monkeypatch.setattr(layouts, "ROWPERM", False)
    with layouts.applied(True):
        before, triton.knobs.cache.dir = triton.knobs.cache.dir, str(tmp_path / f"t{shuffle}{warps}{bn}{target}")
        try:
            return harness.compile(gemm_col_sum, target, signature=SIG, cache=False, aligned=list(SIG),
                                   constexprs={"M": 128, "N": 1024, "K": 64, "BN": bn, "PINNED": True},
                                   num_warps=warps, num_stages=1)
        finally:
            triton.knobs.cache.dir = before


def _swaps(ttgir):
    """The conversions a pinned chain's reshapes read (the stock mode has one, from the accumulator)."""
    return re.findall(r"= ttg\.convert_layout [^\n]*-> tensor<[0-9x]+xf32, #\w+>[^\n]*\n\s*%\w+ = tt\.reshape", ttgir)


@pytest.mark.parametrize("warps, bn, levels", [(1, 32, 3), (2, 128, 3), (4, 64, 5), (8, 32, 4)])
def test_sm90_lane_levels_convert_by_shuffles(monkeypatch, tmp_path, warps, bn, levels):
    """One conversion per lane level (and one gathering the warps' row bits); the PTX shuffles
    half the registers at the first level, a quarter at the second, an eighth at the third
    (mma.sync at 1-2 warps, wgmma at 4 and 8), and adds no barrier where no warp holds rows."""
    got = build(monkeypatch, tmp_path, True, warps, bn)
    stock = build(monkeypatch, tmp_path, False, warps, bn)
    assert len(_swaps(got.ttgir)) == levels
    regs = 128 * bn // (32 * warps)
    assert got.ptx.count("shfl.sync") >= regs // 2 + regs // 4 + regs // 8
    assert stock.ptx.count("shfl.sync") < regs // 2
    if warps <= 2:      # no warp holds rows: no shared-memory round trip besides the GEMM's
        assert got.ptx.count("bar.sync") <= stock.ptx.count("bar.sync")
        assert got.ptx.count("ld.shared") == 0 < stock.ptx.count("ld.shared")
    assert got.ptx.count("st.shared") <= stock.ptx.count("st.shared")


def test_an_edit_that_does_not_parse_falls_back_to_the_stock_conversion(monkeypatch, tmp_path):
    """The shuffle mode's text broken (its first swap layout pairs nothing sensible: the reshape's
    verifier rejects it): the kernel compiles with the stock conversion (one convert_layout from
    the accumulator), as without the switch."""
    real = convert.rewrite

    def broken(text, rows=False, keep_warps=False, shuffle=False):
        new, changes = real(text, rows=rows, keep_warps=keep_warps, shuffle=shuffle)
        if shuffle:
            new, n = re.subn(r"(#bitorder_chain0_0 = #ttg\.linear<\{register = \[)\[[0-9, ]+\]", r"\1[0, 0, 0]", new)
            assert n == 1
        return new, changes
    monkeypatch.setattr(convert, "rewrite", broken)
    got = build(monkeypatch, tmp_path, True, 4, 64)
    stock = build(monkeypatch, tmp_path, False, 4, 64)
    assert len(_swaps(got.ttgir)) == len(_swaps(stock.ttgir)) == 1
    strip = lambda t: re.sub(r"loc\([^\n]*", "", t)  # noqa: E731
    assert strip(got.ttgir) == strip(stock.ttgir)


def test_the_switch_is_read_at_import_and_keys_the_caches():
    import subprocess
    code = "from bitorder.compiler import layouts; print(layouts.CONVERT_SHUFFLE, layouts._SOURCE)"
    env = {k: v for k, v in os.environ.items() if not k.startswith("BITORDER_PINNED_CONVERT")}
    run = lambda e: subprocess.run([sys.executable, "-c", code], env=e, capture_output=True, text=True,  # noqa: E731
                                   check=True).stdout.split()
    default, on, off = run(env), run({**env, "BITORDER_PINNED_CONVERT_SHUFFLE": "1"}), \
        run({**env, "BITORDER_PINNED_CONVERT_SHUFFLE": "0"})
    assert default == on and on[0] == "True" and off[0] == "False" and off[1] != on[1]   # on by default


def test_conversions_flips_the_switches_and_the_cache_keys_and_restores_both():
    from bitorder.compiler import layouts
    before = layouts.CONVERT_ROWS, layouts.CONVERT_SHUFFLE, layouts._hook.bitorder_identity
    with layouts.conversions(shuffle=not before[1]):
        assert layouts.CONVERT_SHUFFLE != before[1] and layouts.CONVERT_ROWS == before[0]
        assert layouts._hook.bitorder_identity != before[2]
        with layouts.applied(True):
            import triton
            assert triton.knobs.cache.dir.endswith(layouts._SOURCE)
    assert (layouts.CONVERT_ROWS, layouts.CONVERT_SHUFFLE, layouts._hook.bitorder_identity) == before


@pytest.mark.parametrize("target, warps", [("gfx942", 1), ("gfx942", 4), ("gfx90a", 4), ("sm80", 2)])
def test_every_plan_the_pass_makes_on_other_targets_is_sound(monkeypatch, tmp_path, target, warps):
    """The plans the shuffle mode makes while compiling for AMD (mfma accumulators, 64-lane warps) and
    sm80 pass the same check as the NVIDIA plans above (each conversion one exchange, every planned
    level's pair in registers, the tensor covered once): recorded from the pass itself."""
    made = []
    real = convert.shuffle_plan

    def recording(source, axis, levels, *a, **k):
        plan = real(source, axis, levels, *a, **k)
        made.append((source, axis, plan))
        return plan
    monkeypatch.setattr(convert, "shuffle_plan", recording)
    build(monkeypatch, tmp_path, True, warps, 64, target=target)
    assert made, "the pass made no shuffle plan"
    for source, axis, plan in made:
        check_plan(source, axis, plan)
