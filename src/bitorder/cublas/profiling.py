"""Which kernels a call launches: runtime profiling, the prober's first instrument.

All calls of a batch run under one torch.profiler session, each inside its own
record_function range and followed by a synchronize, so every kernel starts
inside the range of the call that launched it.
"""
from __future__ import annotations

from typing import Callable, Sequence


def kernels_per_call(calls: Sequence[Callable[[], object]]) -> list[list[str]]:
    """Run each call once; return the names of the kernels each launched, in launch order."""
    import torch
    from torch.profiler import ProfilerActivity, profile, record_function

    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for i, call in enumerate(calls):
            with record_function(f"bitorder_call_{i}"):
                call()
                torch.cuda.synchronize()
    ranges, kernels = {}, []
    for ev in prof.events():
        name = ev.name
        if name.startswith("bitorder_call_") and str(ev.device_type).endswith("CPU"):
            ranges[int(name.rsplit("_", 1)[1])] = (ev.time_range.start, ev.time_range.end)
        elif str(ev.device_type).endswith("CUDA") and not name.startswith("bitorder_call_"):
            kernels.append((ev.time_range.start, name))
    out = [[] for _ in calls]
    order = sorted(ranges.items(), key=lambda kv: kv[1][0])
    for start, name in sorted(kernels):
        for i, (lo, hi) in order:
            if lo <= start <= hi:
                out[i].append(name)
                break
    return out
