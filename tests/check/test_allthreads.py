"""The all-thread handlers (check/allthreads.py) compute what the per-thread walk computes: the
same roots and, in every thread, the same value in every register (node keys, polynomials,
predicates), on random straight-line programs (packed halves, predicate logic and guarded
instructions among them) and on compiled kernels; a planted fault in one handler fails the comparison."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bitorder.check import dataflow
from bitorder.check.ptx import parse
from bitorder.check.symbolic import Nodes, Unsupported

from mutants import checker_test_fails_on_mutant


def _per_thread(monkeypatch):
    """The walk without its all-thread handlers: every instruction thread by thread (no run_all)."""
    handler = dataflow._Block._handler
    monkeypatch.setattr(dataflow._Block, "_handler", lambda self, ins: (handler(self, ins)[0], None))


def _canon(block, v):
    """A register value with its node ids replaced by what they name (key, marks)."""
    nodes = block.nodes
    if v.__class__ is tuple and v and v[0] == "node":
        return ("node", nodes.key_of[v[1]], v[1] in nodes.undefined, v[1] in nodes.muls)
    if v.__class__ is tuple and v and v[0] == "select":
        return ("select", v[1], _canon(block, v[2]), _canon(block, v[3]))
    if v.__class__ is dict:
        return ("poly", tuple(sorted(v.items())))
    return (v.__class__.__name__, v)


def _state(text, per_thread, monkeypatch):
    """(roots, every thread's registers canonicalised) of one walk, or the reason it refused."""
    with monkeypatch.context() as m:
        if per_thread:
            _per_thread(m)
        block = dataflow._Block(parse(text)[0], Nodes())
        try:
            roots = block.run()
        except Unsupported as e:
            return ("refused", str(e))
        # (registers by thread from the walk's columns; a thread's entry that holds the block's
        # undefined value is one it never wrote, which reads as undefined either way)
        regs = [{k: _canon(block, col[t]) for k, col in block.cols.items() if col[t] is not block.undef}
                for t in range(block.n)]
        return roots, regs, sorted(block.bits.table.items(), key=str)


def _entry(body, threads):
    return (f".visible .entry k(\n.param .u64 k_param_0,\n.param .u64 k_param_1,\n.param .u32 k_param_2\n)\n"
            f".reqntid {threads}\n{{\n.reg .b16 %rs<99>;\n.reg .b32 %r<99>;\n.reg .b64 %rd<20>;\n.reg .pred %p<30>;\n{body}\nret;\n}}\n")


HEAD = """ld.param.u64 %rd1, [k_param_0];
ld.param.u64 %rd2, [k_param_1];
ld.param.u32 %r90, [k_param_2];
mov.u32 %r1, %tid.x;
and.b32 %r2, %r1, 7;
shr.u32 %r3, %r1, 3;
mul.wide.u32 %rd3, %r1, 16;
add.s64 %rd4, %rd1, %rd3;
add.s64 %rd5, %rd2, %rd3;
setp.lt.s32 %p1, %r1, %r90;
mov.b32 %r10, 0;
mov.b32 %r11, 0;
@%p1 ld.global.v2.b32 { %r10, %r11 }, [ %rd4 + 0 ];
ld.global.v2.b32 { %r12, %r13 }, [ %rd4 + 8 ];
"""
FLOATS = ["%r10", "%r11", "%r12", "%r13"]
INTS = ["%r1", "%r2", "%r3", "%r90"]
PREDS = ["%p1"]


@st.composite
def _programs(draw):
    floats, ints, preds, halves = list(FLOATS), list(INTS), list(PREDS), []
    lines, nxt, npred = [], 20, 2
    for _ in range(draw(st.integers(1, 24))):
        kind = draw(st.sampled_from(["f2", "f2", "f3", "f1", "fc", "i2", "i2", "ic", "selp", "guarded", "bits",
                                     "x2", "unpack", "pack", "cvt2", "pred", "fmov"]))
        fop = lambda: draw(st.sampled_from(floats + ["0f3F800000"]))      # noqa: E731
        iop = lambda: draw(st.sampled_from(ints + ["3", "16", "-1"]))     # noqa: E731
        d = f"%r{nxt}"
        if kind == "f2":
            op = draw(st.sampled_from(["add.f32", "add.rn.f32", "mul.rn.f32", "sub.rn.f32", "max.f32", "min.f32"]))
            lines.append(f"{op} {d}, {fop()}, {fop()};")
            floats.append(d)
        elif kind == "fmov":   # a float constant moved into a register: one integer in every thread
            lines.append(f"mov.b32 {d}, {draw(st.sampled_from(['0f3F800000', '0fBF000000', '0f00000000']))};")
            floats.append(d)
        elif kind == "f3":
            lines.append(f"fma.rn.f32 {d}, {fop()}, {fop()}, {fop()};")
            floats.append(d)
        elif kind == "f1":
            op = draw(st.sampled_from(["neg.f32", "ex2.approx.f32", "cvt.rzi.s32.f32"]))
            lines.append(f"{op} {d}, {fop()};")
            (ints if op.startswith("cvt") else floats).append(d)
        elif kind == "fc":
            p = f"%p{npred}"
            npred += 1
            op = draw(st.sampled_from(["setp.lt.f32", "setp.gt.f32", "setp.eq.f32", "setp.nan.f32", "setp.geu.f32"]))
            lines.append(f"{op} {p}, {fop()}, {fop()};")
            preds.append(p)
        elif kind == "i2":
            op = draw(st.sampled_from(["add.s32", "sub.s32", "mul.lo.s32", "shl.b32", "and.b32", "or.b32",
                                       "shr.u32", "xor.b32", "mad.lo.s32"]))
            extra = f", {iop()}" if op.startswith("mad") else ""
            b = draw(st.sampled_from(["1", "2", "3"])) if op.startswith(("shl", "shr")) else iop()
            lines.append(f"{op} {d}, {iop()}, {b}{extra};")
            ints.append(d)
        elif kind == "ic":
            p = f"%p{npred}"
            npred += 1
            op = draw(st.sampled_from(["setp.lt.s32", "setp.eq.b32", "setp.ne.b32", "setp.lt.u32", "setp.gt.s32"]))
            lines.append(f"{op} {p}, {iop()}, {iop()};")
            preds.append(p)
        elif kind == "selp":
            p = draw(st.sampled_from(preds))
            form = draw(st.sampled_from(["float", "bits", "ints"]))
            if form == "float":
                lines.append(f"selp.f32 {d}, {fop()}, {fop()}, {p};")
                floats.append(d)
            elif form == "bits":
                lines.append(f"selp.b32 {d}, 1, 0, {p};")
                ints.append(d)
            else:
                lines.append(f"selp.b32 {d}, {iop()}, {iop()}, {p};")
                ints.append(d)
        elif kind == "bits":   # a register of predicate bits: shl / or / and of selp'ed bits
            a = f"%r{nxt + 1}"
            nxt += 1
            lines.append(f"selp.b32 {a}, 1, 0, {draw(st.sampled_from(preds))};")
            lines.append(f"shl.b32 {d}, {a}, {draw(st.sampled_from(['1', '2']))};")
            ints.append(d)
        elif kind == "x2":     # two halves at once (memory.packed_float)
            op = draw(st.sampled_from(["add.rn.f16x2", "mul.rn.bf16x2", "sub.f16x2", "max.bf16x2", "fma.rn.f16x2"]))
            extra = f", {fop()}" if op.startswith("fma") else ""
            lines.append(f"{op} {d}, {fop()}, {fop()}{extra};")
            floats.append(d)
        elif kind == "unpack":  # a register's halves (loads of 16 bits where it is a load), widened again
            lo, hi = f"%rs{nxt}", f"%rs{nxt + 1}"
            lines.append(f"mov.b32 {{{lo}, {hi}}}, {fop()};")
            lines.append(f"cvt.f32.{draw(st.sampled_from(['f16', 'bf16']))} {d}, {draw(st.sampled_from([lo, hi]))};")
            halves += [lo, hi]
            floats.append(d)
        elif kind == "pack" and halves:
            lines.append(f"mov.b32 {d}, {{{draw(st.sampled_from(halves))}, {draw(st.sampled_from(halves))}}};")
            floats.append(d)
        elif kind == "cvt2":   # two conversions into one register
            lines.append(f"cvt.rn.{draw(st.sampled_from(['f16x2', 'bf16x2']))}.f32 {d}, {fop()}, {fop()};")
            floats.append(d)
        elif kind == "pred":
            p = f"%p{npred}"
            npred += 1
            op = draw(st.sampled_from(["and.pred", "or.pred", "xor.pred", "not.pred"]))
            srcs = [draw(st.sampled_from(preds)) for _ in range(1 if op == "not.pred" else 2)]
            lines.append(f"{op} {p}, {', '.join(srcs)};")
            preds.append(p)
        elif kind == "pack":
            continue
        else:                  # a guarded float or integer instruction (the per-thread path)
            p = draw(st.sampled_from(preds))
            neg = draw(st.sampled_from(["", "!"]))
            if draw(st.booleans()):
                lines.append(f"@{neg}{p} add.rn.f32 {d}, {fop()}, {fop()};")
                floats.append(d)
            else:
                lines.append(f"@{neg}{p} add.s32 {d}, {iop()}, {iop()};")
                ints.append(d)
        nxt += 1
    outs = draw(st.lists(st.sampled_from(floats[4:] or floats), min_size=1, max_size=3, unique=True))
    for i, r in enumerate(outs):
        lines.append(f"st.global.b32 [%rd5+{4 * i}], {r};")
    return HEAD + "\n".join(lines)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=_programs(), threads=st.sampled_from([32, 64]))
