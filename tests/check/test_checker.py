"""The checker on stored PTX with known answers, and autotuner pruning end to end on the CPU."""
from pathlib import Path

import pytest
import triton
import triton.language as tl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bitorder
from bitorder import check
from bitorder.check import PTXError, parse
from bitorder.compiler.demo import ROW_SUM_SIGNATURE, row_sum
from bitorder.gemm.kernels import chain_kernel

torch = pytest.importorskip("torch")


def rowsum(**kw):
    return bitorder.compile(row_sum, "sm90", signature=ROW_SUM_SIGNATURE, **kw)


def test_parser_reads_what_triton_emits():
    c = bitorder.compile(chain_kernel, "sm90", num_warps=8, signature=dict(
        a_ptr="*fp16", b_ptr="*fp16", out_ptr="*fp16", bias_ptr="*fp16", M="i32", N="i32", K="i32", SPAN="i32",
        K_STEP="i32", stride_ab="i64", stride_a="i32", stride_bb="i64", stride_b="i32", stride_ob="i64",
        stride_om="i32", stride_op="i64"),
        constexprs=dict(A_ROW=True, B_ROW=False, GROUP=16, TAIL_FIRST=False, HAS_BIAS=True, BLOCK_M=128,
                        BLOCK_N=128, BLOCK_K=64))
    [e] = parse(c.ptx)
    ops = {i.opcode.split(".")[0] for i in e.instructions()}
    assert {"wgmma", "cp", "ld", "st", "bar", "mbarrier"} & ops and "wgmma" in ops
    assert e.reqntid == (256,) and len(e.params) >= 16
    [r] = parse(rowsum(constexprs={"BLOCK": 256}, num_warps=2).ptx)
    shfl = [i for i in r.instructions() if i.opcode.startswith("shfl")]
    assert [i.operands[2] for i in shfl][:5] == ["16", "8", "4", "2", "1"]
    assert any(i.guard for i in r.instructions())


def test_malformed_ptx_is_an_error_not_a_verdict():
    with pytest.raises(PTXError):
        check.signature("not ptx at all")
    with pytest.raises(PTXError):
        check.signature(".visible .entry k() { add.f32 %r1, %r2, %r3; ")
    with pytest.raises(PTXError, match="no body"):    # a text cut after its header (found by fuzzing, 2026-12-05f)
        check.signature(".visible .entry k(\n.param .u64 k_param_0\n)\n.reqntid 5")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_corrupted_ptx_is_read_or_refused_never_a_crash(data):
    """A stored program with one line deleted, doubled, cut short, swapped with another or one character changed:
    check.signature answers or raises PTXError, never another exception (benchmarks/results/2026-12-05f-checker-cpu
    ran 3,600 such texts of 150 corpus kernels)."""
    path = data.draw(st.sampled_from(sorted((Path(__file__).parent / "data").glob("*.ptx"))))
    lines = path.read_text().split("\n")
    i = data.draw(st.integers(0, len(lines) - 1))
    kind = data.draw(st.sampled_from(["del", "dup", "cut", "swap", "char"]))
    if kind == "del":
        del lines[i]
    elif kind == "dup":
        lines.insert(i, lines[i])
    elif kind == "cut":
        lines = lines[:i] + [lines[i][:data.draw(st.integers(0, len(lines[i])))]]
    elif kind == "swap":
        j = data.draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    elif lines[i]:
        j = data.draw(st.integers(0, len(lines[i]) - 1))
        lines[i] = lines[i][:j] + data.draw(st.sampled_from(list("{}[]();,.%$ 0x"))) + lines[i][j + 1:]
    try:
        check.signature("\n".join(lines))
    except PTXError:
        pass


def test_known_answers():
    a = rowsum(constexprs={"BLOCK": 1024}, num_warps=4)
    same = rowsum(constexprs={"BLOCK": 1024}, num_warps=4, num_stages=1)   # no loop: stages change nothing
    other = rowsum(constexprs={"BLOCK": 1024}, num_warps=8)                 # free order: another tree
    assert check.equivalent(a, same)
    v = check.equivalent(a, other)
    assert not v and "output address" in v.explanation      # both loop-free: told apart by their trees
    assert check.partition([a, same, other]) == [[0, 1], [2]]
    ticks = []
    assert check.partition([a, same, other], progress=lambda: ticks.append(1)) == [[0, 1], [2]] and len(ticks) == 3


@triton.autotune(configs=[triton.Config({}, num_warps=w, num_stages=s) for w in (4, 8) for s in (1, 2, 3)],
                 key=["n_cols"], prune_configs_by={"early_config_prune": bitorder.check.prune()})
