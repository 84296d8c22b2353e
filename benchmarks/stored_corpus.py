"""The stored corpus for the checker's CPU surveys: every configuration's PTX as 2026-12-04e's dump_all.py stores it
(OUT/NAME.pkl: [(kernel, index, cfg repr, grid, {'ptx', 'ttgir'} or None)]), with the interpreted v1 classing
seconds of 2026-12-06c's paired dumps (the baseline every family-walk survey weighs against).

    from stored_corpus import configurations
    for name, j, cfg, asm, v1_seconds in configurations("/tmp/ckd/all", dumps): ...
"""
from __future__ import annotations

import glob
import gzip
import json
import os
import pickle

PAIRED = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "2026-12-06c-checker-cpu",
                       f"paired_native_half_{h}.json.gz") for h in "ab"]


def v1_seconds(dumps=PAIRED) -> dict:
    """{"kernel|index|cfg": CPU-seconds of v1's classing} from checker_speed.py --base dumps (their base side)."""
    secs: dict = {}
    for path in dumps:
        secs.update(json.load(gzip.open(path))["base_seconds"])
    return secs


def configurations(root: str, dumps=PAIRED, kernels=None):
    """(kernel, index, cfg repr, asm dict, v1 seconds) of every built configuration in root's pickles that the dumps
    timed, kernel by kernel in name order (kernels: only those names)."""
    secs = v1_seconds(dumps)
    for pkl in sorted(glob.glob(os.path.join(root, "*.pkl"))):
        name = os.path.basename(pkl)[:-4]
        if kernels is not None and name not in kernels:
            continue
        with open(pkl, "rb") as f:
            recs = pickle.load(f)
        for _, j, cfg, _, asm in recs:
            s = secs.get(f"{name}|{j}|{cfg}")
            if asm is not None and s is not None:
                yield name, j, cfg, asm, s
