"""bitorder.matmul / linear refuse what they cannot do, with a clear error (no GPU needed)."""
import pytest

torch = pytest.importorskip("torch")
import bitorder  # noqa: E402


def answer_is(monkeypatch, ans):
    """Every heuristic query answers `ans` with no profile entry (no GPU, no nvmath needed)."""
    import dataclasses

    from bitorder.cublas import torch_call
    from bitorder.gemm import api

    @dataclasses.dataclass
    class Q:
        bias_ptr: int = 0
    monkeypatch.setattr(torch_call, "lt_query", lambda *a, **k: Q())
    monkeypatch.setattr(api, "_describe", lambda q, dtype, bias: (ans, None))


def test_cpu_tensors_are_refused():
    a = torch.zeros(4, 4, dtype=torch.float16)
    with pytest.raises(ValueError, match="CUDA tensors"):
        bitorder.matmul(a, a)


def test_other_inputs_are_refused():
    with pytest.raises(TypeError, match="torch tensors"):
        bitorder.matmul([[1.0]], [[1.0]])
    with pytest.raises(ValueError, match="weight must be 2-D"):
        bitorder.linear(torch.zeros(2, 3, dtype=torch.float16), torch.zeros(1, 4, 3, dtype=torch.float16))


def test_import_is_light():
    import subprocess
    import sys
    code = "import sys, bitorder; assert 'torch' not in sys.modules, 'import bitorder pulled in torch'"
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_unaligned_operand_addresses_fall_back():
    """An operand whose address is not 16-byte aligned (a view shifted by one element) runs
    cuBLAS itself: the H200 showed a plan missing torch's bytes there (2026-11-30)."""
    import torch
    from bitorder.gemm import api
    buf = torch.zeros(8 * 64 + 1, dtype=torch.float16)
    a = buf[1:].view(8, 64)
    b = torch.zeros(64, 32, dtype=torch.float16)
    p = api._plan2(a, b, None, "gemm")
    assert p.path == "cublas" and "not 16-byte aligned" in p.reason
    bias = torch.zeros(33, dtype=torch.float16)[1:]
    p = api._plan2(torch.zeros(8, 64, dtype=torch.float16), b, bias, "gemm_and_bias")
    assert p.path == "cublas" and "not 16-byte aligned" in p.reason


def test_a_gemv_answer_plans_the_rule_by_default(monkeypatch):
    """An algorithm-13 answer with a rule (bitorder.cublas.gemv_rule) plans the SIMT gemv kernel
    by default (the whole gate passed with it, 2026-12-01) for a bias-free M = 1 or N = 1
    product; BITORDER_GEMV_RULE=0 sends it back to cuBLAS; no rule or no gemv shape: cuBLAS."""
    import torch
    from bitorder.gemm import api
    ans = {"algo_id": 13, "tile": "UNDEFINED", "stages": "UNDEFINED", "split_k": 33, "reduction_scheme": 2,
           "custom_option": 93}

    answer_is(monkeypatch, ans)
    a, b = torch.zeros(1, 56886, dtype=torch.float16), torch.zeros(56886, 61, dtype=torch.float16)
    monkeypatch.setenv("BITORDER_GEMV_RULE", "0")
    assert api._plan2(a, b, None, "gemm").path == "cublas"          # the escape hatch
    monkeypatch.delenv("BITORDER_GEMV_RULE")
    p = api._plan2(a, b, None, "gemm")
    assert p.path == "simt" and (p.order.lanes, p.order.chunk, p.order.span) == (32, 1, 1724)
    assert "GemvOrder" in str(p) and '"order": "GemvOrder' in p.to_json()
    wide = torch.zeros(2, 56886, dtype=torch.float16)                # M = 2, N = 61: not a gemv shape
    assert api._plan2(wide, b, None, "gemm").path == "cublas"
    dots = torch.zeros(4, 1, 102, dtype=torch.float16), torch.zeros(4, 102, 1, dtype=torch.float16)
    assert api._plan2(*dots, None, "bgemm").path == "cublas"         # a batch of dots: 2 gate cases differed
    ans["custom_option"] = 75              # option 75 fp16 dots differed at K = 910 on the H200 (2026-12-01f)
    assert api._plan2(*dots, None, "bgemm").path == "cublas"
    long_dots = torch.zeros(4, 1, 1329, dtype=torch.float16), torch.zeros(4, 1329, 1, dtype=torch.float16)
    assert api._plan2(*long_dots, None, "bgemm").path == "cublas"     # split answers: no batched-dot call seen split
    ans["split_k"] = 1
    assert api._plan2(*long_dots, None, "bgemm").path == "simt"       # from the smallest K seen right
    ans["custom_option"] = 72                                         # a batched-dot rule: any K
    assert api._plan2(*dots, None, "bgemm").path == "simt"
    ans["custom_option"] = 31                                         # no rule
    assert api._plan2(a, b, None, "gemm").path == "cublas"