def test_all_thread_handlers_give_the_per_thread_walk_s_values(body, threads, monkeypatch):
    text = _entry(body, threads)
    assert _state(text, False, monkeypatch) == _state(text, True, monkeypatch)


@pytest.mark.interpreted_only
def test_the_per_thread_switch_takes_the_all_thread_handlers_away(monkeypatch):
    """The comparison above compares two different walks: with the switch, no run_all is used."""
    calls = []
    monkeypatch.setattr(dataflow._Block, "_float_all", lambda self, *a: calls.append(a))
    text = _entry(HEAD + "add.rn.f32 %r20, %r12, %r13;\nst.global.b32 [%rd5], %r20;", 32)
    with monkeypatch.context() as m:
        _per_thread(m)
        dataflow._Block(parse(text)[0], Nodes()).run()
    assert calls == []
    with pytest.raises(Unsupported):   # (the stand-in writes nothing: the store reads an unwritten register)
        dataflow._Block(parse(text)[0], Nodes()).run()
    assert len(calls) == 1


@pytest.mark.interpreted_only
def test_the_per_thread_switch_takes_mov_all_away(monkeypatch):
    """Masked global loads and register moves (_mov_all) are compared too: with the switch no
    instruction has an all-thread handler; without it, the moves do."""
    body = HEAD + ("mov.b32 %r20, 0;\n@%p1 ld.global.b32 %r20, [%rd4];\nmov.b32 %r21, %r20;\n"
                   "add.rn.f32 %r22, %r21, %r20;\nst.global.b32 [%rd5], %r22;")
    text = _entry(body, 64)
    for per_thread in (True, False):
        with monkeypatch.context() as m:
            if per_thread:
                _per_thread(m)
            block = dataflow._Block(parse(text)[0], Nodes())
            block.run()
            shapes = list(block._shape_of.values())
            assert any(s[4] is not None for s in shapes) is not per_thread
    assert _state(text, False, monkeypatch) == _state(text, True, monkeypatch)


