"""The family walk and its names, an older copy against this tree's, back to back in one process on every new
canonical text of the stored corpus (alternating which goes first), so that a loaded machine disturbs both alike:
CPU seconds per side, and whether the v2 names (or refusals) of every text are equal.

    python paired_walk.py PKGS /tmp/ckd/all > paired_walk.json    (PKGS holds `bck`, a copy of an older
                                                                     src/bitorder/check, as checker_speed.py --base)
"""
import collections
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "src"))
sys.path.insert(0, os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.abspath(sys.argv[1]))

import bck.families.names as old_names  # noqa: E402
import bck.families.walk as old_walk  # noqa: E402
import importlib  # noqa: E402
from stored_corpus import configurations  # noqa: E402
from bitorder.check.families import names as new_names  # noqa: E402
from bitorder.check.families import walk as new_walk  # noqa: E402
from bitorder.check.signature import _entry, canonicalize, divisible_params  # noqa: E402


OLD_SIGNATURE = importlib.import_module("bck.signature")   # (bck.signature is also the function: its module)


def _name(walk, names, entry, divisible) -> str:
    try:
        stores, n = walk.walk(entry, divisible)
        return names.signature(stores, n, divisible)
    except Exception as e:
        return f"refused: {type(e).__name__}: {str(e)[:80]}"


def main():
    seen: set = set()
    per = collections.defaultdict(collections.Counter)
    changed = []
    for i, (name, j, cfg, asm, _) in enumerate(configurations(sys.argv[2])):
        divisible = divisible_params(asm)
        entry = _entry(asm["ptx"])
        key = (canonicalize(entry).signature, divisible)
        if key in seen:
            continue
        seen.add(key)
        out, secs = {}, {}
        entries = {"new": entry, "old": OLD_SIGNATURE._entry(asm["ptx"])}   # (each side reads its own parse)
        for side in (("old", "new") if i % 2 else ("new", "old")):
            t = time.process_time()
            out[side] = _name(*((old_walk, old_names) if side == "old" else (new_walk, new_names)), entries[side],
                              divisible)
            secs[side] = time.process_time() - t
            per[name][side + "_seconds"] += secs[side]
        per[name]["texts"] += 1
        walked = {s: not out[s].startswith("refused") for s in out}
        per[name]["walked_old"] += walked["old"]
        per[name]["walked_new"] += walked["new"]
        if walked["old"] and walked["new"]:     # (the same texts walked by both: the speed of the same work)
            per[name]["both_walked_old_seconds"] += secs["old"]
            per[name]["both_walked_new_seconds"] += secs["new"]
        if out["old"] != out["new"]:
            changed.append({"kernel": name, "index": j, "old": out["old"][:90], "new": out["new"][:90]})
    tot = collections.Counter()
    for k in per.values():
        tot.update(k)
    r = lambda c: {a: round(b, 3) if isinstance(b, float) else b for a, b in sorted(c.items())}  # noqa: E731
    print(json.dumps({"total": r(tot), "changed": len(changed), "changed_names_of_texts_both_walk":
                      sum(1 for c in changed if not c["old"].startswith("refused") and
                          not c["new"].startswith("refused")),
                      "changes": changed, "per_kernel": {n: r(k) for n, k in sorted(per.items())}}, indent=1))


if __name__ == "__main__":
    main()
