"""pinned_suite.time_case on the CPU under Triton's interpreter (PINNED_DEVICE=cpu), with do_bench
faked and timing sizes shrunk: the timed configurations come back in the times' order, the
outputs at the timing sizes are digested, and a configuration is timed once per binary.
Run by tests/language/test_pinned_suite_phases.py."""
import os
import sys

assert os.environ.get("TRITON_INTERPRET") == "1" and os.environ.get("PINNED_DEVICE") == "cpu"
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(root, "src"), os.path.join(root, "benchmarks")]
import triton  # noqa: E402

import pinned_kernels as pk  # noqa: E402
import pinned_suite as ps  # noqa: E402

calls = []
ps._bench = lambda fn, rep: calls.append(1) or (1.0, 0.5)
ps.TIMING["mid_sum"] = (lambda s: [pk.wide((32, 32, 16), s)], (32, 16), lambda b: (triton.cdiv(32, b),),
                        dict(A=32, B=32, C=16))
ran = [[1, 1, 1, al, p] for al in (True, False) for p in (True, False)]
r = ps.set_times({}, *ps.time_case("mid_sum", ran, 1))
print("configs", r["timed_configs"]["pinned"], r["timed_configs"]["free"])
print("invariant", r["timing_pinned_invariant"], "free", r["timing_free_distinct"], "benched", len(calls))
