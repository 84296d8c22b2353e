#!/usr/bin/env python3
"""Verify the batched-dot candidates a ground covered (prepared 2026-12-03b for the next session).

    python3 scripts/gpu-calls/verify-candidates.py CENSUS.json GROUND.json MUTANT.json [--min 3]

CENSUS: `gate_gemm.py --census` over the design (its "not_triton" rows give each call's answer); GROUND:
`gate_gemm.py --rerun` over the calls it sent to cuBLAS, under BITORDER_UNVERIFIED=1; MUTANT: the planted fault
over the same list. When the ground ran every case (no mismatch, error or unreached) and the fault differed, each
candidate entry of profiles/sm90-cublas13.1-simt.json's "batched_dots" whose region (option, dtype, K, batch)
holds at least --min ground calls turns "verified": true in this tree; the others stay candidates. Deterministic
from the three JSONs, so the device (before a gate) and this checkout (the commit) make the same edit.
Since 2026-12-03c the same for algorithm 42's candidate layouts (segment_k.KERNELS[42]["candidate_layouts"]): a
layout with at least --min identical ground calls planned on segment-K joins "layouts" in src/bitorder/cublas/
segment_k.py. Each kind needs the fault to differ on at least one of its own calls.
Prints a line per candidate; exit 0 when it flipped at least one.
"""
import argparse
import ast
import gzip
import json

PROFILE = "src/bitorder/cublas/profiles/sm90-cublas13.1-simt.json"
SEGMENT_K = "src/bitorder/cublas/segment_k.py"


def load(path):
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        return json.load(f)


def dot(case, answer):
    """A batched dot (bmm, M = N = 1) answered as gemv (algorithm 13)."""
    return case["op"] == "bmm" and case["m"] == case["n"] == 1 and (answer or {}).get("algo_id") == 13


def inside(entry, case, answer):
    return (dot(case, answer) and answer.get("custom_option") == entry["option"] and case["dtype"] == entry["dtype"]
            and entry["k_low"] <= case["k"] <= (entry["k_high"] or case["k"])
            and entry.get("batch_low", 1) <= case["batch"] <= (entry.get("batch_high") or case["batch"]))


def segk(case, answer, layout=None):
    """An algorithm-42 run-time split (split_k -1) call, in `layout` when named."""
    return (case["op"] == "mm" and (answer or {}).get("algo_id") == 42 and answer.get("split_k") == -1
            and layout in (None, case["layout"]))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("census")
    ap.add_argument("ground")
    ap.add_argument("mutant")
    ap.add_argument("--min", type=int, default=3)
    args = ap.parse_args(argv)
    census, ground, mutant = load(args.census), load(args.ground), load(args.mutant)
    if ground["n_mismatches"] or ground["n_errors"] or ground["n_not_reached"] or not mutant["n_mismatches"]:
        print(f"nothing verified: ground {ground['n_mismatches']} mismatches, {ground['n_errors']} errors, "
              f"{ground['n_not_reached']} unreached; the fault differed on {mutant['n_mismatches']}")
        return 1
    answers = {json.dumps(r["case"], sort_keys=True): r.get("answer") for r in census["not_triton"] if r["path"] == "cublas"}
    left = {json.dumps(f["case"], sort_keys=True) for f in ground.get("fallback_cases", [])}
    ran = [(json.loads(k), a) for k, a in answers.items() if k not in left]   # planned on Triton, identical
    caught = [(m["case"], answers.get(json.dumps(m["case"], sort_keys=True))) for m in mutant.get("mismatches", [])]
    flipped = flip_segk(ran, caught, args.min)
    if not any(dot(c, a) for c, a in caught):
        print("dots: the fault differed on none of them, nothing verified")
        return 0 if flipped else 1
    text = open(PROFILE).read()
    for line in text.splitlines():
        if '"k_low"' not in line or '"verified": false' not in line:
            continue
        entry = json.loads(line.strip().rstrip(","))
        n = sum(inside(entry, c, a) for c, a in ran)
        ok = n >= args.min
        print(f"{'verified' if ok else 'candidate'}: option {entry['option']} {entry['dtype']} K {entry['k_low']}-"
              f"{entry['k_high']} batches {entry.get('batch_low', 1)}-{entry.get('batch_high')}: {n} ground calls")
        if ok:
            text = text.replace(line, line.replace('"verified": false', '"verified": true'))
            flipped += 1
    open(PROFILE, "w").write(text)
    return 0 if flipped else 1


def flip_segk(ran, caught, least) -> int:
    """Algorithm 42's candidate layouts with at least `least` identical ground calls join "layouts" (the fault must
    have differed on one of algorithm 42's calls); the count flipped."""
    text = open(SEGMENT_K).read()
    start = text.index("KERNELS = {42:")
    head = text[start:text.index("}", start)]
    cands = list(ast.literal_eval(head.split('"candidate_layouts": ')[1].split(")")[0] + ")"))
    layouts = list(ast.literal_eval(head.split('"layouts": ')[1].split(")")[0] + ")"))
    if not cands:
        return 0
    if not any(segk(c, a) for c, a in caught):
        print("segment-K: the fault differed on none of its calls, no layout verified")
        return 0
    new = [lay for lay in cands if sum(segk(c, a, lay) for c, a in ran) >= least]
    for lay in cands:
        print(f"{'verified' if lay in new else 'candidate'}: algorithm 42 layout {lay}: "
              f"{sum(segk(c, a, lay) for c, a in ran)} ground calls")
    if new:
        def fmt(xs):   # a tuple of strings as segment_k.py spells it: ("nt",), ("nn", "tn"), ()
            return "(" + ", ".join(json.dumps(x) for x in xs) + ("," if len(xs) == 1 else "") + ")"
        old = f'"layouts": {fmt(layouts)}, "candidate_layouts": {fmt(cands)}'
        rep = f'"layouts": {fmt(layouts + new)}, "candidate_layouts": {fmt([x for x in cands if x not in new])}'
        assert text.count(old) == 1, old
        open(SEGMENT_K, "w").write(text.replace(old, rep))
    return len(new)


if __name__ == "__main__":
    raise SystemExit(main())
