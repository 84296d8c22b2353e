"""The partitions of check.signature with the family walk wired in (FAMILIES), held against the GPU truth the union
gate stored (results/2026-12-05-gpu/union: 253 kernels, 20,368 configurations, every certified pair checked on the
GPU, 0 wrong merges).

    python wired_partitions.py OUT.json PLOT.png DUMP.json...   (checker_speed.py --base --families --dump files)

Each dump holds, per configuration, v1's answer ("base_answers": a copy of the same tree, FAMILIES off) and the wired
checker's ("answers"). Per stored grid row (kernel, grid, the gate's classes as configuration dicts, its true class
count):
- comparable: the dump's v1 signatures group the row's configurations exactly as the stored classes do (the gate's
  checker and today's v1 agree there, unbound; rows the gate classed with bound arguments, grids or super-blocks do
  not group alike, and the wired checker leaves bound configurations to v1 anyway: counted as unchanged);
- refines: every wired class lies inside one stored class. Then every pair the wired checker certifies was certified
  by the gated checker and checked on the GPU: the wired checker's wrong merges there are 0 by the stored gate;
- a wired class that spans two stored classes is a MERGE the GPU must decide (listed; exit 1).
Extra classes are counted by where they come from: a stored class split among v2 signatures alone (v2's names finer
than v1's trees there), or among v2 and v1/v0 signatures (the levels mixed in one class: a v2 signature never
equals another level's). Ratios: checker classes over true classes, per kernel and family, stored and wired (the issue's partition quality:
1.0 on GEMMs, at most 1.5 on reductions and normalizations)."""
import collections
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
sys.path.insert(0, os.path.join(ROOT, "src"))
UNION = os.path.join(ROOT, "benchmarks", "results", "2026-12-05-gpu", "union", "union.json")


def main(out_path, plot_path, dumps):
    from checker_gate import SPECS, _cfg, _configs
    from checker_union import TARGET, union
    from reclass_cpu import _key
    answers, base = {}, {}
    for path in dumps:
        with open(path) as f:
            d = json.load(f)
        answers.update(d["answers"])
        base.update(d["base_answers"])
    # dump key "kernel|index|cfg repr" -> the gate's member dict, by the kernel's configuration list (dump_all's)
    by_member: dict = collections.defaultdict(dict)     # kernel -> {member key: (v1 signature, wired signature)}
    configs: dict = {}
    for k in answers:
        name, j, _ = k.split("|", 2)
        if name not in configs:
            configs[name] = _configs(SPECS[name], None, 7)
        by_member[name][_key(_cfg(configs[name][int(j)]))] = (base[k][0], answers[k][0])
    with open(UNION) as f:
        files = json.load(f)["files"]
    docs = []
    for path in files:
        with open(os.path.join(ROOT, path)) as f:
            docs.append(json.load(f))
    rows = union(docs)      # (each kernel's grid rows from the last gate file that holds it)
    per = collections.defaultdict(lambda: collections.Counter())
    merges, tally = [], collections.Counter()
    for r in rows:
        name, members = r["kernel"], r["members"]
        p = per[name]
        p["true_classes"] += r["true_classes"]
        p["stored_classes"] += r["classes"]
        p["configurations"] += r["configs"]
        sigs = by_member.get(name, {})
        found = [[sigs.get(_key(c)) for c in cls] for cls in members]
        if any(x is None for cls in found for x in cls):
            tally["rows_not_in_dump"] += 1
            p["wired_classes"] += r["classes"]
            continue
        v1_groups = {}
        for ci, cls in enumerate(found):
            for v1, _ in cls:
                v1_groups.setdefault(v1, set()).add(ci)
        comparable = all(len(s) == 1 for s in v1_groups.values()) and len(v1_groups) == len(members)
        if not comparable:       # (bound, grid or super-block rows; v1 changed since): left as the gate classed them
            tally["rows_not_comparable"] += 1
            p["wired_classes"] += r["classes"]
            continue
        tally["rows_comparable"] += 1
        wired = {}
        for ci, cls in enumerate(found):
            for _, w in cls:
                wired.setdefault(w, set()).add(ci)
        spans = [w for w, s in wired.items() if len(s) > 1]
        if spans:
            merges.append({"kernel": name, "grid": r["grid"], "wired_classes_spanning_stored": len(spans)})
        p["wired_classes"] += len(wired)
        for cls in found:      # where the extra classes come from, per stored class
            ws = {w for _, w in cls}
            if len(ws) > 1:
                v2 = sum(w.startswith("v2:") for w in ws)
                p["extra_v2_finer" if v2 == len(ws) else "extra_levels_mixed"] += len(ws) - 1
        p["v2_configurations"] += sum(w.startswith("v2:") for cls in found for _, w in cls)
        p["comparable_configurations"] += r["configs"]
    fam = {}
    for name, p in per.items():
        family = SPECS[name].family if name in SPECS else "?"
        f = fam.setdefault(family, collections.Counter())
        f.update(p)
        p["stored_ratio"] = round(p["stored_classes"] / p["true_classes"], 3)
        p["wired_ratio"] = round(p["wired_classes"] / p["true_classes"], 3)
        p["family"] = family
    for f in fam.values():
        f["stored_ratio"] = round(f["stored_classes"] / f["true_classes"], 3)
        f["wired_ratio"] = round(f["wired_classes"] / f["true_classes"], 3)
    total = collections.Counter()
    for f in fam.values():
        total.update({k: v for k, v in f.items() if not k.endswith("ratio")})
    total["stored_ratio"] = round(total["stored_classes"] / total["true_classes"], 3)
    total["wired_ratio"] = round(total["wired_classes"] / total["true_classes"], 3)
    over = {n: p["wired_ratio"] for n, p in sorted(per.items())
            if p["wired_ratio"] > TARGET.get(p["family"], 99)}
    changed = {n: (p["stored_ratio"], p["wired_ratio"]) for n, p in sorted(per.items())
               if p["stored_ratio"] != p["wired_ratio"]}
    doc = {"total": dict(total), "rows": dict(tally), "merges_to_decide_on_gpu": merges,
           "families": {k: dict(v) for k, v in sorted(fam.items())}, "over_target_wired": over,
           "ratio_changed": changed, "per_kernel": {n: dict(p) for n, p in sorted(per.items())}}
    with open(out_path, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
    _plot(per, plot_path)
    print(json.dumps({"total": dict(total), "rows": dict(tally), "merges": len(merges), "over_target_wired": over},
                     indent=1))
    return 1 if merges else 0


def _plot(per, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = sorted(per)
    fig, ax = plt.subplots(figsize=(max(12, 0.14 * len(names)), 4.5))
    x = range(len(names))
    ax.bar([i - 0.2 for i in x], [per[n]["stored_ratio"] for n in names], width=0.4, label="gated checker (v1)")
    ax.bar([i + 0.2 for i in x], [per[n]["wired_ratio"] for n in names], width=0.4, label="v2 first (FAMILIES)")
    ax.axhline(1.0, color="k", lw=0.8)
    ax.axhline(1.5, color="r", ls="--", lw=0.8, label="1.5 (reductions' target)")
    ax.set_xticks(list(x))
    ax.set_xticklabels(names, rotation=90, fontsize=6)
    ax.set_ylabel("checker classes / true classes")
    ax.set_xlim(-0.6, len(names) - 0.4)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
