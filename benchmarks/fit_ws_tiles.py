"""A cost per promoting Gluon tile, fitted to an fp8_ws_sweep.py run (CPU), and how well the rule it gives picks.

Model: T tiles on S SMs, each SM holding P programs (fp8.WsTile.programs_per_sm), run ceil(T / (S P)) rounds
(fp8.ws_rounds); a round costs one tile's chain, ceil(K / 128) promotion intervals at `interval` us each, plus
`fixed` us (ring fill, epilogue). Both are fitted per tile by least squares on relative error. The rule is the tile of least predicted time (fp8.ws_cost_tile).
Printed: the rule's geometric-mean speed over torch on the sweep's shapes against fp8.run's default and
against the best tile per shape (what any rule could reach), in-sample and leaving each shape out of its own
fit; written: the fitted table (--json), for fp8.WS_PROMOTING_COST.

    python3 benchmarks/fit_ws_tiles.py SWEEP.json [--json OUT.json]
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
from bitorder.gemm.fp8 import WsTile, ws_cost_tile, ws_rounds  # noqa: E402


def _name(tile) -> str:
    return WsTile(*tile).label()


def _rounds(m, n, tile, sms) -> int:
    return ws_rounds(m, n, WsTile(*tile), sms)


def fit(rows: list, tiles: list, sms: int) -> dict:
    """{tile: (interval us, fixed us)} by least squares on (predicted - measured) / measured."""
    costs = {}
    for t in tiles:
        pts = [(r, r["ms"][_name(t)] * 1000) for r in rows if r["ms"].get(_name(t))]
        if len(pts) < 2:
            continue
        a = np.array([[_rounds(r["m"], r["n"], t, sms) * -(-r["k"] // 128) / us, _rounds(r["m"], r["n"], t, sms) / us]
                      for r, us in pts])
        (interval, fixed), *_ = np.linalg.lstsq(a, np.ones(len(pts)), rcond=None)
        costs[WsTile(*t)] = (float(interval), float(fixed))
    return costs


def _gmean(v):
    return math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")


def evaluate(rows: list, costs: dict, sms: int) -> dict:
    """Geometric-mean speed over torch of the rule's pick, fp8.run's default and the best tile per shape."""
    picked, default, best = [], [], []
    for r in rows:
        tile = ws_cost_tile(r["m"], r["n"], r["k"], sms, costs)
        if tile is None or not r["speed"].get(_name(tile)):
            continue
        picked.append(r["speed"][_name(tile)])
        default.append(r["speed"]["default"])
        best.append(max(r["speed"].values()))
    return {"shapes": len(picked), "rule": _gmean(picked), "default": _gmean(default), "best": _gmean(best)}


def load(path: str):
    """An fp8_ws_sweep.py run's fittable rows (no error, the default timed), its tiles and its SM count."""
    with open(path) as f:
        run = json.load(f)
    rows = [r for r in run["rows"] if "error" not in r and r.get("speed", {}).get("default")]
    return rows, [WsTile(*t) for t in run["tiles"]], run["sms"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sweep")
    ap.add_argument("--json")
    args = ap.parse_args()
    rows, tiles, sms = load(args.sweep)
    costs = fit(rows, tiles, sms)
    for t, (interval, fixed) in costs.items():
        print(f"{_name(t):12s} interval {interval:7.3f} us  fixed {fixed:7.2f} us")
    inside = evaluate(rows, costs, sms)
    # leave one shape out: each shape's pick from a table fitted without it
    picked, default, best = [], [], []
    for i, r in enumerate(rows):
        held = fit(rows[:i] + rows[i + 1:], tiles, sms)
        e = evaluate([r], held, sms)
        if e["shapes"]:
            picked.append(e["rule"]), default.append(e["default"]), best.append(e["best"])
    # table: fp8.WS_PROMOTING_COST's entries, WsTile fields then (interval, fixed)
    out = {"costs": {_name(t): c for t, c in costs.items()}, "table": [[*t, *c] for t, c in costs.items()],
           "in_sample": inside, "leave_one_out": {"shapes": len(picked), "rule": _gmean(picked),
                                                  "default": _gmean(default), "best": _gmean(best)}}
    print(json.dumps({k: v for k, v in out.items() if k not in ("costs", "table")}, indent=1))
    # the table as fp8.py would hold it (pasted by hand, with the run it came from named beside it)
    print("WS_PROMOTING_COST = (" + ", ".join(f"(WsTile{tuple(t)}, ({i:.4f}, {f:.3f}))" for t, (i, f) in costs.items())
          + ",)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
