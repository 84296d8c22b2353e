"""TorchInductor's captured kernels in the checker's corpus (benchmarks/corpus/inductor.py): every
one loads from its H200 capture, has its autotune space, and a sample compiles for sm90 to a
checker signature. No GPU: the GPU gate measures their truth."""
import json
import os
import random
import sys

import pytest

pytest.importorskip("torch")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "benchmarks"))
from corpus import SPECS, inductor  # noqa: E402

INDEX = json.load(open(os.path.join(inductor.ROOT, "inductor_capture.json")))


def test_every_captured_kernel_loads_as_a_corpus_spec():
    caps = inductor.captured()
    names = {k for cap in INDEX["captures"] for k in cap["kernels"]}
    assert {c.name for c in caps} == names and len(names) == INDEX["distinct_kernels"] == 14
    # Inductor bakes xnumel into the source: the same name at 8 and 512 tokens is two kernels
    assert len(caps) == len({c.source for c in caps}) == 21
    specs = [s for s in SPECS.values() if s.name.startswith("inductor_")]
    assert sorted(s.name for s in specs) == sorted(s.name for s in inductor.SPECS)
    for s in specs:
        assert type(s.fn).__name__ == "JITFunction" and s.fn.src.lstrip().startswith("def triton_")
        assert "triton_heuristics" not in s.fn.src and s.outputs
    assert {s.family for s in specs} == {"elementwise", "normalization", "reduction"}


def test_launch_sizes_dtypes_and_inout_come_from_the_capture():
    by = {inductor._short(c): c for c in inductor.captured()}
    rms = by["inductor_llama_mlp_t512_per0"]
    assert rms.ints == {"xnumel": 512, "r0_numel": 1024}
    assert [(p, n) for p, _, n in rms.pointers] == [("in_out_ptr0", 512), ("in_ptr0", 512 * 1024),
                                                     ("in_ptr1", 1024), ("out_ptr0", 512 * 1024)]
    bwd = by["inductor_cross_entropy_t8_red0_bwd"]
    assert str(bwd.pointers[0][1]) == "torch.int64" and bwd.pointers[1][2] == 1   # targets; a 0-d grad
    # the residual add reads its in-out buffer (the GEMM result): the gate restores it, never zeroes it
    assert SPECS["inductor_gpt2_mlp_t512_poi2"].inout == ("in_out_ptr0",)
    assert all(not s.inout for s in inductor.SPECS if "poi2" not in s.name)
    args = SPECS["inductor_cross_entropy_t8_red0_bwd"].make("cpu", 3)
    assert 0 <= int(args["in_ptr0"].min()) and int(args["in_ptr0"].max()) < 32000


def test_every_space_has_thirty_valid_configurations():
    for s in inductor.SPECS:
        c = next(c for c in inductor.captured() if inductor._short(c) == s.name)
        assert len(s.space) >= 30, s.name
        assert len({(tuple(sorted(k.kwargs.items())), k.num_warps, k.num_stages) for k in s.space}) == len(s.space)
        x = c.ints["xnumel"]
        for k in s.space:
            xb = k.kwargs["XBLOCK"]
            assert s.grid({**c.ints, **k.kwargs}) == ((x + xb - 1) // xb,)
            if "xmask = tl.full(" in c.source and x > 1:      # no x mask: blocks must tile xnumel
                assert x % xb == 0, (s.name, xb)
            if c.kind == "red":
                assert xb * k.kwargs["R0_BLOCK"] <= 4096 and xb <= x
            else:
                assert set(k.kwargs) == {"XBLOCK"}          # persistent: the body fixes R0_BLOCK


def test_a_sample_compiles_for_sm90_to_a_checker_signature():
    from bitorder import check
    from bitorder.check.prune import compile_config
    rng = random.Random(0)
    for s in rng.sample(inductor.SPECS, 6):   # compiling all 752 configurations is the gate's job
        cfg = rng.choice(s.space)
        ptx = compile_config(s.fn, cfg, {**s.make("cpu", 1), **s.fixed}, {}, "sm90")
        assert check.signature(ptx), (s.name, cfg)
        assert check.level(ptx)


def test_the_grid_bitorder_check_reads_off_the_code_is_the_launch_grid():
    """`bitorder check DIR` reads an Inductor variant's grid off its code (check/tritoncache.inductor_grid: xnumel
    from the kernel's module, XBLOCK from the TTGIR): for a sample of the captured kernels it is the grid their
    launches used (cdiv(xnumel, XBLOCK)), XBLOCK 1 (no multiply in the code) included."""
    import re

    from bitorder.check.prune import compile_config
    from bitorder.check.tritoncache import inductor_grid
    rng = random.Random(1)
    seen = set()
    for s in [s for s in inductor.SPECS if s.name.endswith(("t8_per0", "t8_poi1"))]:
        c = next(c for c in inductor.captured() if inductor._short(c) == s.name)
        for cfg in rng.sample(s.space, 3) + [min(s.space, key=lambda k: k.kwargs["XBLOCK"])]:
            compiled = compile_config(s.fn, cfg, {**s.make("cpu", 1), **s.fixed}, {}, "sm90")
            name = re.search(r"tt\.func public @(\w+)", compiled.ttgir).group(1)
            grid = inductor_grid(compiled.ptx, compiled.ttgir, name)
            assert grid == (*s.grid({**c.ints, **cfg.kwargs}), 1, 1), (s.name, cfg)
            seen.add(cfg.kwargs["XBLOCK"])
    assert 1 in seen
