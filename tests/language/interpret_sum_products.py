"""benchmarks/pinned_suite.py's sums of products (dot_rows: x * w along rows; ln_bwd_dw: dy * xh
down columns) under Triton's interpreter: one byte pattern over the kept block, equal to the
suite's CPU reference (fp32 products rounded to nearest, then the pinned tree).
Prints 'patterns N equal B' per kernel; exits nonzero unless every kernel has N == 1 and B."""
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
g = torch.Generator().manual_seed(4)


def wide(*shape):
    return torch.randn(*shape, generator=g) * torch.exp2(torch.randint(-8, 9, shape, generator=g).float())


ok = True
x, w = wide(8, 1024), wide(1024)
outs = set()
for br in (1, 2, 8):
    y = torch.empty(8)
    ps.dot_rows[(triton.cdiv(8, br),)](x, w, y, 8, C=1024, BR=br, PINNED=True)
    outs.add(y.numpy().tobytes())
same = outs == {ps.CASES["dot_rows"][6](x.numpy(), w.numpy()).astype(np.float32).tobytes()}
print(f"dot_rows patterns {len(outs)} equal {same}")
ok &= len(outs) == 1 and same

dy, xh = wide(256, 64), wide(256, 64)
outs = set()
for bc in (16, 64):
    y = torch.empty(64)
    ps.ln_bwd_dw[(triton.cdiv(64, bc),)](dy, xh, y, R=256, C=64, BC=bc, PINNED=True)
    outs.add(y.numpy().tobytes())
same = outs == {ps.CASES["ln_bwd_dw"][6](dy.numpy(), xh.numpy()).astype(np.float32).tobytes()}
print(f"ln_bwd_dw patterns {len(outs)} equal {same}")
ok &= len(outs) == 1 and same
sys.exit(0 if ok else 1)
