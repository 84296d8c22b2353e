"""check.signature with the family walk wired in (signature.FAMILIES: on by default, BITORDER_FAMILIES=0 turns it off;
the test suite runs with it off, tests/conftest.py, and turns it on here): a
configuration with no bound argument is classed by its v2 signature where the family walk takes it, by v1 (or v0)
where it declines, and the switch is part of every memo key, so turning it on never answers with the other level's
signature. Planted faults from copied trees: the switch left out of the memo key, and the v2 attempt made with bound
arguments too."""
import importlib
import os
import sys

import pytest

import bitorder
from bitorder import check

from mutants import checker_test_fails_on_mutant

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
from pinned_kernels import loop_sum  # noqa: E402   (a loop over a runtime bound: the family walk declines it)

triton = pytest.importorskip("triton")
tl = triton.language
S = importlib.import_module("bitorder.check.signature")   # (check.signature is the function: its module)


@triton.jit
def _scale(x_ptr, y_ptr, N, BLOCK: tl.constexpr, K: tl.constexpr):
    """y = x * K + 1, elementwise: the same tree at every element whatever the warps."""
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + o, mask=o < N, other=0.0)
    tl.store(y_ptr + o, x * K + 1.0, mask=o < N)


def _scale_ptx(warps, k=2.0, block=256):
    import torch
    from bitorder.check.prune import compile_config
    args = {"x_ptr": torch.empty(8), "y_ptr": torch.empty(8), "N": 1024}
    return compile_config(_scale, triton.Config({"BLOCK": block, "K": k}, num_warps=warps), args, {}, "sm90")


def _loop_ptx(warps):
    sig = {"x_ptr": "*fp32", "y_ptr": "*fp32", "R": "i32", "C": "i32"}
    return bitorder.compile(loop_sum, "sm90", signature=sig, constexprs={"BR": 1, "BC": 256, "PINNED": True},
                            num_warps=warps, num_stages=1)


def test_v2_first_where_the_family_walk_takes_it(monkeypatch):
    ks = [_scale_ptx(w) for w in (1, 2, 4)]
    off = [check.signature(k) for k in ks]
    monkeypatch.setattr(S, "FAMILIES", True)
    on = [check.signature(k) for k in ks]
    assert all(s.startswith("v1:") for s in off) and len(set(off)) == 1, off
    assert all(s.startswith("v2:") for s in on) and len(set(on)) == 1, on
    assert {check.level(k) for k in ks} == {"v2: element families"}
    assert check.partition(ks) == [[0, 1, 2]]
    other = _scale_ptx(1, k=3.0)          # another tree: another class at either level
    assert check.signature(other) != on[0]
    assert check.partition([ks[0], other, ks[1]]) == [[0, 2], [1]]


def test_v1_where_the_family_walk_declines(monkeypatch):
    ks = [_loop_ptx(w) for w in (1, 2)]
    off = [check.signature(k) for k in ks]
    monkeypatch.setattr(S, "FAMILIES", True)
    assert [check.signature(k) for k in ks] == off
    assert all(check.level(k).startswith("v1") for k in ks)


def test_the_switch_is_part_of_the_memo(monkeypatch):
    # the same PTX classed off, on and off again: each answer is its own level's, never the memo's other one
    k = _scale_ptx(2, k=5.0)
    first = check.signature(k)
    monkeypatch.setattr(S, "FAMILIES", True)
    second = check.signature(k)
    monkeypatch.setattr(S, "FAMILIES", False)
    assert first.startswith("v1:") and second.startswith("v2:") and check.signature(k) == first


def test_bound_arguments_keep_v1(monkeypatch):
    # the family walk binds no argument: a launch's integers class the configuration at v1 as before
    monkeypatch.setattr(S, "FAMILIES", True)
    k = _scale_ptx(1, k=7.0)
    assert check.signature(k).startswith("v2:")
    assert check.signature(k, {2: 1024}).startswith("v1:")


