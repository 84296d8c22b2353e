"""Pinned reductions compiled without a GPU: the chain of size-2 reductions, unfusable adds,
count-up butterflies, for NVIDIA and AMD; and the CPU reference."""
import re

import numpy as np
import pytest
import triton
import triton.language as tl
from hypothesis import given, settings, strategies as st

import bitorder
from bitorder.emulate import pinned_reduce, pinned_sum


from bitorder.compiler.demo import ROW_SUM_SIGNATURE as SIG, row_sum  # noqa: E402


@triton.jit
def col_sum_products(a_ptr, b_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.program_id(0) * BN + tl.arange(0, BN)
    a = tl.load(a_ptr + rm[:, None] * N + rn[None, :])
    b = tl.load(b_ptr + rm[:, None] * N + rn[None, :])
    tl.store(y_ptr + rn, (a * b).sum(0, pinned=True))


@triton.jit
def _max(a, b):
    return tl.maximum(a, b)


@triton.jit
def cube(x_ptr, y_ptr, z_ptr, w_ptr, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    i = tl.arange(0, A)[:, None, None] * B * C + tl.arange(0, B)[None, :, None] * C + tl.arange(0, C)[None, None, :]
    x = tl.load(x_ptr + i)
    tl.store(y_ptr + tl.arange(0, A), tl.reduce(tl.reduce(x, 2, _max, pinned=True), 1, _max, pinned=True))
    s = tl.sum(x, axis=None, pinned=True, keep_dims=True)
    tl.store(z_ptr + tl.arange(0, 1)[:, None, None], s)
    tl.store(w_ptr + tl.arange(0, A)[:, None] * C + tl.arange(0, C)[None, :], x.sum(1, pinned=True))




def reduce_axes(ttgir):
    """(extent of the reduced axis) for every tt.reduce in a TTGIR module."""
    out = []
    for m in re.finditer(r'"tt\.reduce"\(%[^)]*\) <\{axis = (\d+) : i32\}>.*?\}\) : \(tensor<([0-9x]+)x',
                         ttgir, re.S):
        out.append(int(m.group(2).split("x")[int(m.group(1))]))
    return out


@pytest.mark.parametrize("warps", [1, 2, 4, 8])
@pytest.mark.parametrize("block", [64, 1024, 4096])
def test_row_sum_is_a_chain_of_size_two_reductions(warps, block):
    c = bitorder.compile(row_sum, "sm90", signature=SIG, constexprs={"BLOCK": block, "PINNED": True}, num_warps=warps)
    axes = reduce_axes(c.ttgir)
    assert axes == [2] * int(np.log2(block)), axes
    assert "can_reorder" not in c.ttgir          # every reshape keeps the elements where they are
    assert re.search(r"add\.rn\.f32", c.ptx)      # the adds cannot be contracted
    offs = [int(o) for o in re.findall(r"shfl\.sync\.bfly\.b32\s+\S+, \S+, (\d+),", c.ptx)]
    lanes = [o for i, o in enumerate(offs) if i == 0 or o != offs[i - 1]]
    if lanes:  # within a warp the butterfly counts up: neighbouring lanes pair first
        first_run = lanes[:lanes.index(max(lanes)) + 1]
        assert first_run == sorted(first_run) and first_run[0] == 1, lanes


def test_free_order_is_untouched():
    c = bitorder.compile(row_sum, "sm90", signature=SIG, constexprs={"BLOCK": 1024, "PINNED": False}, num_warps=4)
    assert reduce_axes(c.ttgir) == [1024] and "add.rn.f32" not in c.ptx
    offs = re.findall(r"shfl\.sync\.bfly\.b32\s+\S+, \S+, (\d+),", c.ptx)
    assert offs[:5] == ["16", "8", "4", "2", "1"]   # Triton's own count-down butterfly


def test_products_are_never_contracted_into_the_tree():
    sig = {"a_ptr": "*fp32", "b_ptr": "*fp32", "y_ptr": "*fp32", "M": "i32", "N": "i32"}
    for fusion in (True, False):
        c = bitorder.compile(col_sum_products, "sm90", signature=sig, constexprs={"BM": 64, "BN": 32},
                             enable_fp_fusion=fusion)
        assert not re.search(r"\bfma\.rn\.f32", c.ptx), "a product was fused into a pinned add"


def test_reduce_keep_dims_axis_none_and_user_combine_compile_for_both_vendors():
    sig = {"x_ptr": "*fp32", "y_ptr": "*fp32", "z_ptr": "*fp32", "w_ptr": "*fp32"}
    for target in ("sm90", "gfx942", "gfx90a"):
        c = bitorder.compile(cube, target, signature=sig, constexprs={"A": 4, "B": 8, "C": 16})
        assert c.asm
    amd = bitorder.compile(row_sum, "gfx942", signature=SIG, constexprs={"BLOCK": 1024, "PINNED": True})
    assert "v_add_f32" in amd.amdgcn and reduce_axes(amd.ttgir) == [2] * 10


def test_non_power_of_two_is_refused():
    with pytest.raises(ValueError, match="power-of-two"):
        pinned_sum(np.ones(6, np.float32))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 5), st.integers(0, 2**31 - 1))
