"""Free-order reductions: maxima, arg-maxima, moments, Welford, norms, whole-tensor sums."""
from __future__ import annotations

import torch
import triton
import triton.language as tl

from . import Spec, space, wide, widths

R, C = 2048, 512


def _rows(kernel, name, outs, dtype=torch.float32, out_dtype=torch.float32, cols=C, blocks=(1, 2, 4, 8),
          extra=None, family="reduction"):
    """A kernel over BR rows of an (R, cols) input with one value per row out (or several)."""
    def make(device, seed):
        a = {"x_ptr": wide((R, cols), seed, device, dtype), "R": R, "C": cols}
        for o in outs:
            a[o] = torch.empty(R, device=device, dtype=out_dtype)
        return {**a, **(extra(device, seed) if extra else {})}
    return Spec(name, kernel, make, tuple(outs), lambda m: (triton.cdiv(m["R"], m["BR"]),),
                space({"BR": blocks}), family=family)


@triton.jit
def _load_rows(x_ptr, R, C: tl.constexpr, BR: tl.constexpr, other):
    r = tl.program_id(0) * BR + tl.arange(0, BR)
    x = tl.load(x_ptr + r[:, None] * C + tl.arange(0, C)[None, :], mask=r[:, None] < R, other=other)
    return r, x


@triton.jit
def row_max(x_ptr, y_ptr, R, C: tl.constexpr, BR: tl.constexpr):
    r, x = _load_rows(x_ptr, R, C, BR, -float("inf"))
    tl.store(y_ptr + r, tl.max(x, axis=1), mask=r < R)


@triton.jit
def row_argmax(x_ptr, i_ptr, R, C: tl.constexpr, BR: tl.constexpr):
    r, x = _load_rows(x_ptr, R, C, BR, -float("inf"))
    tl.store(i_ptr + r, tl.argmax(x, axis=1), mask=r < R)


@triton.jit
def row_absmax(x_ptr, y_ptr, R, C: tl.constexpr, BR: tl.constexpr):
    r, x = _load_rows(x_ptr, R, C, BR, 0.0)
    tl.store(y_ptr + r, tl.max(tl.abs(x), axis=1), mask=r < R)


@triton.jit
def row_mean_var(x_ptr, mean_ptr, var_ptr, R, C: tl.constexpr, BR: tl.constexpr):
    r, x = _load_rows(x_ptr, R, C, BR, 0.0)
    mean = tl.sum(x, axis=1) / C
    d = x - mean[:, None]
    tl.store(mean_ptr + r, mean, mask=r < R)
    tl.store(var_ptr + r, tl.sum(d * d, axis=1) / C, mask=r < R)


@triton.jit
def _welford_combine(m1, s1, n1, m2, s2, n2):
    n = n1 + n2
    w = tl.where(n == 0, 0.0, n2 / n)
    d = m2 - m1
    return m1 + d * w, s1 + s2 + d * d * n1 * w, n


@triton.jit
def welford(x_ptr, mean_ptr, var_ptr, R, C: tl.constexpr, BR: tl.constexpr):
    r, x = _load_rows(x_ptr, R, C, BR, 0.0)
    m, s, n = tl.reduce((x, tl.zeros_like(x), tl.full(x.shape, 1.0, tl.float32)), 1, _welford_combine)
    tl.store(mean_ptr + r, m, mask=r < R)
    tl.store(var_ptr + r, s / n, mask=r < R)


@triton.jit
def logsumexp(x_ptr, y_ptr, R, C: tl.constexpr, BR: tl.constexpr):
    r, x = _load_rows(x_ptr, R, C, BR, -float("inf"))
    m = tl.max(x, axis=1)
    tl.store(y_ptr + r, m + tl.log(tl.sum(tl.exp(x - m[:, None]), axis=1)), mask=r < R)


@triton.jit
def l2norm(x_ptr, y_ptr, R, C: tl.constexpr, BR: tl.constexpr):
    r, x = _load_rows(x_ptr, R, C, BR, 0.0)
    tl.store(y_ptr + r, tl.sqrt(tl.sum(x * x, axis=1)), mask=r < R)


@triton.jit
def row_sum_fp16(x_ptr, y_ptr, R, C: tl.constexpr, BR: tl.constexpr):
    r, x = _load_rows(x_ptr, R, C, BR, 0.0)
    tl.store(y_ptr + r, tl.sum(x.to(tl.float32), axis=1).to(tl.float16), mask=r < R)