def test_an_addmm_gemv_plans_the_rule_with_the_bias_before_the_rounding(monkeypatch):
    """F.linear with one output feature (N = 1) takes torch's addmm (beta = 1), not the
    cuBLASLt bias path: it plans the rule's order from the bias-free answer with the bias added
    in fp32 before the rounding (bias "acc"); under BITORDER_GEMV_RULE=0, cuBLAS."""
    import torch
    from bitorder.gemm import api
    ans = {"algo_id": 13, "split_k": 1, "custom_option": 75}

    answer_is(monkeypatch, ans)
    monkeypatch.setattr(api, "_check", lambda *t: "fp16")             # CPU tensors stand in for CUDA ones
    x, w, bias = torch.zeros(40, 300, dtype=torch.float16), torch.zeros(1, 300, dtype=torch.float16), \
        torch.zeros(1, dtype=torch.float16)
    monkeypatch.setenv("BITORDER_GEMV_RULE", "0")
    p = api.plan(x, w.t(), bias)
    assert p.path == "cublas" and p.reason == "addmm without the cuBLASLt bias path"
    monkeypatch.delenv("BITORDER_GEMV_RULE")
    p = api.plan(x, w.t(), bias)
    assert p.path == "simt" and p.order.bias == "acc" and (p.order.lanes, p.order.chunk) == (32, 1)
    assert "beta = 1" in p.reason
    x3 = torch.zeros(2, 20, 300, dtype=torch.float16)                 # folded 3-D input: the same plan
    assert api.plan(x3, w.t(), bias).path == "simt"
    ans["custom_option"] = 31                                          # no rule: cuBLAS, as before
    p = api.plan(x, w.t(), bias)
    assert p.reason == "addmm without the cuBLASLt bias path" and p.answer == ans   # the answer kept


def test_an_addmm_over_nvjet_places_the_bias_as_the_survey_read(monkeypatch):
    """F.linear with N = 1 over an nvjet answer (torch's addmm, beta = 1): a split answer plans its chain
    with the bias in the fp32 sum (27 of 27 fresh calls identical, 2026-12-01g); an unsplit one the chain
    rounded, then the bias (the survey's reading; 63 of 63 fresh calls identical, 2026-12-02); other
    algorithms cuBLAS with the bias-free answer in the plan."""
    import dataclasses

    import torch
    from bitorder.cublas import torch_call
    from bitorder.cublas.profile import ArchProfile
    from bitorder.gemm import api
    unsplit = {"algo_id": 66, "tile": "64x8", "stages": "64xAUTO", "split_k": 1, "reduction_scheme": 0, "custom_option": 0}
    split = {**unsplit, "split_k": 12, "reduction_scheme": 2}

    @dataclasses.dataclass
    class Q:
        bias_ptr: int = 0
    answer = {}
    monkeypatch.setattr(torch_call, "lt_query", lambda *a, **k: Q())
    monkeypatch.setattr(api, "_describe", lambda q, dtype, bias: (answer, ArchProfile.load().describe(answer, 3000, dtype, bias)))
    monkeypatch.setattr(api, "_check", lambda *t: "fp16")
    x, w, bias = torch.zeros(40, 3000, dtype=torch.float16), torch.zeros(1, 3000, dtype=torch.float16), \
        torch.zeros(1, dtype=torch.float16)
    answer.update(split)
    p = api.plan(x, w.t(), bias)
    assert p.path == "triton" and p.desc.family == "split_k" and p.desc.epilogue == ("bias_acc", "round")
    answer.update(unsplit)
    p = api.plan(x, w.t(), bias)
    assert p.path == "triton" and p.desc.family == "plain" and p.desc.epilogue == ("round", "bias_out")
    answer.update(algo_id=23, tile="64x64", stages="64x4")
    p = api.plan(x, w.t(), bias)
    assert p.path == "cublas" and p.answer["algo_id"] == 23


