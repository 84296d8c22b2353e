"""The `bitorder` command on a machine with no GPU."""
import subprocess
import sys


def run(*args):
    return subprocess.run([sys.executable, "-m", "bitorder", *args], capture_output=True, text=True)


def test_report_without_gpu():
    p = run("report")
    assert p.returncode == 0, p.stdout + p.stderr
    for section in ("Environment", "Compile targets", "GEMMDesc", "sm90", "gfx942", "cuBLAS-exact GEMM", "arch profile", "Pinned reductions"):
        assert section in p.stdout
    assert "section failed" not in p.stdout
    # the fp8 line is read off the profile (its e4m3 entries verified by the 2026-12-04 gate)
    assert "verified entries nvjet-fp8" in " ".join(p.stdout.split()), p.stdout


def test_compile_verb(tmp_path):
    src = tmp_path / "k.py"
    src.write_text("import triton\nimport triton.language as tl\n@triton.jit\n"
                   "def k(x_ptr, B: tl.constexpr):\n    tl.store(x_ptr + tl.arange(0, B), 1.0)\n")
    p = run("compile", f"{src}:k", "--sig", "x_ptr=*fp32", "--const", "B=64", "--emit", "ttgir")
    assert p.returncode == 0, p.stderr
    assert "tt.store" in p.stdout
    bad = run("compile", f"{src}:nope", "--sig", "x_ptr=*fp32")
    assert bad.returncode != 0 and "has no nope" in bad.stderr


def test_probe_verify_and_fit_on_simulated_records(tmp_path):
    import gzip
    import json

    from bitorder.cublas.prober import rule_desc, simulate_record
    rule = {"instruction_k": 16, "k_tail": "last", "k_step": None, "family": "split_k", "granule": 64,
            "round": "ceil", "partial": "fp32", "merge_order": "sequential", "bias": "bias_acc"}
    path = tmp_path / "records.jsonl.gz"
    with gzip.open(path, "wt") as f:
        for i, (m, k, s) in enumerate(((16, 300, 2), (20, 450, 3))):
            answer = {"algo_id": 66, "stages": "64xAUTO", "split_k": s, "reduction_scheme": 2, "tile": "64x8"}
            case = {"op": "mm", "dtype": "fp16", "m": m, "n": 24, "k": k, "batch": 1, "layout": "nn"}
            f.write(json.dumps(simulate_record(case, i, answer, lambda kk, a=answer: rule_desc(rule, a, kk, "fp16", False))) + "\n")
    p = run("probe", "verify", str(path))
    assert p.returncode == 0, p.stdout + p.stderr
    assert "nvjet-splitk-fp32-partials" in p.stdout and "reproduced" in p.stdout
    out = tmp_path / "fit.json"
    p = run("probe", "fit", str(path), "--out", str(out))
    assert p.returncode == 0, p.stdout + p.stderr
    fitted = json.loads(out.read_text())
    assert fitted[0]["survivors"] and all(r["granule"] == 64 for r in fitted[0]["survivors"])


def test_check_verb_classes_a_kernels_configurations(tmp_path):
    src = tmp_path / "k.py"
    src.write_text("import triton\nimport triton.language as tl\n@triton.jit\n"
                   "def k(x_ptr, y_ptr, n, B: tl.constexpr):\n    o = tl.program_id(0) * B + tl.arange(0, B)\n"
                   "    tl.store(y_ptr + o, tl.load(x_ptr + o, mask=o < n) * 2, mask=o < n)\n")
    p = run("check", f"{src}:k", "--sig", "x_ptr=*fp16", "y_ptr=*fp16", "n=i32", "--const", "B=512",
            "--warps", "1", "8", "--aligned", "x_ptr", "y_ptr", "n")
    assert p.returncode == 0, p.stderr
    assert "warps=1" in p.stdout and "warps=8" in p.stdout and "the same dependence tree" in p.stdout
    assert "not 16-byte aligned" not in p.stdout      # every pointer given as aligned: no note


