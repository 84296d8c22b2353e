"""What the fold tests share (test_const_fold.py, test_store_fold.py): whether compiled kernels kept their loops,
and a partition with one rule switch set."""
import pytest

from bitorder import check


def looped(*kernels) -> bool:
    """Whether every kernel still holds its loops (LLVM unrolls a short constant one: nothing to fold)."""
    return all("bra" in k.ptx for k in kernels)


def classes(kernels, module, switch: str, on: bool):
    """(partition, each kernel's level "v0"/"v1") with module.<switch> set to `on`."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(module, switch, on)
        return check.partition(kernels), [check.level(k)[:2] for k in kernels]
