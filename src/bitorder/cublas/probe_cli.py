"""`bitorder probe`: rebuild or check the arch profile.

  bitorder probe survey --out DIR [--budget S]      (GPU) record what cuBLAS does for a sample
  bitorder probe survey --fp8 --out DIR             (GPU) the same for torch._scaled_mm split-K calls
  bitorder probe verify RECORDS...                   (CPU) the profile against recorded bits
  bitorder probe fit RECORDS... [--out FILE]         (CPU) candidate elimination per answer kind
  bitorder probe gemv --out DIR [--want KEYS | --cases GATE.json]   (GPU) designed gemv probes (algorithm 13)
  bitorder probe gemv-fit PROBE_GEMV.json... [--out FILE] [--check]  (CPU) gemv rule entries per answer key

verify and fit read survey files (.jsonl.gz), fp16/bf16 and fp8 records alike; gemv-fit reads the
gemv probe's probe_gemv.json(.gz); they run on any machine.
"""
from __future__ import annotations

import argparse
import json
from collections import Counter

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table


def _progress(console):
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=console)


def verify(paths, console, max_k=70000, profile=None, candidates=False) -> int:
    """The profile against every record on the twin; candidates: its verified: false entries too
    (as BITORDER_UNVERIFIED=1 plans them: what a GPU gate would then check)."""
    import os

    if candidates:
        os.environ["BITORDER_UNVERIFIED"] = "1"
    from .prober import load_records, record_mismatches, resolve_record
    from .profile import ArchProfile, cublas_defect

    prof = profile or ArchProfile.load()
    records = [r for p in paths for r in load_records(p) if r.get("ran")]
    tally = Counter()
    failures = []
    with _progress(console) as prog:
        task = prog.add_task("twin vs recorded bits", total=len(records))
        for rec in records:
            c, a = rec["case"], rec["ran"][0]
            entry, d = resolve_record(prof, rec)      # the entry describe used (a candidate may take what one leaves open)
            name = entry.name if entry else f"(algo {a['algo_id']}: no entry)"
            if d is None:
                tally[(name, "falls back" + (" (cuBLAS defect)" if cublas_defect(a, c["k"]) else ""))] += 1
            elif c["k"] > max_k:
                tally[(name, "skipped (K too deep for the twin here)")] += 1
            else:
                bad, wm = record_mismatches(rec, d)
                ok = bad == 0 and not wm
                tally[(name, "reproduced" if ok else "WRONG")] += 1
                if not ok:
                    failures.append((c, str(d), bad, wm))
            prog.advance(task)
    t = Table("entry", "outcome", "calls")
    for (name, outcome), n in sorted(tally.items()):
        t.add_row(name, outcome if outcome != "WRONG" else f"[red]{outcome}[/]", str(n))
    console.print(t)
    for f in failures[:20]:
        console.print(f"[red]WRONG[/] {f}")
    return 1 if failures else 0


