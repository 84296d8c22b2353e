"""benchmarks/reclass_cpu.py's judgement of a new partition against the GPU truth a checker gate
stored: a merge across true classes is caught, a merge the stored counts cannot decide is
reported as unverified, merges inside a one-truth grid pass."""
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
import reclass_cpu  # noqa: E402

STORED = json.load(open(os.path.join(ROOT, "benchmarks", "results", "2026-11-30b-checker", "checker.json")))


def _row(kernel, grid):
    return next(r for r in STORED["grids"] if r["kernel"] == kernel and r["grid"] == grid)


def _keys(row, merge_all=False):
    classes = [[reclass_cpu._key(c) for c in cls] for cls in row["members"]]
    return [sum(classes, [])] if merge_all else classes


def test_the_stored_partition_is_neither_wrong_nor_unverified():
    for r in STORED["grids"]:
        assert reclass_cpu.judge(r, _keys(r)) == ([], [])


def test_merging_a_gemm_grid_whose_configurations_all_agreed_is_sound():
    r = _row("gemm_fp16", "(8, 6, 1)")
    assert r["true_classes"] == 1 and reclass_cpu.judge(r, _keys(r, merge_all=True)) == ([], [])


def test_a_merge_across_known_true_classes_is_a_wrong_merge():
    r = _row("row_sum_fp16", "(2048,)")          # 4 checker classes, 4 true: the true partition is known
    wrong, unverified = reclass_cpu.judge(r, _keys(r, merge_all=True))
    assert len(wrong) == 1 and not unverified


def test_a_merge_the_stored_counts_cannot_decide_is_unverified():
    r = _row("row_sum_fp16", "(1024,)")          # 4 checker classes, 3 true: which two agreed is not stored
    assert reclass_cpu.known_truth(r) is None
    wrong, unverified = reclass_cpu.judge(r, _keys(r, merge_all=True))
    assert not wrong and len(unverified) == 1
