"""benchmarks/pinned_suite.py's main() with no GPU: check_case and time_case replaced by fakes
that only sleep (CHECK_S, TIME_S seconds a case, from the environment), the device name faked.
Spawned workers re-import this file as __mp_main__, so they get the fakes too. Used by
tests/language/test_pinned_suite_phases.py to stop a run with SIGTERM and read what it wrote.

    python fake_suite_run.py --out DIR [pinned_suite's arguments]
"""
import os
import sys
import time

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(root, "src"), os.path.join(root, "benchmarks")]
import pinned_suite as ps  # noqa: E402

CHECK_S, TIME_S = float(os.environ.get("CHECK_S", "0.05")), float(os.environ.get("TIME_S", "0.5"))


def fake_check(name, quick, part=(0, 1)):
    """What check_case returns, for two launches (one configuration, pinned and free)."""
    time.sleep(CHECK_S)
    r = {"name": name, "configs": 1, "pinned": ["p"], "free": ["f1", "f2"], "pinned_invariant": True,
         "free_distinct": 2, "equals_cpu_reference": True, "ran": [[1, 1, 1, True, True], [1, 1, 1, True, False]],
         "seconds": {"check": CHECK_S}}
    return ps.set_times(r, [], [])


def fake_time(name, ran, rep):
    """time_case's answer after TIME_S seconds: pinned 1.0 ms, free 1.0 ms."""
    time.sleep(TIME_S)
    return [1.0], [1.0], [0.9], [0.9]


ps.check_case, ps.time_case = fake_check, fake_time
ps.torch.cuda.get_device_name = lambda: "fake"

if __name__ == "__main__":
    print("suite from", ps.__file__, flush=True)
    sys.argv = ["pinned_suite.py", *sys.argv[1:]]
    sys.exit(ps.main())
