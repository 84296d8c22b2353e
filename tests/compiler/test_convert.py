"""The accumulator conversion of the layout pass (bitorder.compiler.convert): the chain layout
covers its tensor exactly with the reduced axis' low bits in registers, reshape and reduction
layouts follow the flat index, and on sm90 and gfx942 a pinned column sum of an MMA accumulator
is converted once, shuffles no more than the free sum, and leaves free sums alone. These are the
one-conversion mode's tests (BITORDER_PINNED_CONVERT_ROWS=0 BITORDER_PINNED_CONVERT_SHUFFLE=0, set
per test through layouts.conversions); the default shuffle mode's are in test_convert_shuffle.py."""
import os
import re
import sys

import pytest
from hypothesis import given, settings, strategies as st

from bitorder.compiler import convert, layouts

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lit", "kernels"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
from pinned_layouts import ops  # noqa: E402  (TTGIR without source locations: cached builds may come from another checkout)


@pytest.fixture(autouse=True)
def one_conversion():
    with layouts.conversions(rows=False, shuffle=False):
        yield


def _coords(layout, shape):
    """{(register, lane, warp) index: logical coordinates}: each coordinate is the XOR of the
    bases of the index's set bits (a linear layout)."""
    out = {}
    sizes = {k: 1 << len(layout[k]) for k in ("register", "lane", "warp")}
    for r in range(sizes["register"]):
        for ln in range(sizes["lane"]):
            for w in range(sizes["warp"]):
                c = [0] * len(shape)
                for k, idx in (("register", r), ("lane", ln), ("warp", w)):
                    for b, v in enumerate(layout[k]):
                        if idx >> b & 1:
                            c = [x ^ y for x, y in zip(c, v)]
                out[(r, ln, w)] = tuple(c)
    return out


shapes = st.lists(st.integers(0, 7), min_size=2, max_size=3).map(lambda bits: [1 << b for b in bits])


@settings(max_examples=25, deadline=None)
@given(shapes, st.data(), st.sampled_from([1, 2, 4, 8]), st.sampled_from([32, 64]))
def test_chain_layout_covers_the_tensor_once_with_the_axis_low_bits_in_registers(shape, data, warps, lanes):
    axis = data.draw(st.integers(0, len(shape) - 1))
    n = 1
    for d in shape:
        n *= d
    if n < warps * lanes:
        with pytest.raises(ValueError):
            convert.chain_layout(shape, axis, warps, lanes)
        return
    lay = convert.chain_layout(shape, axis, warps, lanes)
    coords = _coords(lay, shape)
    assert len(set(coords.values())) == n == len(coords)          # every element once
    regs = [v[axis] for v in lay["register"] if v[axis]]
    assert regs == [1 << i for i in range(len(regs))]              # the axis' lowest bits, in order
    lane_bits = [v[axis] for v in lay["lane"] if v[axis]]
    warp_bits = [v[axis] for v in lay["warp"] if v[axis]]
    bits = regs + lane_bits + warp_bits
    assert bits == [1 << i for i in range(len(bits))]              # registers, then lanes, then warps


