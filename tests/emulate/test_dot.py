"""The dot twin (bitorder.emulate.dot) against the H200's recorded bytes: every seeded draw the
2026-12-01 probes recorded (fp16 and bf16, mm and F.linear with a bias, K up to 126,977 here; the
GPU script checks the rest), and the designed rows that tell its x / y accumulators apart."""
import gzip
import json
import os

import sys

import numpy as np
import pytest

from bitorder.emulate import dot as D

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from gate_draws import draw  # noqa: E402

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks", "results", "2026-12-01-simt-probe")
FILES = ("probe_simt.json.gz", "call4/probe_simt.json.gz")


def _records():
    for name in FILES:
        with gzip.open(os.path.join(ROOT, name), "rt") as f:
            yield from json.load(f)["dot"]


def test_the_twin_gives_every_recorded_draw_bytes():
    checked = 0
    for rec in _records():
        c = rec["case"]
        if c["k"] > 130000:
            continue
        grid = [x["grid"][0] for x in rec["launch"] if "dot_kernel" in x["name"]][0]
        for key, bits in rec["draws"].items():
            seed, kind = key.split(":")
            a, b, bias = draw(c, int(seed), kind)
            got = np.asarray(D.matmul(a, b, D.DotOrder(grid), bias)).view(np.int16).ravel()[0]
            assert int(got) == bits[0], (c, key)
            checked += 1
    assert checked > 900


def test_one_chain_per_thread_would_miss_the_recorded_bytes():
    """fp16 past one pair per thread (K >= 126,977): some recorded draw tells the two accumulators
    from one chain (the fit's evidence for split_xy)."""
    for rec in _records():
        c = rec["case"]
        if c["dtype"] != "fp16" or c["op"] != "mm" or not 126977 <= c["k"] <= 200000:
            continue
        grid = [x["grid"][0] for x in rec["launch"] if "dot_kernel" in x["name"]][0]
        for key, bits in rec["draws"].items():
            a, b, _ = draw(c, int(key.split(":")[0]), key.split(":")[1])
            one = np.asarray(D.matmul(a, b, D.DotOrder(grid, split_xy=False))).view(np.int16).ravel()[0]
            if int(one) != bits[0]:
                return
    pytest.fail("no recorded draw tells one chain from two accumulators")


SURVEY = os.path.join(ROOT, "..", "2026-12-01c-gate", "survey-fallback.jsonl.gz")


def _walk_codes(rec):
    """{position: code} of a survey record's r_small walk (bitorder.cublas.survey: which positions it walked)."""
    from bitorder.cublas.walks import walk_positions
    c = rec["case"]
    cap = c["m"] if (c["m"] >= 8 or c["m"] >= c["n"]) else c["n"]
    pos = [p for p in walk_positions(c["k"], max(256, cap * 24)) if 0 < p < c["k"] - 1]
    codes, i = {}, 0
    for code, lo, hi in rec["walk_small"]:
        while i < len(pos) and pos[i] <= hi:
            codes[pos[i]] = code
            i += 1
    return codes


def test_strided_dots_read_single_elements_as_their_walks_show():
    """The 2026-12-01c survey's algorithm-14 calls with one vector strided along K (b row-major with
    M = 1, a transposed with N = 1): each walk (+L at m, -L at m + 1, r = 2^-17 at 0) is the twin's
    with one element a thread a step (vec 1); pairs (vec 2) miss 30 of the 54 (the other walks are
    too coarse to tell: positions only around multiples of 64 or more)."""
    from bitorder.cublas.walks import L_VALUE, R_SMALL
    with gzip.open(SURVEY, "rt") as f:
        recs = [json.loads(line) for line in f]
    fitted = missed_by_pairs = 0
    for rec in recs:
        ans, c = (rec.get("ran") or [{}])[0], rec["case"]
        if ans.get("algo_id") != 14 or "walk_small" not in rec or c["k"] > 70000:
            continue
        inc = c["n"] if c["m"] == 1 and c["layout"][1] == "n" else c["m"] if c["n"] == 1 and c["layout"][0] == "t" else 1
        if inc == 1:
            continue
        codes = _walk_codes(rec)
        sample = sorted(codes)[:24] + sorted(codes)[-8:]

        def walk(order):
            out = []
            for m in sample:
                prod = np.zeros(c["k"])
                prod[0], prod[m], prod[m + 1] = R_SMALL, L_VALUE, -L_VALUE
                v = float(D.accumulate(prod, np.ones(c["k"]), order))
                out.append(1 if v == R_SMALL else 0 if v == 0 else 2)
            return out
        want = [codes[m] for m in sample]
        grid = int(ans["split_k"])
        assert walk(D.DotOrder(grid, vec=1)) == want, c
        missed_by_pairs += walk(D.DotOrder(grid)) != want
        fitted += 1
    assert fitted >= 50 and missed_by_pairs >= 30, (fitted, missed_by_pairs)


def test_bad_input_is_refused():
    with pytest.raises(ValueError):
        D.DotOrder(0)
    with pytest.raises(ValueError):
        D.DotOrder(4, vec=4)
    with pytest.raises(ValueError):
        D.matmul(np.zeros((2, 3), np.float16), np.zeros((3, 1), np.float16), D.DotOrder(496))
