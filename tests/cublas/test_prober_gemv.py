"""`bitorder probe gemv-fit` on the CPU: rule entries from designed gemv records (gemv_fit.rules_from).

A simulated black box (records made by simt.matmul under known orders) gives back each key's order,
merged across the keys one rule serves; records that pin different orders leave their key undecided;
batched dots are reported apart with their K range. Then the command end to end on four records of
the 2026-12-01f probe: the packaged rules agree with them, and a record whose bits were swapped
makes the check fail."""
import gzip
import json
import os
import subprocess
import sys

import pytest

from bitorder.cublas import gemv_fit as F
from bitorder.cublas import prober_gemv as P
from bitorder.emulate.simt import GemvOrder
from bitorder.gemm.shapes import Case

HERE = os.path.dirname(os.path.abspath(__file__))
PROBE_F = os.path.join(HERE, "..", "..", "benchmarks", "results", "2026-12-01f-probe", "probe_gemv.json.gz")
SPLIT = ("gemvx::kernel<int,int,h,f,f,f,false,true,false,false,8,false>(cublasGemvParamsEx<...>, cublasGemv...)",
         "void cublasLt::splitKreduce_kernel<...>")


def record(case, order, option, split=1, **kw):
    rec = P.simulate_record(case, order, **({"kernels": SPLIT} if split > 1 else {}), **kw)
    return {**rec, "answer": {"algo_id": 13, "custom_option": option, "split_k": split, "reduction_scheme": 0}}


def shape(e):
    return (e["lanes"], e["chunk"], e["cap"], e["fold"])


def test_a_simulated_black_box_gives_back_each_keys_order():
    # (the cap of 64 read: 75 a lane is not contiguous, 25 a lane is not in chunks of 64)
    recs = [record(Case("mm", "fp16", 1, 9, 300, 1, "nn"), GemvOrder(lanes=4, cap=64), 40),
            record(Case("mm", "fp16", 1, 9, 100, 1, "nt"), GemvOrder(lanes=4, cap=64), 40),
            record(Case("bmm", "bf16", 7, 1, 182, 3, "tn"), GemvOrder(lanes=16, chunk=1), 89),     # two keys, one rule
            record(Case("linear_bias", "bf16", 1, 5, 203, 1, "nt"), GemvOrder(lanes=16, chunk=1, bias="out"), 89),
            record(Case("mm", "fp16", 6, 1, 240, 1, "nn"), GemvOrder(lanes=8, fold="seq"), 2),  # 30 a lane: cap unread
            record(Case("mm", "fp16", 1, 4, 600, 1, "tt"), GemvOrder(lanes=4, chunk=1, span=200), 97, split=3),
            record(Case("mm", "fp16", 5, 1, 99, 1, "nn"), GemvOrder(lanes=2, fold="seq"), 48),
            record(Case("bmm", "fp16", 1, 1, 12, 4, "nn"), GemvOrder(lanes=2, cap=64), 10),
            record(Case("bmm", "fp16", 1, 1, 40, 3, "nn"), GemvOrder(lanes=2, cap=64), 10)]
    seen = []
    out = F.rules_from(recs, progress=lambda i, n: seen.append((i, n)))
    assert seen[-1] == (len(recs), len(recs)) and not out["undecided"]
    got = {(e["option"], e["dtype"]): e for e in out["gemv"]}
    assert {k: shape(e) for k, e in got.items()} == {
        (40, "fp16"): (4, None, 64, "down"), (89, "bf16"): (16, 1, None, "down"), (2, "fp16"): (8, None, 64, "seq"),
        (97, "fp16"): (4, 1, None, "down"),
        (48, "fp16"): (2, None, 64, "down")}      # 2 lanes meet in one add: "seq" and "down" are one tree
    assert list(got[(40, "fp16")]) == ["option", "dtype", "lanes", "chunk", "cap", "fold", "block", "max_k",
                                       "max_outputs", "verified", "kernel", "records", "probe"]
    assert got[(40, "fp16")]["records"] == ["0", "1"] and got[(89, "bf16")]["records"] == ["2", "3"]
    assert got[(40, "fp16")]["max_k"] is None and got[(2, "fp16")]["max_k"] == 512      # read vs not read
    assert got[(97, "fp16")]["kernel"].endswith("+ splitKreduce") and not any(e["verified"] for e in got.values())
    (dots,) = out["batched_dots"]
    assert (dots["option"], shape(dots), dots["k_range"]) == (10, (2, None, 64, "down"), [12, 40])


