"""The checker section of `bitorder report`: the partition of a built-in autotune space."""
from __future__ import annotations

import itertools

from rich.table import Table


def partition_table() -> Table:
    """The row sum over num_warps x num_stages x pinned, compiled for sm90 and classed."""
    import bitorder
    from bitorder import check
    from bitorder.compiler.demo import ROW_SUM_SIGNATURE, row_sum

    configs = list(itertools.product((1, 2, 4, 8), (1, 3), (False, True)))
    ptx = [bitorder.compile(row_sum, "sm90", signature=ROW_SUM_SIGNATURE, constexprs={"BLOCK": 1024, "PINNED": p},
                            num_warps=w, num_stages=s).ptx for w, s, p in configs]
    classes = check.partition(ptx)
    t = Table("class", "level", "members (num_warps, num_stages, pinned)",
              title=f"row sum, {len(configs)} configurations -> {len(classes)} classes")
    for i, members in enumerate(classes):
        t.add_row(str(i), check.level(ptx[members[0]])[:2], ", ".join(str(configs[m]) for m in members))
    return t
