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


def test_bad_input_is_refused():
    with pytest.raises(ValueError):
        D.DotOrder(0)
    with pytest.raises(ValueError):
        D.matmul(np.zeros((2, 3), np.float16), np.zeros((3, 1), np.float16), D.DotOrder(496))
