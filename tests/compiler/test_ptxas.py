"""bitorder.compiler.ptxas reads ptxas's resource report for a kernel compiled without a GPU."""
import triton
import triton.language as tl

import bitorder
from bitorder.compiler import ptxas


@triton.jit
def _copy(x_ptr, y_ptr, BLOCK: tl.constexpr):
    i = tl.arange(0, BLOCK)
    tl.store(y_ptr + i, tl.load(x_ptr + i) * 2.0)


def test_a_small_kernel_reports_registers_and_no_spills():
    c = bitorder.compile(_copy, "sm90", signature={"x_ptr": "*fp32", "y_ptr": "*fp32"}, constexprs={"BLOCK": 128})
    r = ptxas.report(c.ptx)
    assert 0 < r.registers < 64 and r.spill_stores == 0 and r.spill_loads == 0
    assert not r.wgmma_serialized and "Used" in r.text
