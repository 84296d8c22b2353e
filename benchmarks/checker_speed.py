"""The checker's speed over the stored corpus's cached PTX, one process, and every answer dumped.

    python benchmarks/checker_speed.py [--src SRC] [--ptx DIR] [--kernels a,b] [--dump FILE]
                                       [--profile FILE]
    python benchmarks/checker_speed.py --compare A.json B.json
    python benchmarks/checker_speed.py --base PKGS [--kernels ...] [--dump FILE] [--families]    (paired A/B)
    python benchmarks/checker_speed.py --v1 ...     (the family walk off: v1 and v0 alone)

DIR holds one pickle per kernel as benchmarks/results/2026-12-01d-checker-speed-cpu/dump_ptx.py
writes them (default /tmp/ckd/ptx: [(kernel, index, cfg repr, grid, {'ptx', 'ttgir'} or None)]).
Each configuration is classed once (check.signature and check.level, as the gate's partition
reads them), timed with process_time (one core; compiling is not counted, as run_timed counts
only classing). SRC (default: this checkout's src) is the tree whose bitorder.check is imported,
so an older commit's `git archive` can be timed by the same command.

The cyclic collector's CPU-s over the run are reported beside (and dumped as "collector_s"): its runs fall after a
classification returns, outside the seconds each configuration is timed by. So are the CPU-s other processes used
meanwhile and the hypervisor's steal ("others_cpu_s", from /proc/stat): a rate on one core is a run alone (a second
process on this 2-core machine slows the walk x1.15 to x1.4, results/2026-12-07g-checker-cpu), and the run says when
it was not.

--dump writes {"answers": {"kernel|index|cfg": [signature, level]}, "seconds": {same keys: CPU-s}}
(sorted keys; a configuration whose PTX was classed before in the process costs the memo lookup only): two dumps that are equal
give identical partitions of every grid, since a grid's partition is its configurations
grouped by signature. --base PKGS (a folder holding `bck`, a copy of an older
src/bitorder/check) classes each configuration with both checkers back to back in one process,
alternating which goes first, times each side and counts the configurations whose signature or
level text differ: the comparison that a loaded machine disturbs least (with --dump, both sides' answers and
seconds, "base_answers" and "base_seconds" for the older one: results/2026-12-05-checker-cpu/partitions.py compares
their partitions). --families turns the family walk on (check.signature's FAMILIES) on the new side and off on the base side, so a copy
of this very tree as `bck` measures v1 alone against v2 with v1 where v2 declines (the differing answers are then
expected and not printed). --v1 turns it off (a run of v1 alone; it is on by default since 2026-12-07c). --compare A B exits 1 unless two dumps hold the same configurations with
the same answers (it prints how many differ), and reports the grids' partitions compared too.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import pickle
import sys
import time


class _Compiled:
    """What check.signature reads of a bitorder.Compiled: asm (the PTX and TTGIR)."""
    def __init__(self, asm):
        self.asm = asm


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
    ap.add_argument("--ptx", default="/tmp/ckd/ptx")
    ap.add_argument("--kernels", default="")
    ap.add_argument("--dump")
    ap.add_argument("--profile")
    ap.add_argument("--compare", nargs=2)
    ap.add_argument("--base")
    ap.add_argument("--families", action="store_true")
    ap.add_argument("--v1", action="store_true")
    a = ap.parse_args()
    if a.families and a.v1:
        ap.error("--families and --v1 ask for the family walk on and off: give one")
    if a.compare:
        sys.exit(compare(*a.compare))
    sys.path.insert(0, os.path.abspath(a.src))
    from bitorder import check
    names = a.kernels.split(",") if a.kernels else sorted(
        os.path.basename(p)[:-4] for p in glob.glob(os.path.join(a.ptx, "*.pkl")))
    if a.families or a.v1:
        import importlib
        importlib.import_module("bitorder.check.signature").FAMILIES = not a.v1
    if a.base:
        sys.exit(paired(check, a.base, a.ptx, names, a.dump, quiet=a.families))
    if a.profile:
        import cProfile
        prof = cProfile.Profile()
        prof.enable()
    out, secs, total_s, total_n, per = {}, {}, 0.0, 0, {}
    gc_s = _collector_seconds()
    machine0 = _machine()
    for name in names:
        with open(os.path.join(a.ptx, f"{name}.pkl"), "rb") as f:
            recs = pickle.load(f)
        t, k = 0.0, 0
        for _, j, cfg, _, asm in recs:
            if asm is None:      # a configuration Triton could not build
                continue
            c = _Compiled(asm)
            t0 = time.process_time()
            ans = (check.signature(c), check.level(c))
            dt = time.process_time() - t0
            t += dt
            out[f"{name}|{j}|{cfg}"] = ans
            secs[f"{name}|{j}|{cfg}"] = round(dt, 4)
            k += 1
        total_s += t
        total_n += k
        per[name] = {"configs": k, "classing_s": round(t, 3)}
        print(f"{name:24s} {k:4d} {t:7.2f}s ({k / max(t, 1e-9):6.1f}/s)", flush=True)
    if a.profile:
        prof.disable()
        prof.dump_stats(a.profile)
    print(f"TOTAL {total_n} configurations, {total_s:.1f} CPU-s, {total_n / total_s:.1f} configurations per CPU-second")
    # the cyclic collector's runs, which fall after a classification returns (it turns the collector back on) and so
    # outside the seconds above: what the walks left alive is scanned there (before 2026-12-07f, about a tenth more)
    print(f"the collector: {gc_s[0]:.1f} CPU-s besides in {gc_s[1]} runs; with it, "
          f"{total_n / (total_s + gc_s[0]):.1f} configurations per CPU-second")
    others = _others(machine0, _machine())
    if others is not None:
        # a rate on one core is a run alone: a second process on this 2-core machine shares its caches and memory and
        # slows the walk x1.15 (compiled) to x1.4 (interpreted) (results/2026-12-07g-checker-cpu)
        busy, steal = others
        print(f"beside this run: other processes {busy:.1f} CPU-s, the hypervisor's steal {steal:.1f} s" +
              ("" if busy < 0.05 * total_s and steal < 0.05 * total_s else
               " -- not a run alone: compare its rate only with a run beside the same load (a paired run)"))
    if a.dump:
        with open(a.dump, "w") as f:
            json.dump({"answers": out, "seconds": secs, "per_kernel": per, "total_configs": total_n,
                       "total_classing_s": round(total_s, 2), "collector_s": round(gc_s[0], 2),
                       "others_cpu_s": None if others is None else [round(x, 1) for x in others]},
                      f, indent=0, sort_keys=True)


def _machine():
    """(the machine's busy CPU-s, its steal s, this process's CPU-s) now, from /proc/stat; None where it is not
    there (not Linux)."""
    try:
        with open("/proc/stat") as f:
            ticks = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    hz = os.sysconf("SC_CLK_TCK")
    user, nice, system, _, _, irq, softirq, steal = (ticks + [0] * 8)[:8]
    return (user + nice + system + irq + softirq) / hz, steal / hz, time.process_time()


def _others(before, after):
    """(CPU-s other processes used, steal s) between two _machine() readings, or None."""
    if before is None or after is None:
        return None
    return max(0.0, (after[0] - before[0]) - (after[2] - before[2])), after[1] - before[1]


def _collector_seconds() -> list:
    """[CPU-s, runs] of the cyclic collector from now on, kept up to date by a gc callback."""
    import gc
    acc, start = [0.0, 0], [0.0]

    def note(phase, info):
        if phase == "start":
            start[0] = time.process_time()
        else:
            acc[0] += time.process_time() - start[0]
            acc[1] += 1
    gc.callbacks.append(note)
    return acc


def paired(new, pkgs, ptx, names, dump=None, quiet=False) -> int:
    """The paired A/B (--base): 0 if every answer is the same, else 1. dump: a file for both sides'
    answers and seconds ({"answers", "seconds", "base_answers", "base_seconds"}), for partitions."""
    sys.path.insert(0, os.path.abspath(pkgs))
    import bck
    if quiet:   # (--families: the base side is v1 alone, whatever its copy's default: on since 2026-12-07c)
        import importlib
        importlib.import_module("bck.signature").FAMILIES = False
    ta_all = tb_all = 0.0
    diffs = total = 0
    answers = {"answers": {}, "seconds": {}, "base_answers": {}, "base_seconds": {}}
    for name in names:
        with open(os.path.join(ptx, f"{name}.pkl"), "rb") as f:
            recs = pickle.load(f)
        ta = tb = 0.0
        k = 0
        for j, (_, _, cfg, _, asm) in enumerate(recs):
            if asm is None:
                continue
            out = {}
            for m in ((bck, new) if j % 2 == 0 else (new, bck)):
                c = _Compiled(asm)
                t0 = time.process_time()
                out[m] = (m.signature(c), m.level(c))
                dt = time.process_time() - t0
                side = "base_" if m is bck else ""
                answers[side + "answers"][f"{name}|{j}|{cfg}"] = out[m]
                answers[side + "seconds"][f"{name}|{j}|{cfg}"] = round(dt, 4)
                if m is bck:
                    ta += dt
                else:
                    tb += dt
            if out[bck] != out[new]:
                diffs += 1
                if not quiet:
                    print("DIFF", name, j, cfg, out[bck], out[new], flush=True)
            k += 1
        ta_all, tb_all, total = ta_all + ta, tb_all + tb, total + k
        print(f"{name:24s} {k:4d} base {ta:7.2f}s ({k / max(ta, 1e-9):6.1f}/s) new {tb:7.2f}s "
              f"({k / max(tb, 1e-9):6.1f}/s) x{ta / max(tb, 1e-9):.2f}", flush=True)
    print(f"TOTAL {total} base {ta_all:.1f}s ({total / ta_all:.1f}/s) new {tb_all:.1f}s ({total / tb_all:.1f}/s) "
          f"x{ta_all / tb_all:.2f} diffs {diffs}")
    if dump:
        with open(dump, "w") as f:
            json.dump(answers, f, sort_keys=True)
    return 1 if diffs else 0


def compare(pa, pb) -> int:
    """0 if the two dumps' answers are identical, else 1 (the differing configurations listed)."""
    with open(pa) as f:
        da = json.load(f)["answers"]
    with open(pb) as f:
        db = json.load(f)["answers"]
    diff = sorted(k for k in set(da) | set(db) if da.get(k) != db.get(k))
    for k in diff[:20]:
        print("differs:", k, da.get(k), db.get(k))
    print(f"{len(da)} vs {len(db)} configurations, {len(diff)} answers differ "
          f"({len({v[0] for v in da.values()})} vs {len({v[0] for v in db.values()})} distinct signatures)")
    return 1 if diff else 0


if __name__ == "__main__":
    main()