def test_a_k1_addmm_is_one_fp32_add_and_one_rounding(monkeypatch):
    """F.linear with K = 1 and a bias (torch's addmm, off the cuBLASLt bias path): elementwise,
    the exact fp32 product plus the bias rounded once to fp32 and once to the output type; 2-D
    and folded 3-D inputs (the default since the 2026-12-01 whole gate)."""
    import ml_dtypes
    import numpy as np
    import torch
    from bitorder.gemm import api
    monkeypatch.setattr(api, "_check", lambda *t: "fp16")             # CPU tensors stand in for CUDA ones
    g = torch.Generator().manual_seed(5)
    for dtype, npt in ((torch.float16, np.float16), (torch.bfloat16, ml_dtypes.bfloat16)):
        x, w = torch.randn(7, 1, generator=g).to(dtype) * 300, torch.randn(5, 1, generator=g).to(dtype) * 300
        bias = torch.randn(5, generator=g).to(dtype)
        assert api.plan(x, w.t(), bias).path == "k1"
        got = api.linear(x, w, bias)
        f = lambda t: t.float().numpy()                                    # noqa: E731
        want = (f(x) * f(w).T + f(bias)).astype(np.float32).astype(npt)
        assert np.array_equal(got.float().numpy().astype(npt).view(np.uint16), want.view(np.uint16))
        assert api.linear(x.reshape(1, 7, 1), w, bias).shape == (1, 7, 5)


def test_a_dot_answer_plans_the_dot_kernels(monkeypatch):
    """An algorithm-14 answer (M = N = 1) plans the dot kernels under a DotOrder whose grid is
    the answer's split_k, for vectors contiguous along K; F.linear with one output and a bias
    (addmm) carries its bias to them; BITORDER_DOT=0 or strided vectors: cuBLAS."""
    import torch
    from bitorder.gemm import api
    ans = {"algo_id": 14, "tile": "UNDEFINED", "stages": "UNDEFINED", "split_k": 496, "reduction_scheme": 2,
           "custom_option": 0}

    answer_is(monkeypatch, ans)
    monkeypatch.setattr(api, "_check", lambda *t: "fp16")
    a, b = torch.zeros(1, 5000, dtype=torch.float16), torch.zeros(5000, 1, dtype=torch.float16)
    monkeypatch.setenv("BITORDER_DOT", "0")
    assert api._plan2(a, b, None, "gemm").path == "cublas"
    monkeypatch.delenv("BITORDER_DOT")
    p = api._plan2(a, b, None, "gemm")
    assert p.path == "dot" and p.order.grid == 496 and "DotOrder" in str(p)
    strided = torch.zeros(5000, 2, dtype=torch.float16)[:, :1]        # incy = 2: other loads, not modelled
    assert api._plan2(a, strided, None, "gemm").path == "cublas"
    bias = torch.zeros(1, dtype=torch.float16)
    p = api.plan(a, b, bias)
    assert p.path == "dot" and "beta = 1" in p.reason