def fit_cmd(paths, console, out=None, max_k=8000, max_records=8, profile_out=None) -> int:
    """Candidate elimination per answer kind; with profile_out, the settled kinds written as an
    arch profile and that profile verified against every record on the twin."""
    from . import prober_fp8
    from .prober import by_kind, candidate_rules, entry_from_rules, fit, load_records, walk_codes
    from .profile import cublas_defect

    records = [r for p in paths for r in load_records(p)]
    groups = by_kind(records)
    proposals = []
    with _progress(console) as prog:
        for kind, recs in sorted(groups.items(), key=lambda kv: str(kv[0])):
            fp8 = kind[-1] == "fp8"
            if fp8:   # a dropped tail (cuBLAS's split-K defect) is no descriptor: such records cannot fit
                usable = [r for r in recs if r["case"]["k"] <= max_k and r.get("walks")
                          and not cublas_defect(r["ran"][0], r["case"]["k"])]
            else:
                usable = [r for r in recs if r["case"]["k"] <= max_k and walk_codes(r, "small")]
            usable = sorted(usable, key=lambda r: r["case"]["k"])[:max_records]
            if not usable:
                continue
            rules = prober_fp8.candidate_rules(kind) if fp8 else candidate_rules(kind)
            task = prog.add_task(f"algo {kind[0]} named={kind[1]} split={kind[2]} scheme={kind[3]}"
                                 + (" fp8" if fp8 else ""), total=len(rules))
            alive = fit(usable, rules, progress=lambda i, n, t=task: prog.update(t, completed=i))
            varying = sorted({k for a in alive for k in a if len({str(b.get(k)) for b in alive}) > 1})
            p = {"kind": list(kind), "records": len(usable), "candidates": len(rules), "survivors": alive,
                 "undetermined": varying,
                 "entry": (prober_fp8.entry_from_rules if fp8 else entry_from_rules)(kind, alive, usable)}
            if fp8 and not alive:   # fast and slow accumulation may run different split kernels
                p["by_fast_accum"] = {str(fa): fit([r for r in usable if r["case"]["fast_accum"] == fa], rules)
                                      for fa in (True, False)}
            proposals.append(p)
    t = Table("answer kind (algo, named stages, split, scheme)", "records", "survivors", "settled rule",
              "not settled by these records")
    for p in proposals:
        first = p["survivors"][0] if p["survivors"] else None
        settled = "[red]none survives[/]" if not first else ", ".join(
            f"{k}={v}" for k, v in first.items() if k not in p["undetermined"])
        t.add_row(str(tuple(p["kind"])), str(p["records"]), str(len(p["survivors"])), settled,
                  ", ".join(p["undetermined"]))
    console.print(t)
    if out:
        with open(out, "w") as f:
            json.dump(proposals, f, indent=1)
        console.print(f"wrote {out}")
    if profile_out:
        from .profile import ArchProfile
        entries = [p["entry"] for p in proposals if p["entry"]]
        data = {**ArchProfile.load().meta, "source": f"bitorder probe fit over {len(records)} records", "entries": entries}
        with open(profile_out, "w") as f:
            json.dump(data, f, indent=1)
        console.print(f"wrote {profile_out}: {len(entries)} entries, {len(proposals) - len(entries)} kinds unsettled")
        return verify(paths, console, profile=ArchProfile(data), candidates=True)  # fp8 entries are candidates
    return 0


def _order_text(o: dict) -> str:
    layout = f"chunk {o['chunk']}" if o["chunk"] else "contiguous" + (f" cap {o['cap']}" if o["cap"] else "")
    return f"{o['lanes']} lanes {layout} {o['fold']}" + (f" to K {o['max_k']}" if o.get("max_k") else "")


def check_gemv(records, kept) -> list:
    """[(record, packaged order, verdict)] for the records the fit read (kept: rules_from's): the packaged
    rule (gemv_rule.order_for; batched_dot_order for batched dots) is "agrees" when it is among the
    record's kept orders, bias aside, "DISAGREES" when not, "no rule" when it holds none."""
    from . import gemv_rule
    from .gemv_fit import fits, is_dot
    from .prober_gemv import candidates
    rows = []
    for i, rec in enumerate(records):
        if i not in kept:
            continue
        c, a = rec["case"], rec["answer"]
        if is_dot(rec):
            order = gemv_rule.batched_dot_order(a, c["k"], c["dtype"], c.get("batch", 1))
        else:
            order = gemv_rule.order_for(a, c["k"], c["dtype"], outputs=max(c["m"], c["n"]), batch=c.get("batch", 1))
        if order is None:
            rows.append((rec, None, "no rule"))
            continue
        if order.replace(bias="acc", product="fma") in set(candidates(c["k"], int(a.get("split_k") or 1))):
            ok = (order.lanes, order.chunk, order.cap, order.fold) in {o[:4] for o in kept[i]}
        else:        # outside the fit's family (gemv2T's blocks): replayed on the record itself
            ok = fits(rec, order)
        rows.append((rec, order, "agrees" if ok else "DISAGREES"))
    return rows


