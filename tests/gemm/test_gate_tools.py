"""The GEMM gate's bookkeeping (benchmarks/gate_gemm.py), on the CPU: how cases are dealt to
worker processes and how their counters merge."""
import os
import sys

import pytest

pytest.importorskip("torch")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
import gate_gemm as gg  # noqa: E402
from bitorder.gemm.shapes import fuzz, realistic  # noqa: E402


def test_every_case_is_dealt_once_and_big_ones_to_few_workers():
    cases = fuzz("fp16", 600, 3, max_elements=1 << 28) + realistic("bf16", op="linear")
    indexed = [(i, "x", c) for i, c in enumerate(cases)]
    shares = gg.deal(indexed, 12)
    assert len(shares) == 12
    assert sorted(x[0] for s in shares for x in s) == list(range(len(cases)))
    big = {x[0] for x in indexed if gg.case_bytes(x[2]) > gg.BIG}
    assert big and all(x[0] in big for s in shares[:2] for x in s)
    assert not any(x[0] in big for s in shares[2:] for x in s)


def test_counters_merge_recursively():
    merged = gg.merge_counts([{"triton": 3, "why": {"a": 1}}, {"triton": 2, "cublas": 1, "why": {"a": 2, "b": 1}}])
    assert merged == {"triton": 5, "cublas": 1, "why": {"a": 3, "b": 1}}


def test_fuzz_keeps_the_issue_shares_under_the_memory_cap():
    """At least 5% deep-K draws, 20% with a dimension not a multiple of 8, 10% batched, all four
    layouts, even when draws too big for the device are redrawn (within their kind)."""
    cs = fuzz("fp16", 4000, 11, max_elements=1 << 28)
    share = lambda f: sum(map(f, cs)) / len(cs)  # noqa: E731
    assert share(lambda c: c.group == "fuzz-deep") >= 0.05
    assert share(lambda c: any(x % 8 for x in (c.m, c.n, c.k))) >= 0.20
    assert share(lambda c: c.batch > 1) >= 0.10
    assert {c.layout for c in cs} == {"nn", "nt", "tn", "tt"}
    assert all(c.batch * (c.m * c.k + c.k * c.n + c.m * c.n) <= 1 << 28 for c in cs)


def test_fp8_fuzz_follows_torchs_rules_and_the_issue_shares():
    import gate_fp8
    cases = gate_fp8.fuzz(3000, False, "bf16", 5)
    assert all(c.n % 16 == 0 and c.k % 16 == 0 and c.n >= 16 and c.k >= 16 for c in cases)   # torch's rule
    share = lambda f: sum(map(f, cases)) / len(cases)  # noqa: E731
    assert 0.2 <= share(lambda c: c.m % 8 != 0) <= 0.3
    assert 0.05 <= share(lambda c: c.group == "fuzz-deep") <= 0.08
    assert 0.07 <= share(lambda c: c.scaling == "row") <= 0.13
    assert 0.28 <= share(lambda c: c.bias) <= 0.39
    assert not any(c.bias for c in gate_fp8.fuzz(300, True, "fp32", 5))     # torch rejects a bias there
    assert len(gate_fp8.PAIRS) == 6 and gate_fp8.realistic_cases(True, "fp16")


def test_a_partial_fp8_gate_keeps_what_its_filters_name():
    """gate_fp8.select: one mode, M at most max_m, and the cases the tiles switch changes (fp8.ws_tile names a tile)."""
    import types
    import gate_fp8
    from bitorder.gemm import fp8
    cases = gate_fp8.build(types.SimpleNamespace(fuzz=300, seed=7))
    fast = gate_fp8.select(cases, "fast")
    assert fast and all(c.fast_accum for _, c in fast) and len(fast) + len(gate_fp8.select(cases, "slow")) == len(cases)
    assert all(c.m <= 64 for _, c in gate_fp8.select(cases, max_m=64))
    tiles = gate_fp8.select(cases, ws_tiles_only=True)
    assert 0 < len(tiles) < len(cases)
    assert all(fp8.ws_tile(c.m, c.n, not c.fast_accum, 132, c.k) for _, c in tiles)
    assert [x for x in cases if x in tiles] == tiles          # the shuffled order kept


