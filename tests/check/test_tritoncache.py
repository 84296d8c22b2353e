"""check.tritoncache: a Triton cache folder read as the checker's input, grouped by kernel."""
import json

import pytest
import triton

import bitorder
from bitorder import check
from bitorder.check import tritoncache
from bitorder.compiler.demo import ROW_SUM_SIGNATURE, row_sum


def _entry(root, folder, compiled, **meta):
    d = root / folder
    d.mkdir(parents=True)
    (d / f"{compiled.name}.ptx").write_text(compiled.ptx)
    (d / f"{compiled.name}.ttgir").write_text(compiled.ttgir)
    (d / f"__grp__{compiled.name}.json").write_text("{}")   # Triton's group file: not metadata
    (d / f"{compiled.name}.json").write_text(json.dumps(dict({"name": compiled.name, "num_warps": 4, "num_stages": 3,
                                                              "target": {"backend": "cuda", "arch": 90}}, **meta)))


def test_variants_group_by_kernel_and_specialisation(tmp_path, monkeypatch):
    """Two variants of one specialisation share a group; the aligned specialisation is another group; the
    asm carries the TTGIR, so each variant's signature is the compiled kernel's."""
    # a Triton cache of its own: the machine's may hold one of these kernels compiled from another tree (a clean clone
    # beside the checkout), whose path the group's name would then carry for that variant alone
    monkeypatch.setattr(triton.knobs.cache, "dir", str(tmp_path / "triton-cache"))

    def build(warps, aligned=()):
        # (not from bitorder's compile cache: a copied tree's compile of the same source names its own path)
        return bitorder.compile(row_sum, "sm90", signature=ROW_SUM_SIGNATURE, constexprs={"BLOCK": 256},
                                num_warps=warps, aligned=list(aligned), cache=False)
    a, b, c = build(4), build(8), build(4, ROW_SUM_SIGNATURE)
    _entry(tmp_path / "cache", "A", a)
    _entry(tmp_path / "cache", "sub/B", b, num_warps=8, maxnreg=128)
    _entry(tmp_path / "cache", "C", c)
    (tmp_path / "cache" / "other.json").write_text("[1, 2]")          # not a compile's metadata: ignored
    groups, skipped = tritoncache.read(tmp_path / "cache")
    assert skipped == [] and len(groups) == 2
    loose = next(g for g in groups if "/16" not in g)
    aligned = next(g for g in groups if "/16" in g)
    assert [v.member.split()[1:] for v in groups[loose]] == [["warps=4", "stages=3", "ranges=256"],
                                                             ["warps=8", "stages=3", "maxnreg=128", "ranges=256"]]
    assert loose.startswith("row_sum ") and "sm90" in loose and ".py:" in loose
    assert [check.signature(v.asm) for v in groups[loose]] == [check.signature(a), check.signature(b)]
    assert check.signature(groups[aligned][0].asm) == check.signature(c) != check.signature(c.ptx)
    assert tritoncache.read(tmp_path, kernel="nothing") == ({}, [])


def test_what_is_not_read_is_said(tmp_path):
    """No PTX (an AMD compile) and torn metadata are skipped with the reason; a file is not a folder."""
    (tmp_path / "amd").mkdir()
    (tmp_path / "amd" / "k.json").write_text(json.dumps({"name": "k", "num_warps": 4, "target": {"backend": "hip"}}))
    (tmp_path / "torn").mkdir()
    (tmp_path / "torn" / "k.json").write_text('{"name": "k", "num_')
    groups, skipped = tritoncache.read(tmp_path)
    assert groups == {} and sorted(why.split(":")[0] for _, why in skipped) == ["k", "unreadable metadata k.json"]
    assert "hip compile" in dict(skipped)[str(tmp_path / "amd")]
    with pytest.raises(FileNotFoundError):
        tritoncache.read(tmp_path / "amd" / "k.json")