def test_check_verb_reports_what_does_not_compile_and_writes_json(tmp_path):
    import json
    src = tmp_path / "k.py"
    src.write_text("import triton\nimport triton.language as tl\n@triton.jit\n"
                   "def k(x_ptr, y_ptr, n, B: tl.constexpr):\n    o = tl.program_id(0) * B + tl.arange(0, B)\n"
                   "    tl.store(y_ptr + o, tl.load(x_ptr + o, mask=o < n) + 1, mask=o < n)\n")
    out = tmp_path / "classes.json"
    # B=100 is not a power of two: Triton refuses that configuration; the others are still classed
    p = run("check", f"{src}:k", "--sig", "x_ptr=*fp32", "y_ptr=*fp32", "n=i32", "--space", "B=256,100",
            "--warps", "1", "2", "--json", str(out))
    assert p.returncode == 1, p.stdout + p.stderr
    assert "did not compile" in p.stdout and "B=100" in p.stdout
    got = json.loads(out.read_text())
    assert sorted(m for c in got["classes"] for m in c["members"]) == ["warps=1 stages=3 B=256", "warps=2 stages=3 B=256"]
    assert all(c["level"].startswith(("v1", "v0")) for c in got["classes"])
    assert len(got["failed"]) == 2 and all("B=100" in f["config"] for f in got["failed"])
    # the table says what was classed and what it cost: Triton's compile (wall) and the checker (CPU)
    text = " ".join(p.stdout.split())
    assert f"2 configurations -> {len(got['classes'])} class" in text, p.stdout
    assert "compiled in" in text and "classed in" in text and "a CPU-second" in text, p.stdout
    assert got["seconds"]["compile_wall"] > 0 and got["seconds"]["classify_cpu"] >= 0


def test_check_verb_clear_errors(tmp_path):
    p = run("check", str(tmp_path / "missing.ptx"))
    assert p.returncode != 0 and "cannot read" in p.stderr
    bad = tmp_path / "bad.ptx"
    bad.write_text(".visible .entry k() {\n  ret;\n")
    p = run("check", str(bad))
    assert p.returncode != 0 and "not PTX the checker reads" in p.stderr, p.stdout + p.stderr
    p = run("check", f"{tmp_path}/k.py:k", "--target", "gfx942")
    assert p.returncode != 0 and "does not read yet" in p.stderr, p.stdout + p.stderr


def test_check_verb_clear_errors_for_kernels(tmp_path):
    """A kernel that cannot be loaded or compiled at all: one clear line, no traceback."""
    p = run("check", f"{tmp_path}/nofile.py:k")
    assert p.returncode != 0 and "no file" in p.stderr and "Traceback" not in p.stderr, p.stderr
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "k.py").write_text("from . import helpers\n")
    p = run("check", f"{pkg}/k.py:k")
    assert p.returncode != 0 and "MODULE:FUNCTION" in p.stderr and "Traceback" not in p.stderr, p.stderr
    src = tmp_path / "k.py"
    src.write_text("import triton\nimport triton.language as tl\ndef plain(x):\n    return x\n"
                   "@triton.autotune(configs=[triton.Config({}, num_warps=1)], key=[])\n@triton.jit\n"
                   "def k(x_ptr, B: tl.constexpr):\n    tl.store(x_ptr + tl.arange(0, B), 1.0)\n")
    p = run("check", f"{src}:plain")
    assert p.returncode != 0 and "not a @triton.jit function" in p.stderr and "Traceback" not in p.stderr, p.stderr
    # every configuration fails for one reason (an argument with no type): said once, not once per configuration
    out = tmp_path / "classes.json"
    p = run("check", f"{src}:k", "--const", "B=64", "--warps", "1", "2", "--json", str(out))
    assert p.returncode != 0 and "no configuration compiled" in p.stderr and "x_ptr" in p.stderr, p.stdout + p.stderr
    import json
    got = json.loads(out.read_text())   # the JSON still written: no class, both configurations failed
    assert got["classes"] == [] and [f["config"] for f in got["failed"]] == ["warps=1 stages=3", "warps=2 stages=3"]
    # the autotuned kernel's function itself is classed
    p = run("check", f"{src}:k", "--sig", "x_ptr=*fp32", "--const", "B=64", "--warps", "1", "2")
    assert p.returncode == 0 and "warps=1" in p.stdout and "warps=2" in p.stdout, p.stdout + p.stderr
    # a constexpr @triton.heuristics computes at launch: the error says to give it
    src.write_text("import triton\nimport triton.language as tl\n"
                   "@triton.heuristics({'B': lambda a: 64})\n@triton.jit\n"
                   "def k(x_ptr, B: tl.constexpr):\n    tl.store(x_ptr + tl.arange(0, B), 1.0)\n")
    p = run("check", f"{src}:k", "--sig", "x_ptr=*fp32")
    assert p.returncode != 0 and "set by @triton.heuristics" in p.stderr and "B=VALUE" in p.stderr, p.stderr


