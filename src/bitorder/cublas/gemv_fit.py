"""Rule entries from designed gemv records (`bitorder probe gemv-fit`): per answer key, the orders
every record of it keeps (prober_gemv's candidates, tracer bits and designed rows' bytes), collapsed
to what the SIMT table (profiles/sm90-cublas13.1-simt.json) can write; one order left is an entry.
"""
from __future__ import annotations

import gzip
import json

import numpy as np

from ..emulate.simt import GemvOrder
from . import gemv_design as G
from .prober_gemv import _read, candidates, confirm, kernel_kind


def load_records(paths) -> list:
    """The records of probe_gemv.json / .json.gz files, each tagged with its index ("id") and file ("probe").
    A file that is not a probe's records (a fit's output, or records from before a record named its case) is a
    ValueError naming it."""
    out = []
    for p in paths:
        with (gzip.open(p, "rt") if p.endswith(".gz") else open(p)) as f:
            data = json.load(f)
        recs = data.get("records") if isinstance(data, dict) else None
        if not isinstance(recs, list) or any(not isinstance(r, dict) or "case" not in r for r in recs):
            raise ValueError(f"{p}: not the records of `bitorder probe gemv` (a JSON object whose \"records\" each "
                             "name their \"case\"); a fit's output or an older probe's file?")
        out += [{**r, "id": str(i), "probe": p} for i, r in enumerate(recs)]
    return out


def is_dot(rec: dict) -> bool:
    """A batch of dots: bmm with M = N = 1 (the option does not always name the kernel there)."""
    c = rec["case"]
    return c["batch"] > 1 and c["m"] == 1 and c["n"] == 1


def by_key(records: list, dots: bool = False) -> dict:
    """{(custom option, dtype, split?, batched?, F.linear with a bias?): [(index, record)]} over the
    records with an algorithm-13 answer and bits; dots: batched dots apart (a sixth field)."""
    groups = {}
    for i, r in enumerate(records):
        a, c = r.get("answer"), r["case"]
        if "error" in r or a is None or int(a.get("algo_id", -1)) != 13:
            continue
        key = (int(a["custom_option"]), c["dtype"], int(a.get("split_k") or 1) > 1, c["batch"] > 1,
               c["op"] == "linear_bias") + ((is_dot(r),) if dots else ())
        groups.setdefault(key, []).append((i, r))
    return dict(sorted(groups.items()))


def fits(rec: dict, order: GemvOrder) -> bool:
    """Whether `order` gives the record's tracer bits and its designed rows' bytes (any bias placement)."""
    k, pairs, tracers, seen = _read(rec)
    return (not (seen < 0).any() and np.array_equal(G.predict(order, k, pairs, tracers), seen)
            and bool(confirm(rec, [order], pairs, tracers)))


def kept_orders(rec: dict) -> set:
    """{(lanes, chunk, cap, fold, bias)} of `candidates` (split from the answer) that give the
    record's tracer bits and designed rows' bytes; bias as the bias call decides ("acc" without one)."""
    k, pairs, tracers, seen = _read(rec)
    if (seen < 0).any():             # a bit pattern no tracer sum gives: no order of the family
        return set()
    alive = [o for o in candidates(k, int(rec["answer"].get("split_k") or 1))
             if o.bias == "acc" and np.array_equal(G.predict(o, k, pairs, tracers), seen)]
    return {(o.lanes, o.chunk, o.cap, o.fold, o.bias) for o in confirm(rec, alive, pairs, tracers)}


def collapse(orders) -> list:
    """The (lanes, chunk, cap, fold) a rule could take from a key's orders. The bias is dropped
    (cuBLASLt's bias placement is its own rule); 1 or 2 lanes meet in one add whatever the fold, and
    one lane holds every element whatever its chunk: those read as the tables write them; contiguous
    lanes with and without a cap of 64 (alike where no lane holds more than 64) take the cap, the
    gemvx family's."""
    left = set()
    for lanes, chunk, cap, fold, *_ in orders:
        left.add((1, None, None, "down") if lanes == 1 else (lanes, chunk, cap, "down" if lanes == 2 else fold))
    return sorted({(l, None, 64, f) if ch is None and cap is None and (l, None, 64, f) in left else (l, ch, cap, f)
                   for l, ch, cap, f in left}, key=str)


