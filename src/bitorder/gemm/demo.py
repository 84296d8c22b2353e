"""The GEMM section of `bitorder report`: the arch profile, and on a GPU a live sample."""
from __future__ import annotations

import time

from rich.table import Table


def profile_table() -> Table:
    from ..cublas.profile import ArchProfile

    p = ArchProfile.load()
    t = Table("entry", "matches", "descriptor template", "bias", title=f"arch profile {p.arch} / cuBLAS {p.cublas}")
    for e in p.entries:
        match = ", ".join(f"{k}={v}" for k, v in e.match.items())
        d = e.desc
        tmpl = f"{d['family']} {d['instruction']}.k{d['instruction_k']}"
        if d.get("k_tail") == "first":
            tmpl += f" tail=first/{d['k_step']}"
        if e.span and e.span["rule"] == "tiles":
            tmpl += f" tiles of {e.span['tile']} dealt to the s parts in turn"
        elif e.span:
            tmpl += f" span=round_up(ceil(K/s),{e.span['granule']})"
        if d.get("partial_dtype"):
            tmpl += f" partials={d['partial_dtype']} merge={d['merge_order']}"
        if e.fp8:
            tmpl += f" promote/{e.fp8['promotion_slow']} (slow accum) {'+'.join(e.fp8['scale'])}"
        t.add_row(e.name if e.verified else f"{e.name} (not verified)", match, tmpl, e.bias)
    return t


LIVE_SHAPES = [(4096, 4096, 4096, "nt"), (8, 4096, 14336, "nt"), (777, 513, 1999, "nn"), (1, 4096, 4096, "nt"),
               (64, 64, 65536, "tn"), (1147, 839, 848, "tt"), (1, 1, 100000, "nn")]


def live_table() -> Table:
    """A handful of shapes through bitorder.matmul on this GPU: bytes equal to torch.matmul or not."""
    import torch

    from ..draws import torch_draw
    from . import api

    t = Table("M x N x K", "layout", "dtype", "identical", "path", "descriptor / reason", "ms bitorder", "ms torch")
    for m, n, k, layout in LIVE_SHAPES:
        for dt in ("fp16", "bf16"):
            a = torch_draw((k, m) if layout[0] == "t" else (m, k), dt, 11, 1, "wide")
            b = torch_draw((n, k) if layout[1] == "t" else (k, n), dt, 11, 2, "wide")
            a = a.t() if layout[0] == "t" else a
            b = b.t() if layout[1] == "t" else b
            p = api.plan(a, b)
            ours, ref = api.matmul(a, b), torch.matmul(a, b)
            same = bool(torch.equal(ours.view(torch.int16), ref.view(torch.int16)))
            times = []
            for fn in (lambda: api.matmul(a, b), lambda: torch.matmul(a, b)):
                torch.cuda.synchronize()
                t0 = time.perf_counter()
                for _ in range(5):
                    fn()
                torch.cuda.synchronize()
                times.append((time.perf_counter() - t0) / 5 * 1e3)
            t.add_row(f"{m}x{n}x{k}", layout, dt, "[green]yes[/]" if same else "[red]NO[/]", p.path,
                      str(p.desc or p.order or p.reason), f"{times[0]:.3f}", f"{times[1]:.3f}")
    return t