def test_check_verb_reads_an_autotuned_kernels_own_configurations(tmp_path):
    """`bitorder check FILE.py:fn` of an @triton.autotune kernel compiles the decorator's configurations (their
    constexprs, num_warps, num_stages, maxnreg) when no --warps, --stages or --space is given; those flags replace
    them."""
    import json
    src = tmp_path / "k.py"
    src.write_text("import triton\nimport triton.language as tl\n"
                   "@triton.autotune(configs=[triton.Config({'B': 256}, num_warps=1),\n"
                   "                          triton.Config({'B': 256}, num_warps=2, maxnreg=64),\n"
                   "                          triton.Config({'B': 1024}, num_warps=4, num_stages=2)], key=['n'])\n"
                   "@triton.jit\ndef k(x_ptr, y_ptr, n, B: tl.constexpr):\n    o = tl.arange(0, B)\n"
                   "    tl.store(y_ptr + tl.program_id(0), tl.sum(tl.load(x_ptr + o, mask=o < n, other=0.0), 0))\n")
    out = tmp_path / "classes.json"
    p = run("check", f"{src}:k", "--sig", "x_ptr=*fp32", "y_ptr=*fp32", "n=i32", "--json", str(out))
    assert p.returncode == 0, p.stdout + p.stderr
    assert "3 autotune configurations" in " ".join(p.stdout.split()), p.stdout
    # the pointers were not given as aligned: the output says which launch its classes are for
    assert "classed as compiled for x_ptr, y_ptr not 16-byte aligned" in " ".join(p.stdout.split()), p.stdout
    members = sorted(m for c in json.loads(out.read_text())["classes"] for m in c["members"])
    assert members == ["warps=1 stages=3 B=256", "warps=2 stages=3 maxnreg=64 B=256", "warps=4 stages=2 B=1024"]
    p = run("check", f"{src}:k", "--sig", "x_ptr=*fp32", "y_ptr=*fp32", "n=i32", "--const", "B=512", "--warps", "8",
            "--json", str(out))
    assert p.returncode == 0 and "1 configuration ->" in " ".join(p.stdout.split()), p.stdout + p.stderr
    assert [c["members"] for c in json.loads(out.read_text())["classes"]] == [["warps=8 stages=3"]]


def test_check_verb_compiles_in_parallel_with_the_same_answer(tmp_path):
    """--jobs 2 (forked workers) gives --jobs 1's classes, members in the same order, failures included."""
    import json
    src = tmp_path / "k.py"
    src.write_text("import triton\nimport triton.language as tl\n@triton.jit\n"
                   "def k(x_ptr, y_ptr, n, B: tl.constexpr):\n    o = tl.arange(0, B)\n"
                   "    tl.store(y_ptr + tl.program_id(0), tl.sum(tl.load(x_ptr + o, mask=o < n, other=0.0), 0))\n")
    got = []
    for jobs in ("1", "2"):
        out = tmp_path / f"classes{jobs}.json"
        p = run("check", f"{src}:k", "--sig", "x_ptr=*fp32", "y_ptr=*fp32", "n=i32", "--space", "B=256,100,512",
                "--warps", "1", "2", "--jobs", jobs, "--json", str(out))
        assert p.returncode == 1 and "did not compile" in p.stdout, p.stdout + p.stderr   # B=100: not a power of 2
        d = json.loads(out.read_text())
        got.append((d["classes"], d["failed"]))
    assert got[0] == got[1] and len(got[0][0]) == 4 and len(got[0][1]) == 2


