"""benchmarks/gate_gemm.draw's operands built by numpy (bitorder.draws gives the same bits as the
GPU's torch_draw): for tests that replay recorded H200 bytes on the CPU twin."""
from bitorder.draws import numpy_draw


def operand(case: dict, rows: int, cols: int, trans: bool, seed: int, tid: int, kind: str):
    x = numpy_draw((cols, rows) if trans else (rows, cols), case["dtype"], seed, tid,
                   "wide" if kind == "wide" else "narrow")
    return (x.T if trans else x).copy()


def draw(case: dict, seed: int, kind: str):
    """(a, b, bias) as gate_gemm.draw makes them for a batch-1 case (a dict: dtype, m, n, k, layout,
    op): a narrow, wide or cancelling draw (the second half of K negates the first)."""
    a = operand(case, case["m"], case["k"], case["layout"][0] == "t", seed, 1, kind)
    b = operand(case, case["k"], case["n"], case["layout"][1] == "t", seed, 2, kind)
    if kind == "cancel" and case["k"] >= 2:
        h = case["k"] // 2
        a[:, h:2 * h], b[h:2 * h, :] = -a[:, :h], b[:h, :]
    bias = numpy_draw((case["n"],), case["dtype"], seed, 3, "narrow") if case["op"] == "linear_bias" else None
    return a, b, bias
