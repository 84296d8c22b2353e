"""The warp-specialized Gluon fp8 kernel (kernels_fp8_gluon) compiled for sm_90a on the CPU: the
promoting chain's wgmma k32 steps are chain8_kernel's, its K loops hold no CTA-wide barrier (only
mbarrier waits and arrives, and each consumer warpgroup's own 128-thread sync), and ptxas neither
serializes its wgmmas nor spills. The bytes themselves: the GPU test below and
benchmarks/fp8_gluon_check.py on the H200."""
import functools
import re

import pytest
from hypothesis import given, settings, strategies as st

torch = pytest.importorskip("torch")

import triton  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.experimental.gluon import language as gl  # noqa: E402
from triton.experimental.gluon._runtime import GluonASTSource  # noqa: E402

import bitorder  # noqa: E402
from bitorder.compiler import ptxas  # noqa: E402
from bitorder.gemm import fp8, kernels_fp8_gluon as kg  # noqa: E402
from bitorder.gemm.kernels_fp8 import chain8_kernel  # noqa: E402

from test_fp8 import ALIGNED8, SIG8  # noqa: E402


def _sig(block_n, promote, out):
    """The signature the JIT builds for run_ws's arguments (host TMA descriptors as tensordesc<...>)."""
    promote = promote or kg.PURE_K.value    # a pure chain's boxes
    la = gl.NVMMASharedLayout.get_default_for([64, promote], gl.float8e4nv)
    lb = gl.NVMMASharedLayout.get_default_for([block_n, promote], gl.float8e4nv)
    return {"a_desc": f"tensordesc<fp8e4nv[64, {promote}],{la!r}>",
            "b_desc": f"tensordesc<fp8e4nv[{block_n}, {promote}],{lb!r}>",
            "out_ptr": f"*{out}", "bias_ptr": f"*{out}", "sa_ptr": "*fp32", "sb_ptr": "*fp32",
            "M": "i32", "N": "i32", "K": "i32", "stride_om": "i32"}


@functools.lru_cache(maxsize=None)
def _compile(block_n=128, promote=128, out="bf16", scale=1, rowwise=False, bias=False, stages=4, overlap=False,
             consumers=2, persistent=False, extra=0, module=kg, maxnreg=None):
    """The PTX of `module`'s chain8_ws_kernel (extra > 0: chain8_ws2_kernel with a second block of `extra` columns)
    for sm_90a at these constexprs (benchmarks/gluon_ptx_compare.py passes an older copy of the module)."""
    fn = module.chain8_ws2_kernel if extra else module.chain8_ws_kernel
    cx = dict(PROMOTE=promote, SCALE=scale, ROWWISE=rowwise, HAS_BIAS=bias, BLOCK_N=block_n, STAGES=stages,
              OVERLAP=overlap, CONSUMER_REGS=232, PRODUCER_REGS=40, CONSUMERS=consumers, PERSISTENT=persistent)
    sig = _sig(block_n, promote, out)
    if extra:
        sig["b2_desc"] = _sig(extra, promote, out)["b_desc"]
    full = {a: ("constexpr" if a in cx else sig[a]) for a in fn.arg_names}
    attrs = {(fn.arg_names.index(a),): [["tt.divisibility", 16]] for a in ("out_ptr", "N", "K", "stride_om")}
    k = triton.compile(GluonASTSource(fn, full, constexprs=cx, attrs=attrs), target=GPUTarget("cuda", 90, 32),
                       options=dict(num_warps=4, maxnreg=kg.launch_maxnreg(consumers, maxnreg)))
    return k.asm["ptx"]


def _inner_loops(ptx):
    """The innermost loops' bodies: lines from a label to the branch back to it, holding no other loop."""
    lines = ptx.splitlines()
    where = {m.group(1): i for i, ln in enumerate(lines) if (m := re.match(r"^(\$L__BB\d+_\d+):", ln))}
    loops = []
    for i, ln in enumerate(lines):
        m = re.search(r"\bbra(?:\.uni)?\s+(\$L__BB\d+_\d+);", ln)
        if m and where.get(m.group(1), i + 1) < i:
            loops.append((where[m.group(1)], i))
    inner = [(s, e) for s, e in loops if not any(s < s2 <= e2 < e or (s <= s2 and e2 < e) for s2, e2 in loops
                                                  if (s2, e2) != (s, e))]
    return ["\n".join(lines[s:e + 1]) for s, e in inner]


def _chain(body):
    """The wgmma steps of one interval, normalized: (shape/type, descriptor offsets, scale-d literal or not)."""
    steps = []
    for m in re.finditer(r"(wgmma\.mma_async\.sync\.aligned\.\S+) \{[^}]*\}, %rd\d+, %rd\d+, (\S+), 1, 1;", body):
        steps.append((m.group(1), m.group(2) if m.group(2) == "0" else "p"))
    offsets = re.findall(r"(?:add|or)\.[sb]64\s+%rd\d+, %rd\d+, (46116\d+);", body)
    return steps, offsets