@triton.jit
def col_max(x_ptr, y_ptr, R: tl.constexpr, C, BC: tl.constexpr):
    c = tl.program_id(0) * BC + tl.arange(0, BC)
    x = tl.load(x_ptr + tl.arange(0, R)[:, None] * C + c[None, :], mask=c[None, :] < C, other=-float("inf"))
    tl.store(y_ptr + c, tl.max(x, axis=0), mask=c < C)


@triton.jit
def block_sums(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    """Partial sums of a flat tensor, one per program (the first pass of a whole-tensor sum)."""
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + tl.program_id(0), tl.sum(tl.load(x_ptr + o, mask=o < N, other=0.0), axis=0))


@triton.jit
def row_sum_loop(x_ptr, y_ptr, R, C, BR: tl.constexpr, BC: tl.constexpr):
    """A row sum over a runtime number of columns, BC at a time (a loop with a masked tail)."""
    r = tl.program_id(0) * BR + tl.arange(0, BR)
    acc = tl.zeros((BR, BC), tl.float32)
    for c0 in range(0, C, BC):
        c = c0 + tl.arange(0, BC)
        acc += tl.load(x_ptr + r[:, None] * C + c[None, :], mask=(r[:, None] < R) & (c[None, :] < C), other=0.0)
    tl.store(y_ptr + r, tl.sum(acc, axis=1), mask=r < R)


@triton.jit
def loop_assoc(x_ptr, y_ptr, N, C, BLOCK: tl.constexpr, ORDER: tl.constexpr):
    """Column sums over a runtime number of rows C (even), two rows a turn, (acc + a) + b or acc + (a + b):
    configurations that differ only inside the loop's update (the fold's key must hold it)."""
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), tl.float32)
    for r in range(0, C, 2):
        a = tl.load(x_ptr + r * N + o, mask=o < N, other=0.0).to(tl.float32)
        b = tl.load(x_ptr + (r + 1) * N + o, mask=o < N, other=0.0).to(tl.float32)
        if ORDER == 0:
            acc = (acc + a) + b
        else:
            acc = acc + (a + b)
    tl.store(y_ptr + o, acc, mask=o < N)


@triton.jit
def sum_last_3d(x_ptr, y_ptr, A, B: tl.constexpr, C: tl.constexpr, BA: tl.constexpr):
    a = tl.program_id(0) * BA + tl.arange(0, BA)
    i = a[:, None, None] * B * C + tl.arange(0, B)[None, :, None] * C + tl.arange(0, C)[None, None, :]
    x = tl.load(x_ptr + i, mask=a[:, None, None] < A, other=0.0)
    tl.store(y_ptr + a[:, None] * B + tl.arange(0, B)[None, :], tl.sum(x, axis=2), mask=a[:, None] < A)