def test_check_verb_explains_where_each_class_parts_from_the_first(tmp_path):
    import json
    src = tmp_path / "k.py"
    src.write_text("import triton\nimport triton.language as tl\n@triton.jit\n"
                   "def k(x_ptr, y_ptr, B: tl.constexpr):\n    o = tl.arange(0, B)\n"
                   "    tl.store(y_ptr + tl.program_id(0), tl.sum(tl.load(x_ptr + o), 0))\n")
    out = tmp_path / "classes.json"
    p = run("check", f"{src}:k", "--sig", "x_ptr=*fp32", "y_ptr=*fp32", "--const", "B=1024", "--warps", "1", "4",
            "--explain", "--json", str(out))
    assert p.returncode == 0, p.stdout + p.stderr
    text = " ".join(p.stdout.split())
    assert "class 1 vs class 0 (warps=4 stages=3 vs warps=1 stages=3)" in text and "the trees differ" in text, text
    rows = json.loads(out.read_text())["classes"]
    assert "vs_class_0" not in rows[0] and "the trees differ" in rows[1]["vs_class_0"]


def test_check_verb_reads_the_ttgir_beside_a_ptx_file(tmp_path):
    """X.ptx with X.ttgir beside it (Triton's cache keeps them so) is classed as the compiled kernel is: with the
    arguments its code assumed multiples of 16 (the TTGIR's tt.divisibility), not as bare text."""
    import json

    import bitorder
    from bitorder import check
    from bitorder.compiler.demo import ROW_SUM_SIGNATURE, row_sum
    c = bitorder.compile(row_sum, "sm90", signature=ROW_SUM_SIGNATURE, constexprs={"BLOCK": 1024},
                         aligned=list(ROW_SUM_SIGNATURE), num_warps=4)
    assert check.divisible_params(c) and check.signature(c) != check.signature(c.ptx)   # the TTGIR tells more
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "row_sum.ptx").write_text(c.ptx)
    (tmp_path / "a" / "row_sum.ttgir").write_text(c.ttgir)
    out = tmp_path / "classes.json"
    p = run("check", str(tmp_path / "a" / "row_sum.ptx"), "--json", str(out))
    assert p.returncode == 0, p.stdout + p.stderr
    assert json.loads(out.read_text())["classes"][0]["signature"] == check.signature(c)