def test_a_gemmsn_answer_plans_a_gemv_per_row(monkeypatch):
    """An algorithm-11 answer (gemmSN, M 2..16) plans one gemv per row in the probed order (not under
    BITORDER_SIMT=0): B a transposed view (TN kernel: 16 lanes round robin, banked
    every 256, added in order), B row-major (NN kernel: 2 or 4 contiguous lanes by the custom
    option, banked every 256 / 128 from each lane's start; past K = 256 too since the 2026-12-01e ground
    check); a bias in fp32 before the rounding in both (TN's: 2026-12-01c, 85 of 85
    calls); A transposed: cuBLAS."""
    import torch
    from bitorder.gemm import api
    ans = {"algo_id": 11, "tile": "UNDEFINED", "stages": "UNDEFINED", "split_k": 1, "reduction_scheme": 0,
           "custom_option": 0}

    answer_is(monkeypatch, ans)
    a, w = torch.zeros(7, 250, dtype=torch.float16), torch.zeros(31, 250, dtype=torch.float16)
    monkeypatch.setenv("BITORDER_SIMT", "0")
    assert api._plan2(a, w.t(), None, "gemm").path == "cublas"
    monkeypatch.delenv("BITORDER_SIMT")
    p = api._plan2(a, w.t(), None, "gemm")
    assert p.path == "rows" and (p.order.lanes, p.order.chunk, p.order.fold, p.order.block) == (16, 1, "seq", 256)
    p = api._plan2(a, w.t(), torch.zeros(31, dtype=torch.float16), "gemm_and_bias")   # TN with a bias
    assert p.path == "rows" and (p.order.lanes, p.order.block, p.order.bias) == (16, 256, "acc")
    p = api._plan2(a, w.t().contiguous(), torch.zeros(31, dtype=torch.float16), "gemm_and_bias")   # NN kernel
    assert p.path == "rows" and (p.order.lanes, p.order.block, p.order.block_in_chunk, p.order.bias) == (2, 256, True, "acc")
    w_long = torch.zeros(31, 257, dtype=torch.float16)                # the 2-lane kernel past K = 256
    p = api._plan2(torch.zeros(7, 257, dtype=torch.float16), w_long.t().contiguous(), None, "gemm")
    assert p.path == "rows" and (p.order.lanes, p.order.block) == (2, 256)
    ans["custom_option"] = 1
    assert api._plan2(a, w.t().contiguous(), None, "gemm").order.lanes == 4
    batched = torch.zeros(3, 7, 250, dtype=torch.float16), torch.zeros(3, 250, 31, dtype=torch.float16)
    assert api._plan2(*batched, None, "bgemm").path == "rows"
    assert api._plan2(a.t().contiguous().t(), w.t(), None, "gemm").path == "cublas"   # A transposed: not pinned


def test_a_magma_answer_plans_one_chain_per_output(monkeypatch):
    """An algorithm-16 answer (magma_sgemmEx) plans path "seq" (one fp32 chain per output in K order,
    bias in fp32) for 2-D products in every layout and batches; BITORDER_SIMT=0: cuBLAS."""
    import torch
    from bitorder.gemm import api
    ans = {"algo_id": 16, "tile": "UNDEFINED", "stages": "UNDEFINED", "split_k": 1, "reduction_scheme": 0,
           "custom_option": 0}

    answer_is(monkeypatch, ans)
    a, w = torch.zeros(7, 9, dtype=torch.bfloat16), torch.zeros(541, 9, dtype=torch.bfloat16)
    monkeypatch.setenv("BITORDER_SIMT", "0")
    assert api._plan2(a, w.t(), None, "gemm").path == "cublas"
    monkeypatch.delenv("BITORDER_SIMT")
    for x in (a, a.t().contiguous().t()):
        for y in (w.t(), w.t().contiguous()):
            p = api._plan2(x, y, None, "gemm")
            assert p.path == "seq" and (p.order.lanes, p.order.fold, p.order.bias) == (1, "seq", "acc")
    assert api._plan2(a, w.t(), torch.zeros(541, dtype=torch.bfloat16), "gemm_and_bias").path == "seq"
    batched = torch.zeros(3, 7, 9, dtype=torch.bfloat16), torch.zeros(3, 9, 541, dtype=torch.bfloat16)
    assert api._plan2(*batched, None, "bgemm").path == "seq"


def test_an_algo14_answer_with_a_column_of_outputs_plans_a_dot_per_output(monkeypatch):
    """Algorithm 14 with N = 1 (a's rows against b's column) or M = 1 (a's row against b's columns),
    any number of outputs: path "dots", the answer's DotOrder per output, in pairs (vec 2) where both
    vectors are contiguous along K and single elements (vec 1) where the other is strided (a
    transposed with N = 1, b row-major with M = 1; 2026-12-01d ground: 194 of 194)."""
    import torch
    from bitorder.gemm import api
    answer_is(monkeypatch, {"algo_id": 14, "tile": "UNDEFINED", "stages": "UNDEFINED", "split_k": 132,
                            "reduction_scheme": 2, "custom_option": 0})
    a, b = torch.zeros(12, 5458, dtype=torch.float16), torch.zeros(5458, 1, dtype=torch.float16)
    p = api._plan2(a, b, None, "gemm")
    assert p.path == "dots" and (p.order.grid, p.order.vec) == (132, 2)
    p = api._plan2(a.t().contiguous().t(), b, None, "gemm")                 # a transposed: strided rows
    assert p.path == "dots" and p.order.vec == 1
    assert api._plan2(torch.zeros(300, 5458, dtype=torch.float16), b, None, "gemm").order.vec == 2
    w = torch.zeros(12, 5458, dtype=torch.float16)                       # the mirror: M = 1
    p = api._plan2(b.t(), w.t(), None, "gemm")
    assert p.path == "dots" and (p.order.grid, p.order.vec) == (132, 2)
    assert api._plan2(b.t(), w.t().contiguous(), None, "gemm").order.vec == 1   # b row-major
    bias = torch.zeros(12, dtype=torch.float16)           # F.linear's bias: in the dot's fp32 sum
    p = api._plan2(b.t(), w.t(), bias, "gemm_and_bias")
    assert p.path == "dots" and p.bias_at == "acc"
    monkeypatch.setenv("BITORDER_DOTS_BIAS", "out")           # (read only under BITORDER_UNVERIFIED=1)
    assert api._plan2(b.t(), w.t(), bias, "gemm_and_bias").bias_at == "acc"
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")
    assert api._plan2(b.t(), w.t(), bias, "gemm_and_bias").bias_at == "out"
    monkeypatch.setenv("BITORDER_SIMT", "0")
    assert api._plan2(a, b, None, "gemm").path == "cublas"


