"""The walk's memos shared across walks (tree keys, registers held bit by bit) change no answer:
the same signatures cold (every memo empty before each kernel), warm, in another order, and with
the tree-key memo's generations flipping every few entries."""
import pytest
import triton
import triton.language as tl

import bitorder
from bitorder import check
from bitorder.check import allthreads, bits, memory, poly, symbolic
from bitorder.compiler.demo import ROW_SUM_SIGNATURE, row_sum

pytest.importorskip("torch")
signature_module = __import__("bitorder.check.signature", fromlist=["_MEMO"])


def _clear():
    symbolic._SEEN.clear()
    symbolic._SEEN_OLD.clear()
    symbolic._ONCE_SEEN.clear()
    poly._PKEY.clear()
    memory._SYMBOLIC.clear()
    memory._ELEMENT.clear()
    memory._BASES.clear()
    allthreads._SELP.clear()
    for memo in (bits._MADE, bits._INT_BITS, bits._INTEGER, bits._EQUAL, bits._FORM, bits._SELP_BITS,
                 signature_module._MEMO, signature_module._BY_TEXT):
        memo.clear()


@triton.jit
def _softmax(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * n + offs, mask=offs < n, other=float("-inf"))
    e = tl.exp(x - tl.max(x, axis=0))          # max.f32: the joined nodes
    tl.store(y_ptr + tl.program_id(0) * n + offs, e / tl.sum(e, axis=0), mask=offs < n)


def _kernels():
    sums = [bitorder.compile(row_sum, "sm90", signature=ROW_SUM_SIGNATURE, constexprs={"BLOCK": b, "PINNED": p},
                             num_warps=w) for b in (256, 1024) for p in (False, True) for w in (1, 4, 8)]
    return sums + [bitorder.compile(_softmax, "sm90", signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32"},
                                    constexprs={"BLOCK": 256}, num_warps=w) for w in (1, 2, 4)]


def _walked(ks):
    """Signatures with the text memos (not the walk's) emptied before each: every kernel walked."""
    out = []
    for k in ks:
        signature_module._MEMO.clear()
        signature_module._BY_TEXT.clear()
        out.append(check.signature(k))
    return out


def test_shared_memos_change_no_signature(monkeypatch):
    ks = _kernels()
    cold = []
    for k in ks:
        _clear()
        cold.append(check.signature(k))
    assert len(set(cold)) > 1 and all(s.startswith("v1:") for s in cold)
    _clear()
    assert _walked(ks) == cold                                  # warm, one order
    assert _walked(ks[::-1]) == cold[::-1]                      # warm, the other
    monkeypatch.setattr(symbolic, "_SEEN_MAX", 50)              # generations flip all the time
    _clear()
    assert _walked(ks) == cold
