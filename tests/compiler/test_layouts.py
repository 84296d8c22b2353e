"""The layout pass for pinned reductions (bitorder.compiler.layouts), compiled for sm90 on the
CPU: it re-lays out the load of a pinned column sum (far fewer shared-memory stores), the
checker finds the same dependence tree, and it leaves kernels with free-order sums alone."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
pytest.importorskip("torch")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

import bitorder  # noqa: E402
from bitorder import check  # noqa: E402
from bitorder.compiler import layouts  # noqa: E402
from pinned_layouts import ops  # noqa: E402  (TTGIR without source locations)

SIG = {"x_ptr": "*fp32", "y_ptr": "*fp32", "C": "i32"}


@triton.jit
def both_sums(x_ptr, y_ptr, R: tl.constexpr, C, BC: tl.constexpr, PINNED: tl.constexpr):
    """A pinned and a free-order column sum of one tile: the pass must leave it alone."""
    c = tl.program_id(0) * BC + tl.arange(0, BC)
    x = tl.load(x_ptr + tl.arange(0, R)[:, None] * C + c[None, :], mask=c[None, :] < C, other=0.0)
    tl.store(y_ptr + c, tl.sum(x, axis=0, pinned=PINNED) + tl.sum(x, axis=0), mask=c < C)


def build(fn, on, pinned=True, warps=4, target="sm90", bc=32):
    with layouts.applied(on):
        return bitorder.compile(fn, target, signature=SIG, constexprs={"R": 256, "BC": bc, "PINNED": pinned},
                                aligned=list(SIG), num_warps=warps)


def test_pinned_column_sum_is_laid_out_and_keeps_its_tree():
    import pinned_suite as ps
    for warps in (4, 8):
        stock, laid = build(ps.col_sum, False, warps=warps), build(ps.col_sum, True, warps=warps)
        assert ops(laid.ttgir) != ops(stock.ttgir)
        assert laid.ptx.count("st.shared") * 5 < stock.ptx.count("st.shared")
        assert check.equivalent(stock.ptx, laid.ptx).equivalent


def test_free_sums_are_left_alone():
    """A free sum alone: untouched. Beside a pinned one: the layout rewrite leaves the kernel (its guard);
    the rows conversion (on by default) converts only the pinned chain's input, and the checker finds
    the same dependence trees for both sums."""
    import pinned_suite as ps
    assert ops(build(ps.col_sum, True, pinned=False).ttgir) == ops(build(ps.col_sum, False, pinned=False).ttgir)
    with layouts.conversions(rows=False):
        assert ops(build(both_sums, True).ttgir) == ops(build(both_sums, False).ttgir)
    laid, stock = build(both_sums, True), build(both_sums, False)
    assert ops(laid.ttgir) != ops(stock.ttgir) and check.equivalent(stock.ptx, laid.ptx).equivalent


def test_the_rule_reads_only_pinned_modules():
    text = '"tt.reduce"(%y) <{axis = 1 : i32}> ({\n}) : (tensor<128x2x64xf32, #blocked6>) -> tensor<128x64xf32>'
    assert layouts.only_pinned_reductions(text)
    assert not layouts.only_pinned_reductions(text.replace("128x2x64", "128x4x64"))
    assert not layouts.only_pinned_reductions(text + "\n tt.scan")


def test_planted_fault_without_the_guard_moves_a_free_sums_tree(tmp_path):
    """A copied tree whose pass ignores the free-order guard re-lays out both_sums: the checker
    then finds another tree (the free sum's order followed the layout)."""
    sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
    from mutants import run_on_mutant
    script = tmp_path / "planted.py"
    script.write_text(
        "import sys, bitorder\n"
        f"sys.path.insert(0, {os.path.dirname(__file__)!r})\n"
        "from bitorder import check\n"
        "import test_layouts as t\n"
        "print('bitorder from', bitorder.__file__)\n"
        "a, b = t.build(t.both_sums, False), t.build(t.both_sums, True)\n"
        "print('rewritten', t.ops(a.ttgir) != t.ops(b.ttgir), 'equivalent', check.equivalent(a.ptx, b.ptx).equivalent)\n")
    p, copy = run_on_mutant(tmp_path / "tree", "src/bitorder/compiler/layouts.py",
                            'if not only_pinned_reductions(text) or "tt.dot" in text:', 'if "tt.dot" in text:',
                            [str(script)])
    assert f"bitorder from {copy}" in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]
    assert "rewritten True equivalent False" in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]