def test_an_lt_bias_gemv_adds_the_bias_before_the_rounding_unsplit_and_after_it_split(monkeypatch):
    """F.linear with M = 1 and a bias on cuBLASLt's bias path, answered as gemv: the rule's order,
    bias "acc" when the answer is unsplit and "out" when split (the epilogue kernel after
    splitKreduce); BITORDER_SIMT=0: cuBLAS."""
    import torch
    from bitorder.gemm import api
    ans = {"algo_id": 13, "tile": "UNDEFINED", "stages": "UNDEFINED", "split_k": 1, "reduction_scheme": 0,
           "custom_option": 7}
    answer_is(monkeypatch, ans)
    x, w, bias = torch.zeros(1, 40, dtype=torch.float16), torch.zeros(300, 40, dtype=torch.float16), \
        torch.zeros(300, dtype=torch.float16)
    p = api._plan2(x, w.t(), bias, "gemm_and_bias")
    assert p.path == "simt" and p.order.bias == "acc"
    ans.update(custom_option=93, split_k=16)
    p = api._plan2(torch.zeros(1, 20000, dtype=torch.float16), torch.zeros(300, 20000, dtype=torch.float16).t(), bias,
                   "gemm_and_bias")
    assert p.path == "simt" and p.order.bias == "out" and p.order.span == 1250
    monkeypatch.setenv("BITORDER_SIMT", "0")
    assert api._plan2(x, w.t(), bias, "gemm_and_bias").path == "cublas"


def test_an_ffma_answer_plans_magmas_chain(monkeypatch):
    """Algorithm 56 (CUTLASS's sm80 ffma kernels) plans path "seq" as magma does: one fp32 fma chain
    per output in K order, bias in fp32 (2026-12-01c ground: 125 of 125); BITORDER_SIMT=0: cuBLAS."""
    import torch
    from bitorder.gemm import api
    answer_is(monkeypatch, {"algo_id": 56, "tile": "32x32", "stages": "8x3", "split_k": 1, "reduction_scheme": 0,
                            "custom_option": 0})
    a, b = torch.zeros(3381, 5, dtype=torch.float16), torch.zeros(5, 55, dtype=torch.float16)
    p = api._plan2(a, b, None, "gemm")
    assert p.path == "seq" and (p.order.lanes, p.order.fold) == (1, "seq")
    assert api._plan2(a, b, torch.zeros(55, dtype=torch.float16), "gemm_and_bias").path == "seq"
    monkeypatch.setenv("BITORDER_SIMT", "0")
    assert api._plan2(a, b, None, "gemm").path == "cublas"