def _consumer_loops(ptx):
    return [b for b in _inner_loops(ptx) if "wgmma.mma_async" in b]


@pytest.mark.parametrize("overlap", [False, True])
def test_each_consumer_runs_a_fresh_four_step_k32_chain_per_interval(overlap):
    """OVERLAP unrolls the loop by two intervals (two partials alternate): the same chain per interval."""
    ptx = _compile(overlap=overlap)
    loops = _consumer_loops(ptx)
    assert len(loops) == 2, "one K loop per consumer warpgroup"
    per_trip = 2 if overlap else 1
    for body in loops:
        steps, _ = _chain(body)
        assert [s for s, _ in steps] == ["wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3"] * 4 * per_trip
        assert [d for _, d in steps] == ["0", "p", "p", "p"] * per_trip, "each chain starts from zero (scale-d 0)"
        assert body.count("wgmma.commit_group") == per_trip
        assert body.count("add.f32") == 64 * per_trip and "fma" not in body   # 64 x 128 / 128 threads a partial
        waits = re.findall(r"wgmma\.wait_group\.sync\.aligned (\d);", body)
        assert waits == (["1", "1"] if overlap else ["0"])
        assert body.index("wgmma.wait_group") < body.index("add.f32"), "the add waits for its partial"


@pytest.mark.parametrize("overlap", [False, True])
def test_the_interval_chain_is_chain8_kernels(overlap):
    """Each consumer's interval issues the same wgmma steps, on the same shared-memory descriptor
    offsets (128-byte swizzle, 32 bytes a k32 step), as chain8_kernel's promoting TMA loop."""
    tri = bitorder.compile(chain8_kernel, "sm90", signature=SIG8, num_warps=8, num_stages=4, aligned=ALIGNED8,
                           constexprs=dict(A_ROW=True, B_ROW=False, PROMOTE=128, SCALE=1, ROWWISE=False,
                                           HAS_BIAS=False, BLOCK_M=128, BLOCK_N=128, BLOCK_K=128, TMA=True)).ptx
    ref = [_chain(b) for b in _inner_loops(tri) if "wgmma.mma_async" in b]
    assert len(ref) == 1
    per_trip = 2 if overlap else 1
    for body in _consumer_loops(_compile(overlap=overlap)):
        steps, offsets = _chain(body)
        assert steps == ref[0][0] * per_trip and offsets == ref[0][1] * per_trip


@pytest.mark.parametrize("block_n, consumers", [(128, 2), (128, 1), (256, 1), (64, 1)])
def test_the_pure_chain_is_chain8_kernels(block_n, consumers):
    """PROMOTE = 0 (use_fast_accum=True): each consumer's K loop issues chain8_kernel's PROMOTE = 0 TMA steps
    (four k32 wgmmas a stage, on the same descriptor offsets, scale-d a predicate set to 1 in both: the chain
    starts from +0 registers, never from scale-d 0), adds nothing, and keeps one wgmma group in flight."""
    tri = bitorder.compile(chain8_kernel, "sm90", signature=SIG8, num_warps=4, num_stages=4, aligned=ALIGNED8,
                           constexprs=dict(A_ROW=True, B_ROW=False, PROMOTE=0, SCALE=1, ROWWISE=False,
                                           HAS_BIAS=False, BLOCK_M=64, BLOCK_N=block_n, BLOCK_K=128, TMA=True)).ptx
    ref = [_chain(b) for b in _inner_loops(tri) if "wgmma.mma_async" in b]
    assert len(ref) == 1 and [d for _, d in ref[0][0]] == ["p"] * 4
    ptx = _compile(block_n=block_n, promote=0, consumers=consumers)
    loops = _consumer_loops(ptx)
    assert len(loops) == consumers
    for body in loops:
        steps, offsets = _chain(body)
        assert steps == ref[0][0] and offsets == ref[0][1]
        preds = set(re.findall(r"wgmma\.mma_async[^;]*, (%p\d+), 1, 1;", body))
        assert all(re.search(rf"mov\.pred\s+{p}, -1;", ptx) for p in preds), "scale-d is 1 on every step"
        assert "add.f32" not in body and re.findall(r"wgmma\.wait_group\.sync\.aligned (\d);", body) == ["1"]


