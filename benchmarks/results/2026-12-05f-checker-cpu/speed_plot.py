"""Where the checker's CPU time goes over the stored corpus, from 2026-12-05b's whole-corpus dumps (folds on: today's
default checker, whose answers 2026-12-05d found equal): the cumulative share of the time over configurations,
costliest first, and configurations per CPU-second by kernel family against the target of 50.
    python3 benchmarks/results/2026-12-05f-checker-cpu/speed_plot.py      (from the repository root)"""
import collections, gzip, json, os, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
sys.path.insert(0, "benchmarks")
from corpus import SPECS

here = os.path.dirname(os.path.abspath(__file__))
sec = {}
for h in "ab":
    with gzip.open(f"benchmarks/results/2026-12-05b-checker-cpu/head_half_{h}.json.gz", "rt") as f:
        sec.update(json.load(f)["seconds"])
family = {name: spec.family for name, spec in (SPECS.items() if isinstance(SPECS, dict) else ((s.name, s) for s in SPECS))}
times = sorted(sec.values(), reverse=True)
total = sum(times)
fam_t, fam_n = collections.Counter(), collections.Counter()
for k, s in sec.items():
    f = family.get(k.split("|")[0], "?")
    fam_t[f] += s
    fam_n[f] += 1
fig, (a, b) = plt.subplots(1, 2, figsize=(12, 4.5))
cum, run = [], 0.0
for s in times:
    run += s
    cum.append(run / total)
a.plot(range(1, len(cum) + 1), cum)
a.set_xscale("log")
a.set_xlabel("configurations, costliest first")
a.set_ylabel("share of the corpus's checker CPU time")
budget = len(times) / 50    # the corpus's CPU-s at 50 a second
a.axhline(1 - budget / total, ls="--", c="gray")
a.text(1.2, 1 - budget / total + 0.02, f"50 a second leaves {budget:.0f} CPU-s: {total - budget:.0f} of {total:.0f} to cut",
       fontsize=8)
a.set_title(f"{len(times):,} configurations, {total:,.0f} CPU-s ({len(times) / total:.1f} a CPU-second)")
fams = sorted(fam_t, key=lambda f: -fam_t[f])
rates = [fam_n[f] / fam_t[f] for f in fams]
b.bar(fams, rates)
b.axhline(50, ls="--", c="red")
b.text(-0.4, 52, "target 50", color="red", fontsize=8)
for i, f in enumerate(fams):
    b.text(i, rates[i], f"{fam_n[f]:,} cfg\n{fam_t[f]:.0f} s", ha="center", va="bottom", fontsize=7)
b.set_ylabel("configurations per CPU-second")
b.set_title("by kernel family (interpreted, one core)")
b.tick_params(axis="x", rotation=20)
fig.tight_layout()
fig.savefig(os.path.join(here, "speed.png"), dpi=110)
print(json.dumps({"configs": len(times), "cpu_s": round(total, 1), "per_s": round(len(times) / total, 2),
                  "families": {f: {"configs": fam_n[f], "cpu_s": round(fam_t[f], 1),
                                   "per_s": round(fam_n[f] / fam_t[f], 1)} for f in fams}}, indent=1))
