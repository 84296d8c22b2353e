"""Collect the cases a census or a gate sent to the cuBLAS fallback, for a rerun or a survey.

    python benchmarks/fallback_cases.py OUT.json FILE [FILE ...] [--algo 21,35] [--survey]
        [--paths simt] [--options 10] [--outputs 6536:] [--split yes] [--reason addmm]
        [--skip-reason 'drops the last']

FILE: a census JSON (`gate_gemm.py --census`: "not_triton") or a gate JSON (.json or .json.gz:
"fallback_cases"). Writes {"not_reached_cases": [...]} (what `gate_gemm.py --rerun` checks again,
on fresh draws) or, with --survey, {"mismatches": [{"case": ...}]} (what `bitorder probe survey
--cases` records). --algo keeps the answers of those algorithms only. Each case once.
"""
from __future__ import annotations

import argparse
import gzip
import json


def fallbacks(path: str, paths=("cublas",)) -> list[dict]:
    """[{"case", "answer"}] of the cases FILE sent to cuBLAS (a census: to any of `paths`)."""
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        data = json.load(f)
    if "not_triton" in data:
        return [r for r in data["not_triton"] if r["path"] in paths]
    return data.get("fallback_cases", [])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("files", nargs="+")
    ap.add_argument("--algo", default="", help="comma-separated algorithm ids to keep (default: all)")
    ap.add_argument("--survey", action="store_true")
    ap.add_argument("--paths", default="cublas", help="a census's planned paths to take (e.g. simt: the calls a "
                    "new rule now plans, for a ground check on fresh draws)")
    ap.add_argument("--options", default="", help="comma-separated custom options to keep (algorithm 13)")
    ap.add_argument("--outputs", default="", metavar="LO:HI", help="keep calls whose output count max(M, N) is in [LO, HI]")
    ap.add_argument("--split", choices=("yes", "no"), help="keep split answers only (yes) or unsplit ones (no)")
    ap.add_argument("--reason", default="", help="keep the cases whose fallback reason contains this text (e.g. addmm)")
    ap.add_argument("--skip-reason", default="", help="leave out the cases whose fallback reason contains this text "
                    "(e.g. 'drops the last': cuBLAS's own tail drops, which no candidate plans)")
    args = ap.parse_args(argv)
    keep = {int(a) for a in args.algo.split(",") if a}
    options = {int(o) for o in args.options.split(",") if o}
    lo, hi = (int(x) if x else None for x in (args.outputs or ":").split(":"))
    cases = {}
    for path in args.files:
        for r in fallbacks(path, tuple(args.paths.split(","))):
            a, c = r.get("answer") or {}, r["case"]
            outputs, split = max(c["m"], c["n"]), int(a.get("split_k") or 1) > 1
            if ((not keep or a.get("algo_id") in keep) and (not options or a.get("custom_option") in options)
                    and (lo is None or outputs >= lo) and (hi is None or outputs <= hi)
                    and (args.split is None or split == (args.split == "yes"))
                    and args.reason in r.get("reason", "")
                    and not (args.skip_reason and args.skip_reason in r.get("reason", ""))):
                cases[json.dumps(c, sort_keys=True)] = (c, r.get("answer"))
    # --survey entries keep the census answer: the gemv probe groups its records by it (2026-12-02c's
    # probe got none and its answers had to be joined from the census afterwards)
    body = {"mismatches": [{"case": c, "answer": a} if a else {"case": c} for c, a in cases.values()]} \
        if args.survey else {"not_reached_cases": [c for c, _ in cases.values()]}
    with open(args.out, "w") as f:
        json.dump(body, f)
    print(f"[fallback_cases] {len(cases)} cases -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