def test_the_gpu_cache_check_counts_a_merged_pair_whose_bytes_differ():
    """benchmarks/cache_gpu_check.py's comparison (its GPU run: scripts/gpu-run cache-check): members of one class
    with other bytes are wrong merges; split classes with the same bytes only raise the true-class count."""
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "cache_gpu_check.py"
    spec = importlib.util.spec_from_file_location("cache_gpu_check", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    outputs = {("k", "warps=1 stages=1"): b"a", ("k", "warps=2 stages=1"): b"a", ("k", "warps=4 stages=1"): b"b"}
    split = [{"kernel": "k  f.py:3", "variants": 3, "classes": [{"members": ["H1 warps=1 stages=1"]},
                                                               {"members": ["H2 warps=2 stages=1"]},
                                                               {"members": ["H3 warps=4 stages=1 maxnreg=9"]}]}]
    assert mod.wrong_merges(split, outputs) == (0, {"k  f.py:3": {"variants": 3, "options_seen": 3, "classes": 3,
                                                                  "true_classes": 2}})
    merged = [{"kernel": "k  f.py:3", "variants": 3,
               "classes": [{"members": ["H1 warps=1 stages=1", "H2 warps=2 stages=1", "H3 warps=4 stages=1"]}]}]
    assert mod.wrong_merges(merged, outputs)[0] == 1


def test_cache_check_planted_fault_reads_one_folders_ptx_for_every_variant(tmp_path):
    """scripts/gpu-run mutant-cache-check's fault (every variant read with the first folder's PTX), built from a
    copied tree: the grouping test above fails, as benchmarks/cache_gpu_check.py's bytes must on a GPU."""
    from mutants import checker_test_fails_on_mutant
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/tritoncache.py",
                                 '        asm = {"ptx": ptx.read_text(), "ttgir": gir}',
                                 '        asm = {"ptx": sorted(root.rglob(f"{name}.ptx"))[0].read_text(), "ttgir": gir}',
                                 "tests/check/test_tritoncache.py::test_variants_group_by_kernel_and_specialisation")