def test_a_partial_fp8_gate_can_keep_the_persistent_tiles_alone():
    """--ws-persistent-only: the cases whose fp8.ws_tile is the persistent kernel (promoting, a wave or more)."""
    import types
    import gate_fp8
    from bitorder.gemm import fp8
    cases = gate_fp8.build(types.SimpleNamespace(fuzz=300, seed=7))
    tiles = gate_fp8.select(cases, ws_tiles_only=True)
    persistent = gate_fp8.select(cases, ws_persistent_only=True)
    assert 0 < len(persistent) < len(tiles) and all(x in tiles for x in persistent)
    assert all(fp8.ws_tile(c.m, c.n, True, 132, c.k)[3] and not c.fast_accum for _, c in persistent)


def test_bench_fp8_joins_slices_only_when_they_make_the_whole_set(tmp_path):
    """bench_fp8.merge: runs on slices (a budget may stop one early) join into one report of the whole set;
    a gap, an overlap, a missing tail or runs under other switches raise."""
    import json
    import bench_fp8

    def run(name, lo, n, total=5, tiles=True):
        rows = [{"group": "m:qkv", "m": 128, "n": 256, "k": 64 * (lo + i), "fast_accum": bool(i % 2), "gflop": 6.0,
                 "identical": True, "path": "triton", "desc": "d", "speed": None, "speed_graph": 0.9}
                for i in range(n)]
        path = tmp_path / name
        path.write_text(json.dumps({"device": "H200", "fp8_ws": True, "fp8_ws_tiles": tiles, "set": total,
                                    "slice": f"{lo}:{lo + 3}", "n": n, "rows": rows, "seconds": 1.0}))
        return str(path)

    report = bench_fp8.merge([run("b", 2, 3), run("a", 0, 2)], str(tmp_path / "out"))
    assert report["n"] == 5 and report["identical"] == 5 and [r["k"] for r in report["rows"]] == [0, 64, 128, 192, 256]
    assert [m.split(":")[0].rsplit("/", 1)[-1] for m in report["merged"]] == ["a", "b"]   # each run named by its file
    assert json.loads((tmp_path / "out" / "bench_fp8.json").read_text())["planned"] == 5
    for runs in ([run("a", 0, 2), run("c", 3, 2)], [run("a", 0, 2), run("d", 1, 4)], [run("a", 0, 2), run("e", 2, 2)],
                 [run("a", 0, 2), run("f", 2, 3, tiles=False)]):
        with pytest.raises(ValueError):
            bench_fp8.merge(runs, str(tmp_path / "bad"))

    # --replace: a whole run of one mode stands for that mode's rows (the same calls), nothing less
    def mode_run(name, ks, n=None, accum="slow"):
        rows = [{"group": "m:qkv", "m": 128, "n": 256, "k": k, "fast_accum": False, "gflop": 6.0, "identical": True,
                 "path": "triton", "desc": "d", "speed": None, "speed_graph": 0.95} for k in ks]
        path = tmp_path / name
        path.write_text(json.dumps({"device": "H200", "set": 5, "slice": "", "accum": accum, "rows": rows,
                                    "n": len(rows), "planned": n or len(rows), "seconds": 2.0}))
        return str(path)

    slow = [0, 128, 256]          # the even calls of run() are the slow ones (fast_accum = i % 2)
    report = bench_fp8.merge([run("a", 0, 2), run("b", 2, 3)], str(tmp_path / "out2"), [mode_run("s", slow)])
    assert report["n"] == 5 and sorted(r["speed_graph"] for r in report["rows"]) == [0.9, 0.9, 0.95, 0.95, 0.95]
    halves = [mode_run("h1", slow[:1]), mode_run("h2", slow[1:])]     # two slices of the slow calls add up
    assert bench_fp8.merge([run("a", 0, 2), run("b", 2, 3)], str(tmp_path / "out3"), halves)["n"] == 5
    for bad in ([mode_run("t", [0, 128])], [mode_run("v", slow, accum="both")], [mode_run("w", slow + [384])],
                halves[:1] + [mode_run("x", slow)]):
        with pytest.raises(ValueError):
            bench_fp8.merge([run("a", 0, 2), run("b", 2, 3)], str(tmp_path / "bad2"), bad)


