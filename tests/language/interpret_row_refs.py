"""benchmarks/pinned_suite.py's row kernels built on exp, log, division and square roots
(softmax, log_softmax, layernorm, rmsnorm, cross_entropy) under Triton's interpreter: one byte
pattern over the kept block BR, equal to the suite's CPU reference.

The interpreter computes in numpy float32 one operation at a time, as the H200 does for these
kernels (fusion cannot touch them: tests/language/test_pinned_suite_refs.py compares their SASS
with fp-fusion on and off), and its div_rn / sqrt_rn are numpy's IEEE ones. Its tl.fma alone is
not the GPU's: a product rounded, then an add. The shared exp and log are built on tl.fma, so this
harness gives the interpreter a correctly rounded fma (bitorder.math.fma32, which is what
fma.rn.f32 computes) and shows first that tl_exp / tl_log then equal the numpy twins everywhere it
looks. Prints one line per kernel, 'NAME patterns N equal B'; exits nonzero unless all are 1, True.
"""
import os
import sys

assert os.environ.get("TRITON_INTERPRET") == "1", "run with TRITON_INTERPRET=1"
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(root, "tests"), os.path.join(root, "benchmarks")]
import interpret_shim  # noqa: E402,F401
import numpy as np  # noqa: E402
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
import triton.runtime.interpreter as _interp  # noqa: E402

import bitorder  # noqa: E402
import pinned_suite as ps  # noqa: E402
from bitorder.math import exp as np_exp, fma32, log as np_log, tl_exp, tl_log  # noqa: E402

print("bitorder from", bitorder.__file__, "suite from", sys.modules["pinned_kernels"].__file__)
_plain_fma = _interp.InterpreterBuilder.create_fma


def _fma_rn(self, x, y, z):
    """fp32 fma rounded once (fma.rn.f32); other types as the interpreter had them."""
    if z.dtype.scalar == tl.float32:
        return _interp.TensorHandle(fma32(x.data, y.data, z.data), z.dtype.scalar)
    return _plain_fma(self, x, y, z)


@triton.jit
def _exp_log(x_ptr, e_ptr, l_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    tl.store(e_ptr + tl.arange(0, N), tl_exp(x))
    tl.store(l_ptr + tl.arange(0, N), tl_log(x))


def exp_log_equal():
    """(tl_exp equals numpy's exp, tl_log numpy's log) on 2^16 values over their whole ranges."""
    g = np.random.default_rng(5)
    x = np.concatenate([g.uniform(-110, 90, 1 << 14), g.standard_normal(1 << 14) * 4,
                        np.abs(g.standard_normal(1 << 14)) * 2.0 ** g.integers(-140, 120, 1 << 14),
                        g.uniform(0, 3000, 1 << 14)]).astype(np.float32)
    e, lg = torch.empty(x.size), torch.empty(x.size)
    _exp_log[(1,)](torch.from_numpy(x), e, lg, N=x.size)
    return (e.numpy().tobytes() == np_exp(x).tobytes(), lg.numpy().tobytes() == np_log(x).tobytes())


print("interpreter fma as a product then an add: exp, log equal %s %s" % exp_log_equal())
_interp.InterpreterBuilder.create_fma = _fma_rn
ok_exp, ok_log = exp_log_equal()
print(f"interpreter fma rounded once: exp, log equal {ok_exp} {ok_log}")
ok = ok_exp and ok_log

g = torch.Generator().manual_seed(11)
R, C = 8, 256
wide = torch.randn(R, C, generator=g) * torch.exp2(torch.randint(-8, 9, (R, C), generator=g).float())
logits = torch.randn(R, C, generator=g) * 4   # every exp term counts (wide rows are one-hot)
targets = torch.randint(0, C, (R,), generator=g, dtype=torch.int32)
CHECKS = {"softmax": [logits], "log_softmax": [logits], "layernorm": [wide], "rmsnorm": [wide],
          "cross_entropy": [logits, targets]}
for name, ins in CHECKS.items():
    kernel, _, out_shape, _, _, _, ref_fn, _ = ps.CASES[name]
    outs = set()
    for br in (1, 2, 4, 8):
        y = torch.empty((R, C) if len(out_shape) == 2 else (R,))
        kernel[(triton.cdiv(R, br),)](*ins, y, R, C=C, BR=br, PINNED=True)
        outs.add(y.numpy().tobytes())
    same = outs == {ref_fn(*(x.numpy() for x in ins)).astype(np.float32).tobytes()}
    print(f"{name} patterns {len(outs)} equal {same}")
    ok &= len(outs) == 1 and same
sys.exit(0 if ok else 1)
