"""The pinned suite's phases and bookkeeping without a GPU: cases timed as their checks arrive, the
budget kept by the timing estimate, and a SIGTERM that writes every case checked so far."""
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "benchmarks"))
pytest.importorskip("torch")
import pinned_suite as ps  # noqa: E402


def checked(name, launches):
    """A phase-1 result as check_case returns it (launches: how many to time)."""
    r = {"name": name, "configs": launches // 2, "pinned": ["p"], "free": ["f1", "f2"], "pinned_invariant": True,
         "free_distinct": 2, "equals_cpu_reference": True, "seconds": {"check": 3.0},
         "ran": [[1, 1, 1, True, i % 2 == 0] for i in range(launches)]}
    return ps.set_times(r, [], [])


class Clock:
    """A clock that moves only when a fake timing says so."""
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


class Arrivals:
    """multiprocessing's imap iterator, faked: `ready` results have arrived, the rest have not."""
    def __init__(self, items, ready):
        self.items, self.ready, self.i = list(items), ready, 0

    def __iter__(self):
        return self

    def __next__(self):
        return self.next()

    def next(self, timeout=None):
        if self.i >= len(self.items):
            raise StopIteration
        if self.i >= self.ready:
            if timeout is None:
                raise AssertionError("the main loop would wait for a result that never comes")
            raise multiprocessing.TimeoutError
        self.i += 1
        return self.items[self.i - 1]


def test_each_case_is_timed_as_it_arrives_and_the_budget_skips_what_would_not_fit():
    """After a's timing (1 s per launch), c's 10 launches (estimate 10 s) do not fit the 6 s left:
    c stays checked, not timed, with the reason; d's 2 launches do fit; b never ran (None)."""
    clock = Clock()

    def time_fn(name, ran):
        clock.now += len(ran)
        return [1.0], [2.0], [0.5], [1.0]
    book, shown = ps.new_book(), []
    arrivals = [("a", checked("a", 2)), ("b", None), ("c", checked("c", 10)), ("d", checked("d", 2))]
    ps.time_as_checked(iter(arrivals), book, time_fn, deadline=clock.now + 8, clock=clock, show=shown.append)
    results, not_reached, not_timed = ps.ledger(["a", "b", "c", "d"], book)
    assert [r["name"] for r in results] == ["a", "c", "d"] and not_reached == ["b"] and not_timed == ["c"]
    a, c, d = results
    assert a["seconds"] == {"check": 3.0, "timing": 2.0} and a["speed_pinned_over_free"] == 0.5
    assert c["not_timed"] == "budget: 6.0 s left, timing estimated at 10.0 s" and "timing" not in c["seconds"]
    assert c["pinned_invariant"] and c["free_distinct"] == 2 and c["equals_cpu_reference"]
    assert d["seconds"]["timing"] == 2.0 and "not_timed" not in d and "ran" not in d
    assert len(shown) == 3 and "not timed: budget" in shown[1]
    assert ps.timing_estimate(None, 10) is None and ps.timing_estimate((2.0, 2), 10) == 10.0


def test_an_interruption_keeps_every_case_checked_so_far():
    """SIGTERM (SystemExit) while b is timed: a is written with its times; b and c (arrived, not
    timed) under not_timed with their verdicts; d, whose check has not arrived, under not_reached."""
    def time_fn(name, ran):
        if name == "b":
            raise SystemExit(143)
        return [1.0], [1.0], [1.0], [1.0]
    names = ["a", "b", "c", "d"]
    arrivals = Arrivals([(n, checked(n, 2)) for n in names], ready=3)
    book = ps.new_book()
    with pytest.raises(SystemExit):
        ps.time_as_checked(arrivals, book, time_fn)
    ps.drain(arrivals, book)
    s = ps.summarize(names, book, {"total": 9.0}, device="none")
    assert s["not_timed"] == ["b", "c"] and s["not_reached"] == ["d"] and s["kernels"] == 3
    assert s["device"] == "none" and s["seconds"] == {"total": 9.0} and s["all_equal_cpu_reference"] is True
    a, b, c = s["results"]
    assert a["speed_pinned_over_free"] == 1.0 and "not_timed" not in a
    assert b["not_timed"] == "interrupted while timing" and c["not_timed"] == "interrupted before its timing"
    assert all(r["pinned_invariant"] and r["free_distinct"] == 2 and "ran" not in r for r in (b, c))
    assert s["median_time_ratio"] == 1.0 and s["all_invariant"]