def test_reference_is_the_neighbours_first_tree(log_n, seed):
    x = np.random.default_rng(seed).standard_normal(2 ** log_n).astype(np.float32) * 1e3
    ref = pinned_sum(x)
    tree = list(x)
    while len(tree) > 1:
        tree = [np.float32(tree[i] + tree[i + 1]) for i in range(0, len(tree), 2)]
    assert ref.tobytes() == np.float32(tree[0]).tobytes()


def test_reference_axes_and_keep_dims():
    x = np.arange(64, dtype=np.float32).reshape(4, 4, 4)
    assert pinned_sum(x, 1).shape == (4, 4) and pinned_sum(x, None, keep_dims=True).shape == (1, 1, 1)
    assert pinned_reduce(x, 2, np.maximum).tolist() == x.max(2).tolist()
    assert pinned_sum(np.ones(8, np.int8)).dtype == np.int32


def _interpret(script, tmp_path=None, mutate=None):
    import os
    import subprocess
    import sys
    here = os.path.dirname(__file__)
    if mutate is None:
        env = dict(os.environ, TRITON_INTERPRET="1")
        return subprocess.run([sys.executable, os.path.join(here, script)], env=env, capture_output=True,
                              text=True, timeout=600), None
    sys.path.insert(0, os.path.dirname(here))
    from mutants import run_on_mutant
    return run_on_mutant(tmp_path, *mutate, [f"tests/language/{script}"], env={"TRITON_INTERPRET": "1"})


def test_interpreted_pinned_sums_equal_the_reference_bit_for_bit():
    p, _ = _interpret("interpret_pinned.py")
    assert p.returncode == 0 and "\n0 failures" in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]


def test_planted_fault_pairing_far_elements_fails(tmp_path):
    """A copied tree whose fold pairs elements n/2 apart (the levels swapped end for end) still
    runs, and gives other bits than the neighbours-first reference: the gate fails on them."""
    p, copy = _interpret("interpret_pinned.py", tmp_path, (
        "src/bitorder/language/pinned.py",
        ["s[axis:axis + 1] = [s[axis] // 2, 2]", "y = tl.reduce(y, AX + 1, combine_fn)"],
        ["s[axis:axis + 1] = [2, s[axis] // 2]", "y = tl.reduce(y, AX, combine_fn)"]))
    assert f"bitorder from {copy}" in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]
    assert p.returncode != 0 and "FAIL" in p.stdout and "Error" not in p.stdout + p.stderr, p.stdout[-1500:]


def test_pin_all_pins_plain_sums_and_keeps_its_own_caches():
    base_dir = triton.knobs.cache.dir
    plain = bitorder.compile(row_sum, "sm90", signature=SIG, constexprs={"BLOCK": 256, "PINNED": False})
    with bitorder.pin_all():
        assert triton.knobs.cache.dir.endswith("pinned-all")
        pinned = bitorder.compile(row_sum, "sm90", signature=SIG, constexprs={"BLOCK": 256, "PINNED": False})
    assert triton.knobs.cache.dir == base_dir
    again = bitorder.compile(row_sum, "sm90", signature=SIG, constexprs={"BLOCK": 256, "PINNED": False})
    assert reduce_axes(plain.ttgir) == [256] and reduce_axes(again.ttgir) == [256]
    assert reduce_axes(pinned.ttgir) == [2] * 8


@triton.jit
def sum_squares(x_ptr, y_ptr, BM: tl.constexpr, BN: tl.constexpr):
    """TorchInductor's rmsnorm shape: a plain tl.sum of products (no pinned=)."""
    x = tl.load(x_ptr + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :])
    tl.store(y_ptr + tl.arange(0, BM), tl.sum(x * x, 1))


def test_pin_all_pins_plain_sums_of_products_with_unfusable_adds():
    """Under pin_all, Triton's own sums (what TorchInductor writes) take the pinned tree and its
    explicitly rounded adds, so no product is contracted into one side of a pair."""
    sig = {"x_ptr": "*fp32", "y_ptr": "*fp32"}
    with bitorder.pin_all():
        c = bitorder.compile(sum_squares, "sm90", signature=sig, constexprs={"BM": 4, "BN": 256}, num_warps=4)
    assert reduce_axes(c.ttgir) == [2] * 8
    assert "add.rn.f32" in c.ptx and not re.search(r"\bfma\.rn\.f32", c.ptx)