def test_a_gate_json_case_rebuilds_the_case():
    """--rerun rebuilds cases from a gate JSON's case dicts."""
    from bitorder.gemm.shapes import Case
    for c in fuzz("bf16", 50, 9) + realistic("fp16", op="linear")[:5]:
        assert Case(**c.to_dict()) == c


def test_gate_reports_share_one_writer(tmp_path, monkeypatch, capsys):
    """gate_gemm and gate_fp8 write their JSON through gate_report and write_report."""
    import json
    from collections import Counter
    monkeypatch.setattr(gg.torch.cuda, "get_device_name", lambda: "stand-in")
    results = [{"case": {"m": 1}, "ok": True, "path": "triton", "reason": ""},
               {"case": {"m": 2}, "ok": False, "path": "cublas", "reason": "why", "desc": "d", "mismatch": {"wide": 3}}]
    errors = [{"case": {"m": 3}, "error": "OutOfMemoryError: x"}]
    report = gg.gate_report("g", 0.0, 4, results, errors, {"fuzz:fp16": Counter(cases=2)}, extra=1)
    mism = gg.write_report(str(tmp_path), report)
    back = json.loads((tmp_path / "g.json").read_text())
    assert [m["case"] for m in mism] == [{"m": 2}] and back["n_mismatches"] == 1 and back["error_cases"] == [{"m": 3}]
    assert back["fallback_reasons"] == {"why": 1} and back["extra"] == 1 and back["planned"] == 4
    assert back["fallbacks"] == {"all": 1, "cublas_defect": 0, "other": 1}
    tail = {"path": "cublas", "reason": "cuBLAS drops the last 8 of K=21768 products (nvjet split-K ...)"}
    assert gg.fallback_split(results + [tail]) == {"all": 2, "cublas_defect": 1, "other": 1}
    assert "MISMATCH {'m': 2}" in capsys.readouterr().out


def test_cases_past_the_deadline_are_listed_and_keep_their_set():
    """A share stops at the deadline and lists what it did not start, so a rerun (--rerun) can
    take the cases not reached as well as the errored ones, each under the set it came from."""
    cases = fuzz("fp16", 3, 5) + realistic("fp16", tokens=(1,), op="linear")[:1]
    share = [(i, "fuzz", c) for i, c in enumerate(cases)]
    done = gg.check_share(share, 1, 0.0, 0.0, "t", check=lambda c, s: {"ok": True})   # deadline passed
    assert done["results"] == [] and [i for i, _ in done["left"]] == [0, 1, 2, 3]
    assert [gg.set_of(c.to_dict()) for _, c in done["left"]] == ["fuzz"] * 3 + ["realistic"]
    assert gg.set_of({"group": "bias"}) == "bias" and gg.set_of({"group": "fuzz-deep"}) == "fuzz"


def test_compare_bench_picks_the_faster_tiles_only_when_the_slowest_group_gains(tmp_path):
    """benchmarks/compare_bench.py (next-1.sh picks call 2's tiles by its exit status)."""
    import json
    import subprocess
    import compare_bench

    def run(speeds, identical=True):
        rows = [{"dtype": "fp16", "group": f"m:{g}", "m": 512, "n": 4096 * (i + 1), "k": 4096, "gflop": 17.0 * (i + 1),
                 "path": "triton", "speed_graph": s, "identical": identical} for i, (g, s) in enumerate(speeds)]
        return {"rows": rows}

    base = run([("qkv", 0.70), ("down", 0.90)])
    better = run([("qkv", 0.85), ("down", 0.88)])
    c = compare_bench.compare(base, better)
    assert c["shapes"] == 2 and c["ratio_above"] > 1.0 and c["groups"]["fp16:qkv"] == (0.70, 0.85)
    script = os.path.join(os.path.dirname(compare_bench.__file__), "compare_bench.py")
    for new, want in ((better, 0), (run([("qkv", 0.69), ("down", 1.2)]), 1), (run([("qkv", 0.85), ("down", 0.88)], False), 1)):
        (tmp_path / "a.json").write_text(json.dumps(base))
        (tmp_path / "b.json").write_text(json.dumps(new))
        rc = subprocess.run([sys.executable, script, str(tmp_path / "a.json"), str(tmp_path / "b.json")],
                            capture_output=True).returncode
        assert rc == want


