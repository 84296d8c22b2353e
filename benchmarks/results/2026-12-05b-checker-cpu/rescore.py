"""Re-score a CPU partition against a GPU gate's measured truth, where the gate recorded it: a grid whose checker
classes were as many as its true classes with no wrong merge has its checker classes as its true partition (a class
that merged different bits would be a wrong merge; fewer checker classes than true ones is impossible without one).

    python3 rescore.py GATE_CHECKER.json PAIRED_HALF.json[.gz] ... --kernels a,b

For each named kernel and each of its grids with a recorded truth, every class of the dumps' new answers
(checker_speed.py --dump: "answers", keyed "kernel|index|config") must lie inside one true class: a class that
spans two is a wrong merge. Prints and exits 1 on one; configurations are matched by their tuning values."""
import argparse
import gzip
import json
import re
import sys

ap = argparse.ArgumentParser()
ap.add_argument("gate")
ap.add_argument("dumps", nargs="+")
ap.add_argument("--kernels", required=True)
a = ap.parse_args()
gate = json.load(open(a.gate))
answers = {}
for p in a.dumps:
    d = json.load(gzip.open(p) if p.endswith(".gz") else open(p))
    answers.update(d["answers"])


def tuning(cfg: str) -> tuple:
    """(name, value) pairs of a Config's repr or a gate member's dict, the launch options included."""
    pairs = cfg.items() if isinstance(cfg, dict) else re.findall(r"(\w+): ([\w.]+)", cfg)
    return tuple(sorted((k, str(v)) for k, v in pairs if k not in ("num_ctas", "maxnreg")))


bad = 0
for kernel in a.kernels.split(","):
    truth = {}                       # tuning -> (grid, true class index)
    for g in gate["grids"]:
        if g["kernel"] != kernel:
            continue
        if g["classes"] != g["true_classes"] or g["wrong_merges"]:
            print(f"{kernel} grid {g['grid']}: no recorded truth (checker {g['classes']} classes, true {g['true_classes']})")
            continue
        for i, members in enumerate(g["members"]):
            for m in members:
                truth[tuning(m)] = (g["grid"], i)
    classes = {}
    for k, (sig, _) in answers.items():
        name, _, cfg = k.split("|", 2)
        if name == kernel and tuning(cfg) in truth:
            classes.setdefault(sig, set()).add(truth[tuning(cfg)])
    wrong = [sorted(c) for c in classes.values() if len(c) > 1]
    bad += len(wrong)
    print(f"{kernel}: {sum(1 for _ in classes)} new classes over {len(set(truth.values()))} true classes "
          f"({len(truth)} configurations with a recorded truth), {len(wrong)} wrong merges {wrong if wrong else ''}")
sys.exit(1 if bad else 0)
