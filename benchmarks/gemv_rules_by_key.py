"""The gemv orders each answer key leaves, over every designed record of a gemv probe (CPU).

    python benchmarks/gemv_rules_by_key.py PROBE_GEMV.json[.gz] OUT.json

A key is (custom option, dtype, split, batched, F.linear with a bias). For each record, every order of
the model's family (lanes 1-64, contiguous with or without a cap of 64 or in chunks of 1-64, fold
"down" or "seq", bias "acc" or "out") is kept when it predicts the record's tracer bits and its
designed rows' bytes (probe_gemv.confirm); a key's orders are those every record of it keeps. Where
several are left they are told apart only by inputs the records do not have (a bias where none was
added, a cap past the records' K). Prints a key per line pair; writes {key: {records, common}}.
About 2 minutes for 71 records (2026-12-01f probe). The 2026-12-01c results hold the script's first form.
"""
from __future__ import annotations

import collections
import gzip
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "src"))

import numpy as np  # noqa: E402

import probe_gemv as P  # noqa: E402
from bitorder.cublas import gemv_design as G  # noqa: E402
from bitorder.emulate.simt import GemvOrder  # noqa: E402


def candidates(k: int, split: int):
    """Every order of the model's family for a K-long product cut in `split` parts."""
    span = -(-k // split) if split > 1 else None
    for lanes in (1, 2, 4, 8, 16, 32, 64):
        for chunk in (None, 1, 2, 4, 8, 16, 32, 64):
            for cap in ((None, 64) if chunk is None else (None,)):
                for fold in ("down", "seq"):
                    for bias in ("acc", "out"):
                        yield GemvOrder(lanes=lanes, chunk=chunk, cap=cap, span=span, fold=fold, bias=bias)


def fits(rec: dict, order: GemvOrder) -> bool:
    """Whether `order` gives the record's tracer bits and its designed rows' bytes."""
    c = rec["case"]
    pairs, tracers = P.design_for(c["k"], c["dtype"])
    seen = G.decode(rec["bits"], c["dtype"])
    return (not (seen < 0).any() and np.array_equal(G.predict(order, c["k"], pairs, tracers), seen)
            and bool(P.confirm(rec, [order], pairs, tracers)))


def main(argv=None) -> int:
    probe, out_path = (argv or sys.argv[1:])[:2]
    with (gzip.open(probe, "rt") if probe.endswith(".gz") else open(probe)) as f:
        recs = json.load(f)["records"]
    groups = collections.defaultdict(list)
    for i, r in enumerate(recs):
        if "error" not in r:
            a, c = r["answer"], r["case"]
            split = int(a.get("split_k") or 1)
            groups[(int(a["custom_option"]), c["dtype"], split > 1, c["batch"] > 1, c["op"] == "linear_bias")].append((i, r))
    out = {}
    for key, rs in sorted(groups.items()):
        common, per = None, []
        for i, r in rs:
            split = int(r["answer"].get("split_k") or 1)
            ok = {(o.lanes, o.chunk, o.cap, o.fold, o.bias) for o in candidates(r["case"]["k"], split) if fits(r, o)}
            per.append((i, r["case"]["m"], r["case"]["n"], r["case"]["k"], split, len(ok)))
            common = ok if common is None else common & ok
        print(key, "records", [(p[0], f"{p[1]}x{p[2]}x{p[3]}/s{p[4]}", p[5]) for p in per])
        print("   common", sorted(common, key=str)[:12], len(common), flush=True)
        out[str(key)] = {"records": per, "common": sorted(map(str, common))}
    with open(out_path, "w") as f:
        json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