def test_the_inductor_cache_check_counts_by_folder():
    """benchmarks/inductor_cache_check.py's comparison (its GPU run: scripts/gpu-run inductor-cache): a class member
    whose recorded bytes differ from its class's first is a wrong merge; unrecorded and nondeterministic members are
    not compared."""
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "inductor_cache_check.py"
    spec = importlib.util.spec_from_file_location("inductor_cache_check", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    record = {"A": {"digest": "x"}, "B": {"digest": "x"}, "C": {"digest": "y"}, "D": {"digest": None}}
    kernels = [{"kernel": "k", "variants": 5, "classes": [{"folders": ["/c/A", "/c/B", "/c/D", "/c/E"]},
                                                          {"folders": ["/c/C"]}]}]
    got = mod.compare(kernels, record)
    assert got["wrong_merges"] == 0 and got["compared"] == 3 and got["kernels"]["k"]["true_classes_compared"] == 2
    kernels[0]["classes"] = [{"folders": ["/c/A", "/c/C", "/c/B"]}]
    assert mod.compare(kernels, record)["wrong_merges"] == 1
    # a class over other grids (Inductor variants of other XBLOCK) is counted with its compared members
    kernels[0].update(launch_grids=True, classes=[{"folders": ["/c/A", "/c/B"], "members": ["A w=1 grid=8",
                                                                                            "B w=1 grid=4"]},
                                                  {"folders": ["/c/C"], "members": ["C w=2 grid=8"]}])
    got = mod.compare(kernels, record)
    assert (got["kernels_over_grids"], got["classes_over_grids"], got["compared_over_grids"]) == (1, 1, 2)
    # --dynamic: the members' digests at every later call are compared too
    record["A"]["sizes"], record["B"]["sizes"] = {"t37#1": "p", "t77#1": "q"}, {"t37#1": "p", "t77#1": "r"}
    got = mod.compare(kernels, record)
    assert got["wrong_merges"] == 1 and got["compared_calls"] == 4


_INDUCTOR_MODULE = '''
import triton
import triton.language as tl


def pointwise(**kwargs):   # torch._inductor.runtime.triton_heuristics.pointwise, as far as its module reads
    return lambda fn: fn


@pointwise(
    size_hints={'x': 4096},
    inductor_meta={'grid_type': '%s', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_relu_0'},
)
@triton.jit
def triton_poi_fused_relu_0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    # written under %s
    xnumel = 4096
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    tmp0 = tl.load(in_ptr0 + (xindex), xmask)
    tmp1 = tl.maximum(tmp0, 0.0) * 3.0
    tl.store(out_ptr0 + (xindex), tmp1, xmask)
'''


_INDUCTOR_ROW_SUM = '''
import triton
import triton.language as tl


def persistent_reduction(**kwargs):   # triton_heuristics.persistent_reduction, as far as its module reads
    return lambda fn: fn


@persistent_reduction(
    size_hints={'x': 64, 'r0_': 256},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_per_fused_sum_0'},
)
@triton.jit
def triton_per_fused_sum_0(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    # written under %s
    xnumel = 64
    r0_numel = 256
    R0_BLOCK: tl.constexpr = 256
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    tmp0 = tl.load(in_ptr0 + (r0_index + 256 * xindex), xmask, other=0.0)
    tmp1 = tl.sum(tmp0, 1)[:, None]
    tl.store(out_ptr0 + (xindex), tmp1, xmask)
'''


def inductor_row_sums(root, variants):
    """A cache folder of an Inductor persistent row sum (64 rows of 256) compiled at each (XBLOCK, num_warps)."""
    import importlib.util
    src = root / "crowsum.py"
    src.write_text(_INDUCTOR_ROW_SUM % root)
    spec = importlib.util.spec_from_file_location(f"crowsum_{abs(hash(str(root)))}", src)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    sig = {"in_ptr0": "*fp32", "out_ptr0": "*fp32", "xnumel": "i32", "r0_numel": "i32"}
    for xblock, w in variants:
        c = bitorder.compile(mod.triton_per_fused_sum_0, "sm90", signature=sig, constexprs={"XBLOCK": xblock},
                             num_warps=w, cache=False)
        _entry(root / "triton", f"X{xblock}w{w}", c, num_warps=w)


def inductor_cache(root, grid_type="Grid1D", blocks=(128, 256, 512), warps=(1, 4)):
    """A cache folder holding the variants TorchInductor would compile of a pointwise kernel written as Inductor
    writes one (its module beside them, as in Inductor's cache); returns the module's path."""
    import importlib.util
    src = root / "cinductor.py"
    # (the folder in a comment of the kernel's body: Triton keys its compile cache by the function's text, and a
    # compile of the same text from another test's module would name that module's path)
    src.write_text(_INDUCTOR_MODULE % (grid_type, root))
    spec = importlib.util.spec_from_file_location(f"cinductor_{abs(hash(str(root)))}", src)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    sig = {"in_ptr0": "*fp32", "out_ptr0": "*fp32", "xnumel": "i32"}
    for xblock in blocks:
        for w in warps:
            c = bitorder.compile(mod.triton_poi_fused_relu_0, "sm90", signature=sig, constexprs={"XBLOCK": xblock},
                                 num_warps=w, cache=False)
            _entry(root / "triton", f"X{xblock}w{w}", c, num_warps=w)
    return src


def test_inductor_variants_carry_the_grid_inductor_launches(tmp_path):
    """A Grid1D Inductor kernel's variants carry cdiv(xnumel, XBLOCK) (xnumel from its module, XBLOCK from each
    TTGIR, 1 where program_id(0) is not multiplied); another grid type, or a module gone from disk, gives none."""
    src = inductor_cache(tmp_path, blocks=(1, 256, 512), warps=(4,))
    groups, _ = tritoncache.read(tmp_path / "triton")
    (variants,) = groups.values()
    assert sorted(v.grid for v in variants) == [(8, 1, 1), (16, 1, 1), (4096, 1, 1)]
    assert sorted(v.member.split()[-1] for v in variants) == ["grid=16", "grid=4096", "grid=8"]
    # a cache copied to another machine: the module the TTGIR names is not at its path, but under the folder read
    copied = tmp_path / "copied"
    (copied / "ab").mkdir(parents=True)
    src.rename(copied / "ab" / src.name)
    (tmp_path / "triton").rename(copied / "triton")
    groups, _ = tritoncache.read(copied)
    assert sorted(v.grid[0] for v in next(iter(groups.values()))) == [8, 16, 4096]
    assert {v.grid for v in next(iter(tritoncache.read(copied / "triton")[0].values()))} == {None}   # not under it
    (copied / "ab" / src.name).unlink()
    assert {v.grid for v in next(iter(tritoncache.read(copied)[0].values()))} == {None}
    other = tmp_path / "grid2d"
    other.mkdir()
    inductor_cache(other, grid_type="Grid2D", blocks=(256,), warps=(4,))
    assert [v.grid for vs in tritoncache.read(other / "triton")[0].values() for v in vs] == [None]



def test_check_verb_classes_inductor_variants_over_their_grids(tmp_path):
    """`bitorder check DIR` on an Inductor kernel's variants: XBLOCK 128, 256 and 512 (grids 32, 16, 8) store the
    same elementwise trees, so over super-blocks they are one class; where the module declares another launch, each
    grid stays apart (no super-blocks: what one grid's variants store is all that is compared)."""
    import os
    import subprocess
    import sys
    for grid_type, want in (("Grid1D", [6]), ("Grid2D", [2, 2, 2])):
        root = tmp_path / grid_type
        root.mkdir()
        inductor_cache(root, grid_type=grid_type)
        out = root / "classes.json"
        env = dict(os.environ, BITORDER_CACHE_DIR=str(root / "bitorder"))
        p = subprocess.run([sys.executable, "-m", "bitorder", "check", str(root / "triton"), "--json", str(out),
                            "--jobs", "1", "--explain"], capture_output=True, text=True, env=env)
        assert p.returncode == 0, p.stdout + p.stderr
        (k,) = json.loads(out.read_text())["kernels"]
        assert sorted(len(c["members"]) for c in k["classes"]) == want and k["launch_grids"] == (grid_type == "Grid1D")
        assert ("classed over the grids TorchInductor launches" in " ".join(p.stdout.split())) == (want == [6])
        if want != [6]:   # XBLOCK variants without grids part where their programs store other elements
            assert all(c["vs_class_0"].startswith("output address") for c in k["classes"][1:]), k


def test_cache_classes_is_the_library_call_behind_the_check_verb(tmp_path):
    """check.cache_classes(folder) returns what `bitorder check DIR --json` prints, in this process (jobs=1) or in
    forked ones, and reports its progress variant by variant."""
    inductor_cache(tmp_path, blocks=(256, 512), warps=(1, 4))
    seen = []
    got = check.cache_classes(tmp_path / "triton", jobs=1, store=False, progress=lambda d, n: seen.append((d, n)))
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)] and got.jobs == 1 and got.unread == [] and got.skipped == []
    (k,) = got.kernels
    assert k["variants"] == 4 and k["launch_grids"] and [len(c["members"]) for c in k["classes"]] == [4]
    assert check.cache_classes(tmp_path / "triton", jobs=2, store=False).kernels == got.kernels
    assert check.cache_classes(tmp_path / "triton", kernel="other").kernels == []


