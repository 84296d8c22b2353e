"""bitorder.matmul / linear refuse what they cannot do, with a clear error (no GPU needed)."""
import pytest

torch = pytest.importorskip("torch")
import bitorder  # noqa: E402


def test_cpu_tensors_are_refused():
    a = torch.zeros(4, 4, dtype=torch.float16)
    with pytest.raises(ValueError, match="CUDA tensors"):
        bitorder.matmul(a, a)


def test_other_inputs_are_refused():
    with pytest.raises(TypeError, match="torch tensors"):
        bitorder.matmul([[1.0]], [[1.0]])
    with pytest.raises(ValueError, match="weight must be 2-D"):
        bitorder.linear(torch.zeros(2, 3, dtype=torch.float16), torch.zeros(1, 4, 3, dtype=torch.float16))


def test_import_is_light():
    import subprocess
    import sys
    code = "import sys, bitorder; assert 'torch' not in sys.modules, 'import bitorder pulled in torch'"
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_unaligned_operand_addresses_fall_back():
    """An operand whose address is not 16-byte aligned (a view shifted by one element) runs
    cuBLAS itself: the H200 showed a plan missing torch's bytes there (2026-11-30)."""
    import torch
    from bitorder.gemm import api
    buf = torch.zeros(8 * 64 + 1, dtype=torch.float16)
    a = buf[1:].view(8, 64)
    b = torch.zeros(64, 32, dtype=torch.float16)
    p = api._plan2(a, b, None, "gemm")
    assert p.path == "cublas" and "not 16-byte aligned" in p.reason
    bias = torch.zeros(33, dtype=torch.float16)[1:]
    p = api._plan2(torch.zeros(8, 64, dtype=torch.float16), b, bias, "gemm_and_bias")
    assert p.path == "cublas" and "not 16-byte aligned" in p.reason
