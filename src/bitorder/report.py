"""`bitorder report`: the environment, then one section per component.

Each section is a function (console, live) -> None. `live` is True on a machine
with a CUDA GPU, where a section also runs its component's demonstration. A
section that fails prints its error and the report goes on: a report is for
finding out what works.
"""
from __future__ import annotations

import time
import traceback

from rich.console import Console
from rich.table import Table

from . import env


def _environment(console: Console, live: bool) -> None:
    t = Table(show_header=False, box=None, pad_edge=False)
    for k, v in env.summary().items():
        t.add_row(f"[bold]{k}[/]", str(v) if v is not None else "[dim]absent[/]")
    console.print(t)


def _targets(console: Console, live: bool) -> None:
    from .compiler.demo import compile_targets

    t = Table("target", "assembly", "compiled", "seconds")
    for name, kind, ok, secs in compile_targets(("sm90", "sm80", "gfx942", "gfx90a")):
        t.add_row(name, kind, "[green]yes[/]" if ok is True else f"[red]no[/] {ok}", f"{secs:.2f}")
    console.print(t)
    if live:
        from .compiler.demo import live_check

        for line in live_check():
            console.print(line)


def _desc(console: Console, live: bool) -> None:
    from .desc import GEMMDesc

    examples = [
        GEMMDesc("plain", "fp16", 4096, "wgmma", 16),
        GEMMDesc("split_k", "bf16", 65536, "wgmma", 16, k_cuts=(16384,), partial_dtype="fp32",
                 merge_dtype="fp32", merge_order="sequential"),
        GEMMDesc("plain", "fp16", 1999, "mma_sync", 8, k_tail="first", k_step=32),
    ]
    for d in examples:
        console.print(str(d))
    console.print(f"[dim]JSON form:[/] {examples[1].to_json()}", soft_wrap=True)


def _fp8_line() -> str:
    """What bitorder.scaled_mm does by default, read off the arch profile's e4m3 entries."""
    from .cublas.profile import ArchProfile

    fp8 = [e for e in ArchProfile.load().entries if "e4m3" in (e.match.get("dtype") or ())]
    verified = [e.name for e in fp8 if e.verified]
    if not verified:
        return ("fp8 (bitorder.scaled_mm): no verified fp8 entry in the arch profile: every call runs "
                "torch._scaled_mm itself (counted)")
    return (f"fp8 (bitorder.scaled_mm): verified entries {', '.join(verified)}: torch._scaled_mm's bytes from "
            "bitorder's kernels; answers no verified entry describes, and cuBLAS's split-K tail drop, run "
            "torch._scaled_mm itself (counted)")


def _gemm(console: Console, live: bool) -> None:
    from .gemm.demo import live_table, profile_table

    console.print(profile_table())
    import os
    switches = {k: os.environ.get(k, "") for k in ("BITORDER_FAST_LAUNCH", "BITORDER_TILES", "BITORDER_TMA", "BITORDER_FP8_TMA", "BITORDER_FP8_WS", "BITORDER_FP8_WS_TILES", "BITORDER_FP8_FAST_LAUNCH", "BITORDER_FP8_ROWWISE_EPILOGUE", "BITORDER_UNVERIFIED", "BITORDER_GEMV_RULE", "BITORDER_DOT", "BITORDER_GEMV_PARTS", "BITORDER_ROWS_BATCHED", "BITORDER_GEMV_WARPS")}
    console.print("switches (unset: kept kernels on, wave tiles, no TMA, fp8 promoting chains on the Gluon kernel "
                  "at fp8.ws_tile's tiles, verified profile entries only, gemv rule and dot path on): "
                  + ", ".join(f"{k}={v or 'unset'}" for k, v in switches.items()))
    console.print(_fp8_line())
    if not live:
        console.print("[dim]no GPU: the live sample (bitorder.matmul against torch.matmul, bytes compared) is skipped[/]")
        return
    from . import env
    if env.version_of("nvmath") is None:
        console.print("[yellow]nvmath-python is not installed: every call falls back to cuBLAS (pip install 'bitorder[cuda]')[/]")
    console.print(live_table())


def _pinned(console: Console, live: bool) -> None:
    from .language.demo import live_lines, structure_table

    console.print(structure_table())
    if live:
        for line in live_lines():
            console.print(line)


def _checker(console: Console, live: bool) -> None:
    from .check.demo import partition_table

    console.print(partition_table())
    console.print("[dim]By default the checker first walks one symbolic thread (v2: the trees stored at every output "
                  "element, named over element bits; BITORDER_FAMILIES=0 turns it off) and falls back to v1 where that "
                  "walk declines. Over the corpus every v2-first class lies inside one class the GPU gates below "
                  "checked, and its own GPU gate passed too: 20,488 configurations, 87,600 certified pairs, "
                  "0 wrong merges (H200, 2026-12-07e; docs/check-families.md). "
                  "v1 walks a kernel and compares the dependence tree stored at every output: the pinned "
                  "sums over num_warps are one tree, the free-order ones four. A loop with a straight-line body, over a "
                  "runtime bound or a constant one (Inductor's r0_numel), is folded (its accumulators keyed by "
                  "init, update and trip count; one that stores, or sums one-hot terms, by the element it writes); the "
                  "tensor-core K loops are walked when a launch's integers are bound (check.signature(ptx, args)); "
                  "what v1 cannot read falls back to v0 (equal programs up to names). Both are sound; neither merges "
                  "what may differ (docs/check.md). GPU soundness gate with every rule on: 20,488 configurations "
                  "of 256 corpus kernels, 0 wrong merges, 3,391 classes over 3,121 true (all on the H200: 2026-12-04e, "
                  "its Inductor part again 2026-12-05, the kernels the element folds change 2026-12-05f). Across "
                  "launch grids (a BLOCK configuration and a 2 BLOCK one over the same elements: super-block classes, "
                  "check.signature's sblock, prune(grid=...), bitorder check --grid): 6,132 configurations sampled "
                  "over the corpus and then every configuration of it (20,380), each launched over its own grid, "
                  "0 wrong merges (H100, 2026-12-05g, 2026-12-05i and 2026-12-06)[/]")


SECTIONS = [
    ("Environment", _environment),
    ("Compile targets (no GPU needed)", _targets),
    ("GEMMDesc", _desc),
    ("cuBLAS-exact GEMM", _gemm),
    ("Pinned reductions", _pinned),
    ("Static bitwise checker", _checker),
]


def run(console: Console | None = None) -> int:
    """Print every section; returns the number of sections that failed."""
    console = console or Console()
    live = env.torch_cuda() is not None
    console.rule("[bold]bitorder report[/]")
    console.print("GPU present: live demonstrations run" if live else "no GPU: live demonstrations skipped")
    failed = 0
    for title, section in SECTIONS:
        console.rule(title)
        t0 = time.perf_counter()
        try:
            section(console, live)
        except Exception:
            failed += 1
            console.print(f"[red]section failed[/]\n{traceback.format_exc()}")
        console.print(f"[dim]({time.perf_counter() - t0:.1f} s)[/]")
    return failed
