"""Collect the cases a census or a gate sent to the cuBLAS fallback, for a rerun or a survey.

    python benchmarks/fallback_cases.py OUT.json FILE [FILE ...] [--algo 21,35] [--survey]

FILE: a census JSON (`gate_gemm.py --census`: "not_triton") or a gate JSON (.json or .json.gz:
"fallback_cases"). Writes {"not_reached_cases": [...]} (what `gate_gemm.py --rerun` checks again,
on fresh draws) or, with --survey, {"mismatches": [{"case": ...}]} (what `bitorder probe survey
--cases` records). --algo keeps the answers of those algorithms only. Each case once.
"""
from __future__ import annotations

import argparse
import gzip
import json


def fallbacks(path: str) -> list[dict]:
    """[{"case", "answer"}] of the cases FILE sent to cuBLAS."""
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        data = json.load(f)
    if "not_triton" in data:
        return [r for r in data["not_triton"] if r["path"] == "cublas"]
    return data.get("fallback_cases", [])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("files", nargs="+")
    ap.add_argument("--algo", default="", help="comma-separated algorithm ids to keep (default: all)")
    ap.add_argument("--survey", action="store_true")
    args = ap.parse_args(argv)
    keep = {int(a) for a in args.algo.split(",") if a}
    cases = {}
    for path in args.files:
        for r in fallbacks(path):
            algo = (r.get("answer") or {}).get("algo_id")
            if not keep or algo in keep:
                cases[json.dumps(r["case"], sort_keys=True)] = r["case"]
    body = {"mismatches": [{"case": c} for c in cases.values()]} if args.survey else \
        {"not_reached_cases": list(cases.values())}
    with open(args.out, "w") as f:
        json.dump(body, f)
    print(f"[fallback_cases] {len(cases)} cases -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