@pytest.mark.parametrize("overlap", [False, True])
def test_the_k_loops_hold_no_cta_wide_barrier(overlap):
    """The producer's loop: mbarrier wait, expect and TMA copies, warp-level syncs only. Each consumer's
    loop: mbarrier waits and arrives, and Triton's own `bar.sync id, 128` of that consumer's 128 threads
    (before its single-thread arrive and before its wait): never a barrier of the CTA or of both consumers."""
    ptx = _compile(overlap=overlap)
    loops = _inner_loops(ptx)
    producer = [b for b in loops if "cp.async.bulk.tensor" in b]
    consumers = _consumer_loops(ptx)
    assert len(producer) == 1 and len(consumers) == 2
    assert producer[0].count("cp.async.bulk.tensor") == 3 and "mbarrier.try_wait" in producer[0]
    assert not re.search(r"\bbar(rier)?\.sync\b", producer[0])
    ids = set()
    for body in consumers:
        assert "mbarrier.try_wait" in body and "mbarrier.arrive" in body
        syncs = re.findall(r"\b(?:bar|barrier)\.sync(?:\.aligned)?\s+([^;]*);", body)
        assert all(re.fullmatch(r"\d+, 128", s) for s in syncs), syncs   # named, one warpgroup's threads
        ids |= {s.split(",")[0] for s in syncs}
        assert not re.search(r"(?<![m.])\bbar(rier)?\.(arrive|red)\b", body)   # mbarrier.arrive is fine
    assert len(ids) == 2, "each consumer syncs on its own named barrier"


@pytest.mark.parametrize("variant", [dict(), dict(out="fp16", bias=True), dict(out="fp32"), dict(rowwise=True, scale=3),
                                     dict(out="fp16", bias=True, scale=4), dict(promote=64),
                                     dict(overlap=True), dict(overlap=True, out="fp16", bias=True),
                                     dict(overlap=True, promote=64), dict(overlap=True, stages=2),
                                     dict(overlap=True, consumers=1), dict(overlap=True, consumers=1, out="fp32"),
                                     dict(promote=0), dict(promote=0, consumers=1, block_n=256),
                                     dict(promote=0, block_n=256, stages=3), dict(promote=0, consumers=1, block_n=64,
                                                                                   stages=6)])
def test_ptxas_keeps_the_wgmma_pipeline_and_every_register(variant):
    r = ptxas.report(_compile(**variant))
    assert not r.wgmma_serialized and r.spill_stores == 0 and r.spill_loads == 0, (variant, r.codes, r.text[-400:])
    assert "setmaxnreg" in _compile(**variant)


def test_the_epilogue_rounds_each_step_as_chain8_kernel():
    """SCALE 1 with a bias: scale_a * scale_b once per consumer, then per element mul.rn, add.rn and one
    cvt.rn to the output type: 64 x 128 elements per consumer, two per bf16x2 conversion, no fma."""
    ptx = _compile(bias=True)
    assert ptx.count("mul.rn.f32") == 2 * 65 and ptx.count("add.rn.f32") == 2 * 64
    assert ptx.count("cvt.rn.bf16x2.f32") == 2 * 32 and "fma.rn.f32" not in ptx


@pytest.mark.parametrize("overlap", [False, True])
def test_the_fault_promotes_every_64(overlap):
    """PROMOTE=64 (benchmarks/fp8_gluon_check.py --fault): a fresh chain of two k32 steps per interval."""
    for body in _consumer_loops(_compile(promote=64, overlap=overlap)):
        steps, _ = _chain(body)
        assert [d for _, d in steps] == ["0", "p"] * (2 if overlap else 1)


def test_block_n_256_does_not_fit_a_promoting_consumer():
    """64 x 256 fp32 accumulator + partial = 256 registers a thread: more than setmaxnreg gives (232)."""
    r = ptxas.report(_compile(block_n=256, stages=3))
    assert r.spill_stores > 0 or r.wgmma_serialized, r.text[-400:]


def test_run_ws_refuses_what_it_cannot_compute():
    f8 = torch.float8_e4m3fn
    a = torch.zeros(32, 64).to(f8)
    b = torch.zeros(32, 64).to(f8).t()        # column-major K x N
    one = torch.ones(())
    with pytest.raises(ValueError, match="multiple of 16"):
        kg.run_ws(torch.zeros(32, 40).to(f8), torch.zeros(32, 40).to(f8).t(), one, one)
    with pytest.raises(ValueError, match="row-major"):
        kg.run_ws(a, b.contiguous(), one, one)
    with pytest.raises(ValueError, match="row-major"):
        kg.run_ws(a.t().contiguous().t(), b, one, one)
    with pytest.raises(ValueError, match="float8_e4m3fn"):
        kg.run_ws(a.to(torch.float8_e5m2), b, one, one)
    with pytest.raises(ValueError, match="bias"):
        kg.run_ws(a, b, one, one, bias=torch.zeros(32, dtype=torch.float16))
    with pytest.raises(ValueError, match="aligned"):
        big = torch.zeros(32 * 80).to(f8)
        kg.run_ws(big[8:8 + 32 * 64].view(32, 64), b, one, one)
    for bad in (dict(extra_n=64, overlap=True), dict(extra_n=16), dict(extra_n=16, overlap=True, promote=0)):
        with pytest.raises(ValueError, match="extra_n"):
            kg.run_ws(a, b, one, one, **bad)


