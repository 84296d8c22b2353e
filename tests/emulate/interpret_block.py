"""The transformer block's stage kernels (benchmarks/block_stages.py) under Triton's interpreter
against their numpy twins, on the CPU. The interpreter computes in numpy float32 one operation
at a time (as the kernels do on the GPU with fp-fusion off), but its fma is a multiply and an
add, so the stages built on the shared exp (softmax, silu) are checked for their index work
only: within 2 fp16 ulps. Prints one line per stage; exits nonzero on a failure."""
import os
import sys

assert os.environ.get("TRITON_INTERPRET") == "1", "run with TRITON_INTERPRET=1"
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(root, "tests"), os.path.join(root, "benchmarks")]
import interpret_shim  # noqa: E402,F401
import numpy as np  # noqa: E402
import torch  # noqa: E402

import bitorder  # noqa: E402
import block_stages as st  # noqa: E402

print("bitorder from", bitorder.__file__, "stages from", st.__file__)
g = torch.Generator().manual_seed(0)
T, H, D, half = 16, 4, 64, 8
x = (torch.randn(T, D, generator=g)).half()
w = (1 + 0.1 * torch.randn(D, generator=g)).half()
failures = 0


def report(name, got, want, exact=True):
    global failures
    got = got.numpy()
    if exact:
        ok = np.array_equal(got.view(np.uint16), want.view(np.uint16))
    else:
        ok = np.allclose(got.astype(np.float32), want.astype(np.float32), rtol=2e-3, atol=1e-4)
    failures += not ok
    print(f"{name:10s} {'ok' if ok else 'FAIL'}")


y = torch.empty_like(x)
st.rmsnorm_kernel[(T,)](x, w, y, st.EPS, D=D)
report("rmsnorm", y, st.rmsnorm_twin(x.numpy(), w.numpy()))

q = torch.randn(T, H, 2 * half, generator=g).half()
cos, sin = st.rotary_tables(T, half)
y = torch.empty_like(q)
st.rotary_kernel[(T,)](q, torch.from_numpy(cos), torch.from_numpy(sin), y, H=H, HALF=half)
report("rotary", y, st.rotary_twin(q.numpy(), cos, sin))

a, b = torch.randn(1000, generator=g).half(), torch.randn(1000, generator=g).half()
y = torch.empty_like(a)
st.add_kernel[(1,)](a, b, y, 1000, B=1024)
report("add", y, st.add_twin(a.numpy(), b.numpy()))

s = (torch.randn(H, T, T, generator=g) * 4).half()
p = torch.empty_like(s)
st.softmax_kernel[(H * T,)](s, p, 0.125, T=T)
report("softmax", p, st.softmax_twin(s.numpy(), np.float32(0.125)), exact=False)

y = torch.empty_like(a)
st.silu_mul_kernel[(1,)](a, b, y, 1000, B=1024)
report("silu_mul", y, st.silu_mul_twin(a.numpy(), b.numpy()), exact=False)
print(f"{failures} failures")
sys.exit(1 if failures else 0)