def test_a_kernel_compiled_once_is_read_not_walked(tmp_path):
    """A kernel with one variant has nothing to compare: its PTX is parsed (so an unreadable one is still reported)
    but not walked, unless singles=True; the walks of a large Inductor cache are mostly such kernels."""
    inductor_cache(tmp_path, blocks=(256,), warps=(4,))
    (k,) = check.cache_classes(tmp_path / "triton", store=False).kernels
    assert k["variants"] == 1 and k["classes"][0]["signature"] is None
    assert k["classes"][0]["level"] == tritoncache.ONE_VARIANT
    (k,) = check.cache_classes(tmp_path / "triton", store=False, singles=True).kernels
    assert k["classes"][0]["signature"].startswith("v1:") and k["classes"][0]["level"].startswith("v1")


def test_xblock_is_read_off_the_values_named_xoffset():
    """XBLOCK as the TTGIR shows it: program_id(0) times a constant, widened to 64 bits first (Inductor's 64-bit
    indexing) or not, 1 where nothing multiplies it; any other value named xoffset is not read (no grid)."""
    pid = "    %xoffset = tt.get_program_id x : i32 loc(#loc1)\n"
    assert tritoncache._xblock(pid + "    %xoffset_1 = arith.muli %xoffset, %c256_i32 : i32 loc(#loc2)\n") == 256
    assert tritoncache._xblock(pid + "    %xoffset_0 = arith.extsi %xoffset : i32 to i64 loc(#loc2)\n"
                                     "    %xoffset_1 = arith.muli %xoffset_0, %c64_i64 : i64 loc(#loc2)\n") == 64
    assert tritoncache._xblock(pid + "    %tmp0 = arith.muli %xoffset, %c768_i32 : i32 loc(#loc2)\n") == 1
    assert tritoncache._xblock(pid + "    %xoffset_1 = arith.addi %xoffset, %c1_i32 : i32 loc(#loc2)\n") is None
    assert tritoncache._xblock(pid + "    %xoffset_1 = arith.muli %xoffset, %c8_i32 : i32 loc(#loc2)\n"
                                     "    %xoffset_2 = arith.muli %xoffset_1, %c2_i32 : i32 loc(#loc2)\n") is None