def test_records_that_pin_other_orders_leave_their_key_undecided():
    case = Case("mm", "fp16", 1, 9, 150, 1, "nn")
    recs = [record(case, GemvOrder(lanes=8, chunk=1), 69), record(case, GemvOrder(lanes=4, chunk=1), 69),
            record(case, GemvOrder(lanes=8, chunk=1), 52),                                  # one key each, disagreeing
            record(Case("bmm", "fp16", 1, 9, 150, 2, "nn"), GemvOrder(lanes=16, chunk=1), 52)]
    out = F.rules_from(recs)
    assert not out["gemv"]
    why = {(u["key"]["option"], u["key"]["batched"]): (u["why"], u["records"], u["orders"]) for u in out["undecided"]}
    assert why[(69, False)] == ("no order left", ["0", "1"], [])
    assert why[(52, False)][0] == why[(52, True)][0] == "another key of the option and dtype keeps another order"
    assert why[(52, True)][2] == [{"lanes": 16, "chunk": 1, "cap": None, "fold": "down"}]


def _records_file(tmp_path, picks, plant=False):
    with gzip.open(PROBE_F, "rt") as f:
        recs = json.load(f)["records"]
    chosen = [recs[i] for i in picks]
    if plant:       # two experiments' outputs swapped in the first record
        bits = chosen[0]["bits"]
        i, j = next((i, j) for i in range(len(bits)) for j in range(i + 1, len(bits)) if bits[i] != bits[j])
        bits[i], bits[j] = bits[j], bits[i]
    path = tmp_path / ("planted.json" if plant else "probe_gemv.json")
    path.write_text(json.dumps({"records": chosen}))
    return path


def _fit(path, out):
    return subprocess.run([sys.executable, "-m", "bitorder", "probe", "gemv-fit", str(path), "--out", str(out), "--check"],
                          capture_output=True, text=True, env={**os.environ, "COLUMNS": "200"})


def test_probe_help_lists_the_gemv_verbs():
    p = subprocess.run([sys.executable, "-m", "bitorder", "probe", "--help"], capture_output=True, text=True)
    assert p.returncode == 0 and "bitorder probe gemv --out DIR" in p.stdout and "bitorder probe gemv-fit" in p.stdout


@pytest.mark.skipif(not os.path.exists(PROBE_F), reason="the 2026-12-01f probe's records are not here")
def test_gemv_fit_checks_the_packaged_rules_on_recorded_probes(tmp_path):
    # 2026-12-01f records 21 (option 40 fp16, K 99), 63 (95 fp16, K 137), 12 and 14 (option 10's dots, K 4 and 6)
    out = tmp_path / "rules.json"
    p = _fit(_records_file(tmp_path, (21, 63, 12, 14)), out)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "DISAGREES" not in p.stdout and "check: agrees" in p.stdout
    text = out.read_text()
    rules = json.loads(text)
    assert {(e["option"], e["dtype"], shape(e)) for e in rules["gemv"]} == {
        (40, "fp16", (4, None, 64, "down")), (95, "fp16", (2, 1, None, "down"))}
    assert rules["batched_dots"][0]["k_range"] == [4, 6] and rules["undecided"] == []
    lines = [line.strip().rstrip(",") for line in text.splitlines()]
    assert all(json.dumps(e) in lines for e in rules["gemv"] + rules["batched_dots"])     # an entry a line
    p = _fit(_records_file(tmp_path, (21, 22), plant=True), out)
    assert p.returncode == 1 and "DISAGREES" in p.stdout, p.stdout + p.stderr
    assert json.loads(out.read_text())["gemv"] == []          # the key is undecided too


def test_gemv_fit_names_a_file_that_is_not_a_probes_records(tmp_path):
    """A fit's output (or an older probe's file) handed to gemv-fit: exit 2 and the file named, no traceback."""
    for body in ({"rules": []}, {"records": [{"bits": "[]"}]}, [1, 2]):
        path = tmp_path / "probe_gemv_fit.json"
        path.write_text(json.dumps(body))
        p = subprocess.run([sys.executable, "-m", "bitorder", "probe", "gemv-fit", str(path)], capture_output=True,
                           text=True)
        assert p.returncode == 2 and "probe_gemv_fit.json" in p.stdout and "Traceback" not in p.stdout + p.stderr, p