@triton.jit
def onehot_sum(t_ptr, s_ptr, x_ptr, y_ptr, N: tl.constexpr, BLOCK: tl.constexpr, GROUP: tl.constexpr):
    """nll_loss backward's sum: where(r // GROUP == target, ...) over a row, BLOCK at a time. GROUP 1:
    `-s` at the target alone (one-hot, any order gives its bits); GROUP 8: eight loaded values a row
    (not one-hot: the order shows)."""
    row = tl.program_id(0)
    target = tl.load(t_ptr + row)
    acc = tl.zeros([BLOCK], tl.float32)
    for off in range(0, N, BLOCK):
        r = off + tl.arange(0, BLOCK)
        if GROUP == 1:
            acc += tl.where(r == target, -1.0, 0.0) * tl.load(s_ptr + row)
        else:
            acc += tl.where(r // GROUP == target, tl.load(x_ptr + row * N + r), 0.0)
    tl.store(y_ptr + row, tl.sum(acc, 0))


@triton.jit
def centered_rows(x_ptr, y_ptr, R0_BLOCK: tl.constexpr):
    """x - mean(x) over rows of a constant 20,000 columns in two loops of R0_BLOCK (TorchInductor's looped
    normalisations): the first sums, the second stores every element (check/storefold.py folds it)."""
    row = tl.program_id(0)
    acc = tl.zeros([R0_BLOCK], tl.float32)
    for off in range(0, 20000, R0_BLOCK):
        c = off + tl.arange(0, R0_BLOCK)
        acc += tl.load(x_ptr + row * 20000 + c, mask=c < 20000, other=0.0).to(tl.float32)
    mean = tl.sum(acc, 0) / 20000
    for off in range(0, 20000, R0_BLOCK):
        c = off + tl.arange(0, R0_BLOCK)
        x = tl.load(x_ptr + row * 20000 + c, mask=c < 20000, other=0.0).to(tl.float32)
        tl.store(y_ptr + row * 20000 + c, x - mean, mask=c < 20000)


def _centered_rows():
    rows = 256

    def make(device, seed):
        return {"x_ptr": wide((rows, 20000), seed, device), "y_ptr": torch.empty((rows, 20000), device=device)}
    return Spec("centered_rows", centered_rows, make, ("y_ptr",), lambda m: (rows,),
                space({"R0_BLOCK": (128, 256, 512, 1024)}, stages=(1, 2)), family="normalization")


def _onehot(name, group):
    rows, n = 256, 1024

    def make(device, seed):
        g = torch.Generator(device=device).manual_seed(seed)
        return {"t_ptr": torch.randint(0, n // group, (rows,), device=device, generator=g),
                "s_ptr": wide((rows,), seed + 1, device), "x_ptr": wide((rows, n), seed + 2, device),
                "y_ptr": torch.empty(rows, device=device)}
    return Spec(name, onehot_sum, make, ("y_ptr",), lambda m: (rows,),
                space({"BLOCK": (128, 256, 512, 1024)}, stages=(1, 2)), fixed={"N": n, "GROUP": group})


def _col_max():
    def make(device, seed):
        return {"x_ptr": wide((256, 4096), seed, device), "y_ptr": torch.empty(4096, device=device), "R": 256,
                "C": 4096}
    return Spec("col_max", col_max, make, ("y_ptr",), lambda m: (triton.cdiv(m["C"], m["BC"]),),
                space({"BC": (16, 32, 64)}))


def _block_sums():
    n = 1 << 20

    def make(device, seed):
        return {"x_ptr": wide((n,), seed, device), "y_ptr": torch.empty(n // 256, device=device), "N": n}
    return Spec("block_sums", block_sums, make, ("y_ptr",), lambda m: (triton.cdiv(m["N"], m["BLOCK"]),),
                space({"BLOCK": (256, 1024)}))


def _row_sum_loop():
    def make(device, seed):
        return {"x_ptr": wide((R, 3000), seed, device), "y_ptr": torch.empty(R, device=device), "R": R, "C": 3000}
    return Spec("row_sum_loop", row_sum_loop, make, ("y_ptr",), lambda m: (triton.cdiv(m["R"], m["BR"]),),
                space({"BR": (1, 4), "BC": (256, 512)}, stages=(1, 2, 3)))


def _loop_assoc():
    def make(device, seed):
        return {"x_ptr": wide((64, 4096), seed, device), "y_ptr": torch.empty(4096, device=device), "N": 4096, "C": 64}
    return Spec("loop_assoc", loop_assoc, make, ("y_ptr",), lambda m: (triton.cdiv(m["N"], m["BLOCK"]),),
                space({"BLOCK": (256, 1024), "ORDER": (0, 1)}, stages=(1, 2)))


def _sum_last_3d():
    def make(device, seed):
        return {"x_ptr": wide((1024, 8, 128), seed, device), "y_ptr": torch.empty((1024, 8), device=device),
                "A": 1024, "B": 8, "C": 128}
    return Spec("sum_last_3d", sum_last_3d, make, ("y_ptr",), lambda m: (triton.cdiv(m["A"], m["BA"]),),
                space({"BA": (1, 2, 4)}))


def _widths(kernel, name, outs, **kw):
    """_rows at every width of ROW_WIDTHS."""
    return widths(lambda w, c, b: _rows(kernel, name + w, outs, cols=c, blocks=b, **kw))


SPECS = [
    *_widths(row_max, "row_max", ["y_ptr"]),
    *_widths(row_argmax, "row_argmax", ["i_ptr"], out_dtype=torch.int32),
    *_widths(row_absmax, "row_absmax", ["y_ptr"]),
    *_widths(row_mean_var, "row_mean_var", ["mean_ptr", "var_ptr"]),
    *_widths(welford, "welford", ["mean_ptr", "var_ptr"]),
    *_widths(logsumexp, "logsumexp", ["y_ptr"]),
    *_widths(l2norm, "l2norm", ["y_ptr"]),
    _rows(row_sum_fp16, "row_sum_fp16", ["y_ptr"], dtype=torch.float16, out_dtype=torch.float16, cols=1024),
    _col_max(), _block_sums(), _row_sum_loop(), _loop_assoc(), _sum_last_3d(),
    _onehot("onehot_sum", 1), _onehot("grouped_sum", 8), _centered_rows(),
]
