"""The K-loop fold's pieces (check/fold.py) on the stored GEMMs (tests/check/data), with brute
force for the mask normal form. The fold itself is not built (docs/check.md, "K loops"); these
are the parts it needs, each checked on its own."""
import itertools
import random
from pathlib import Path

import pytest

from bitorder.check import parse
from bitorder.check.fold import find_k_loop, in_step_index, mask_form
from bitorder.check.poly import padd, pmul

DATA = Path(__file__).parent / "data"


def entry(name, edit=None):
    text = (DATA / f"{name}.ptx").read_text()
    return parse(edit(text) if edit else text)[0]


S2, S3, BK64 = "gemm_fp16_bm64_bn64_bk32_w4_s2", "gemm_fp16_bm64_bn64_bk32_w4_s3", "gemm_fp16_bm64_bn64_bk64_w4_s2"
SPLIT_K = "gemm_split_k_bm64_bn64_bk32_w4_s2"


@pytest.mark.parametrize("name,steps,ring", [(S2, 2, 2), (S3, 2, 3), (BK64, 4, 2), (SPLIT_K, 2, 2)])
def test_the_stored_k_loops_are_found_with_their_steps_and_rings(name, steps, ring):
    loop = find_k_loop(entry(name))
    assert loop is not None and loop.steps == steps and loop.opcode.endswith("m64n64k16.f32.f16.f16")
    # two ring counters (the slot read, the slot written) modulo num_stages
    assert sorted(loop.rings.values()) == [ring, ring]
    # carried: 32 accumulators, the two ring counters and two linear ones (the K offset, B's row offset)
    assert len(loop.carried) == 32 + 2 + 2 and set(loop.rings) <= loop.carried


def test_other_loop_shapes_are_not_taken_for_a_k_loop():
    # a second exit from the body
    assert find_k_loop(entry(S2, lambda t: t.replace("\tcp.async.wait_group \t0;\n\tbar.sync \t0;\n\tshl.b32",
                                                      "\t@%p10 bra $L__BB0_3;\n\tcp.async.wait_group \t0;\n"
                                                      "\tbar.sync \t0;\n\tshl.b32", 1))) is None
    # a back edge that is not the body's last instruction
    assert find_k_loop(entry(S2, lambda t: t.replace("\t@%p17 bra \t$L__BB0_2;\n",
                                                      "\t@%p17 bra \t$L__BB0_2;\n\tmov.b32 %r15, 0;\n", 1))) is None
    # two instructions in one chain (k16 and a different type)
    assert find_k_loop(entry(S2, lambda t: t.replace("m64n64k16.f32.f16.f16", "m64n64k16.f32.bf16.bf16", 1))) is None
    # the e4m3 GEMM runs code between its back edge and its exit: not this shape
    assert find_k_loop(entry("gemm_e4m3_bm64_bn64_bk64_w4_s2")) is None
    # a loop-free kernel
    assert find_k_loop(parse(".visible .entry k(.param .u64 k_param_0)\n.reqntid 32\n{\nret;\n}\n")[0]) is None


def test_a_ring_counter_needs_the_whole_wrap():
    loop = find_k_loop(entry(S2, lambda t: t.replace("setp.gt.s32 \t%p12, %r69, 1;", "setp.gt.s32 \t%p12, %r68, 1;")))
    assert loop is not None and len(loop.rings) == 1   # the counter compared another register: not a ring


K, T, M = ({(x,): 1} for x in ("K", "t", "M"))


def _lt(*terms):
    """sum of terms (polynomials or ints) as D in D < 0."""
    out = 0
    for x in terms:
        out = padd(out, x)
    return out


def test_implied_conjuncts_are_dropped_as_the_prologue_and_the_body_need():
    c = 24   # a thread's first k element in a copy
    # the prologue's second B copy: K > 0 and c + 16 < K; the first: c < K (no K > 0)
    assert mask_form([_lt(pmul(K, -1)), _lt(c + 16, pmul(K, -1))]) == mask_form([_lt(c + 16, pmul(K, -1))])
    # the body: 32 (t + 1) < K next to 32 (t + 1) + c < K
    turn = padd(pmul(T, 32), 32)
    assert mask_form([_lt(turn, pmul(K, -1)), _lt(turn, c, pmul(K, -1)), _lt(M, -5)]) == \
        mask_form([_lt(M, -5), _lt(turn, c, pmul(K, -1))])
    # not implied: a smaller constant, another variable part, an opaque predicate
    assert mask_form([_lt(turn, pmul(K, -1))]) != mask_form([_lt(turn, c, pmul(K, -1))])
    assert mask_form([_lt(M, -5)]) != mask_form([_lt(M, -5), _lt(pmul(T, 2), pmul(K, -1))])
    assert mask_form([_lt(M, -5), "p"]) != mask_form([_lt(M, -5)])
    assert mask_form([True, _lt(-1)]) == "true" and mask_form([_lt(M, -5), False]) == mask_form([_lt(3)]) == "false"


def _holds(conj, env):
    out = True
    for c in conj:
        v = c if isinstance(c, int) else sum(coef * (1 if not m else env[m[0]]) for m, coef in c.items())
        out = out and v < 0
    return out