def test_inductor_row_sums_meet_across_grids_only_with_one_tree(tmp_path):
    """An Inductor persistent row sum (64 rows of 256) at several XBLOCK and num_warps: one warp a program sums each
    row in one tree whatever XBLOCK, so XBLOCK 2 and 4 with one warp meet over their grids (32 and 16 programs);
    every other variant sums in another order and stays apart (a known answer: mutant-inductor-cache-sblock's fault
    merges them, as the GPU run of 2026-12-05h found)."""
    inductor_row_sums(tmp_path, [(1, 1), (2, 2), (2, 1), (4, 4), (1, 4), (4, 1)])
    (k,) = check.cache_classes(tmp_path / "triton", store=False).kernels
    assert k["launch_grids"]
    assert sorted(sorted(m.split()[0] for m in c["members"]) for c in k["classes"]) == \
        [["X1w1"], ["X1w4"], ["X2w1", "X4w1"], ["X2w2"], ["X4w4"]]


def test_inductor_grid_planted_fault_merges_other_trees(tmp_path):
    """scripts/gpu-run mutant-inductor-cache-sblock's fault (a super-block class hashed without its trees), built from
    a copied tree: the row sums' known answer above fails."""
    from mutants import checker_test_fails_on_mutant
    from test_sblock import SBLOCK_FAULT   # (test_sblock checks scripts/gpu-run plants this very text)
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/signature.py", *SBLOCK_FAULT,
                                 "tests/check/test_tritoncache.py::test_inductor_row_sums_meet_across_grids_only_with_one_tree")


def test_the_inductor_cache_check_classes_a_copied_cache(tmp_path):
    """benchmarks/inductor_cache_check.py's copied(): `bitorder check` on a copy of the cache while the original is
    moved away still reads Inductor's grids (the modules found under the copy), and puts the original back."""
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "inductor_cache_check.py"
    spec = importlib.util.spec_from_file_location("inductor_cache_check", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    cache = tmp_path / "inductor"
    cache.mkdir()
    inductor_row_sums(cache, [(2, 1), (4, 1)])
    got = mod.copied(str(cache), str(tmp_path / "out.json"), {})
    assert got["check_exit"] == 0 and got["kernels_over_grids"] == 1 and got["classes_over_grids"] == 1
    assert (cache / "crowsum.py").is_file() and not (tmp_path / "inductor-away").exists()