def _compiled():
    """Row sums (pinned and free, 1 to 8 warps) and a softmax (max.f32's joined nodes, masked loads)."""
    pytest.importorskip("torch")
    import triton
    import triton.language as tl

    import bitorder
    from bitorder.compiler.demo import ROW_SUM_SIGNATURE, row_sum

    @triton.jit
    def _softmax(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        x = tl.load(x_ptr + tl.program_id(0) * n + offs, mask=offs < n, other=float("-inf"))
        e = tl.exp(x - tl.max(x, axis=0))
        tl.store(y_ptr + tl.program_id(0) * n + offs, e / tl.sum(e, axis=0), mask=offs < n)

    sums = [bitorder.compile(row_sum, "sm90", signature=ROW_SUM_SIGNATURE, constexprs={"BLOCK": 256, "PINNED": p},
                             num_warps=w) for p in (False, True) for w in (1, 8)]
    soft = [bitorder.compile(_softmax, "sm90", signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32"},
                             constexprs={"BLOCK": 256}, num_warps=w) for w in (1, 4)]
    return sums + soft


def test_compiled_kernels_walk_alike_both_ways(monkeypatch):
    for k in _compiled():
        text = k.asm["ptx"] if isinstance(k.asm, dict) else k.asm
        fast, slow = _state(text, False, monkeypatch), _state(text, True, monkeypatch)
        assert fast[0] != "refused" and fast == slow


@pytest.mark.interpreted_only
def test_planted_fault_an_unpack_in_every_thread_swapping_halves_fails_the_comparison(tmp_path):
    # _packing_all's unpack taking each register's halves in the other order (copied tree): the random programs
    # that unpack a load and widen a half read the other half's address, so the two walks' registers differ
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/allthreads.py",
                                 "outs = [[subword(v, i, parts, bits) for i in range(parts)] for v in col]",
                                 "outs = [[subword(v, parts - 1 - i, parts, bits) for i in range(parts)] for v in col]",
                                 "tests/check/test_allthreads.py::"
                                 "test_all_thread_handlers_give_the_per_thread_walk_s_values")
