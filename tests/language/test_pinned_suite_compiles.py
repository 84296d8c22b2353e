"""The GPU invariance suite's twelve kernels compile, pinned and free, for NVIDIA and AMD (no GPU)."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
torch = pytest.importorskip("torch")
import pinned_suite as ps  # noqa: E402

import bitorder  # noqa: E402

POINTERS = {"t_ptr": "*i32"}


@pytest.mark.parametrize("name", list(ps.CASES))
def test_suite_kernel_compiles(name):
    kernel, _, _, _, block_name, blocks, _, shapes = ps.CASES[name]
    args = kernel.arg_names
    sig = {a: POINTERS.get(a, "*fp32") for a in args if a.endswith("_ptr")}
    consts = dict(shapes)
    for a in args:  # sizes that are runtime arguments (not tl.constexpr) get a type instead
        if a in shapes and not kernel.params[args.index(a)].is_constexpr:
            sig[a] = "i32"
            consts.pop(a)
    for pinned in (True, False):
        for target in ("sm90", "gfx942"):
            c = bitorder.compile(kernel, target, signature=sig, num_warps=4,
                                 constexprs={**consts, block_name: blocks[0], "PINNED": pinned})
            assert c.asm