def test_equivalent_takes_either_proof(monkeypatch):
    monkeypatch.setattr(S, "FAMILIES", True)
    v = check.equivalent(_scale_ptx(1), _scale_ptx(4))
    assert v and "v2" in v.explanation
    assert not check.equivalent(_scale_ptx(1), _scale_ptx(1, k=3.0))


def test_the_family_walk_is_on_by_default_and_off_by_its_variable():
    import subprocess
    code = "import importlib; print(importlib.import_module('bitorder.check.signature').FAMILIES)"
    env = {k: v for k, v in os.environ.items() if k != "BITORDER_FAMILIES"}
    for value, want in ((None, "True"), ("0", "False"), ("1", "True")):
        run_env = env if value is None else {**env, "BITORDER_FAMILIES": value}
        out = subprocess.run([sys.executable, "-c", code], env=run_env, capture_output=True, text=True, check=True)
        assert out.stdout.strip() == want, (value, out.stdout, out.stderr)


def test_the_autotuner_prunes_to_the_reference_class_with_the_family_walk(monkeypatch, tmp_path):
    import torch
    from test_checker import tuned_row_sum      # (its row sums, pruned there with the family walk off)
    # (prune keeps classes on disk and in memos: a fresh store and memos, so the answers are walked here)
    monkeypatch.setenv("BITORDER_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(S, "_BY_TEXT", {})
    monkeypatch.setattr(S, "_MEMO", {})
    monkeypatch.setattr(S, "FAMILIES", True)
    walked = []
    plain = S._families

    def spy(entry, divisible):
        out = plain(entry, divisible)
        walked.append(out is not None)
        return out
    monkeypatch.setattr(S, "_families", spy)
    tuned_row_sum.nargs = {"x_ptr": torch.zeros(4, 1000), "y_ptr": torch.zeros(4), "n_cols": 1000}
    kept = tuned_row_sum.prune_configs({"BLOCK": 1024})
    info = tuned_row_sum.early_config_prune.last
    assert walked and all(walked)        # (classed by v2: the free-order sums of 4 and 8 warps are two trees)
    assert info["configs"] == 6 and info["classes"] == 2 and [c.num_warps for c in kept] == [4, 4, 4]


@pytest.mark.parametrize("old, new, test", [
    # the switch left out of the memo key: turned on, the v1 answer of the same text comes back
    ("trips.ON, FAMILIES, ahead.ON\n", "trips.ON, ahead.ON\n", "test_the_switch_is_part_of_the_memo"),
    # the v2 attempt made with bound arguments too (they would be ignored: the class said to hold for them does not
    # read them)
    ("if FAMILIES and not bound else None", "if FAMILIES else None", "test_bound_arguments_keep_v1"),
], ids=["switch-not-in-memo", "v2-with-bound-arguments"])
def test_planted_wiring_faults_fail(tmp_path, old, new, test):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/signature.py", old, new,
                                 f"tests/check/test_signature_families.py::{test}")


@pytest.mark.interpreted_only     # (patches a method of the family walk: compiled, it cannot be)
def test_the_family_walk_refuses_loops_and_tensor_cores_before_walking(monkeypatch):
    # what the walk would refuse wherever it stood is read from the text first (walk._refused_ahead): a loop and an
    # mma are refused without a step; a straight-line kernel the walk takes is not
    from bitorder.check.families import walk as fw
    from bitorder.check.signature import _entry
    loop = _entry(_loop_ptx(1).asm)
    assert "loop" in fw._refused_ahead(loop.body)
    assert fw._refused_ahead(_entry(_scale_ptx(2).asm).body) is None
    steps = []
    monkeypatch.setattr(fw._Walk, "step", lambda self, ins: steps.append(ins))
    with pytest.raises(S.dataflow.Unsupported, match="loop"):
        fw.walk(loop)
    assert not steps
