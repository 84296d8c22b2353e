"""The GPU invariance suite's twelve kernels compile, pinned and free, for NVIDIA and AMD (no GPU)."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
torch = pytest.importorskip("torch")
import pinned_suite as ps  # noqa: E402

import bitorder  # noqa: E402

@pytest.mark.parametrize("name", list(ps.CASES))
def test_suite_kernel_compiles(name):
    kernel, sig, consts, block_name = ps.signature(name)
    blocks = ps.CASES[name][5]
    for pinned in (True, False):
        for target in ("sm90", "gfx942"):
            c = bitorder.compile(kernel, target, signature=sig, num_warps=4,
                                 constexprs={**consts, block_name: blocks[0], "PINNED": pinned})
            assert c.asm


def test_optimize_thread_locality_leaves_the_pinned_chain_in_the_loop():
    """Free-order: Triton moves part of a tl.sum inside a loop out of it (per-thread partials
    carried across iterations, so the order changes). Pinned: every size-2 step stays inside."""
    def reduces(pinned):
        c = bitorder.compile(ps.loop_sum, "sm90", signature=dict(x_ptr="*fp32", y_ptr="*fp32", R="i32", C="i32"),
                             constexprs=dict(BR=4, BC=256, PINNED=pinned), aligned=["x_ptr", "y_ptr", "R", "C"])
        body, after = c.ttgir.split("scf.yield", 1)
        return body[body.index("scf.for"):].count('"tt.reduce"'), after.count('"tt.reduce"')
    assert reduces(True) == (8, 0)      # log2(256) size-2 steps, all in the loop
    assert reduces(False)[1] >= 1       # the free sum's cross-thread stage left the loop


def test_loop_sum_is_one_pattern_equal_to_its_reference_under_the_interpreter():
    import subprocess
    script = os.path.join(os.path.dirname(__file__), "interpret_loop_sum.py")
    p = subprocess.run([sys.executable, script], env=dict(os.environ, TRITON_INTERPRET="1"),
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0 and "patterns 1 equal True" in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]


def test_sums_of_products_are_one_pattern_equal_to_their_reference_under_the_interpreter():
    """dot_rows and ln_bwd_dw: the suite's CPU references (fp32 products, then the pinned tree)."""
    import subprocess
    script = os.path.join(os.path.dirname(__file__), "interpret_sum_products.py")
    p = subprocess.run([sys.executable, script], env=dict(os.environ, TRITON_INTERPRET="1"),
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0 and p.stdout.count("patterns 1 equal True") == 2, p.stdout[-2000:] + p.stderr[-2000:]


def test_loop_sum_gate_fails_on_a_copied_tree_whose_fold_pairs_far_elements(tmp_path):
    """The planted fault of the pinned fold (levels swapped end for end, from a copied tree):
    loop_sum's output stops equalling the CPU reference, so that check fails."""
    sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
    from mutants import run_on_mutant
    p, copy = run_on_mutant(tmp_path, "src/bitorder/language/pinned.py",
                            ["s[axis:axis + 1] = [s[axis] // 2, 2]", "y = tl.reduce(y, AX + 1, combine_fn)"],
                            ["s[axis:axis + 1] = [2, s[axis] // 2]", "y = tl.reduce(y, AX, combine_fn)"],
                            ["tests/language/interpret_loop_sum.py"], env={"TRITON_INTERPRET": "1"})
    assert f"bitorder from {copy}" in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]
    assert p.returncode != 0 and "equal False" in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]


def test_times_give_both_ratios_and_skip_uncaptured_graphs():
    """Each mode's best configuration against the other's, by do_bench and by CUDA graphs (a
    configuration whose graph could not be captured counts in the do_bench ratio only)."""
    r = ps.set_times({}, [2.0, 1.5], [1.0, 1.2], [1.4, None], [0.7, 0.9])
    assert r["speed_pinned_over_free"] == 1.5 and r["speed_graph"] == 2.0
    assert ps.set_times({}, [1.0], [1.0])["speed_graph"] is None


def test_times_name_the_best_configurations_and_the_outputs_agreement_at_timing_sizes():
    """With the timed configurations and the output digests at the timing sizes, the result says
    which configuration each mode's best graph time came from and whether the pinned outputs
    agree there (a second invariance check at other sizes, for free)."""
    cfg = {True: [[4, 1, 1, True], [2, 1, 1, True]], False: [[4, 1, 1, True], [8, 1, 1, False]]}
    r = ps.set_times({}, [2.0, 1.5], [1.0, 1.2], [1.4, 1.3], [0.7, 0.9], cfg, {True: {"a"}, False: {"a", "b"}})
    assert r["best_graph_pinned"] == [2, 1, 1, True] and r["best_graph_free"] == [4, 1, 1, True]
    assert r["timing_pinned_invariant"] is True and r["timing_free_distinct"] == 2
    r = ps.set_times({}, [1.0], [1.0], [1.0], [1.0], {True: [[1, 1, 1, True]], False: [[1, 1, 1, True]]},
                     {True: {"a", "b"}, False: {"a"}})
    assert r["timing_pinned_invariant"] is False


def test_timing_sizes_grow_only_runtime_arguments():
    """Every case has timing sizes; the sizes that differ from the check's are runtime arguments
    (not constexpr), multiples of 16 like the check's, so the timed binaries are the checked ones
    (Triton specialises integers on divisibility by 16 and on 1); the cases that recompile at
    their timing sizes (gemm_colsum) are named."""
    assert set(ps.TIMING) == set(ps.CASES)
    for name, case in ps.CASES.items():
        kernel, shapes, timing = case[0], case[7], ps.TIMING[name][3]
        assert set(timing) == set(shapes), name
        constexpr_grown = False
        for arg, value in timing.items():
            if value != shapes[arg]:
                constexpr_grown |= kernel.params[kernel.arg_names.index(arg)].is_constexpr
                assert value % 16 == 0 and shapes[arg] % 16 == 0, (name, arg)
        assert constexpr_grown == (name in ps.TIMING_RECOMPILED), name
        assert any(timing[a] > shapes[a] for a in timing), name
