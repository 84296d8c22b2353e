"""The checker gate's CPU half on corpus kernels: classes per launch grid, levels, speed."""
import dataclasses
import os
import sys

import pytest

pytest.importorskip("torch")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
import checker_gate  # noqa: E402
from corpus import SPECS, space  # noqa: E402


def test_the_corpus_has_forty_kernels_with_their_spaces():
    assert len(SPECS) >= 40
    small = [s.name for s in SPECS.values() if len(s.space) < 30]
    assert small == ["groupnorm", "groupnorm_f16", "groupnorm_bf16"], small   # no block to tune
    assert sum(len(s.space) for s in SPECS.values()) >= 20_000     # 3,568 before 2026-12-03f
    assert {s.family for s in SPECS.values()} >= {"reduction", "normalization", "gemm", "attention", "scan"}


@pytest.mark.parametrize("name", ["pinned_row_sum", "pinned_layernorm"])
def test_pinned_kernels_are_one_class_per_grid_and_free_ones_split_by_num_warps(name):
    spec = dataclasses.replace(SPECS[name], space=space({"BR": (1, 2), "PINNED": (True, False)}, warps=(1, 4),
                                                         stages=(1, 3)))
    rows, skipped, _ = checker_gate.gate_kernel(spec, gpu=False, n_draws=0, sample=None, seed=1)
    assert not skipped and len(rows) == 2                      # BR 1 and 2 launch different grids
    for r in rows:
        assert r["v1"] == r["configs"] == 8
        pinned = [c for c in r["members"] if c[0]["PINNED"]]
        assert len(pinned) == 1 and len(pinned[0]) == 4        # num_warps x num_stages: one tree
        assert r["classes"] == 3                               # free order: num_warps 1 vs 4


def test_variants_retype_inputs_only_and_add_16_warps():
    """A retyped twin reads its floating inputs in the new dtype and writes the outputs it did; every space
    that tuned num_warps up to 8 now also has 16 (GEMMs and attention keep theirs)."""
    import torch
    base, twin = SPECS["layernorm_affine"], SPECS["layernorm_affine_f32"]
    a, b = base.make("cpu", 3), twin.make("cpu", 3)
    assert a["x_ptr"].dtype == torch.float16 and b["x_ptr"].dtype == torch.float32
    assert torch.equal(a["x_ptr"].float(), b["x_ptr"]) and b["y_ptr"].dtype == a["y_ptr"].dtype == torch.float16
    assert SPECS["row_max_bf16"].make("cpu", 1)["x_ptr"].dtype == torch.bfloat16
    for s in SPECS.values():
        warps = {c.num_warps for c in s.space}
        assert (16 in warps) == (8 in warps and s.family not in ("gemm", "attention")), s.name