def test_pinned_axes_read_the_chains_first_steps():
    text = ("%y = tt.reshape %ms : tensor<1x1024xf32, #blocked1> -> tensor<1x512x2xf32, #blocked4>\n"
            "%z = tt.reshape %q : tensor<256x64xf32, #blocked> -> tensor<128x2x64xf32, #blocked6>\n"
            "%w = tt.reshape %r : tensor<8x8xf32, #blocked> -> tensor<64xf32, #blocked2>\n")
    assert layouts.pinned_axes(text) == {(1, 1024): 1, (256, 64): 0}


def test_amd_column_sum_is_laid_out_too():
    """gfx942 (compiled only; no AMD GPU here): the same rule cuts the LDS exchanges."""
    import pinned_suite as ps
    stock, laid = (build(ps.col_sum, on, target="gfx942", bc=64) for on in (False, True))
    assert laid.asm.count("ds_write") * 5 < stock.asm.count("ds_write")
    assert laid.asm.count("ds_bpermute") < stock.asm.count("ds_bpermute")


def test_coalescing_rule():
    rows = {"threadsPerWarp": [1, 32], "warpsPerCTA": [1, 4], "order": [1, 0]}
    assert not layouts.keeps_coalescing(rows, 1)     # the contiguous axis, lanes on it
    assert layouts.keeps_coalescing(rows, 0)         # a strided axis (a column sum's rows)
    assert layouts.keeps_coalescing({"threadsPerWarp": [32, 1], "warpsPerCTA": [4, 1], "order": [1, 0]}, 1)


def _suite(name, block, warps, pinned, on):
    import pinned_suite as ps
    kernel, sig, consts, block_name = ps.signature(name)
    with layouts.applied(on):
        return bitorder.compile(kernel, "sm90", signature=sig, num_warps=warps, aligned=list(sig),
                                constexprs={**consts, block_name: block, "PINNED": pinned})


def _global(ptx):
    import re
    return sorted(re.findall(r"(?:ld|st)\.global[.\w]*", ptx))


def test_rows_reduced_along_the_contiguous_axis_keep_coalesced_loads():
    """softmax and rmsnorm reduce each row along its contiguous axis: the pass's layout rewrite leaves
    their loads as stock Triton lays them out (the H200 timed re-laid-out loads 1.2x-2.0x slower), so
    their global loads and stores are the free kernel's, instruction for instruction; the rows
    conversion (on by default) converts the chains after the loads, and nothing else without it. A
    column sum is still re-laid out."""
    for name in ("softmax", "rmsnorm"):
        for warps in (1, 4):
            stock, laid, free = (_suite(name, 1, warps, True, False), _suite(name, 1, warps, True, True),
                                 _suite(name, 1, warps, False, False))
            assert _global(laid.ptx) == _global(free.ptx), (name, warps)
            with layouts.conversions(rows=False):
                assert ops(_suite(name, 1, warps, True, True).ttgir) == ops(stock.ttgir), (name, warps)
    assert ops(_suite("col_sum", 32, 4, True, True).ttgir) != ops(_suite("col_sum", 32, 4, True, False).ttgir)


@pytest.mark.parametrize("cfg", [("col_sum", 4, 3, 128, True), ("ln_bwd_dw", 4, 3, 64, True)])
def test_the_pass_takes_strided_pinned_sums_out_of_register_pressure(cfg):
    """ptxas (no GPU): the pinned column sums without the pass sit at the 255-register limit (col_sum
    spills; it ran 1.35x a free sum's time on the H200), with the pass they fit and do not spill
    (1.00x measured, 2026-11-30b)."""
    import pinned_layout_counts as plc
    from bitorder.compiler import ptxas
    stock, passed = (ptxas.report(plc.build(*cfg, True, on).ptx) for on in (False, True))
    assert stock.registers == 255 and passed.registers < 255 and passed.spill_stores == 0