@triton.jit
def tuned_row_sum(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * n_cols + offs, mask=offs < n_cols, other=0.0)
    tl.store(y_ptr + tl.program_id(0), tl.sum(x, axis=0))


def test_autotuner_prunes_to_the_reference_class_without_a_gpu():
    x, y = torch.zeros(4, 1000), torch.zeros(4)
    tuned_row_sum.nargs = {"x_ptr": x, "y_ptr": y, "n_cols": 1000}
    kept = tuned_row_sum.prune_configs({"BLOCK": 1024})
    info = tuned_row_sum.early_config_prune.last
    assert info["configs"] == 6 and info["classes"] == 2 and info["kept"] == 3 and info["seconds"] >= 0
    assert [c.num_warps for c in kept] == [4, 4, 4]     # the first config's class: num_warps 4, any stages


def _plain_store(x_ptr, B: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, B), 1.0)


_jitted_store = triton.jit(_plain_store)   # the module's name _plain_store holds the plain function, not this


def test_prune_compiles_in_spawned_processes_with_the_same_answer():
    """jobs=2: the configurations compile in two spawned workers that import this module's kernel; the same kept
    list as one process. A kernel defined in a function cannot be imported there: compiled here (jobs 1)."""
    x, y = torch.zeros(4, 1000), torch.zeros(4)
    named = {"x_ptr": x, "y_ptr": y, "n_cols": 1000}
    one = bitorder.check.prune(kernel=tuned_row_sum.fn)
    two = bitorder.check.prune(kernel=tuned_row_sum.fn, jobs=2)
    assert two(tuned_row_sum.configs, named, BLOCK=1024) == one(tuned_row_sum.configs, named, BLOCK=1024)
    assert two.last["jobs"] == 2 and one.last["jobs"] == 1 and two.last["kept"] == 3

    @triton.jit
    def local(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
        tl.store(y_ptr + tl.arange(0, BLOCK), tl.load(x_ptr + tl.arange(0, BLOCK)))
    early = bitorder.check.prune(kernel=local, jobs=2)
    assert len(early(tuned_row_sum.configs, named, BLOCK=64)) == 6 and early.last["jobs"] == 1   # a copy: one class
    with pytest.raises(ValueError, match="jobs"):
        bitorder.check.prune(jobs=0)
    from bitorder.check.prune import _importable
    assert _importable(tuned_row_sum.fn) is not None and _importable(_jitted_store) is None


def test_prune_planted_fault_keeps_another_class(tmp_path):
    """scripts/gpu-run mutant-prune-check's fault (prune keeping every class's num_stages=1 configuration), built
    from a copied tree: the kept count above fails, as benchmarks/prune_gpu_check.py's bytes must on a GPU."""
    from mutants import checker_test_fails_on_mutant
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/prune.py",
                                 "kept = [c for c, s in zip(configs, sigs) if s == ref]",
                                 "kept = [c for c, s in zip(configs, sigs) if s == ref or c.num_stages == 1]",
                                 "tests/check/test_checker.py::test_prune_compiles_in_spawned_processes_with_the_same_answer")


def test_prune_says_what_it_kept_when_asked(capsys):
    x, y = torch.zeros(4, 1000), torch.zeros(4)
    early = bitorder.check.prune(kernel=tuned_row_sum.fn, verbose=True)
    kept = early(tuned_row_sum.configs, {"x_ptr": x, "y_ptr": y, "n_cols": 1000}, BLOCK=1024)
    assert len(kept) == 3
    assert "tuned_row_sum): 6 configurations in 2 bitwise classes; kept the reference's 3" in capsys.readouterr().err


def test_known_answer_gate_and_its_planted_fault(tmp_path):
    """A copied tree whose signature drops the launch bound and keeps only each instruction's
    opcode merges kernels the H200 shows to differ: the known-answer gate catches it."""
    import os
    import subprocess
    import sys
    here = os.path.dirname(__file__)
    ok = subprocess.run([sys.executable, os.path.join(here, "known_answers.py")], capture_output=True, text=True)
    assert ok.returncode == 0 and "0 wrong merges, 0 needless splits" in ok.stdout, ok.stdout + ok.stderr
    sys.path.insert(0, os.path.dirname(here))
    from mutants import run_on_mutant
    p, copy = run_on_mutant(tmp_path, "src/bitorder/check/signature.py",
                            '        return hashlib.sha256("\\n".join(self.lines).encode()).hexdigest()[:32]',
                            '        return hashlib.sha256(str(sorted(set(re.findall(r"\\b[a-z]+\\.[a-z0-9.]+", "\\n".join(self.lines[1:]))))).encode()).hexdigest()[:32]',
                            ["tests/check/known_answers.py"])
    assert f"bitorder from {copy}" in p.stdout, p.stdout + p.stderr
    assert p.returncode != 0 and "WRONG MERGE (v0)" in p.stdout


