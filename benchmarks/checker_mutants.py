"""Mutated programs the checker merges with their originals, run on the GPU (issue 5).

A mutant is a corpus configuration's stored PTX with one line changed (benchmarks/results/2026-12-05e-checker-cpu's
sweeps). run classes both texts with the checker it imports (with the stored TTGIR's divisibility, as the sweeps
did); where it gives them one signature, the two must return identical bytes on every draw: a difference is a WRONG
MERGE. The cases are the sweeps' mutants that kept their signature ("same") and controls ("differs": a live add.f32
made sub, which the checker splits), which must differ on some draw: that shows the mutant really ran. A planted
checker fault that merges the controls makes the run fail (scripts/gpu-run mutant-checker-mutants).

    python benchmarks/checker_mutants.py make --logs L1 [L2 ...] [--swaps S1 ...] --ptx /tmp/ckd/all --out cases.json.gz
    python benchmarks/checker_mutants.py run --cases cases.json.gz --out DIR [--draws 5] [--cpu] [--deadline S]
                                             [--resume EARLIER/mutants.json]                              (GPU)

make reads the SAME lines of the sweep logs ("SAME kernel.pkl LINE old -> new | level"), checks each against the
stored PTX of the configuration the sweep took (the middle one Triton built), adds the merged swaps of adjacent
instructions (--swaps: swaps.py's JSON, each case its edits), and one control per kernel. run
compiles both texts through Triton with the PTX stage replaced (the ir_override option, so the original goes through
the same path as its mutant), launches each on the gate's draws (--draws wide ones and the adversarial ones), and
writes DIR/mutants.json; --cpu only compiles (no GPU) and checks that each compiled program's PTX is the file given.
Controls run first (a run cut by --deadline still shows that the mutated texts ran); --resume runs only the cases an
earlier run's mutants.json does not hold.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import pickle
import re
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from ptx_mutants import mutants  # noqa: E402

_SAME = re.compile(r"^SAME (\S+)\.pkl (\d+) (.*?) -> (.*?) \| (v\d.*)$")


def _stored(ptx_dir, kernel):
    """(configuration index, PTX, TTGIR) of the configuration the sweeps took: the middle one Triton built."""
    with open(os.path.join(ptx_dir, f"{kernel}.pkl"), "rb") as f:
        recs = [r for r in pickle.load(f) if r[4] is not None]
    r = recs[len(recs) // 2]
    return r[1], r[4]["ptx"], r[4].get("ttgir")


def make(logs, swaps, ptx_dir, out, controls=None):
    cases, texts = [], {}   # texts: kernel -> _stored's answer, each pickle read once

    def stored(kernel):
        if kernel not in texts:
            texts[kernel] = _stored(ptx_dir, kernel)
        return texts[kernel][:2]

    for path in swaps:
        for case in json.load(open(path)):
            index, ptx = stored(case["kernel"])
            lines = ptx.split("\n")
            if index != case["index"] or sorted(lines[a] for a, _ in case["edits"]) != sorted(n for _, n in case["edits"]):
                raise SystemExit(f"{case['kernel']}: the swap's lines are not the stored configuration's")
            cases.append({"kernel": case["kernel"], "index": index, "edits": case["edits"], "expect": "same"})
    for path in logs:
        for line in open(path):
            m = _SAME.match(line.strip())
            if not m:
                continue
            kernel, at, old, new = m[1], int(m[2]), m[3], m[4]
            index, ptx = stored(kernel)
            lines = ptx.split("\n")
            if lines[at].strip() != old.strip():
                raise SystemExit(f"{kernel} line {at}: the log's {old!r} is not the stored {lines[at].strip()!r}")
            cases.append({"kernel": kernel, "index": index, "line": at,
                          "new": lines[at].replace(old.strip(), new.strip()), "expect": "same"})
    for kernel, (index, ptx, _) in sorted(texts.items()):   # a control per kernel: a live add.f32 made sub
        if controls is not None and sum(c["expect"] == "differs" for c in cases) >= controls:
            break
        lines = ptx.split("\n")
        for text in mutants(ptx, "add->sub", 1):
            at = next(i for i, (a, b) in enumerate(zip(lines, text.split("\n"))) if a != b)
            cases.append({"kernel": kernel, "index": index, "line": at, "new": text.split("\n")[at],
                          "expect": "differs"})
    # controls first: they show that what ran is the mutated text, so a run cut by its deadline still has them
    # (the case files of 2026-12-05e's calls were written before this order: controls last)
    cases.sort(key=lambda c: c["expect"] != "differs")
    with gzip.open(out, "wt") as f:
        json.dump({"ptx": {k: v[1] for k, v in texts.items()}, "ttgir": {k: v[2] for k, v in texts.items()},
                   "cases": cases}, f)
    print(f"{len(cases)} cases ({sum(c['expect'] == 'same' for c in cases)} merged by the checker) over "
          f"{len(texts)} kernels -> {out}")


def _mutated(ptx, case):
    lines = ptx.split("\n")
    for at, new in case.get("edits") or [[case["line"], case["new"]]]:
        lines[at] = new
    return "\n".join(lines)


def _case_id(case) -> str:
    """A case's identity across runs: its kernel, configuration and edits."""
    return json.dumps([case["kernel"], case["index"], case.get("edits") or [[case["line"], case["new"]]]])