def gemv_fit(paths, console, out=None, check=False, dots=False) -> int:
    """gemv rule entries from designed gemv probes (gemv_fit.rules_from): a table of the answer
    keys, the entries written to `out` (an entry a line); dots: every batched dot's launch and orders
    (gemv_fit.dot_readings); check: every record against the packaged rule (exit status 1 where one
    disagrees)."""
    from .gemv_fit import _order_dict, dot_readings, load_records, rules_from
    from .prober_gemv import answer_key
    records = load_records(paths)
    with _progress(console) as prog:
        task = prog.add_task("gemv orders per record", total=None)
        rules = rules_from(records, progress=lambda i, n: prog.update(task, completed=i, total=n))
    t = Table("answer key (option, dtype, flags)", "records", "orders every record keeps", "entry")
    for g in rules["keys"]:
        key, outcome = g["key"], g["outcome"]
        flags = [f for f in ("split", "batched", "linear_bias", "dot") if key[f]]
        t.add_row(f"{key['option']} {key['dtype']} {','.join(flags)}", ", ".join(g["records"]),
                  "; ".join(map(_order_text, g["orders"])) or "[red]none[/]",
                  _order_text(outcome) if isinstance(outcome, dict) else
                  f"{len(outcome)} regions of K and batch" if isinstance(outcome, list) else f"[yellow]undecided[/] ({outcome})")
    console.print(t)
    if dots:
        t = Table("option", "dtype", "K", "batch", "block (x = lanes)", "orders the record keeps")
        for option, dtype, k, batch, block, orders in dot_readings(records, rules["kept"]):
            t.add_row(str(option), dtype, str(k), str(batch), "x".join(map(str, block)),
                      "; ".join(_order_text(_order_dict(o)) for o in orders) or "none")
        console.print(t)
    if out:
        parts = (f'"{name}": [' + ",".join("\n  " + json.dumps(e) for e in rules[name]) + ("\n]" if rules[name] else "]")
                 for name in ("gemv", "batched_dots", "undecided"))
        with open(out, "w") as f:
            f.write("{\n" + ",\n".join(parts) + "\n}\n")
        console.print(f"wrote {out}: {len(rules['gemv'])} gemv entries, {len(rules['batched_dots'])} batched dots, "
                      f"{len(rules['undecided'])} keys undecided")
    if not check:
        return 0
    rows = check_gemv(records, rules["kept"])
    t = Table("record", "call (op dtype batch x M x N x K)", "answer", "packaged rule", "check")
    colour = {"agrees": "green", "DISAGREES": "red", "no rule": "yellow"}
    for rec, order, verdict in rows:
        c = rec["case"]
        t.add_row(rec["id"], f"{c['op']} {c['dtype']} {c['batch']}x{c['m']}x{c['n']}x{c['k']}",
                  answer_key(rec["answer"], c["dtype"]), str(order or "-"), f"[{colour[verdict]}]{verdict}[/]")
    console.print(t)
    tally = Counter(v for _, _, v in rows)
    console.print("check: " + ", ".join(f"{v} {n}" for v, n in sorted(tally.items())))
    return 1 if tally["DISAGREES"] else 0


def main(argv) -> int:
    """`bitorder probe VERB ...`: survey and gemv run on the GPU (their own arguments), the rest on the CPU."""
    ap = argparse.ArgumentParser(prog="bitorder probe", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="verb", required=True)
    sub.add_parser("survey", help="(GPU) record cuBLAS's answers, kernels, walks and output bits", add_help=False)
    sub.add_parser("gemv", help="(GPU) designed gemv probes: output bits and kernels (bitorder probe gemv -h)",
                   add_help=False)
    g = sub.add_parser("gemv-fit", help="(CPU) gemv rule entries per answer key from designed gemv probes")
    g.add_argument("records", nargs="+", help="probe_gemv.json or .json.gz files")
    g.add_argument("--out", help="write {gemv, batched_dots, undecided} here (JSON, an entry a line)")
    g.add_argument("--dots", action="store_true", help="a row per batched dot: K, batch, the launch's block and the "
                   "orders it keeps (what batch-bounded entries are read from)")
    g.add_argument("--check", action="store_true", help="every record against the packaged rule (gemv_rule): exit 1 "
                   "where one disagrees")
    v = sub.add_parser("verify", help="check the arch profile against survey records on the CPU twin")
    v.add_argument("records", nargs="+")
    v.add_argument("--candidates", action="store_true", help="check the profile's verified: false entries too")
    f = sub.add_parser("fit", help="candidate elimination per answer kind")
    f.add_argument("records", nargs="+")
    f.add_argument("--out")
    f.add_argument("--max-k", type=int, default=8000)
    f.add_argument("--max-records", type=int, default=8)
    f.add_argument("--profile", help="write the settled kinds as an arch profile (JSON) and verify it on every record")
    if argv and argv[0] == "survey":
        from .survey import main as survey_main
        return survey_main(argv[1:]) or 0
    if argv and argv[0] == "gemv":
        from .prober_gemv import main as gemv_main
        return gemv_main(argv[1:]) or 0
    args = ap.parse_args(argv)
    console = Console()
    if args.verb == "verify":
        return verify(args.records, console, candidates=args.candidates)
    if args.verb == "gemv-fit":
        try:
            return gemv_fit(args.records, console, args.out, args.check, args.dots)
        except ValueError as e:     # a file that is not a probe's records: say which, no traceback
            console.print(f"[red]gemv-fit:[/] {e}", soft_wrap=True)
            return 2
    return fit_cmd(args.records, console, args.out, args.max_k, args.max_records, args.profile)