def test_a_gemmk1_answer_is_one_product_rounded_once(monkeypatch):
    """Algorithm 12 with K = 1 and no bias (2-D or batched): path "k1", each output the exact fp32
    product rounded once, a -0 product kept (probe_k1 on the H200, 2026-12-01c: adding it to +0
    first missed every shape)."""
    import torch
    from bitorder.gemm import api
    answer_is(monkeypatch, {"algo_id": 12, "tile": "UNDEFINED", "stages": "UNDEFINED", "split_k": 1,
                            "reduction_scheme": 0, "custom_option": 0})
    a, b = torch.zeros(7, 24, 1, dtype=torch.bfloat16), torch.zeros(7, 1, 22, dtype=torch.bfloat16)
    assert api._plan2(a, b, None, "bgemm").path == "k1"
    assert api._plan2(torch.zeros(5, 2, dtype=torch.float16), torch.zeros(2, 3, dtype=torch.float16), None,
                      "gemm").path == "cublas"        # K = 2: not gemmk1's ground
    x = torch.tensor([[-0.0], [3.0], [2.0 ** -64]], dtype=torch.bfloat16)
    y = torch.tensor([[1.0, -2.0, 2.0 ** -64]], dtype=torch.bfloat16)
    got = api.k1_product(x, y)
    want = (x.float() * y.float()).to(torch.bfloat16)
    assert torch.equal(got.view(torch.int16), want.view(torch.int16))
    assert got[0, 0].item() == 0 and str(got[0, 0].item()) == "-0.0"
    assert str(api.k1_product(x, y, add_zero=True)[0, 0].item()) == "0.0"


def test_a_segment_k_answer_plans_the_segment_k_path_when_verified_or_unverified(monkeypatch):
    """An algorithm-42 answer with split_k -1 (cuBLAS's run-time split) plans bitorder.gemm.segment_k
    (KERNELS[42] verified, or BITORDER_UNVERIFIED=1) for a bias-free 2-D product in torch layout nt (a
    row-major, b a transposed view; the other layouts are candidates until a ground lists them in "layouts")
    inside the records' region; otherwise cuBLAS (never a guess)."""
    import os
    import sys
    import torch
    from bitorder.gemm import api
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
    import fit_segment_k
    rec = fit_segment_k.records(42)[0]
    c, ans = rec["case"], dict(rec["ran"][0])
    answer_is(monkeypatch, ans)
    a = torch.zeros(c["m"], c["k"], dtype=torch.bfloat16)
    b = torch.zeros(c["n"], c["k"], dtype=torch.bfloat16).t()
    from bitorder.cublas import segment_k
    monkeypatch.delenv("BITORDER_UNVERIFIED", raising=False)
    monkeypatch.setitem(segment_k.KERNELS[42], "verified", False)
    assert api._plan2(a, b, None, "gemm").path == "cublas"
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")
    p = api._plan2(a, b, None, "gemm")
    assert p.path == "segk" and p.order.k == c["k"] and len(p.order.bounds) > 2, p
    assert api._plan2(a, b.contiguous(), None, "gemm").path == "segk"                # layout nn: a candidate
    assert api._plan2(a, b, torch.zeros(c["n"], dtype=torch.bfloat16), "gemm_and_bias").path == "cublas"
    assert api._plan2(a[:64 * 100], b, None, "gemm").path == "cublas"                # whole waves only
    ans["split_k"] = 1
    assert api._plan2(a, b, None, "gemm").path == "cublas"
    ans["split_k"] = -1                                                              # verified: the default
    monkeypatch.delenv("BITORDER_UNVERIFIED", raising=False)
    monkeypatch.setitem(segment_k.KERNELS[42], "verified", True)
    assert api._plan2(a, b, None, "gemm").path == "segk"
    assert api._plan2(a, b.contiguous(), None, "gemm").path == (                     # nn: only once grounded
        "segk" if "nn" in segment_k.KERNELS[42]["layouts"] else "cublas")
    monkeypatch.setitem(segment_k.KERNELS[42], "layouts", ("nt",))
    assert api._plan2(a, b.contiguous(), None, "gemm").path == "cublas"


