"""Predicates packed into integers (check/bits.py) and the normal forms of comparisons and
negations (bits.int_form, predicates.float_form, predicates.negate): equal names only for equal
values, checked by brute force against PTX's semantics, and near misses kept apart."""
import itertools
import math
import os
import random
import sys

import pytest

from bitorder import check
from bitorder.check.bits import Bits, int_form
from bitorder.check.poly import padd, pmul, short
from bitorder.check.predicates import float_form, negate

from test_dataflow import HEAD, kernel

HERE = os.path.dirname(os.path.abspath(__file__))


# -- integer comparisons ---------------------------------------------------------------------------

def _ucmp(cmp, a, b, signed, width):
    m = 1 << width
    a, b = a % m, b % m
    if signed:
        a, b = (a - m if a >= m // 2 else a), (b - m if b >= m // 2 else b)
    return {"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b,
            "lo": a < b, "ls": a <= b, "hi": a > b, "hs": a >= b}[cmp]


def test_unsigned_and_untyped_comparisons_have_exact_forms_modulo_the_width():
    """Register semantics, wrapping included: x and y range past 2^8, the widths are 8 and 16
    bits, and two comparisons with one form are true for exactly the same (x, y); a form's
    negation is the complement (or an opaque "not")."""
    x, y = {("x",): 1}, {("y",): 1}
    lin = lambda cx, cy, k: padd(padd(pmul(x, cx), pmul(y, cy)), k)  # noqa: E731
    grid = [(a, b) for a in range(-300, 300, 7) for b in range(-40, 300, 13)]
    forms, pairs = {}, 0
    for ty, cmp, (ca, cb, ka, kb) in itertools.product(
            ("b8", "u8", "b16", "u16"), ("eq", "ne", "lt", "le", "gt", "ge", "lo", "hs"),
            itertools.product((1, 2, -1), (0, 1, 3), (0, 5, 256), (0, -3, 251))):
        if ty[0] == "b" and cmp not in ("eq", "ne"):
            continue
        width = int(ty[1:])
        a, b = lin(ca, 0, ka), lin(0, cb, kb)
        if isinstance(a, int) and isinstance(b, int):
            continue
        key = int_form(f"setp.{cmp}.{ty}", cmp, a, b)
        truth = tuple(_ucmp(cmp, ca * u + ka, cb * v + kb, False, width) for u, v in grid)
        if isinstance(key, bool):
            assert set(truth) == {key}
            continue
        pairs += key in forms
        assert forms.setdefault(key, truth) == truth, (ty, cmp, ca, cb, ka, kb, key)
    assert pairs > 100       # the forms did meet (operand order, gt/lt mirrors)
    for key, truth in forms.items():
        neg = negate(key)
        assert neg[0] == "not" or forms.get(neg, tuple(not t for t in truth)) == tuple(not t for t in truth)
        assert short(str(negate(neg))) == short(str(key))   # not not p names p


def test_comparison_near_misses_keep_different_forms():
    t, c = {("t",): 1}, 496
    eq = int_form("setp.eq.b32", "eq", t, c)
    assert eq == int_form("setp.eq.b32", "eq", c, t) == int_form("setp.eq.u32", "eq", c, t)   # same bits compared
    assert eq != int_form("setp.ne.b32", "ne", t, c)            # ne vs eq, same operands
    assert eq != int_form("setp.eq.b32", "eq", t, 497)          # another constant
    assert eq != int_form("setp.eq.b16", "eq", t, c)            # another width
    assert eq != int_form("setp.eq.s32", "eq", t, c)            # signed: the integer form, never shared
    lt = int_form("setp.lt.u32", "lt", t, c)
    assert lt == int_form("setp.gt.u32", "gt", c, t) and lt != int_form("setp.gt.u32", "gt", t, c)
    assert lt != int_form("setp.lt.s32", "lt", t, c) and lt != int_form("setp.le.u32", "le", t, c)
    assert negate(eq) == int_form("setp.ne.b32", "ne", c, t)
    assert negate(lt) == int_form("setp.le.u32", "le", c, t)   # not (t < c) is c <= t


# -- float comparisons ---------------------------------------------------------------------------

_F = [0.0, -0.0, 1.0, -1.0, 2.5, math.inf, -math.inf, math.nan]


def _fcmp(cmp, a, b):
    nan = math.isnan(a) or math.isnan(b)
    base = cmp.rstrip("u") if cmp not in ("num", "nan") else cmp
    ordered = {"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b,
               "num": True, "nan": False}[base]
    if cmp == "nan":
        return nan
    if cmp == "num":
        return not nan
    return (not nan and ordered) if not cmp.endswith("u") else (nan or ordered)


def test_float_comparisons_mirror_and_complement_exactly():
    """setp's IEEE semantics (NaN unordered, -0 == +0): operands in either order, every
    comparison, its form; equal forms agree on every pair, a negation is the complement."""
    cmps = ["eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"]
    pairs = [(i, j) for i in range(len(_F)) for j in range(len(_F))]
    forms = {}
    for cmp, (l, r) in itertools.product(cmps, (("A", "B"), ("B", "A"), ("A", "A"))):
        key = float_form(f"setp.{cmp}.f32", l, r)
        truth = tuple(_fcmp(cmp, dict(A=_F[i], B=_F[j])[l], dict(A=_F[i], B=_F[j])[r]) for i, j in pairs)
        assert forms.setdefault(key, truth) == truth, (cmp, l, r)
    for key, truth in forms.items():
        assert forms[negate(key)] == tuple(not t for t in truth), key
    assert float_form("setp.gt.f32", "A", "B") == float_form("setp.lt.f32", "B", "A")
    assert float_form("setp.gt.f32", "A", "B") != float_form("setp.gtu.f32", "A", "B")
    assert float_form("setp.lt.f32", "A", "B") != float_form("setp.lt.ftz.f32", "A", "B")
    assert float_form("setp.lt.f32", "A", "B") != float_form("setp.lt.f32", "B", "A")


# -- integers known bit by bit -----------------------------------------------------------------

def _wrap(v, w):
    return v % (1 << w)


def _run(prog, env, bits, symbolic):
    """Run a little register program concretely (env: predicate -> bool) or in the Bits model.
    Each step: (op, dst width, args); registers are numbered by step."""
    regs = []
    for op, w, args in prog:
        if op == "selp":
            a, b, p = args
            v = (a if env[p] else b) if not symbolic else bits.selp(f"selp.b{w}", p, a, b)
        elif op in ("shl", "shr.u", "shr.s"):
            x, k = regs[args[0]], args[1]
            if symbolic:
                v = bits.integer(f"{op.split('.')[0]}.{'s' if op == 'shr.s' else 'b'}{w}", op[:3], [x, k])
            else:
                x, k = x[1], min(k, w)
                if op == "shl":
                    v = x << k
                elif op == "shr.u":
                    v = x >> k
                else:
                    v = (x - (1 << w) if x >> (w - 1) else x) >> k
        elif op in ("and", "or", "xor"):
            x, y = regs[args[0]], (regs[args[1]] if args[2] else args[1])   # a register or a constant
            if symbolic:
                v = bits.integer(f"{op}.b{w}", op, [x, y])
            else:
                y = y[1] if isinstance(y, tuple) else _wrap(y, w)
                v = {"and": x[1] & y, "or": x[1] | y, "xor": x[1] ^ y}[op]
        elif op == "not":
            x = regs[args[0]]
            v = bits.integer(f"not.b{w}", "not", [x]) if symbolic else ~x[1]
        else:   # cvt.<dst>.<src>
            x = regs[args[0]]
            if symbolic:
                v = bits.integer(op, "cvt", [x])
            else:
                sw = int(op.split(".")[2][1:])
                v = x[1] - (1 << sw) if op.split(".")[2][0] == "s" and x[1] >> (sw - 1) else x[1]
        if symbolic and v is None:
            return None
        regs.append(v if symbolic else (w, _wrap(v, w)))
    return regs[-1]


def _program(rng, preds):
    prog, widths = [], []
    for _ in range(rng.randint(1, 6)):
        kinds = ["selp"] + (["shl", "shr.u", "shr.s", "and", "or", "xor", "not", "cvt"] if prog else [])
        op = rng.choice(kinds)
        if op == "selp":
            w = rng.choice((16, 32))
            prog.append(("selp", w, (rng.choice((1, -1, 2, 0, 5)), rng.choice((0, 1, -1)), rng.choice(preds))))
        elif op == "cvt":
            i = rng.randrange(len(prog))
            src = rng.choice("us") + str(widths[i])
            dst = rng.choice(("u16", "u32", "s32", "u64"))
            prog.append((f"cvt.{dst}.{src}", int(dst[1:]), (i,)))
            widths.append(int(dst[1:]))
            continue
        else:
            i = rng.randrange(len(prog))
            w = widths[i]
            if op in ("shl", "shr.u", "shr.s"):
                prog.append((op, w, (i, rng.choice((0, 1, 3, 15, 16, 31, 40)))))
            elif op == "not":
                prog.append((op, w, (i,)))
            else:
                same = [j for j in range(len(prog)) if widths[j] == w]
                other = rng.choice(same)
                use_reg = rng.random() < 0.6
                prog.append((op, w, (i, other if use_reg else rng.choice((1, 3, 255, 0x8000, -1)), use_reg)))
        widths.append(prog[-1][1])
    return prog


def test_packed_predicates_are_exact_bit_by_bit():
    """Random programs of selp/shl/shr/and/or/xor/not/cvt over three predicates, run concretely
    under all eight assignments and in the Bits model: one name (or constant) for two results
    only when they agree under every assignment, and a constant only when it is the value."""
    rng, preds = random.Random(5), ["p0", "p1", "p2"]
    envs = [dict(zip(preds, v)) for v in itertools.product((False, True), repeat=3)]
    names, met = {}, 0
    for _ in range(3000):
        prog = _program(rng, preds)
        bits = Bits()
        sym = _run(prog, None, bits, True)
        if sym is None:
            continue
        conc = tuple(_run(prog, e, None, False) for e in envs)
        if isinstance(sym, int):
            assert set(conc) == {(prog[-1][1], sym)}, prog
            continue
        (name,), = sym
        met += name in names
        assert names.setdefault(name, conc) == conc, prog
        # eq/ne against 0 is "some bit set", true exactly where the value is not 0
        ne = bits.equal("ne", prog[-1][1], sym, 0)
        truth = tuple(v != 0 for _, v in conc)
        names.setdefault(("ne0", short(str(ne))), truth)
        assert names[("ne0", short(str(ne)))] == truth, prog
    assert met > 50


LOAD_T = "ld.global.b32 %r8, [%rd4+256];\nld.global.b32 %r9, [%rd4+384];\n"
# p1: x's element equals target r8; p2: equals target r9 (the cross-entropy column test)
PREDS = "setp.eq.b32 %p1, %r8, 496;\nsetp.eq.b32 %p2, %r9, 496;\n"


def _ce(extract, op="selp.b16", hi="-1"):
    """Pack p1 into bit 2 and p2 into bits 3..15 of a 16-bit mask (as LLVM does), unpack with
    `extract`, and select x under it."""
    pack = (f"{op} %rs1, 1, 0, %p1;\nshl.b16 %rs2, %rs1, 2;\n{op} %rs3, {hi}, 0, %p2;\nshl.b16 %rs4, %rs3, 3;\n"
            "or.b16 %rs5, %rs4, %rs2;\ncvt.u32.u16 %r10, %rs5;\n")
    body = HEAD + LOAD_T + PREDS + pack + extract + "selp.f32 %r6, %r2, 0f00000000, %p3;\nst.global.b32 [%rd5], %r6;"
    return kernel(body.replace(".reg .b32", ".reg .b16 %rs<9>;\n.reg .b32"))


def _k(body):
    return kernel(body.replace(".reg .b32", ".reg .b16 %rs<9>;\n.reg .b32"))


def test_a_predicate_unpacked_from_a_bitmask_is_the_predicate():
    direct = _k(HEAD + LOAD_T + PREDS + "selp.f32 %r6, %r2, 0f00000000, %p2;\nst.global.b32 [%rd5], %r6;")
    mirrored = _k(HEAD + LOAD_T + "setp.eq.b32 %p2, 496, %r9;\n"
                  "selp.f32 %r6, %r2, 0f00000000, %p2;\nst.global.b32 [%rd5], %r6;")
    negated = _k(HEAD + LOAD_T + "setp.ne.b32 %p2, %r9, 496;\n"
                 "selp.f32 %r6, 0f00000000, %r2, %p2;\nst.global.b32 [%rd5], %r6;")
    bit15 = _ce("shr.u32 %r11, %r10, 15;\nand.b32 %r12, %r11, 1;\nsetp.ne.b32 %p3, %r12, 0;\n")
    mask = _ce("and.b32 %r12, %r10, 32768;\nsetp.ne.b32 %p3, %r12, 0;\n")
    eq0 = _ce("and.b32 %r12, %r10, 8;\nsetp.eq.b32 %p4, %r12, 0;\nnot.pred %p3, %p4;\n")
    assert check.level(bit15).startswith("v1")
    for same in (mirrored, negated, bit15, mask, eq0):
        assert check.equivalent(direct, same), check.equivalent(direct, same).explanation
    p1 = _k(HEAD + LOAD_T + PREDS + "selp.f32 %r6, %r2, 0f00000000, %p1;\nst.global.b32 [%rd5], %r6;")
    assert check.equivalent(p1, _ce("shr.u32 %r11, %r10, 2;\nand.b32 %r12, %r11, 1;\nsetp.ne.b32 %p3, %r12, 0;\n"))
    # near misses: another bit, the negation, bit 15 of a 1-valued selp (never set), a sign fill
    assert not check.equivalent(direct, p1)
    assert not check.equivalent(direct, _ce("shr.u32 %r11, %r10, 2;\nand.b32 %r12, %r11, 1;\nsetp.ne.b32 %p3, %r12, 0;\n"))
    assert not check.equivalent(direct, _ce("shr.u32 %r11, %r10, 15;\nand.b32 %r12, %r11, 1;\nsetp.eq.b32 %p3, %r12, 0;\n"))
    never = _ce("shr.u32 %r11, %r10, 15;\nand.b32 %r12, %r11, 1;\nsetp.ne.b32 %p3, %r12, 0;\n", hi="1")
    assert check.equivalent(never, _ce("setp.ne.b32 %p3, %r10, %r10;\n"))       # bit 15 is 0: x never selected
    assert not check.equivalent(direct, never)
    # the whole mask's bits 2..15 are p1 or p2: "mask >> 2 != 0" is p1 or p2, not p2
    either = _ce("shr.u32 %r11, %r10, 2;\nsetp.ne.b32 %p3, %r11, 0;\n")
    assert not check.equivalent(direct, either) and not check.equivalent(p1, either)
    # widths: a 16-bit shift by 16 drops the bit, a 32-bit one keeps it
    gone = _ce("shl.b32 %r11, %r10, 1;\ncvt.u16.u32 %rs6, %r11;\ncvt.u32.u16 %r12, %rs6;\nshr.u32 %r13, %r12, 16;\n"
               "setp.ne.b32 %p3, %r13, 0;\n")
    assert check.equivalent(gone, never) and not check.equivalent(gone, direct)


def test_pinned_cross_entropy_merges_over_num_warps_at_two_rows():
    """The corpus case (benchmarks/results/2026-11-30b-checker/cpu-reclass.md): at BR 2 and
    num_warps 1 LLVM packs the target-column predicates into an i16 mask; it now merges with
    num_warps 2 (the same pinned tree), and the free-order kernel stays apart."""
    pytest.importorskip("torch")
    sys.path.insert(0, os.path.join(HERE, "..", "..", "benchmarks"))
    from corpus import SPECS
    from bitorder.check.prune import compile_config
    spec = SPECS["pinned_cross_entropy"]
    args = {**spec.make("cpu", 7), **spec.fixed}
    cfgs = {(c.kwargs["PINNED"], c.num_warps): c for c in spec.space
            if c.kwargs["BR"] == 2 and c.num_stages == 1 and c.num_warps in (1, 2)}
    ptx = {k: compile_config(spec.fn, c, args, {}, "sm90") for k, c in cfgs.items()}
    # (the shared exp's range checks put selp.b16 in both since 2026-11-30f; the mask adds more at w1)
    assert ptx[(True, 1)].ptx.count("selp.b16") > ptx[(True, 2)].ptx.count("selp.b16")
    assert check.equivalent(ptx[(True, 1)], ptx[(True, 2)])
    assert not check.equivalent(ptx[(True, 1)], ptx[(False, 1)])


def test_planted_fault_shr_s_without_the_sign_fill_fails(tmp_path):
    """A copied tree whose shr.s fills with zeros (as shr.u does) names different values alike:
    the brute-force test above must catch it."""
    sys.path.insert(0, os.path.dirname(HERE))
    from mutants import checker_test_fails_on_mutant
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/bits.py", "            fill = x[-1] if signed else False",
                                 "            fill = False", "tests/check/test_bits.py::test_packed_predicates_are_exact_bit_by_bit")


def test_planted_fault_mirroring_without_swapping_fails(tmp_path):
    """A copied tree that mirrors gt into lt without swapping the operands: the unsigned brute
    force must fail (a > b and a < b would share a form)."""
    sys.path.insert(0, os.path.dirname(HERE))
    from mutants import checker_test_fails_on_mutant
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/bits.py", "            pa, pb = pb, pa\n", "            pass\n",
                                 "tests/check/test_bits.py::test_unsigned_and_untyped_comparisons_have_exact_forms_modulo_the_width")


def test_bitorder_is_imported_from():
    """Prints where bitorder came from (the planted-fault tests read it from a run on a copy)."""
    import bitorder
    print(f"bitorder from {os.path.dirname(bitorder.__file__)}")