@settings(max_examples=20, deadline=None)
@given(shapes, st.data(), st.sampled_from([1, 4]))
def test_split_and_drop_follow_the_flat_index(shape, data, warps):
    axis = data.draw(st.integers(0, len(shape) - 1))
    if shape[axis] < 2 or shape[0] * shape[1] * (shape[2] if len(shape) > 2 else 1) < warps * 32:
        return
    lay = convert.chain_layout(shape, axis, warps, 32)
    halved = shape[:axis] + [shape[axis] // 2, 2] + shape[axis + 1:]
    before, after = _coords(lay, shape), _coords(convert.split(lay, axis), halved)
    for key, c in before.items():    # the reshape keeps the row-major flat index
        assert after[key] == c[:axis] + (c[axis] >> 1, c[axis] & 1) + c[axis + 1:]
    dropped = convert.drop(convert.split(lay, axis), axis + 1)
    assert all(any(v) for v in dropped["register"])                 # registers of the reduced pair go
    assert len(dropped["lane"]) == len(lay["lane"]) and len(dropped["warp"]) == len(lay["warp"])


def test_text_is_a_linear_layout_attribute():
    assert convert.text({"register": [[1, 0]], "lane": [[0, 1]], "warp": []}) == \
        "#ttg.linear<{register = [[1, 0]], lane = [[0, 1]], warp = [], block = []}>"


def test_rewrite_leaves_text_without_an_accumulator_chain_alone():
    src = '#blocked = #ttg.blocked<{sizePerThread = [1]}>\nmodule attributes {"ttg.num-warps" = 4 : i32, ' \
          '"ttg.threads-per-warp" = 32 : i32} {\n}'
    assert convert.rewrite(src) == (src, [])


# -- compiled on the CPU ---------------------------------------------------------------------------

SIG = {"a_ptr": "*fp16", "b_ptr": "*fp16", "y_ptr": "*fp32"}


def build(on, pinned=True, warps=4, target="sm90", bn=32):
    pytest.importorskip("torch")
    import bitorder
    from bitorder.compiler import layouts
    from reductions import gemm_col_sum
    with layouts.applied(on):
        return bitorder.compile(gemm_col_sum, target, signature=SIG,
                                constexprs={"M": 128, "N": 1024, "K": 64, "BN": bn, "PINNED": pinned},
                                aligned=list(SIG), num_warps=warps, num_stages=1)


def _from_accumulator(ttgir):
    """The conversions from an MMA/mfma accumulator that a pinned chain's first reshape reads
    (a store of the accumulator has its own conversion, which is not one of these)."""
    return re.findall(r"(%\w+) = ttg\.convert_layout %[\w#]+ : tensor<128x\d+xf32, #(?:mma|mfma)\w*>[^\n]*\n"
                      r"\s*%\w+ = tt\.reshape \1 ", ttgir)


@pytest.mark.parametrize("warps", [4, 8])
def test_sm90_accumulator_is_converted_once_and_shuffles_like_the_free_sum(warps):
    laid, stock, free = build(True, warps=warps), build(False, warps=warps), build(True, pinned=False, warps=warps)
    assert len(_from_accumulator(laid.ttgir)) == 1 and not _from_accumulator(stock.ttgir)
    shfl = [c.ptx.count("shfl.sync") for c in (laid, stock, free)]
    assert shfl[0] <= shfl[2] < shfl[1]


def test_free_sum_of_an_accumulator_is_left_alone():
    assert ops(build(True, pinned=False).ttgir) == ops(build(False, pinned=False).ttgir)


def test_gfx942_mfma_accumulator_is_converted():
    laid = build(True, target="gfx942")
    assert len(_from_accumulator(laid.ttgir)) == 1
    assert "#ttg.amd_mfma" in laid.ttgir


def test_a_rewrite_that_does_not_parse_compiles_as_stock(monkeypatch, tmp_path):
    """If the rewritten text does not verify, the kernel compiles as Triton left it (compiled
    afresh: neither cache may answer)."""
    pytest.importorskip("torch")
    import triton
    from bitorder.compiler import harness, layouts
    from reductions import gemm_col_sum
    monkeypatch.setattr(convert, "rewrite", lambda text, rows=False, keep_warps=False:
                        (text.replace("tt.reshape", "tt.reshape_nonsense", 1), ["x"]))
    with layouts.applied(True):
        before, triton.knobs.cache.dir = triton.knobs.cache.dir, str(tmp_path)
        try:
            got = harness.compile(gemm_col_sum, "sm90", signature=SIG, cache=False, aligned=list(SIG),
                                  constexprs={"M": 128, "N": 1024, "K": 64, "BN": 64, "PINNED": True}, num_stages=1)
        finally:
            triton.knobs.cache.dir = before
    assert "tt.reshape_nonsense" not in got.ttgir and not _from_accumulator(got.ttgir)
    assert ops(got.ttgir) == ops(build(False, bn=64).ttgir)


def test_blocked_bases_are_tritons_blocked_to_linear():
    """A 1x1024 fp32 row over 2 warps ([1, 4] x [1, 32] x [1, 2]): elements 0-3 in registers,
    4-127 in lanes, 128 in the warps, 256 and 512 register repetitions; a 1x64 row over the same
    layout broadcasts its lanes past 64 and its warp."""
    body = "sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [1, 2], order = [1, 0]"
    got = convert.blocked_bases(body, [1, 1024])
    assert [v[1] for v in got["register"]] == [1, 2, 256, 512]
    assert [v[1] for v in got["lane"]] == [4, 8, 16, 32, 64] and [v[1] for v in got["warp"]] == [128]
    small = convert.blocked_bases(body, [1, 64])
    assert [v[1] for v in small["lane"]] == [4, 8, 16, 32, 0] and [v[1] for v in small["warp"]] == [0]
    assert not convert._in_order(got, 1) and convert._in_order(small, 1)


def test_rows_mode_converts_each_row_chain_and_triton_verifies_the_layouts():
    """rows=True (BITORDER_PINNED_CONVERT_ROWS=1): cross_entropy's three pinned chains over a
    1x1024 row each get a conversion; Triton's parser verifies every reshape's layout against
    the one it infers (a wrong basis is rejected), so the edited module is well formed."""
    pytest.importorskip("torch")
    import bitorder
    from triton._C.libtriton import ir
    from triton.backends.compiler import GPUTarget
    from triton.compiler.compiler import make_backend
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
    os.environ.setdefault("PINNED_DEVICE", "cpu")
    import pinned_kernels as pk
    kernel, sig, consts, block = pk.signature("cross_entropy")
    stock = bitorder.compile(kernel, "sm90", signature=sig, constexprs={**consts, block: 1, "PINNED": True},
                             aligned=[a for a in sig if a.endswith("_ptr")], num_warps=2, num_stages=1)
    assert convert.rewrite(stock.ttgir) == (stock.ttgir, [])          # rows off: a row is left alone
    text, changes = convert.rewrite(stock.ttgir, rows=True)
    assert len(changes) == 3
    ctx = ir.context()
    ir.load_dialects(ctx)
    make_backend(GPUTarget("cuda", 90, 32)).load_dialects(ctx)

    def parses(t, path):
        path.write_text(t)
        try:
            ir.parse_mlir_module(str(path), ctx)
            return True
        except RuntimeError:
            return False
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as d:
        assert parses(text, Path(d) / "ok.ttgir")
        first = next(ln for ln in text.splitlines() if ln.startswith("#bitorder_chain0_0 "))
        wrong = first.replace("register = [[0, 0, 1]", "register = [[0, 0, 0]", 1)
        assert wrong != first and not parses(text.replace(first, wrong), Path(d) / "bad.ttgir")


@pytest.mark.parametrize("target, warps", [("sm90", 4), ("sm90", 8), ("sm80", 4), ("gfx942", 4)])
def test_a_k_loop_accumulator_with_another_user_is_converted_for_the_chain_only(target, warps):
    """A K loop's accumulator that is also stored: the chain reads the converted copy, the store
    the accumulator as the loop left it."""
    pytest.importorskip("torch")
    import bitorder
    from bitorder.compiler import layouts
    from reductions import gemm_loop_col_sum
    sig = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "y_ptr": "*fp32", "K": "i32"}
    with layouts.applied(True):
        c = bitorder.compile(gemm_loop_col_sum, target, signature=sig, aligned=list(sig), num_warps=warps,
                             constexprs={"M": 128, "N": 1024, "BK": 32, "BN": 64, "PINNED": True})
    assert len(_from_accumulator(c.ttgir)) == 1