def run(cases_path, out, n_draws, cpu, deadline=None, resume=None):
    from checker_gate import SPECS, _configs, gate_draws, run_config, snapshot
    from bitorder import check
    from bitorder.check.prune import compile_config
    with gzip.open(cases_path, "rt") as f:
        data = json.load(f)
    os.makedirs(out, exist_ok=True)
    tmp = tempfile.mkdtemp()
    # controls first, whatever the file's order: a run its deadline cuts still shows the mutated text ran
    cases = sorted(data["cases"], key=lambda c: c["expect"] != "differs")
    if resume:   # only the cases an earlier run (its mutants.json) did not reach
        with open(resume) as f:
            done = {_case_id(r) for r in json.load(f)["rows"]}
        cases = [c for c in cases if _case_id(c) not in done]
    rows, draws_of, started = [], {}, time.time()
    for n, case in enumerate(cases):
        if deadline is not None and time.time() - started > deadline:   # the rest left out, said in the summary
            break
        spec = SPECS[case["kernel"]]
        cfg = _configs(spec, None, 7)[case["index"]]
        texts = [data["ptx"][case["kernel"]], _mutated(data["ptx"][case["kernel"]], case)]
        paths = [os.path.join(tmp, f"{n}-{tag}.ptx") for tag in ("orig", "mut")]
        for path, text in zip(paths, texts):
            with open(path, "w") as f:
                f.write(text)
        ttgir = data["ttgir"][case["kernel"]]
        sigs = [check.signature({"ptx": text, "ttgir": ttgir}) for text in texts]   # the TTGIR: its divisibility
        row = dict(case, config=str(cfg), merged=sigs[0] == sigs[1])
        if cpu:
            named = {**spec.make("cpu", 7), **spec.fixed}
            row["compiled_as_given"] = [compile_config(spec.fn, cfg, named, {}, "sm90", ir_override=p).ptx == text
                                        for p, text in zip(paths, texts)]
        else:
            if case["kernel"] not in draws_of:
                draws = gate_draws(spec, n_draws, 7, adversarial=True)
                draws_of[case["kernel"]] = draws, snapshot(spec, draws)
            draws, kept = draws_of[case["kernel"]]
            got = [run_config(spec, cfg, draws, kept, ir_override=p)[1] for p in paths]   # digests by draw
            row["equal_bytes"] = got[0] == got[1]
            row["draws"] = len(draws)
            row["verdict"] = ("WRONG MERGE" if row["merged"] and not row["equal_bytes"] else
                              "control did not differ" if case["expect"] == "differs" and row["equal_bytes"] else "ok")
        rows.append(row)
        print(n, case["kernel"], case["expect"], "merged" if row["merged"] else "split",
              row.get("verdict", row.get("compiled_as_given")), flush=True)
    summary = {"cases": len(rows), "cases_given": len(cases), "resumed_from": resume,
               "merged": sum(r["merged"] for r in rows),
               "merged_as_the_sweeps_did": sum(r["merged"] == (r["expect"] == "same") for r in rows)}
    if cpu:
        summary["compiled_as_given"] = sum(all(r["compiled_as_given"]) for r in rows)
    else:
        summary["wrong_merges"] = sum(r["verdict"] == "WRONG MERGE" for r in rows)
        summary["controls_that_differed"] = sum(r["expect"] == "differs" and not r["equal_bytes"] for r in rows)
        summary["controls"] = sum(r["expect"] == "differs" for r in rows)
        import torch
        summary["device"] = torch.cuda.get_device_name()
    with open(os.path.join(out, "mutants.json"), "w") as f:
        json.dump({"summary": summary, "rows": rows}, f, indent=1)
    print(json.dumps(summary))
    return 1 if summary.get("wrong_merges") else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=("make", "run"))
    ap.add_argument("--logs", nargs="*", default=[])
    ap.add_argument("--swaps", nargs="*", default=[])
    ap.add_argument("--controls", type=int, help="at most this many controls (default: one a kernel)")
    ap.add_argument("--ptx", default="/tmp/ckd/all")
    ap.add_argument("--cases")
    ap.add_argument("--out", required=True)
    ap.add_argument("--draws", type=int, default=5)
    ap.add_argument("--cpu", action="store_true")
    ap.add_argument("--deadline", type=float, help="seconds after which no further case starts")
    ap.add_argument("--resume", help="an earlier run's mutants.json: only the cases it did not reach run")
    a = ap.parse_args()
    if a.what == "make":
        return make(a.logs, a.swaps, a.ptx, a.out, a.controls)
    return run(a.cases, a.out, a.draws, a.cpu, a.deadline, a.resume)


if __name__ == "__main__":
    sys.exit(main())