def test_a_sigterm_while_a_result_is_taken_waits_until_the_book_has_it():
    """A SIGTERM that lands while the main loop takes a result from the pool (here: inside the
    pool's next) is held until the result is booked, then raises: b is kept, not lost with c
    drained after it (the 2026-12-06 flake of the end-to-end test below)."""
    class Interrupting(Arrivals):
        def next(self, timeout=None):
            if self.i == 1:
                ps.on_sigterm()
            return super().next(timeout)
    names = ["a", "b", "c", "d"]
    arrivals, book = Interrupting([(n, checked(n, 2)) for n in names], ready=3), ps.new_book()
    with pytest.raises(SystemExit):
        ps.time_as_checked(arrivals, book, lambda name, ran: ([1.0], [1.0], [1.0], [1.0]))
    ps.drain(arrivals, book)
    s = ps.summarize(names, book, {"total": 1.0})
    assert [r["name"] for r in s["results"]] == ["a", "b", "c"] and s["not_reached"] == ["d"]
    assert s["not_timed"] == ["b", "c"] and s["results"][1]["not_timed"] == "interrupted before its timing"
    assert not ps._Stop.held and not ps._Stop.pending


def _run(tmp_path, args, env):
    return subprocess.Popen([sys.executable, os.path.join(HERE, "fake_suite_run.py"), "--out", str(tmp_path), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            env=dict(os.environ, **env))


def test_sigterm_to_the_process_group_writes_what_was_checked_and_exits_at_once(tmp_path):
    """main() with --jobs 3 and fake checks and timings (fake_suite_run.py): `timeout`'s SIGTERM to
    the whole group after two cases are timed kills the workers too. The suite still writes
    pinned.json (two cases timed, every other arrived case under not_timed, the rest not reached,
    phase-1 seconds kept) and exits 143 without waiting on the pool."""
    p = _run(tmp_path, ["--jobs", "3"], {"CHECK_S": "0.05", "TIME_S": "1.0"})
    timed = 0
    for line in p.stdout:
        timed += "(do_bench 1.000)" in line
        if timed == 2:
            break
    assert timed == 2, p.stderr.read()[-2000:]
    t0 = time.time()
    os.killpg(p.pid, signal.SIGTERM)
    try:
        rc = p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        raise
    assert rc == 143 and time.time() - t0 < 30
    s = json.loads((tmp_path / "pinned.json").read_text())
    names = list(ps.CASES)
    assert s["stopped"] == "SystemExit" and s["seconds"]["total"] > 0
    assert [r["name"] for r in s["results"]] + s["not_reached"] == names
    assert s["not_timed"] == names[2:len(s["results"])] and len(s["results"]) > 2
    for r in s["results"]:
        assert r["seconds"]["check"] == 0.05 and r["pinned_invariant"] and r["equals_cpu_reference"]
        assert ("timing" in r["seconds"]) == (r["name"] in names[:2])


def test_jobs_1_keeps_the_budget(tmp_path):
    """--jobs 1 (check, then time, one case after another) with a 2.5 s budget and 0.5 s timings:
    some cases timed, then one checked but not timed because its estimate (0.5 s) no longer fits,
    the rest not reached; the run ends within the budget (plus one check and some slack)."""
    p = _run(tmp_path, ["--jobs", "1", "--budget", "2.5"], {"CHECK_S": "0.05", "TIME_S": "0.5"})
    out, err = p.communicate(timeout=120)
    assert p.returncode == 0, out[-2000:] + err[-2000:]
    s = json.loads((tmp_path / "pinned.json").read_text())
    timed = [r["name"] for r in s["results"] if "timing" in r["seconds"]]
    assert 1 <= len(timed) < 12 and timed == list(ps.CASES)[:len(timed)]
    assert len(timed) + len(s["not_timed"]) + len(s["not_reached"]) == 12
    assert any(r.get("not_timed", "").startswith("budget: ") for r in s["results"]), s["results"]
    assert s["seconds"]["total"] < 2.5 + 0.5 and s["stopped"] is None


def test_a_case_checked_in_parts_merges_to_one_verdict():
    """Parts of one case (shares of its space, in several workers): configurations add up, digests
    unite (two pinned patterns across parts are a failed invariance, as in one part), the CPU
    reference holds only if it held in every part, and a part not reached is counted."""
    a, b = checked("x", 4), checked("x", 6)
    m = ps.merge_parts([a, b])
    assert m["configs"] == 5 and m["pinned_invariant"] and m["free_distinct"] == 2 and len(m["ran"]) == 10
    assert m["equals_cpu_reference"] is True and "parts_not_reached" not in m
    b2 = dict(checked("x", 2), pinned=["q"], equals_cpu_reference=False)
    m = ps.merge_parts([a, b2, None])
    assert not m["pinned_invariant"] and m["equals_cpu_reference"] is False and m["parts_not_reached"] == 1
    assert ps.merge_parts([None, None]) is None


def test_gather_yields_each_case_once_its_parts_are_in_and_drain_keeps_a_half_arrived_case():
    items = [("a", checked("a", 2)), ("a", checked("a", 2)), ("b", checked("b", 2)), ("b", checked("b", 2)),
             ("c", checked("c", 2)), ("c", checked("c", 2))]
    g = ps.gather_cases(Arrivals(items, ready=5), "abc", 2)
    book = ps.new_book()
    assert next(g)[0] == "a" and next(g)[0] == "b"
    ps.drain(g, book)    # c's first part arrived, its second not: c is kept, one part short
    assert list(book["checked"]) == ["c"] and book["checked"]["c"]["parts_not_reached"] == 1
    assert book["checked"]["c"]["not_timed"] == "interrupted before its timing"


def test_phase_one_in_two_shares_under_the_interpreter_merges_to_one_pattern_equal_to_the_reference():
    """check_case and merge_parts as the GPU run calls them (the inputs on the CPU, the kernels
    under Triton's interpreter): mid_sum's quick space in two shares, 24 configurations, one pinned
    byte pattern, equal to the CPU reference."""
    p = subprocess.run([sys.executable, os.path.join(HERE, "interpret_suite_parts.py")], capture_output=True,
                       text=True, timeout=600, env=dict(os.environ, TRITON_INTERPRET="1", PINNED_DEVICE="cpu"))
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    assert "parts [12, 12] configs 24 launches 48 invariant True reference True skipped 0" in p.stdout, p.stdout


def test_time_case_under_the_interpreter_names_its_configurations_and_digests_its_outputs():
    """time_case (shrunk timing sizes, do_bench faked) returns each mode's configurations in its
    times' order and the pinned outputs' agreement at the timing sizes; with no machine code to
    compare (the interpreter) every configuration is timed on its own."""
    p = subprocess.run([sys.executable, os.path.join(HERE, "interpret_time_case.py")], capture_output=True,
                       text=True, timeout=600, env=dict(os.environ, TRITON_INTERPRET="1", PINNED_DEVICE="cpu"))
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    assert "configs [[1, 1, 1, True], [1, 1, 1, False]] [[1, 1, 1, True], [1, 1, 1, False]]" in p.stdout, p.stdout
    assert "invariant True free 1 benched 4" in p.stdout, p.stdout
