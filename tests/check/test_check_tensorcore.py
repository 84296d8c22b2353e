"""The tensor-core model (check/tensorcore.py) on GEMMs whose K loop has a constant trip count
(K a constexpr, so the walk follows the loop turn by turn), compiled here by Triton 3.6 for sm90.

The model is checked against what a GEMM is: every output element's tree must be the chain of
wgmma steps whose A operand is row m of A and whose B operand is column n of B, in K order,
16 elements a step, each a load (masked by its row or column bound) or a zero past K. A wrong
swizzle, descriptor field or fragment layout reads other elements and fails this. The K-major
128B (BLOCK_K 64) and 64B (BLOCK_K 32) swizzles of A and the MN-major 128B swizzle of B are
exercised. Negative known answers and a planted fault show the step nodes' operands matter.
"""
import os
import re
import sys

import pytest
import triton
import triton.language as tl

import bitorder
from bitorder import check
from bitorder.check import dataflow, parse
from bitorder.check.poly import padd, pkey, pmul

torch = pytest.importorskip("torch")


@triton.jit
def gemm_ck(a_ptr, b_ptr, c_ptr, M, N, sam, sbk, K: tl.constexpr, SCM: tl.constexpr,
            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), tl.float32)
    for k0 in range(0, K, BLOCK_K):
        rk = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + rm[:, None] * sam + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + rk[:, None] * sbk + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    # a constexpr row stride: the walk refuses output rows a runtime stride apart (they may alias)
    tl.store(c_ptr + rm[:, None] * SCM + rn[None, :], acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


SIG = dict(a_ptr="*fp16", b_ptr="*fp16", c_ptr="*fp16", M="i32", N="i32", sam="i32", sbk="i32")
SCM = 256
_CACHE = {}


def ptx(K, bk, stages, warps=4):
    if (K, bk, stages, warps) not in _CACHE:
        _CACHE[K, bk, stages, warps] = bitorder.compile(
            gemm_ck, "sm90", signature=SIG, num_warps=warps, num_stages=stages, aligned=list(SIG),
            constexprs=dict(K=K, SCM=SCM, BLOCK_M=64, BLOCK_N=64, BLOCK_K=bk)).ptx
    return _CACHE[K, bk, stages, warps]


def _sym(name):
    return {(name,): 1}


def _expected_leaf(ptr, index):
    """pkey of the byte address ptr + 2 * index (fp16 elements)."""
    return pkey(padd(_sym(ptr), pmul(index, 2)))


def _check_gemm_trees(text, K, bk):
    r, nodes = dataflow.walk(parse(text)[0], shapes=True)
    assert len(r) == 64 * 64
    steps = bk // 16 * -(-K // bk)
    shape = nodes.shape
    row0 = padd(pmul(_sym("ctaid_x"), 64), 0)
    col0 = pmul(_sym("ctaid_y"), 64)
    checked = 0
    for addr, (_guard, key, width) in r.items():
        assert width == "b16"
        off = int(addr.split("*1+")[0]) if addr.split("*1+")[0].isdigit() else 0
        m, n = divmod(off // 2, SCM)
        op, kids, _ = shape[key]
        assert op == "cvt.rn.f16.f32"
        node = kids[0]
        chain = []
        while node in shape and shape[node][0].startswith("wgmma."):
            op, kids, _ = shape[node]
            assert op == "wgmma.mma_async.sync.aligned.m64nNk16.f32.f16.f16:acc"
            chain.append((kids[1], kids[2]))
            node = kids[0]
        assert node == "bits:0" and len(chain) == steps     # the accumulator starts at +0
        chain.reverse()
        for s, (arow, bcol) in enumerate(chain):
            for which, vec in (("A", arow), ("B", bcol)):
                op, elems, _ = shape[vec]
                assert op == f"wg{which}" and len(elems) == 16
                for kk, el in enumerate(elems):
                    k = 16 * s + kk
                    if k >= K:
                        assert el == "bits:0"
                        continue
                    eop, ekids, guard = shape[el]
                    assert eop == "select" and ekids[1] == "bits:0"
                    lop, _, leaf = shape[ekids[0]]
                    if which == "A":   # A[row, k] = a_ptr + 2 (row * sam + k), masked by row < M
                        want = _expected_leaf("param:arg0", padd(pmul(padd(row0, m), _sym("param:arg5")), k))
                        assert "param:arg3" in guard
                    else:              # B[k, col] = b_ptr + 2 (k * sbk + col), masked by col < N
                        want = _expected_leaf("param:arg1", padd(pmul(_sym("param:arg6"), k), padd(col0, n)))
                        assert "param:arg4" in guard
                    assert lop == "load" and leaf == f"[{want}]b16", (m, n, s, kk, which)
        checked += 1
    assert checked == 4096


@pytest.mark.parametrize("K,bk", [(64, 32), (96, 64)])
def test_every_output_is_the_gemm_chain_of_its_row_and_column(K, bk):
    """64B (BLOCK_K 32) and 128B (BLOCK_K 64) K-major A tiles, a 128B MN-major B tile."""
    text = ptx(K, bk, 2)
    assert check.level(text) == "v1: dependence trees"
    _check_gemm_trees(text, K, bk)


def test_num_stages_twins_of_a_constant_trip_count_merge():
    assert check.equivalent(ptx(64, 32, 2), ptx(64, 32, 3))


def test_num_warps_twins_merge_though_their_steps_have_another_n():
    """8 warps split the 64x64 tile between two warpgroups: m64n32k16 steps where 4 warps issue
    m64n64k16 (their descriptors masked by and.b32 0x3FFF instead of a bfe). Per element the step is
    the same function of its row, column and accumulator: one class (the H200: one byte pattern
    for the corpus GEMM's 4- and 8-warp configurations)."""
    p8 = ptx(96, 32, 2, warps=8)
    assert "m64n32k16" in p8 and "m64n64k16" in ptx(96, 32, 2)
    assert check.level(p8) == "v1: dependence trees"
    assert check.equivalent(ptx(96, 32, 2), p8)


def test_block_k_twins_with_extra_zero_steps_stay_apart():
    """K = 96: BLOCK_K 64 runs two all-zero k16 steps that BLOCK_K 32 does not. They are the same
    bits only if an all-zero step leaves every accumulator unchanged, which is not assumed."""
    assert not check.equivalent(ptx(96, 32, 2), ptx(96, 64, 2))


def _mutate(text, old, new):
    assert text.count(old) >= 1
    return text.replace(old, new)


def test_a_changed_swizzle_or_stride_is_not_the_same_gemm():
    base = ptx(64, 32, 2)
    # the A descriptor's 64B swizzle (mode 2) read as 32B (mode 3): other elements, another tree
    swz = _mutate(base, "-9223371899415822336", "-4611685880988434432")
    assert not check.equivalent(base, swz)
    # B's stride byte offset halved (1024 -> 512): rows read twice, others never
    sbo = _mutate(base, "4611686293305294848", "4611686155866341376")
    assert not check.equivalent(base, sbo)


def test_an_fp32_add_into_the_accumulator_between_steps_is_refused_or_differs():
    base = ptx(64, 32, 2)
    lines = base.splitlines()
    at = next(i for i, ln in enumerate(lines) if "wgmma.commit_group" in ln)
    mma = next(ln for ln in lines if "wgmma.mma_async" in ln)
    acc = mma.split("{")[1].split(",")[0]
    # after the step retires: acc += acc (a promotion-like fp32 add between turns)
    wait = next(i for i, ln in enumerate(lines) if "wgmma.wait_group" in ln and i > at)
    promoted = "\n".join(lines[:wait + 1] + [f"\tadd.rn.f32 \t{acc}, {acc}, {acc};"] + lines[wait + 1:])
    assert not check.equivalent(base, promoted)
    # before it retires: the accumulator is still being written by the tensor core
    early = "\n".join(lines[:at + 1] + [f"\tadd.rn.f32 \t{acc}, {acc}, {acc};"] + lines[at + 1:])
    assert check.level(early).startswith("v0") and not check.equivalent(base, early)


def test_a_copy_read_before_its_wait_is_refused():
    base = ptx(64, 32, 2)
    early = base.replace("cp.async.wait_group \t0;", "cp.async.wait_group \t1;", 1)
    assert early != base
    assert check.level(early).startswith("v0")


def test_planted_fault_a_step_that_forgets_its_b_operand_merges_a_wrong_pair(tmp_path):
    """The step node keyed without its B column: the stride mutant above (B rows read twice)
    becomes 'equivalent', and the known-answer test fails on the copy. The run proves it
    imported the copy."""
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from mutants import PYTEST, run_on_mutant
    p, copy = run_on_mutant(tmp_path, "src/bitorder/check/tensorcore.py",
                            "nid = self.nodes.make(key, kids + [rows[row], cols[col]])",
                            "nid = self.nodes.make(key, kids + [rows[row]])",
                            [*PYTEST,
                             "tests/check/test_check_tensorcore.py::test_where_bitorder_came_from",
                             "tests/check/test_check_tensorcore.py::test_a_changed_swizzle_or_stride_is_not_the_same_gemm"])
    assert copy in p.stdout and p.returncode != 0, p.stdout[-2000:] + p.stderr[-1000:]
    assert "1 failed" in p.stdout and "assert not" in p.stdout


def test_where_bitorder_came_from():
    """Prints where bitorder came from (the planted-fault test reads it from a run on a copy)."""
    print(f"bitorder from {os.path.dirname(bitorder.__file__)}")


def test_fp16_halves_of_a_fenced_word_are_fenced(monkeypatch):
    """attention_fwd (benchmarks/corpus) stores its Q tile with st.shared.v4.b32 and fences it;
    its first wgmma reads Q as fp16 elements, half of them inside a stored word rather than at
    its start. They count as fenced (the word is): the walk now gets past that step and stops
    at the softmax's mul feeding an add, which ptxas may contract (a real ambiguity). (The read-ahead off: it
    reads that refusal from the text, check/ahead.py, and the walk would not run.)"""
    from bitorder.check import ahead
    monkeypatch.setattr(ahead, "ON", False)
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
    from corpus import SPECS
    from bitorder.check.prune import compile_config, launch_ints
    spec = SPECS["attention_fwd"]
    args0 = spec.make("cpu", 7)
    cfg = spec.space[0]
    text = compile_config(spec.fn, cfg, {**args0, **spec.fixed}, {}, "sm90")
    why = check.level(text, launch_ints(spec.fn, cfg, {**args0, **spec.fixed}, {}))
    assert "contract" in why, why


def _const(payload):
    """The constant byte offset of a load or store address key ('[c*1+...]b32' or 'c*1+...')."""
    m = re.match(r"\[?(\d+)\*1\+", payload)
    return int(m.group(1)) if m else 0


@pytest.mark.parametrize("warps", [4, 8])
def test_a_wgmma_with_a_from_registers_reads_each_row_where_triton_put_it(warps):
    """pinned_gemm_colsum (benchmarks/corpus) converts its A tile to fp16 in registers, so its
    wgmma takes A from registers ({a0..a3}: the mma.m16n8k16 fragment, per warp 16 rows). Every
    output y[n] must be the pinned sum over the 128 rows m of the chain of 4 k16 steps whose A
    elements are cvt(A[m, k]) and B elements cvt(B[k, n]), k = 16 s .. 16 s + 15 in step order:
    a wrong register-to-(row, k) map reads other elements and fails this."""
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
    from corpus import SPECS
    from bitorder.check.prune import compile_config
    from bitorder.check.signature import _entry
    spec = SPECS["pinned_gemm_colsum"]
    args0 = spec.make("cpu", 7)
    cfg = next(c for c in spec.space if c.num_warps == warps and c.num_stages == 1 and c.kwargs["PINNED"])
    k = compile_config(spec.fn, cfg, {**args0, **spec.fixed}, {}, "sm90")
    assert check.level(k).startswith("v1"), check.level(k)
    r, nodes = dataflow.walk(_entry(k), shapes=True, divisible=check.divisible_params(k))
    shape = nodes.shape
    K, N = 64, 1024

    def first_load(node):
        while node in shape and shape[node][0] != "load":
            node = shape[node][1][0]
        return shape[node][2]

    def chains(node, out):
        op, kids, _ = shape[node]
        if op.startswith("wgmma."):
            chain = []   # steps from the last back: ":acc" ones read an accumulator, the first is ":zero"
            while shape[node][0].endswith(":acc"):
                chain.append(shape[node][1][1:])
                node = shape[node][1][0]
            assert shape[node][0].endswith(":zero")
            chain.append(shape[node][1])
            out.append(chain[::-1])
            return
        for c in kids:
            chains(c, out)

    assert len(r) == cfg.kwargs["BN"]
    for addr, (_guard, key, _width) in r.items():
        n = _const(addr) // 4
        rows = []
        chains(key, rows)
        assert len(rows) == 128
        ms = set()
        for chain in rows:
            assert len(chain) == 4
            m_of = set()
            for s, (arow, bcol) in enumerate(chain):
                a_idx = [_const(first_load(e)) // 4 for e in shape[arow][1]]
                b_idx = [_const(first_load(e)) // 4 for e in shape[bcol][1]]
                assert [i % K for i in a_idx] == list(range(16 * s, 16 * s + 16))
                m_of |= {i // K for i in a_idx}
                assert [i // N for i in b_idx] == list(range(16 * s, 16 * s + 16))
                assert {i % N for i in b_idx} == {n}
            assert len(m_of) == 1
            ms |= m_of
        assert ms == set(range(128))


def test_planted_fault_a_register_fragment_read_with_rows_and_k_halves_swapped_is_caught(tmp_path):
    """A copied tree whose A-from-registers map takes register i's row half from k and its k half
    from the row (a plausible slip): the tree test above fails on the copy, which the run imported."""
    sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
    from mutants import PYTEST, run_on_mutant
    p, copy = run_on_mutant(tmp_path, "src/bitorder/check/tensorcore.py",
                            "v = self.val(t, a_regs[rr // 8 + 2 * (k // 8)])",
                            "v = self.val(t, a_regs[2 * (rr // 8) + k // 8])",
                            [*PYTEST,
                             "tests/check/test_check_tensorcore.py::test_where_bitorder_came_from",
                             "tests/check/test_check_tensorcore.py::test_a_wgmma_with_a_from_registers_reads_each_row_where_triton_put_it"])
    assert copy in p.stdout and p.returncode != 0, p.stdout[-2000:] + p.stderr[-1000:]
    assert "1 failed" in p.stdout
