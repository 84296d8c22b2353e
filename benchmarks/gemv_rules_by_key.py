"""The gemv orders each answer key leaves, over every designed record of a gemv probe (CPU).

    python benchmarks/gemv_rules_by_key.py PROBE_GEMV.json[.gz] OUT.json

A key is (custom option, dtype, split, batched, F.linear with a bias). For each record, every order of
the model's family (prober_gemv.candidates) is kept when it predicts the record's tracer bits and its
designed rows' bytes (gemv_fit.kept_orders); a key's orders are those every record of it keeps.
Prints a key per line pair; writes {key: {records, common}}, each order with both bias placements
as the script's first form wrote them (it did not read the bias call). The rule entries themselves:
`bitorder probe gemv-fit` (gemv_fit.rules_from). The 2026-12-01c results hold the script's first form.
"""
from __future__ import annotations

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "src"))

from bitorder.cublas.gemv_fit import by_key, kept_orders, load_records  # noqa: E402


def main(argv=None) -> int:
    probe, out_path = (argv or sys.argv[1:])[:2]
    out = {}
    for key, rs in by_key(load_records([probe])).items():
        common, per = None, []
        for i, r in rs:
            ok = {o[:4] + (b,) for o in kept_orders(r) for b in ("acc", "out")}
            per.append((i, r["case"]["m"], r["case"]["n"], r["case"]["k"], int(r["answer"].get("split_k") or 1), len(ok)))
            common = ok if common is None else common & ok
        print(key, "records", [(p[0], f"{p[1]}x{p[2]}x{p[3]}/s{p[4]}", p[5]) for p in per])
        print("   common", sorted(common, key=str)[:12], len(common), flush=True)
        out[str(key)] = {"records": per, "common": sorted(map(str, common))}
    with open(out_path, "w") as f:
        json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