@pytest.mark.parametrize("block_n, persistent", [(128, True), (128, False), (64, True)])
def test_a_second_column_block_keeps_each_columns_chain(block_n, persistent):
    """chain8_ws2_kernel (144- and 80-column tiles): per interval each consumer issues the one-block kernel's four
    k32 steps on the first block (same shape, scale-d 0 then 1, same shared-memory offsets) and four of the same
    form on the 16-column block, in the same commit group count per chain pair; ptxas neither spills nor
    serializes. (128 + 32 does spill: three 64 x 160 accumulators exceed 232 registers.)"""
    ptx = _compile(block_n=block_n, stages=6, overlap=True, persistent=persistent, extra=16)
    r = ptxas.report(ptx)
    assert not r.wgmma_serialized and r.spill_stores == 0 and r.spill_loads == 0, r.text[-300:]
    one = _consumer_loops(_compile(block_n=block_n, stages=6, overlap=True, persistent=persistent))
    two = _consumer_loops(ptx)
    assert len(two) == len(one) == 2
    wide = f"wgmma.mma_async.sync.aligned.m64n{block_n}k32.f32.e4m3.e4m3"
    narrow = "wgmma.mma_async.sync.aligned.m64n16k32.f32.e4m3.e4m3"
    for body, body1 in zip(two, one):
        steps, _ = _chain(body)
        steps1, _ = _chain(body1)
        assert [x for x in steps if x[0] == wide] == steps1            # the first block: the one-block chain
        assert [(narrow, d) for s, d in steps if s == narrow] == [(narrow, d) for _, d in steps1]
        assert len(steps) == 2 * len(steps1)
        assert body.count("wgmma.commit_group") == 2 * body1.count("wgmma.commit_group")   # a group per block
        # each wait leaves the next interval's two groups in flight, as the one-block kernel leaves one
        waits = re.findall(r"wgmma\.wait_group\.sync\.aligned (\d);", body)
        assert waits == [str(2 * int(w)) for w in re.findall(r"wgmma\.wait_group\.sync\.aligned (\d);", body1)]