def _order_dict(o) -> dict:
    return dict(zip(("lanes", "chunk", "cap", "fold"), o))


def _kernel(rec) -> str:
    try:
        return kernel_kind(rec)
    except (AttributeError, IndexError):     # not a gemv kernel's name (gemmSN, ...): as launched
        return (rec.get("kernels") or ["no kernel"])[0][:90]


def _entry(option, dtype, order, recs) -> dict:
    """A gemv rule entry (the profile's JSON form) for `order` read off `recs`."""
    lanes, chunk, cap, fold = order
    probes = sorted({str(r.get("probe")) for r in recs})
    ids = [r["id"] if len(probes) == 1 else f"{r.get('probe')}:{r['id']}" for r in recs]
    # where no record's lane held more than 64, the cap was not read: plan only to where it cannot matter
    slices = [-(-(-(-r["case"]["k"] // int(r["answer"].get("split_k") or 1))) // lanes) for r in recs]
    max_k = 64 * lanes if chunk is None and cap == 64 and max(slices) <= 64 else None
    return {"option": option, "dtype": dtype, "lanes": lanes, "chunk": chunk, "cap": cap, "fold": fold,
            "block": None, "max_k": max_k, "max_outputs": None, "verified": False,
            "kernel": " | ".join(sorted({_kernel(r) for r in recs})), "records": ids, "probe": ", ".join(probes)}


def key_dict(key: tuple) -> dict:
    """A by_key(dots=True) key with its fields named."""
    return dict(zip(("option", "dtype", "split", "batched", "linear_bias", "dot"), key))


def rules_from(records: list, progress=None) -> dict:
    """{"gemv": [entry], "batched_dots": [entry + k_range], "undecided": [{key, records, orders, why}]}
    from designed probe records: per answer key (by_key, batched dots apart), the orders every record
    of it keeps (kept_orders), collapsed; one order left makes an entry (_entry). A batched-dots key that
    no one order fits gets an entry per region of K and batch (dot_regions: cuBLAS picks a dot's launch by
    both), each bounding both (k_low, k_high, batch_low, batch_high). Keys that one
    (option, dtype) rule serves (split, batched, with a bias) merge when they agree; a key whose order
    another disagrees with is undecided. Also "keys": per key its records, orders and outcome (the
    entry or why not), and "kept": {record index: kept_orders}. progress(done, total) after each record."""
    records = [r if "id" in r else {**r, "id": str(i)} for i, r in enumerate(records)]
    groups, kept, keys, by_rule = by_key(records, dots=True), {}, [], {}
    for key, rs in groups.items():
        for i, r in rs:
            kept[i] = kept_orders(r)
            if progress:
                progress(len(kept), sum(map(len, groups.values())))
        orders = collapse(set.intersection(*(kept[i] for i, _ in rs)))
        keys.append({"key": key_dict(key), "recs": rs, "orders": orders,
                     "outcome": "no order left" if not orders else "several orders left" if len(orders) > 1 else None})
        by_rule.setdefault((key[-1], key[0], key[1]), []).append(keys[-1])
    out = {"gemv": [], "batched_dots": [], "undecided": []}
    for (dots, option, dtype), gs in by_rule.items():
        ours = [g for g in gs if g["outcome"] is None]
        if len({tuple(g["orders"][0]) for g in ours}) > 1:
            for g in ours:
                g["outcome"] = "another key of the option and dtype keeps another order"
        elif ours:
            recs = [r for _, r in sorted(p for g in ours for p in g["recs"])]      # in the files' order
            entry = _entry(option, dtype, ours[0]["orders"][0], recs)
            if dots:
                entry["k_range"] = [min(r["case"]["k"] for r in recs), max(r["case"]["k"] for r in recs)]
            out["batched_dots" if dots else "gemv"].append(entry)
            for g in ours:
                g["outcome"] = entry
    for g in keys:                   # a dots key no one order fits: regions of K and batch (dot_regions)
        key = g["key"]
        if key["dot"] and g["outcome"] == "no order left":
            rows = [(r["case"]["k"], r["case"]["batch"], collapse(kept[i])) for i, r in g["recs"]]
            g["outcome"] = []
            for (k_low, k_high, b_low, b_high), order, n in dot_regions(rows):
                recs = [r for i, r in g["recs"] if k_low <= r["case"]["k"] <= k_high
                        and b_low <= r["case"]["batch"] <= b_high and order in collapse(kept[i])]
                entry = _entry(key["option"], key["dtype"], order, recs)
                entry.update(k_low=k_low, k_high=k_high, batch_low=b_low, batch_high=b_high, k_range=[k_low, k_high])
                out["batched_dots"].append(entry)
                g["outcome"].append(entry)
    out["keys"] = [{"key": g["key"], "records": [r["id"] for _, r in g["recs"]],
                    "orders": [_order_dict(o) for o in g["orders"]], "outcome": g["outcome"]} for g in keys]
    out["undecided"] = [{**{f: g[f] for f in ("key", "records", "orders")}, "why": g["outcome"]}
                        for g in out["keys"] if isinstance(g["outcome"], str)]
    out["kept"] = kept
    return out


def dot_readings(records: list, kept: dict) -> list:
    """Per batched-dot record (rules_from's `kept`): (option, dtype, K, batch, the launch's block, its collapsed
    orders), sorted. cuBLAS picks a dot's launch by K and the batch, so where a key is undecided these rows are
    what rules_from's batch-bounded entries (the table's batch_low / batch_high, dot_regions) are read from."""
    rows = []
    for i, r in enumerate(records):
        if i in kept and is_dot(r):
            c, launch = r["case"], (r.get("launch") or [{}])[0]
            rows.append((int(r["answer"]["custom_option"]), c["dtype"], c["k"], c["batch"],
                         tuple(launch.get("block") or ()), collapse(kept[i])))
    return sorted(rows, key=lambda row: row[:4])


def _impurity(rows) -> int:
    """Rows that keep no order the most rows keep."""
    counts = {}
    for *_, orders in rows:
        for o in orders:
            counts[o] = counts.get(o, 0) + 1
    return len(rows) - max(counts.values(), default=0)


def dot_regions(rows) -> list:
    """Rectangles of (K, batch), each with one order every row in it keeps, from one (option, dtype)'s dot
    rows [(K, batch, orders)]: split on K or on the batch where that leaves the fewest rows out of their side's
    commonest order (K first on ties), until a side's rows share an order; a region spans its rows' K and batches
    only, so what lies between regions stays unread. [((k_low, k_high, batch_low, batch_high), order, n rows)]."""
    rows = [r for r in rows if r[2]]
    if not rows:
        return []
    common = set.intersection(*(set(r[2]) for r in rows))
    if common:
        ks, bs = [r[0] for r in rows], [r[1] for r in rows]
        return [((min(ks), max(ks), min(bs), max(bs)), min(common, key=str), len(rows))]
    best = None
    for axis in (0, 1):
        values = sorted({r[axis] for r in rows})
        for lo in values[:-1]:
            left, right = [r for r in rows if r[axis] <= lo], [r for r in rows if r[axis] > lo]
            score = _impurity(left) + _impurity(right)
            if best is None or score < best[0]:
                best = (score, left, right)
    if best is None:                 # one (K, batch) that ran two launches: no region
        return []
    return dot_regions(best[1]) + dot_regions(best[2])