@pytest.mark.parametrize("attr, shape, want", [
    ("#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 1], CTAsPerCGA = [1, 1], "
     "CTASplitNum = [1, 1], CTAOrder = [1, 0], instrShape = [16, 8]}>", [128, 128], [[16, 0]]),
    ("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 2], CTAsPerCGA = [1, 1], "
     "CTASplitNum = [1, 1], CTAOrder = [1, 0], instrShape = [16, 64, 16]}>", [128, 128], [[16, 0], [32, 0], [0, 64]]),
    ("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>",
     [128, 128], None),
])
def test_mma_warp_bases_and_the_warp_keeping_chain_layout(attr, shape, want):
    """The experiment BITORDER_PINNED_CONVERT_KEEP_WARPS: the accumulator's warp bases are kept,
    the layout still covers the tensor once, and the reduced axis' other bits run registers first
    (then lanes: the kept axis fills the lanes first)."""
    warp = convert.mma_warp_bases(attr, shape)
    assert warp == want
    if warp is None:
        return
    lay = convert.chain_layout_keeping_warps(shape, 0, warp, 32)
    assert lay["warp"] == warp
    coords = _coords(lay, shape)
    assert len(set(coords.values())) == shape[0] * shape[1] == len(coords)
    held = {v[0] for v in warp if v[0]}
    regs = [v[0] for v in lay["register"] if v[0]]
    assert regs == sorted(regs) and set(regs) | held == {1 << b for b in range(7)}