def _operands(m, n, k, seed):
    """a (m x k) and w (n x k) e4m3 draws (randn * 4) and two tensor-wise scales that are not powers of two."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = (torch.randn(m, k, device="cuda", generator=g) * 4).to(torch.float8_e4m3fn)
    w = (torch.randn(n, k, device="cuda", generator=g) * 4).to(torch.float8_e4m3fn)
    return a, w, torch.tensor(0.37, device="cuda"), torch.tensor(1.7000001, device="cuda")


@pytest.mark.gpu
@pytest.mark.parametrize("m, n, k", [(128, 256, 512), (40, 256, 4000), (77, 144, 400), (300, 512, 4000)])
def test_run_ws_gives_chain8_bytes_and_scaled_mm_gives_torch_bytes(m, n, k, monkeypatch):
    """run_ws against chain8_kernel (its contract: the same chain per element, one or two consumers), and
    bitorder.scaled_mm (which plans and may take run_ws; the fp8 entries are verified, so no switch) against
    torch._scaled_mm, bytes as integers."""
    monkeypatch.delenv("BITORDER_UNVERIFIED", raising=False)
    a, w, sa, sb = _operands(m, n, k, m + n + k)
    for out, bias in ((torch.bfloat16, None), (torch.float16, torch.randn(n, device="cuda").half()),
                      (torch.float32, None)):
        iview = torch.int16 if out != torch.float32 else torch.int32
        for consumers in (1, 2):
            got = kg.run_ws(a, w.t(), sa, sb, bias=bias, out_dtype=out, overlap=True, consumers=consumers)
            ref = kg.run_chain8(a, w.t(), sa, sb, bias=bias, out_dtype=out)
            assert torch.equal(got.view(iview), ref.view(iview)), (m, n, k, out, consumers)
        ref = torch._scaled_mm(a, w.t(), sa, sb, bias=bias, out_dtype=out, use_fast_accum=False)
        got = bitorder.scaled_mm(a, w.t(), sa, sb, bias=bias, out_dtype=out, use_fast_accum=False)
        assert torch.equal(got.view(iview), ref.view(iview)), (m, n, k, out)
        # not vacuous: the plan ran a kernel (a cuBLAS fallback, e.g. without nvmath, would compare torch to itself)
        assert fp8.plan(a, w.t(), sa, sb, bias, out, False).path == "triton", "fell back to cuBLAS"


@pytest.mark.gpu
@pytest.mark.parametrize("m, n, k", [(128, 256, 512), (40, 256, 4000), (77, 144, 400), (300, 512, 4000)])
def test_the_pure_chain_gives_chain8_bytes(m, n, k):
    """run_ws(promote=0), the use_fast_accum=True chain, against chain8_kernel's PROMOTE = 0 TMA kernel, at
    every tile run_ws takes (one or two consumers, 64 to 256 columns), bytes as integers."""
    a, w, sa, sb = _operands(m, n, k, m * n + k)
    for out, bias in ((torch.bfloat16, None), (torch.float16, torch.randn(n, device="cuda").half()),
                      (torch.float32, None)):
        iview = torch.int16 if out != torch.float32 else torch.int32
        ref = kg.run_chain8(a, w.t(), sa, sb, bias=bias, out_dtype=out, promote=0)
        for block_n, consumers in ((64, 1), (128, 1), (256, 1), (128, 2), (256, 2)):
            got = kg.run_ws(a, w.t(), sa, sb, bias=bias, out_dtype=out, promote=0, block_n=block_n,
                            consumers=consumers, stages=3 if (block_n, consumers) == (256, 2) else 4)
            assert torch.equal(got.view(iview), ref.view(iview)), (m, n, k, out, block_n, consumers)


def test_run_takes_the_gluon_kernel_only_where_it_applies():
    """fp8.run's choice (_ws): promoting chains on TMA tiles of e4m3 CUDA operands, no block asked for, a bias of
    the output type; pure chains, e5m2, a bias of another type, an explicit block or BITORDER_FP8_WS=0 keep
    chain8_kernel."""
    from types import SimpleNamespace
    from bitorder.gemm import fp8

    e4, e5 = torch.float8_e4m3fn, torch.float8_e5m2
    op = lambda dt=e4: SimpleNamespace(is_cuda=True, dtype=dt)   # noqa: E731
    desc = SimpleNamespace(promotion=128)
    bf = SimpleNamespace(dtype=torch.bfloat16)
    assert fp8._ws(op(), op(), desc, None, torch.bfloat16, None, True) == fp8.FP8_WS
    assert fp8._ws(op(), op(), desc, bf, torch.bfloat16, None, True) == fp8.FP8_WS
    assert not fp8._ws(op(), op(), SimpleNamespace(promotion=None), None, torch.bfloat16, None, True)
    assert not fp8._ws(op(), op(e5), desc, None, torch.bfloat16, None, True)
    assert not fp8._ws(op(), op(), desc, bf, torch.float32, None, True)
    assert not fp8._ws(op(), op(), desc, None, torch.bfloat16, (128, 128, 128, 8, 4), True)
    assert not fp8._ws(op(), op(), desc, None, torch.bfloat16, None, False)
    assert not fp8._ws(SimpleNamespace(is_cuda=False, dtype=e4), op(), desc, None, torch.bfloat16, None, True)


W = fp8.WsTile


@pytest.mark.parametrize("m, n, promoting, tile", [
    # the 2026-12-04 call 4 shapes (benchmarks/fp8_ws_tiles.py): where the rule names a tile, the tile measured best
    (128, 3584, False, W(64, 1, 6)), (128, 4096, False, W(64, 1, 6)), (512, 2048, False, W(64, 2, 6)),
    (512, 3584, False, W(128, 2, 4)), (32, 28672, False, W(256, 1, 4)),
    (512, 4672, False, None), (512, 6144, False, None), (8192, 2304, False, None), (512, 10240, False, None),
    (128, 8192, True, W(64, 2, 6)), (128, 12288, True, W(128, 2, 6)),
    (128, 10240, True, W(128, 2, 6)), (32, 18176, True, None), (32, 8192, True, None),
    # 2026-12-04b call 3 (FP8_WS_TILES_PERSISTENT=1): promoting grids of a wave or more, persistent 128 x 128
    (512, 6144, True, W(128, 2, 6, True)), (8192, 102400, True, W(128, 2, 6, True)),
    (2048, 21888, True, W(128, 2, 6, True))])
def test_ws_tile_takes_one_wave_tiles_that_fill_the_sms(m, n, promoting, tile):
    """fp8.ws_tile on the H200's 132 SMs: a one-wave grid of at least 99 programs, or (promoting, M > 64) 128 x 128
    with 6 stages, persistent from one wave on; else None (the default kernel and tile)."""
    assert fp8.ws_tile(m, n, promoting, 132) == tile


def test_the_cost_rule_picks_the_least_predicted_tile(monkeypatch):
    """fp8.ws_cost_tile: ws_rounds x (intervals x interval + fixed), least first; two consumers only past 64 rows;
    a one-consumer tile at maxnreg 168 (one program per tile) counts two programs an SM; ws_tile takes the rule for
    promoting chains only with a table and K given."""
    costs = {W(128, 2, 6, True): (1.0, 5.0), W(64, 1, 6, True): (0.4, 3.0), W(32, 1, 8, True): (0.3, 3.0)}
    # 128 x 2048, K = 10944: 16 tiles of 128 x 128 (one round at 91 us), 64 of 64 x 64 (one round, 37.4 us),
    # 128 of 64 x 32 (one round, 28.8 us)
    assert fp8.ws_cost_tile(128, 2048, 10944, 132, costs) == W(32, 1, 8, True)
    # 8192 x 8192, K = 2048: 4096 tiles (32 rounds x 21 us) against 16384 (125 x 9.4) and 32768 (249 x 7.8)
    assert fp8.ws_cost_tile(8192, 8192, 2048, 132, costs) == W(128, 2, 6, True)
    assert fp8.ws_cost_tile(32, 8192, 4096, 132, {W(128, 2, 6, True): (0.1, 0.1)}) is None
    # two programs an SM: 256 tiles of 64 x 64 at 128 x 8192 are one round, not two
    two = W(64, 1, 6, False, 168)
    assert two.programs_per_sm() == 2 and W(64, 1, 6, True, 168).programs_per_sm() == 1
    assert fp8.ws_rounds(128, 8192, two, 132) == 1 and fp8.ws_rounds(128, 8192, W(64, 1, 6, True), 132) == 2
    assert fp8.ws_cost_tile(128, 8192, 4096, 132, {two: (0.5, 3.0), W(64, 1, 6, True): (0.4, 3.0)}) == two
    assert two.label() == "w64x64s6r168" and W(128, 2, 6, True).label() == "p128x128s6"
    # a 144-column tile: 512 x 4608 is 128 tiles (one round) where 128 columns make 144 (two)
    assert fp8.ws_rounds(512, 4608, W(128, 2, 6, True, None, 16), 132) == 1 == fp8.ws_rounds(512, 4608, W(128, 2, 6), 132) - 1
    assert W(128, 2, 6, True, None, 16).label() == "p128x144s6"
    monkeypatch.setattr(fp8, "WS_PROMOTING_COST", ())
    assert fp8.ws_tile(8192, 8192, True, 132, 2048) == W(128, 2, 6, True)      # the table is empty: the kept rule
    monkeypatch.setattr(fp8, "WS_PROMOTING_COST", tuple(costs.items()))
    assert fp8.ws_tile(128, 2048, True, 132, 10944) == W(32, 1, 8, True)
    assert fp8.ws_tile(128, 2048, True, 132) == W(128, 2, 6, False)           # no K: the kept rule
    assert fp8.ws_tile(128, 2048, False, 132, 10944) == fp8.ws_tile(128, 2048, False, 132)   # pure chains: kept


@pytest.mark.parametrize("m, n, k, tile", [
    # benchmarks/results/2026-12-04c-gpu/call1 (fp8_ws_sweep.py, 56 promoting shapes): the fitted table's picks
    (128, 2048, 10944, W(32, 1, 8, True)), (128, 3072, 8192, W(64, 1, 6, True)), (128, 5120, 5120, W(128, 1, 6, True)),
    (32, 8192, 29568, W(64, 1, 6, True)), (512, 4608, 3584, W(128, 2, 6, True, None, 16)),
    (512, 2560, 2048, W(64, 2, 6, True, None, 16)), (2048, 2048, 10944, W(128, 2, 6, True)),
    (8192, 16384, 4096, W(128, 2, 6, True))])
def test_the_fitted_cost_table_picks_the_measured_tiles(m, n, k, tile):
    """fp8.WS_PROMOTING_COST (fitted on the H200): under-filled M = 128 grids take narrow one-consumer tiles,
    grids just past a wave of 128 x 128 take 144- or 80-column tiles, full grids keep persistent 128 x 128."""
    assert fp8.ws_tile(m, n, True, 132, k) == tile


@pytest.mark.parametrize("tile", [t for t, _ in fp8.WS_PROMOTING_COST], ids=lambda t: t.label())
def test_every_tile_of_the_cost_table_compiles_as_run_ws_launches_it(tile):
    """Each fitted tile, at run_ws's constexprs and register cap for a promoting chain (overlap on), compiles for
    sm_90a with no spill and no serialized wgmma: a tile the table names is one the kernel can run at speed."""
    ptx = _compile(block_n=tile.block_n, stages=tile.stages, overlap=True, consumers=tile.consumers,
                   persistent=tile.persistent, extra=tile.extra_n, maxnreg=tile.maxnreg)
    r = ptxas.report(ptx)
    assert not r.wgmma_serialized and r.spill_stores == 0 and r.spill_loads == 0, (tile, r.codes, r.text[-400:])


@settings(max_examples=300, deadline=None)
@given(m=st.integers(1, 20000), n=st.integers(1, 200000).map(lambda x: 16 * -(-x // 16)),
       k=st.integers(1, 40000).map(lambda x: 16 * -(-x // 16)), sms=st.sampled_from([78, 114, 132]))
def test_the_fitted_cost_rule_only_names_tiles_of_its_table(m, n, k, sms):
    """Whatever the promoting shape: a tile of WS_PROMOTING_COST, two consumers only past 64 rows, the least
    predicted time of the table's tiles."""
    tile = fp8.ws_tile(m, n, True, sms, k)
    costs = dict(fp8.WS_PROMOTING_COST)
    assert tile in costs and (tile.consumers == 1 or m > 64)
    t = lambda w: fp8.ws_rounds(m, n, w, sms) * (-(-k // 128) * costs[w][0] + costs[w][1])   # noqa: E731
    assert t(tile) == min(t(w) for w in costs if w.consumers == 1 or m > 64)


def test_run_takes_the_pure_gluon_chain_only_with_the_tiles_switch(monkeypatch):
    """_ws_pure: FP8_WS_TILES, a plain pure descriptor, e4m3 CUDA operands TMA can load, no block asked for."""
    from types import SimpleNamespace

    e4 = torch.float8_e4m3fn
    op = lambda dt=e4, ptr=0: SimpleNamespace(is_cuda=True, dtype=dt, data_ptr=lambda: ptr, element_size=lambda: 1,
                                              stride=lambda i: 4096)   # noqa: E731
    pure, split = SimpleNamespace(promotion=None, family="plain"), SimpleNamespace(promotion=None, family="split_k")
    monkeypatch.setattr(fp8, "FP8_WS_TILES", False)
    assert not fp8._ws_pure(op(), op(), pure, None, torch.bfloat16, None)
    monkeypatch.setattr(fp8, "FP8_WS_TILES", True)
    assert fp8._ws_pure(op(), op(), pure, None, torch.bfloat16, None)
    assert not fp8._ws_pure(op(), op(), split, None, torch.bfloat16, None)
    assert not fp8._ws_pure(op(), op(), SimpleNamespace(promotion=128, family="plain"), None, torch.bfloat16, None)
    assert not fp8._ws_pure(op(), op(ptr=8), pure, None, torch.bfloat16, None)           # not 16-byte aligned
    assert not fp8._ws_pure(op(torch.float8_e5m2), op(torch.float8_e5m2), pure, None, torch.bfloat16, None)
    assert not fp8._ws_pure(op(), op(), pure, None, torch.bfloat16, (64, 64, 128, 4, 4))


@pytest.mark.gpu
@pytest.mark.parametrize("m, n, k", [(128, 3584, 2048), (512, 2048, 1024), (32, 28672, 512), (128, 8192, 1024),
                                     (128, 12288, 640), (1000, 8192, 1040)])
def test_the_tiles_switch_keeps_torchs_bytes(m, n, k, monkeypatch):
    """FP8_WS_TILES on: both accumulation modes through bitorder.scaled_mm at the tiles ws_tile names for these
    shapes (every rule branch: one-wave pure tiles of one and two consumers, 64- and 128-column promoting tiles, the
    persistent promoting tile),
    against torch._scaled_mm, bytes as integers; the plan must run a kernel."""
    monkeypatch.setattr(fp8, "FP8_WS_TILES", True)
    a, w, sa, sb = _operands(m, n, k, m + 7 * n + k)
    for fast in (True, False):
        for out, bias in ((torch.bfloat16, None), (torch.float16, torch.randn(n, device="cuda").half())):
            p = fp8.plan(a, w.t(), sa, sb, bias, out, fast)
            assert p.path == "triton", p.reason
            ref = torch._scaled_mm(a, w.t(), sa, sb, bias=bias, out_dtype=out, use_fast_accum=fast)
            got = bitorder.scaled_mm(a, w.t(), sa, sb, bias=bias, out_dtype=out, use_fast_accum=fast)
            assert torch.equal(got.view(torch.int16), ref.view(torch.int16)), (m, n, k, fast, out)


@pytest.mark.parametrize("variant", [dict(overlap=True), dict(overlap=True, consumers=1), dict(promote=0),
                                     dict(promote=0, consumers=1, block_n=256), dict(overlap=True, stages=6),
                                     dict(overlap=True, consumers=1, block_n=32, stages=8)])
def test_the_persistent_kernel_keeps_each_tiles_chain(variant):
    """PERSISTENT wraps each partition's loop in a loop over tiles: the innermost K loops hold the same wgmma steps
    on the same shared-memory offsets as the one-tile kernel's, and ptxas neither spills nor serializes."""
    ptx = _compile(persistent=True, **variant)
    r = ptxas.report(ptx)
    assert not r.wgmma_serialized and r.spill_stores == 0 and r.spill_loads == 0, (variant, r.codes)
    one = [_chain(b) for b in _consumer_loops(_compile(**variant))]
    assert [_chain(b) for b in _consumer_loops(ptx)] == one and one


@pytest.mark.gpu
@pytest.mark.parametrize("m, n, k", [(1024, 4096, 1024), (1000, 4000, 1040), (64, 9000, 640)])
def test_the_persistent_kernel_gives_the_same_bytes(m, n, k):
    """More tiles than SMs (each program walks several): persistent run_ws against the one-tile kernel, both
    modes, one and two consumers, 128 and (promoting) 32 columns a tile, and (promoting) 144-column tiles
    (extra_n = 16, persistent or not), bytes as integers."""
    a, w, sa, sb = _operands(m, n, k, m + n + k)
    for promote, consumers, block_n, extra in [(p, c, bn, x) for p in (128, 0) for c in (1, 2) for bn in (128, 32)
                                               for x in (0, 16) if (bn == 128 or p) and (not x or (p and bn == 128))]:
        kw = dict(promote=promote, consumers=consumers, overlap=True, out_dtype=torch.bfloat16)
        ref = kg.run_ws(a, w.t(), sa, sb, **kw)
        for persistent in (True, False) if extra else (True,):
            got = kg.run_ws(a, w.t(), sa, sb, persistent=persistent, block_n=block_n, extra_n=extra,
                            stages=8 if block_n == 32 else 6 if extra else 4, **kw)
            assert torch.equal(got.view(torch.int16), ref.view(torch.int16)), (m, n, k, promote, consumers, block_n,
                                                                               extra, persistent)


def test_the_kept_box_layouts_are_the_ones_built_per_call():
    """descriptors() keeps each box's shared layout (speed): equal to a fresh NVMMASharedLayout.get_default_for."""
    a = torch.zeros(256, 512).to(torch.float8_e4m3fn)
    for block_n, promote in ((128, 128), (64, 0), (256, 64)):
        da, db = kg.descriptors(a, a, block_n, promote)
        k = promote or kg.PURE_K.value
        assert da.layout == gl.NVMMASharedLayout.get_default_for([64, k], gl.float8e4nv)
        assert db.layout == gl.NVMMASharedLayout.get_default_for([block_n, k], gl.float8e4nv)
        assert da.block_shape == [64, k] and db.block_shape == [block_n, k]


@settings(max_examples=400, deadline=None)
@given(m=st.integers(1, 20000), n=st.integers(1, 200000).map(lambda x: 16 * -(-x // 16)), promoting=st.booleans(),
       sms=st.sampled_from([78, 114, 132]))
def test_ws_tile_only_names_tiles_run_ws_takes_and_one_wave_of_them(m, n, promoting, sms):
    """Whatever the shape: a tile from the table of its mode (promoting tiles at most 128 columns, a partial
    beside the accumulator), two consumers only past 64 rows, and a grid of at most one wave: filling at least
    3/4 of the SMs, or (promoting) the 128 x 128 grid under one wave; persistent only for the promoting 128 x 128
    tile where its grid is a wave or more."""
    tile = fp8.ws_tile(m, n, promoting, sms)
    if tile is None:
        return
    block_n, consumers, stages, persistent, maxnreg, extra_n = tile
    assert tile[:3] in (fp8.WS_PROMOTING_TILES if promoting else fp8.WS_PURE_TILES) and maxnreg is None and not extra_n
    assert consumers == 1 or m > 64
    assert not (promoting and m <= 64)
    programs = -(-m // (64 * consumers)) * -(-n // block_n)
    if persistent:   # only the promoting 128 x 128 tile, only where its grid is a wave or more
        assert promoting and tile == W(128, 2, 6, True) and programs >= sms
        return
    assert programs <= sms
    assert 4 * programs >= 3 * sms or (promoting and tile == W(128, 2, 6))


def test_a_kept_launch_keys_a_tma_descriptor_as_the_jit_specialises_it():
    """launch._spec of a host TMA descriptor: equal exactly where Triton's own specialisation (its type text: element
    type, box, shared layout) is equal, whatever the base, shape and strides (BITORDER_FP8_FAST_LAUNCH's key)."""
    from triton._C.libtriton import native_specialize_impl
    from triton.backends.compiler import BaseBackend
    from bitorder.gemm import launch

    a = torch.zeros(256, 512).to(torch.float8_e4m3fn)
    descs = [kg.descriptors(x, x, bn, k)[i] for x in (a, a[:128], a[:, :256]) for bn in (64, 128) for k in (128, 0)
             for i in (0, 1)]
    for d in descs:
        for e in descs:
            jit = native_specialize_impl(BaseBackend, d, False, True, True) == native_specialize_impl(
                BaseBackend, e, False, True, True)
            assert (launch._spec(d, False) == launch._spec(e, False)) == jit


@pytest.mark.gpu
def test_the_kept_gluon_launch_gives_the_jits_bytes(monkeypatch):
    """BITORDER_FP8_FAST_LAUNCH: run_ws through launch._launch (the JIT once per specialisation, then the kept
    kernel) against the JIT's own launch, several shapes and both modes, bytes as integers; the second call of a
    specialisation reuses the kept kernel."""
    from bitorder.gemm import launch

    for m, n, k in [(256, 1024, 512), (200, 1000, 512), (64, 4096, 1024)]:
        a, w, sa, sb = _operands(m, n, k, m + n)
        for promote in (128, 0):
            monkeypatch.setattr(kg, "FAST_LAUNCH", False)
            ref = kg.run_ws(a, w.t(), sa, sb, promote=promote, overlap=True)
            monkeypatch.setattr(kg, "FAST_LAUNCH", True)
            first = kg.run_ws(a, w.t(), sa, sb, promote=promote, overlap=True)
            kept = len(launch._COMPILED)
            again = kg.run_ws(a, w.t(), sa, sb, promote=promote, overlap=True)
            assert len(launch._COMPILED) == kept
            for got in (first, again):
                assert torch.equal(got.view(torch.int16), ref.view(torch.int16)), (m, n, k, promote)
