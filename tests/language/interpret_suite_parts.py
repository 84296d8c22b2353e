"""benchmarks/pinned_suite.py's phase 1 as the GPU run takes it (check_case over shares of a case's
space, merged), on the CPU under Triton's interpreter (PINNED_DEVICE=cpu): mid_sum's kernel at 8
rows and 32 reduced elements (the suite's 512 x 128 take minutes here), its quick space in two shares. Prints the merged verdict;
tests/language/test_pinned_suite_phases.py reads it."""
import os
import sys

assert os.environ.get("TRITON_INTERPRET") == "1" and os.environ.get("PINNED_DEVICE") == "cpu"
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(root, "src"), os.path.join(root, "tests"), os.path.join(root, "benchmarks")]
import interpret_shim  # noqa: E402,F401
import pinned_suite as ps  # noqa: E402

import triton  # noqa: E402

kernel, _, _, _, block, blocks, ref, _ = ps.CASES["mid_sum"]
ps.CASES["mid_sum_8"] = (kernel, lambda s: [ps.wide((8, 32, 16), s)], (8, 16), lambda b: (triton.cdiv(8, b),),
                         block, blocks, ref, dict(A=8, B=32, C=16))
parts = [ps.check_case("mid_sum_8", True, (i, 2)) for i in range(2)]
m = ps.merge_parts(parts)
print("parts", [p["configs"] for p in parts], "configs", m["configs"], "launches", len(m["ran"]),
      "invariant", m["pinned_invariant"], "reference", m.get("equals_cpu_reference"),
      "skipped", len(m.get("skipped", [])))