def _mask_form_disagreements(trials=1500):
    """Random conjunctions of linear conditions over K and t, half with a shifted copy of a
    conjunct (one implies the other): how often the form is not exact (does not hold exactly
    where the conjunction does) or two conjunctions with one form differ somewhere."""
    rnd = random.Random(5)
    box = [dict(K=k, t=t) for k, t in itertools.product(range(-12, 13), range(-6, 7))]
    seen, bad = {}, 0

    def poly():
        p = {(): rnd.randint(-20, 20)}
        for x in ("K", "t"):
            if rnd.random() < 0.8:
                p[(x,)] = rnd.choice([-32, -16, -3, -2, -1, 1, 2, 3, 16, 32])
        return {m: c for m, c in p.items() if c}

    for _ in range(trials):
        conj = [poly() for _ in range(rnd.randint(1, 4))]
        if rnd.random() < 0.5:
            base = dict(conj[0])
            base[()] = base.get((), 0) + rnd.randint(-8, 8)
            conj.append({m: c for m, c in base.items() if c})
        truth = tuple(_holds(conj, env) for env in box)
        form = mask_form(conj)
        bad += any(truth[i] != _holds_form(form, env) for i, env in enumerate(box))
        bad += seen.setdefault(form, truth) != truth
    return bad


def test_equal_mask_forms_are_equal_conditions_brute_force():
    assert _mask_form_disagreements() == 0


@pytest.mark.interpreted_only
def test_mask_form_planted_fault_keeping_the_weaker_conjunct(monkeypatch):
    # the normal form keeps the larger constant of E + k < 0 (the tighter condition); keeping
    # the smaller one drops a conjunct that is not implied, which the brute force must see
    from bitorder.check import fold
    monkeypatch.setattr(fold, "max", min, raising=False)
    assert _mask_form_disagreements(300) > 0


def _holds_form(form, env):
    if form in ("true", "false"):
        return form == "true"
    for term in form.split(" & "):
        poly, k = term[:-2].rsplit("+", 1)
        v = int(k)
        for part in poly.split("+"):
            coef, *names = part.split("*")
            v += int(coef) * (1 if names == ["1"] else env[names[0]])
        if not v < 0:
            return False
    return True


def test_the_k_offset_in_the_step_index_is_one_function_of_s():
    # BLOCK_K 32: step j of turn t reads K offset 32 t + 16 j; BLOCK_K 64: 64 t + 16 j
    for bk in (32, 64):
        per = bk // 16
        for j in range(per):
            off = padd(pmul(T, bk), 16 * j)
            assert in_step_index(off, "t", per, j) == {("s",): 16}
            # a runtime row stride times the offset (B's rows): 16 sbk s in both
            b_row = pmul({("sbk",): 1}, off)
            assert in_step_index(b_row, "t", per, j) == {("s", "sbk"): 16}
    with pytest.raises(ValueError):
        in_step_index(padd(pmul(T, 3), 1), "t", 2, 0)     # 3 t is no integer function of s = 2 t
    with pytest.raises(ValueError):
        in_step_index(pmul(T, T), "t", 1, 0)
    assert in_step_index(padd(M, 5), "t", 2, 1) == padd(M, 5)


def _counters(name, edit=None):
    from bitorder.check.fold import counter_forms
    e = entry(name, edit)
    return counter_forms(e, find_k_loop(e))


def test_the_counters_are_linear_or_rings_by_induction_over_the_turn():
    sbk = "param:arg7"
    # BLOCK_K 32, num_stages 2: the K offset 32 + 32 t (the next turn's), B's row offset 32 sbk t,
    # the slot read (-1 before turn 0, then t - 1 mod 2 + ...) and the slot written
    assert sorted(_counters(S2).values(), key=str) == sorted(
        [("linear", 0, {(sbk,): 32}), ("linear", 32, 32), ("ring", (-1, 0, 1)), ("ring", (0, 1, 0))], key=str)
    # num_stages 3: the copies run two turns ahead (K offset 64 + 32 t), the rings modulo 3
    f3 = sorted(_counters(S3).values(), key=str)
    assert ("linear", 64, 32) in f3 and ("ring", (-1, 0, 1, 2)) in f3 and ("ring", (1, 2, 0, 1)) in f3
    # BLOCK_K 64: 64 a turn
    assert ("linear", 0, 64) in _counters(BK64).values()


def test_a_counter_that_is_not_linear_is_refused_planted():
    from bitorder.check.symbolic import Unsupported
    # B's row offset grows by the K offset (quadratic in t): turn 0 gives a slope, turn t another
    with pytest.raises(Unsupported, match="does not map"):
        _counters(S2, lambda t: t.replace("add.s32 \t%r167, %r167, %r13;", "add.s32 \t%r167, %r167, %r168;"))
    # the slot written steps by the K offset: no ring, and its wrap depends on t
    with pytest.raises(Unsupported, match="does not map"):
        _counters(S2, lambda t: t.replace("add.s32 \t%r75, %r170, 1;", "add.s32 \t%r75, %r170, %r168;"))
