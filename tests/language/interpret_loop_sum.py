"""benchmarks/pinned_suite.py's loop_sum (a pinned tl.sum inside a loop over column chunks)
under Triton's interpreter: one byte pattern over the kept block BR, equal to the CPU reference.
Prints 'patterns N equal B'; exits nonzero unless N == 1 and B."""
import os
import sys

assert os.environ.get("TRITON_INTERPRET") == "1", "run with TRITON_INTERPRET=1"
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(root, "tests"), os.path.join(root, "benchmarks")]
import interpret_shim  # noqa: E402,F401
import numpy as np  # noqa: E402
import torch  # noqa: E402
import triton  # noqa: E402

import bitorder  # noqa: E402
import pinned_suite as ps  # noqa: E402

print("bitorder from", bitorder.__file__)

g = torch.Generator().manual_seed(3)
x = torch.randn(8, 1024, generator=g) * torch.exp2(torch.randint(-8, 9, (8, 1024), generator=g).float())
outs = set()
for br in (1, 2, 4, 8):
    y = torch.empty(8)
    ps.loop_sum[(triton.cdiv(8, br),)](x, y, 8, 1024, BR=br, BC=256, PINNED=True)
    outs.add(y.numpy().tobytes())
same = outs == {ps.loop_sum_reference(x.numpy()).astype(np.float32).tobytes()}
print(f"patterns {len(outs)} equal {same}")
sys.exit(0 if len(outs) == 1 and same else 1)