def test_a_rerun_refuses_to_overwrite_its_own_case_list(tmp_path, monkeypatch):
    """--rerun FILE with --out/--name naming FILE would overwrite the list before a second job reads it
    (2026-12-02g call 2's planted faults ran on empty lists so): a clear error, nothing run."""
    path = tmp_path / "ground.json"
    path.write_text('{"not_reached_cases": []}')
    monkeypatch.setattr(sys, "argv", ["gate_gemm.py", "--out", str(tmp_path), "--name", "ground", "--rerun", str(path)])
    with pytest.raises(SystemExit, match="name them apart"):
        gg.main()
    assert path.read_text() == '{"not_reached_cases": []}'


def _costs():
    from bitorder.gemm.fp8 import WsTile as W
    return {W(128, 2, 6, True): (0.9, 6.0), W(64, 2, 6, True): (0.55, 4.0), W(32, 2, 8, True): (0.4, 3.5),
            W(128, 1, 6, True): (0.6, 4.0), W(64, 1, 6, True): (0.35, 3.0), W(32, 1, 8, True): (0.3, 2.8),
            W(64, 1, 6, False, 168): (0.5, 3.0), W(32, 1, 8, False, 168): (0.45, 2.9)}


def _sweep_rows(costs, sms=132):
    """Sweep rows whose times follow fit_ws_tiles' model exactly under `costs` (torch at 10 us a round)."""
    import fit_ws_tiles as fw
    rows = []
    for m, n, k in [(128, 2048, 10944), (512, 4608, 3584), (8192, 8192, 2048), (32, 18176, 4544), (2048, 2304, 768),
                    (128, 37888, 3584), (512, 6144, 4096), (1024, 1024, 8192)]:
        ms = {fw._name(t): fw._rounds(m, n, t, sms) * (-(-k // 128) * i + f) / 1000 for t, (i, f) in costs.items()
              if t.consumers == 1 or m > 64}
        ms["default"] = ms[fw._name((128, 1 if m <= 64 else 2, 6, True))] * 1.1
        torch_ms = 0.9 * min(ms.values())
        rows.append({"m": m, "n": n, "k": k, "ms": ms, "speed": {v: torch_ms / t for v, t in ms.items()}})
    return rows


def test_the_tile_cost_fit_recovers_a_known_table_and_its_rule_picks_the_best():
    """fit_ws_tiles.fit on times made by its own model gives the model's table back; fp8.ws_cost_tile with it picks
    each shape's fastest tile, in-sample."""
    import fit_ws_tiles as fw
    costs = _costs()
    rows = _sweep_rows(costs)
    got = fw.fit(rows, list(costs), 132)
    for t, (i, f) in costs.items():
        assert got[t] == pytest.approx((i, f), rel=1e-6), t
    e = fw.evaluate(rows, got, 132)
    assert e["shapes"] == len(rows) and e["rule"] == pytest.approx(e["best"]) and e["rule"] > e["default"]


def test_the_sweep_takes_the_slowest_promoting_shapes_then_a_spread_of_the_rest():
    """fp8_ws_sweep.pick: distinct promoting shapes above 5 GFLOP, the slowest and controls spread across the rest,
    interleaved (two slow, one control) so that a budget cut keeps some of each."""
    import fp8_ws_sweep as sw
    rows = [{"m": 128 * (i % 7 + 1), "n": 4096, "k": 4096 + 128 * i, "fast_accum": i % 3 == 0, "gflop": 4 + i % 5,
             "speed_graph": 0.5 + i / 100} for i in range(60)]
    rows += [dict(rows[1])]        # a shape timed twice (two models' layers)
    picked = sw.pick({"rows": rows}, 5, 4)
    shapes = [s for s, _ in picked]
    assert len(shapes) == len(set(shapes)) == 9
    keep = [r for r in rows if not r["fast_accum"] and r["gflop"] > 5]
    assert all(any((r["m"], r["n"], r["k"]) == s for r in keep) for s in shapes)
    speeds = [v for _, v in picked]
    slow, spread = speeds[0:2] + speeds[3:5] + speeds[6:7], [speeds[2], speeds[5], speeds[7], speeds[8]]
    assert slow == sorted(slow) and max(slow) <= min(spread) and spread == sorted(spread)
    assert spread[-1] == max(r["speed_graph"] for r in keep)


def test_a_partial_fp8_gate_can_keep_the_cases_a_fitted_cost_changes(monkeypatch):
    """--ws-cost-changed: promoting cases whose tile differs with fp8.WS_PROMOTING_COST; none while it is empty."""
    import types
    import gate_fp8
    from bitorder.gemm import fp8
    cases = gate_fp8.build(types.SimpleNamespace(fuzz=200, seed=11))
    monkeypatch.setattr(fp8, "WS_PROMOTING_COST", ())
    assert gate_fp8.select(cases, ws_cost_changed=True) == []
    costs = _costs()
    monkeypatch.setattr(fp8, "WS_PROMOTING_COST", tuple(costs.items()))
    changed = gate_fp8.select(cases, ws_cost_changed=True)
    assert changed and all(not c.fast_accum for _, c in changed)
    assert all(fp8.ws_tile(c.m, c.n, True, 132, c.k) == fp8.ws_cost_tile(c.m, c.n, c.k, 132, costs) for _, c in changed)


def test_the_sweep_runs_every_tile_a_shape_takes_on_stub_kernels(monkeypatch):
    """fp8_ws_sweep.one_shape end to end on the CPU with the GPU parts stubbed: every TILES entry persistent (two
    consumers only past 64 rows) plus the default, each byte-checked and timed (a GPU minute is not spent on a
    script error)."""
    import types
    import torch
    import fp8_ws_sweep as sw
    calls = []
    monkeypatch.setattr(sw, "draw", lambda m, n, k, kind, seed: (torch.zeros(m, k), torch.zeros(k, n)))
    import fp8_gluon_check as fc
    monkeypatch.setattr(fc, "differ", lambda x, y: 0)
    for mod in (sw, fc):
        monkeypatch.setattr(mod, "graph_ms", lambda fn, rep: (fn(), 0.5)[1])
    monkeypatch.setattr(sw, "run_ws", lambda *a, **kw: (calls.append(kw), torch.zeros(1))[1])
    plan = types.SimpleNamespace(path="triton", desc=types.SimpleNamespace(family="plain", promotion=128), reason="")
    monkeypatch.setattr(sw.fp8, "plan", lambda *a, **k: plan)
    monkeypatch.setattr(sw.fp8, "scaled_mm", lambda *a, **k: torch.zeros(1))
    monkeypatch.setattr(torch, "_scaled_mm", lambda *a, **k: torch.zeros(1))
    tensor, randn = torch.tensor, torch.randn
    monkeypatch.setattr(torch, "tensor", lambda v, device=None: tensor(v))
    monkeypatch.setattr(torch, "randn", lambda *a, device=None, **k: randn(*a, **k))
    row = sw.one_shape(128, 2048, 1024, 1)
    assert sorted(row["speed"]) == sorted(["default", *map(sw.name, sw.TILES)]) and row["plain"]
    assert all(kw["promote"] == 128 and kw["persistent"] == (kw["maxnreg"] is None) for kw in calls)
    assert sorted(sw.one_shape(32, 2048, 1024, 1)["speed"]) == sorted(
        ["default", *(sw.name(t) for t in sw.TILES if t[1] == 1)])


def test_the_promoting_cost_table_is_the_fit_of_its_stored_sweep():
    """fp8.WS_PROMOTING_COST is fit_ws_tiles.fit of the H200 sweep stored beside it (benchmarks/results/
    2026-12-04c-gpu/call1), to the digits it was pasted with: the constant cannot drift from its evidence."""
    import fit_ws_tiles as fw
    from bitorder.gemm import fp8
    rows, tiles, sms = fw.load(os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks", "results",
                                            "2026-12-04c-gpu", "call1", "r", "sweep", "fp8_ws_sweep.json"))
    costs = fw.fit(rows, tiles, sms)
    table = dict(fp8.WS_PROMOTING_COST)
    assert list(costs) == list(table) and len(rows) == 56
    for tile, (interval, fixed) in costs.items():
        assert table[tile] == (round(interval, 4), round(fixed, 3)), tile