def test_check_verb_classes_each_kernel_of_a_triton_cache(tmp_path):
    """`bitorder check DIR` over the cache Triton itself wrote: a kernel's variants grouped and classed as
    `bitorder check FILE.py:FN` classes them; an AMD compile (no PTX) is skipped and said; --kernel selects."""
    import json
    import os
    src = tmp_path / "k.py"
    src.write_text("import triton\nimport triton.language as tl\n@triton.jit\n"
                   "def k(x_ptr, y_ptr, n, B: tl.constexpr):\n    o = tl.arange(0, B)\n"
                   "    tl.store(y_ptr + tl.program_id(0), tl.sum(tl.load(x_ptr + o, mask=o < n, other=0.0), 0))\n")
    cache = tmp_path / "triton"
    env = dict(os.environ, TRITON_CACHE_DIR=str(cache), BITORDER_CACHE_DIR=str(tmp_path / "bitorder"))
    direct = tmp_path / "direct.json"
    p = subprocess.run([sys.executable, "-m", "bitorder", "check", f"{src}:k", "--sig", "x_ptr=*fp32", "y_ptr=*fp32",
                        "n=i32", "--space", "B=256,512", "--warps", "1", "2", "--stages", "1", "3", "--jobs", "1",
                        "--json", str(direct)], capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stdout + p.stderr
    amd = cache / "AMDFOLDER"
    amd.mkdir()
    (amd / "k.json").write_text(json.dumps({"name": "k", "num_warps": 4, "target": {"backend": "hip"}}))
    out = tmp_path / "cache.json"
    p = run("check", str(cache), "--json", str(out))
    assert p.returncode == 0, p.stdout + p.stderr
    d = json.loads(out.read_text())
    assert len(d["kernels"]) == 1 and d["kernels"][0]["variants"] == 8
    assert f"{src}:4" in d["kernels"][0]["kernel"] and "x_ptr *f32" in d["kernels"][0]["kernel"]
    want = json.loads(direct.read_text())["classes"]
    assert sorted(c["signature"] for c in d["kernels"][0]["classes"]) == sorted(c["signature"] for c in want)
    assert sorted(len(c["members"]) for c in d["kernels"][0]["classes"]) == sorted(len(c["members"]) for c in want)
    assert [s["folder"] for s in d["skipped"]] == [str(amd)] and "no PTX" in p.stdout
    assert "8 compiled variants" in p.stdout
    p = run("check", str(cache), "--kernel", "other")
    assert p.returncode == 1 and "no compiled kernel named 'other'" in p.stderr


def test_check_verb_on_a_cache_names_a_kernel_it_cannot_read(tmp_path):
    """A cache entry whose PTX is cut short is listed as not read (exit 1); the cache's other kernels are classed."""
    import json

    from bitorder.compiler.demo import ROW_SUM_SIGNATURE, row_sum

    import bitorder
    c = bitorder.compile(row_sum, "sm90", signature=ROW_SUM_SIGNATURE, constexprs={"BLOCK": 256}, num_warps=4)
    for folder, name, ptx in (("good", c.name, c.ptx), ("cut", "cut_" + c.name, c.ptx[:c.ptx.index(".entry") + 40])):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / f"{name}.ptx").write_text(ptx)
        (tmp_path / folder / f"{name}.json").write_text(json.dumps({"name": name, "num_warps": 4,
                                                                   "target": {"backend": "cuda", "arch": 90}}))
    out = tmp_path / "classes.json"
    p = run("check", str(tmp_path), "--json", str(out))
    assert p.returncode == 1 and "not read" in p.stdout and f"cut_{c.name}" in p.stdout, p.stdout + p.stderr
    d = json.loads(out.read_text())
    assert [k["kernel"].split()[0] for k in d["kernels"]] == [c.name] and len(d["unread"]) == 1


def test_check_verb_classes_over_launch_grids(tmp_path):
    """--grid: configurations whose grids differ in x alone are classed over super-blocks, so ROWS 1, 2 and 4 with
    one warp a row meet (their grids 512, 256, 128 programs); a grid expression naming nothing known is an error."""
    import json
    common = ["check", "bitorder.compiler.demo:rows_sum", "--sig", "x_ptr=*fp32", "y_ptr=*fp32", "n_rows=i32",
              "--aligned", "x_ptr", "y_ptr", "--const", "COLS=128", "--space", "ROWS=1,2,4", "--warps", "1", "4"]
    out = tmp_path / "classes.json"
    p = run(*common, "--grid", "cdiv(n_rows, ROWS)", "--launch", "n_rows=512", "--json", str(out))
    assert p.returncode == 0, p.stdout + p.stderr
    classes = [sorted(c["members"]) for c in json.loads(out.read_text())["classes"]]
    assert ["warps=1 stages=3 ROWS=1 grid=512", "warps=1 stages=3 ROWS=2 grid=256", "warps=1 stages=3 ROWS=4 grid=128",
            "warps=4 stages=3 ROWS=4 grid=128"] in classes and len(classes) == 3
    p = run(*common, "--json", str(out))      # without --grid each grid is apart
    assert p.returncode == 0 and len(json.loads(out.read_text())["classes"]) == 5   # (ROWS 4 alone merges)
    p = run(*common, "--grid", "cdiv(m, ROWS)", "--launch", "n_rows=512")
    assert p.returncode == 1 and "NameError" in p.stderr and "--launch" in p.stderr
    p = run(*common, "--launch", "n_rows=512")
    assert p.returncode == 1 and "give --grid too" in p.stderr
    p = run("check", str(tmp_path), "--grid", "1")
    assert p.returncode == 1 and "cache folder" in p.stderr
    (tmp_path / "loose").mkdir()
    (tmp_path / "loose" / "a.ptx").write_text(".version 8.0\n")
    p = run("check", str(tmp_path / "loose"))      # PTX files with no metadata: said how to give them
    assert p.returncode == 1 and "1 PTX file without Triton's metadata" in p.stderr and "loose/*.ptx" in p.stderr