def test_v1_planted_fault_a_tree_key_that_forgets_its_operands(tmp_path):
    """A copied tree whose dependence-tree nodes are keyed by opcode and arity only: every
    free-order row sum becomes one tree and the known-answer gate reports wrong v1 merges."""
    import os
    import sys
    sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
    from mutants import run_on_mutant
    p, copy = run_on_mutant(tmp_path, "src/bitorder/check/symbolic.py", "            kids = sorted(kids)\n",
                            "            kids = [str(len(kids))]\n", ["tests/check/known_answers.py"])
    assert f"bitorder from {copy}" in p.stdout, p.stdout + p.stderr
    assert p.returncode != 0 and "WRONG MERGE (v1)" in p.stdout and "WRONG MERGE (v0)" not in p.stdout


@triton.autotune(configs=[triton.Config({"BLOCK_K": bk}, num_warps=4, num_stages=s) for bk in (32, 64) for s in (2, 3)],
                 key=["M", "N", "K"], prune_configs_by={"early_config_prune": bitorder.check.prune(bind="all")})
@triton.jit
def tuned_gemm(a_ptr, b_ptr, c_ptr, M, N, K, sam, sbk, scm, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * 64 + tl.arange(0, 64)
    rn = tl.program_id(1) * 64 + tl.arange(0, 64)
    acc = tl.zeros((64, 64), tl.float32)
    for k0 in range(0, K, BLOCK_K):
        rk = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + rm[:, None] * sam + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + rk[:, None] * sbk + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :], acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


def test_autotuner_pruning_with_the_launch_integers_bound_keeps_a_gemms_twins():
    """bind="all": the call's M, N, K and strides are bound, the loop over K is followed, and the
    BLOCK_K / num_stages twins (one byte pattern on the H200 for the corpus GEMM) stay together
    at K = 128; at K = 96 BLOCK_K 64 runs extra all-zero steps and is pruned (not proven equal)."""
    a, b, c = torch.zeros(128, 128, dtype=torch.float16), torch.zeros(128, 128, dtype=torch.float16), \
        torch.zeros(128, 128, dtype=torch.float16)
    for k, kept_bk in ((128, [32, 32, 64, 64]), (96, [32, 32])):
        tuned_gemm.nargs = {"a_ptr": a, "b_ptr": b, "c_ptr": c, "M": 128, "N": 128, "K": k, "sam": 128, "sbk": 128,
                            "scm": 128}
        kept = tuned_gemm.prune_configs({})
        assert [cfg.kwargs["BLOCK_K"] for cfg in kept] == kept_bk, (k, tuned_gemm.early_config_prune.last)


def test_prune_refuses_an_unknown_binding():
    with pytest.raises(ValueError, match="bind must be"):
        bitorder.check.prune(bind="some")


def test_prune_refuses_a_reference_that_names_no_configuration():
    with pytest.raises(TypeError, match="reference must be"):
        bitorder.check.prune(reference="first")
    with pytest.raises(TypeError, match="reference must be"):
        bitorder.check.prune(reference=True)
    with pytest.raises(IndexError, match="not one of the 2 configurations"):   # checked before anything compiles
        bitorder.check.prune(reference=5, kernel=tuned_row_sum)([triton.Config({}), triton.Config({})], {})


def test_prune_compiles_a_config_with_its_maxnreg():
    """A triton.Config's maxnreg reaches the compile (the PTX Triton would run carries .maxnreg); unset, none."""
    import triton
    import triton.language as tl

    from bitorder.check.prune import compile_config

    @triton.jit
    def k(x_ptr, B: tl.constexpr):
        tl.store(x_ptr + tl.arange(0, B), 1.0)

    import torch
    named = {"x_ptr": torch.empty(4)}
    ptx = compile_config(k, triton.Config({"B": 64}, num_warps=2, maxnreg=64), named, {}, "sm90").asm
    assert ".maxnreg 64" in ptx
    assert ".maxnreg" not in compile_config(k, triton.Config({"B": 64}, num_warps=2), named, {}, "sm90").asm
