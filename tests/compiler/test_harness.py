"""The compile harness: PTX for sm90 and AMDGCN for gfx942 without a GPU, cached on disk."""
import pytest
import triton
import triton.language as tl

import bitorder
from bitorder.compiler import cache_dir, parse_target


@triton.jit
def scale(x_ptr, y_ptr, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * alpha, mask=offs < n)


SIG = {"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32", "alpha": "fp32"}


def test_sm90_ptx():
    c = bitorder.compile(scale, "sm90", signature=SIG, constexprs={"BLOCK": 256})
    assert c.asm_kind == "ptx" and ".target sm_90a" in c.ptx and "mul.f32" in c.ptx
    assert "ttg.num-warps" in c.ttgir and "define" in c.llir
    with pytest.raises(AttributeError):
        c.amdgcn


def test_gfx942_amdgcn():
    c = bitorder.compile(scale, "gfx942", signature=SIG, constexprs={"BLOCK": 256})
    assert c.asm_kind == "amdgcn" and "gfx942" in c.amdgcn and "v_mul_f32" in c.amdgcn


def test_cache_hit_and_key(tmp_path, monkeypatch):
    monkeypatch.setenv("BITORDER_CACHE_DIR", str(tmp_path))
    a = bitorder.compile(scale, "sm90", signature=SIG, constexprs={"BLOCK": 128}, num_warps=4)
    files = list(cache_dir().rglob("*.json"))
    assert len(files) == 1
    b = bitorder.compile(scale, "sm90", signature=SIG, constexprs={"BLOCK": 128}, num_warps=4)
    assert a == b and list(cache_dir().rglob("*.json")) == files
    # everything that changes the text changes the key
    bitorder.compile(scale, "sm90", signature=SIG, constexprs={"BLOCK": 128}, num_warps=2)
    bitorder.compile(scale, "sm90", signature=SIG, constexprs={"BLOCK": 128}, aligned=("x_ptr",))
    bitorder.compile(scale, "sm90", signature=SIG, constexprs={"BLOCK": 128}, enable_fp_fusion=False)
    assert len(list(cache_dir().rglob("*.json"))) == 4


def test_stage_hook_is_part_of_the_key(tmp_path, monkeypatch):
    monkeypatch.setenv("BITORDER_CACHE_DIR", str(tmp_path))
    bitorder.compile(scale, "sm90", signature=SIG, constexprs={"BLOCK": 64})

    def hook(backend, stages, options, language, capability):
        pass
    monkeypatch.setattr(triton.knobs.runtime, "add_stages_inspection_hook", hook)
    bitorder.compile(scale, "sm90", signature=SIG, constexprs={"BLOCK": 64})
    assert len(list(cache_dir().rglob("*.json"))) == 2


def test_aligned_specialisation_reaches_the_ir():
    c = bitorder.compile(scale, "sm90", signature=SIG, constexprs={"BLOCK": 256}, aligned=("x_ptr", "y_ptr"))
    assert "tt.divisibility = 16" in c.ttir


@pytest.mark.parametrize("name, backend, arch, warp", [
    ("sm90", "cuda", 90, 32), ("sm_90a", "cuda", 90, 32), ("sm80", "cuda", 80, 32),
    ("gfx942", "hip", "gfx942", 64), ("gfx90a", "hip", "gfx90a", 64), ("gfx1100", "hip", "gfx1100", 32)])
def test_parse_target(name, backend, arch, warp):
    t = parse_target(name)
    assert (t.backend, t.arch, t.warp_size) == (backend, arch, warp)


def test_clear_errors():
    with pytest.raises(ValueError, match="unknown target"):
        parse_target("h200")
    with pytest.raises(ValueError, match="no argument"):
        bitorder.compile(scale, "sm90", signature={**SIG, "z": "i32"}, constexprs={"BLOCK": 64})
    with pytest.raises(ValueError, match="give a signature type"):
        bitorder.compile(scale, "sm90", signature={"x_ptr": "*fp32"}, constexprs={"BLOCK": 64})
    with pytest.raises(TypeError, match="@triton.jit"):
        bitorder.compile(lambda: 0, "sm90", signature={})
    with pytest.raises(bitorder.CompileError, match="scale for sm90"):
        bitorder.compile(scale, "sm90", signature=SIG, constexprs={"BLOCK": 100})  # arange needs a power of 2
