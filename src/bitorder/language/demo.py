"""The pinned-reductions section of `bitorder report`."""
from __future__ import annotations

import re

from rich.table import Table


from ..compiler.demo import ROW_SUM_SIGNATURE, row_sum as _row_sum


def structure_table() -> Table:
    """The compiled tree of a 1024-element row sum, free and pinned, per target (no GPU needed)."""
    import bitorder
    t = Table("target", "mode", "reductions (axis extents)", "lane exchanges, in order", "add.rn.f32 | v_add_f32")
    for target in ("sm90", "gfx942"):
        for pinned in (False, True):
            c = bitorder.compile(_row_sum, target, signature=ROW_SUM_SIGNATURE,
                                 constexprs={"BLOCK": 1024, "PINNED": pinned}, num_warps=4)
            axes = re.findall(r'"tt\.reduce"\(%[^)]*\) <\{axis = (\d+) : i32\}>.*?\}\) : \(tensor<([0-9x]+)x',
                              c.ttgir, re.S)
            ext = [int(dims.split("x")[int(ax)]) for ax, dims in axes]
            if target == "sm90":
                offs = re.findall(r"shfl\.sync\.bfly\.b32\s+\S+, \S+, (\d+),", c.asm)
                lanes = ",".join(o for i, o in enumerate(offs) if i == 0 or o != offs[i - 1])
                adds = len(re.findall(r"add\.rn\.f32", c.asm))
            else:
                lanes = ",".join(re.findall(r"(row_shr:\d+|quad_perm:\[[\d,]+\]|SWAP,\d+)", c.asm)[:8])
                adds = c.asm.count("v_add_f32")
            t.add_row(target, "pinned" if pinned else "free", " ".join(map(str, ext)), lanes, str(adds))
    return t


def live_lines():
    """On a GPU: a row sum's bytes across num_warps, pinned against free."""
    import torch

    from ..emulate import pinned_sum
    x = torch.randn(256, 1000, device="cuda") * torch.exp2(torch.randint(-10, 11, (256, 1000), device="cuda").float())
    out = {}
    for pinned in (False, True):
        for w in (1, 2, 4, 8):
            y = torch.empty(256, device="cuda")
            _row_sum[(256,)](x, y, 1000, BLOCK=1024, PINNED=pinned, num_warps=w)
            out.setdefault(pinned, set()).add(bytes(y.view(torch.int32).cpu().numpy()))
    padded = torch.zeros(256, 1024, device="cuda")
    padded[:, :1000] = x
    ref = pinned_sum(padded.cpu().numpy(), 1)
    same_ref = bytes(ref.view("int32")) in out[True]
    return [f"free-order tl.sum: {len(out[False])} byte patterns over num_warps 1,2,4,8",
            f"pinned tl.sum: {len(out[True])} byte pattern(s); equal to bitorder.emulate.pinned_sum: {same_ref}"]