def test_a_run_time_split_answer_with_segment_k_off_plans_the_plain_chain_with_its_bias(monkeypatch):
    """An algorithm-41 64x64 answer with split_k -1 inside segment_k.UNSPLIT's region (the 2026-12-02h records:
    fp16 F.linear with a bias, torch layout tt, 114-128 tiles) plans the plain wgmma chain with the bias in fp32
    before the rounding (verified 2026-12-03); while unverified only under BITORDER_UNVERIFIED=1, cuBLAS otherwise."""
    import torch
    from bitorder.cublas import segment_k
    from bitorder.gemm import api
    ans = {"algo_id": 41, "tile": "64x64", "stages": "64xAUTO", "split_k": -1, "reduction_scheme": 2,
           "custom_option": 0, "workspace": "1048576"}
    answer_is(monkeypatch, ans)
    a = torch.zeros(1262, 372, dtype=torch.float16).t()          # a (372, 1262), layout t
    b = torch.zeros(1258, 1262, dtype=torch.float16).t()         # b (1262, 1258), layout t
    bias = torch.zeros(1258, dtype=torch.float16)
    monkeypatch.delenv("BITORDER_UNVERIFIED", raising=False)
    assert api._plan2(a, b, bias, "gemm_and_bias").path == "triton"           # verified: plans by default
    monkeypatch.setitem(segment_k.UNSPLIT[41], "verified", False)
    assert api._plan2(a, b, bias, "gemm_and_bias").path == "cublas"
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")
    p = api._plan2(a, b, bias, "gemm_and_bias")
    assert p.path == "triton" and p.desc.family == "plain" and p.desc.k == 1262, p
    assert p.desc.epilogue == ("bias_acc", "round")
    assert api._plan2(a, b, None, "gemm").path == "cublas"                            # no bias: no records
    assert api._plan2(a.contiguous(), b, bias, "gemm_and_bias").path == "cublas"      # layout nt: no records


def test_torch_layout_letters():
    """The gate's layout letters from strides (segment_k.plan's region): row-major "n", a transposed view "t"."""
    import torch
    from bitorder.gemm.api import _torch_layout
    a, b = torch.zeros(4, 6), torch.zeros(6, 5)
    assert _torch_layout(a, b) == "nn"
    assert _torch_layout(torch.zeros(6, 4).T, torch.zeros(5, 6).T) == "tt"
    assert _torch_layout(a, torch.zeros(5, 6).T) == "nt"
    assert _torch_layout(a[:, ::2], b) is None


def test_batched_simt_plans_stop_at_the_batches_shown_identical():
    """Batched gemv and gemmSN plans only up to gemv_rule.MAX_GEMV_BATCH (62: the gates' 2-64 less the batches where dots changed launch), batches of dots to
    MAX_DOT_BATCH (80, shown 2026-12-02g); past them cuBLAS. Shapes and strides only: CPU tensors do."""
    import torch
    from bitorder.cublas.gemv_rule import MAX_DOT_BATCH, MAX_GEMV_BATCH
    from bitorder.gemm.api import _gemv_candidate
    gemv = {"algo_id": 13, "custom_option": 68, "split_k": 1}
    dot = {"algo_id": 13, "custom_option": 10, "split_k": 1}

    def order(ans, batch, m, k, n):
        return _gemv_candidate(ans, torch.zeros(batch, m, k, dtype=torch.float16),
                               torch.zeros(batch, k, n, dtype=torch.float16), None, "fp16")
    assert order(gemv, MAX_GEMV_BATCH, 300, 500, 1) is not None
    assert order(gemv, MAX_GEMV_BATCH + 1, 300, 500, 1) is None
    assert order(dot, MAX_DOT_BATCH, 1, 92, 1) is not None
    assert order(dot, MAX_DOT_BATCH + 1, 1, 92, 1) is None
    from bitorder.cublas.gemv_rule import gemmsn_order_for, order_for     # the bound lives in the rules
    assert order_for(gemv, 500, "fp16", outputs=300, batch=MAX_GEMV_BATCH + 1) is None
    sn = {"algo_id": 11, "custom_option": 0}
    assert gemmsn_order_for(sn, "nt", 4, False, batch=MAX_GEMV_BATCH) is not None
    assert gemmsn_order_for(sn, "nt", 4, False, batch=MAX_GEMV_BATCH + 1) is None


def test_a_batched_simt_answer_past_the_bounds_says_why_it_went_to_cublas():
    """The fallback reason names the batch bound (2026-12-03d: past batch 62 cuBLAS launched other blocks for some
    dots), keeping the reason's prefix that censuses group by; unbatched calls and other algorithms get none."""
    import torch
    from bitorder.gemm.api import _batch_note
    gemv = {"algo_id": 13, "custom_option": 68, "split_k": 1}
    a, b = torch.zeros(63, 674, 9, dtype=torch.float16), torch.zeros(63, 9, 1, dtype=torch.float16)
    assert "batch 63: SIMT rules hold to batch 62" in _batch_note(gemv, a, b)
    assert _batch_note(gemv, a[:62], b[:62]) == ""
    assert _batch_note({"algo_id": 21}, a, b) == ""
