"""The `bitorder` command on a machine with no GPU."""
import subprocess
import sys


def run(*args):
    return subprocess.run([sys.executable, "-m", "bitorder", *args], capture_output=True, text=True)


def test_report_without_gpu():
    p = run("report")
    assert p.returncode == 0, p.stdout + p.stderr
    for section in ("Environment", "Compile targets", "GEMMDesc", "sm90", "gfx942"):
        assert section in p.stdout
    assert "section failed" not in p.stdout


def test_compile_verb(tmp_path):
    src = tmp_path / "k.py"
    src.write_text("import triton\nimport triton.language as tl\n@triton.jit\n"
                   "def k(x_ptr, B: tl.constexpr):\n    tl.store(x_ptr + tl.arange(0, B), 1.0)\n")
    p = run("compile", f"{src}:k", "--sig", "x_ptr=*fp32", "--const", "B=64", "--emit", "ttgir")
    assert p.returncode == 0, p.stderr
    assert "tt.store" in p.stdout
    bad = run("compile", f"{src}:nope", "--sig", "x_ptr=*fp32")
    assert bad.returncode != 0 and "has no nope" in bad.stderr
