"""What hoisting a shared mask out of a sum would merge (2026-12-05g lead; an experiment, not the checker).

    python benchmarks/results/2026-12-05g-checker-cpu/hoist.py KERNEL [KERNEL ...]

Each configuration of a corpus kernel is walked as checker_gate --sblock walks it (its r programs of a super-block,
r from check.prune.super_blocks over the corpus launch grids), with shapes recorded. Each root's tree is then
rewritten bottom-up from the recorded shapes: op(select(p, a, c), select(p, b, d)) -> select(p, op(a, b), op(c, d))
for the two-operand float ops, and +0 + +0 -> +0, and the classes counted with and without the rewrite. The
rewrite is exact bit for bit (p is one boolean per evaluation); whether it is all that parts these trees is what
this measures. No GPU: the truth is the GPU's, in 2026-12-05g-gpu/call7/inductor/checker.json."""
import hashlib
import importlib
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))
from corpus import SPECS  # noqa: E402

P = importlib.import_module("bitorder.check.prune")
S = importlib.import_module("bitorder.check.signature")
D = importlib.import_module("bitorder.check.dataflow")
BINARY = {"add.f32", "mul.f32", "sub.f32", "add.rn.f32", "mul.rn.f32", "sub.rn.f32", "add.ftz.f32", "mul.ftz.f32"}
COMMUTES = {"add.f32", "mul.f32", "add.rn.f32", "mul.rn.f32", "add.ftz.f32", "mul.ftz.f32"}
ZERO = "bits:0"


def canon(key, shape, memo, hoist):
    """A structural form of the tree `key` names (tuples), the rewrite applied where `hoist`."""
    if key in memo:
        return memo[key]
    if key not in shape:
        memo[key] = key
        return key
    op, kids, payload = shape[key]
    ck = [canon(k, shape, memo, hoist) for k in kids]
    memo[key] = out = build(op, ck, payload, hoist)
    return out


def build(op, ck, payload, hoist):
    if hoist and op in BINARY and len(ck) == 2 and all(isinstance(c, tuple) and c[0] == "select" for c in ck) \
            and ck[0][3] == ck[1][3]:
        (_, a, c, p), (_, b, d, _) = ck
        return build("select", [build(op, [a, b], "", hoist), build(op, [c, d], "", hoist)], p, hoist)
    if hoist and op.startswith("add") and ck == [ZERO, ZERO]:
        return ZERO
    if op in COMMUTES:
        ck = sorted(ck, key=repr)
    return (op, *ck, str(payload)) if op != "select" else ("select", ck[0], ck[1], str(payload))


def classes(spec, hoist_flags=(False, True)):
    a = {**spec.make("cpu", 7), **spec.fixed}
    grids = [tuple(spec.grid({**a, **c.kwargs})) + (1,) * (3 - len(spec.grid({**a, **c.kwargs}))) for c in spec.space]
    frames = P.launch_frames(grids)
    sigs = {h: {} for h in hoist_flags}
    for c, (at, frame) in zip(spec.space, frames):
        comp = P.compile_config(spec.fn, c, a, {}, "sm90")
        e, div = S._entry(comp), S.divisible_params(comp)
        r = (at or {}).get("sblock", 1)
        walks = []
        try:
            for i in range(r):
                walks.append(D.walk(e, True, div, (), sblock=(r, i)) if at else D.walk(e, True, div, ()))
        except D.Unsupported as ex:
            for h in hoist_flags:
                sigs[h].setdefault(("v0", S.canonicalize(e).signature, r, str(frame)), []).append(c)
            continue
        for h in hoist_flags:
            roots = {}
            for rt, nodes in walks:
                memo = {}
                for addr, (guard, tree, *rest) in rt.items():
                    roots[addr] = (guard, hashlib.sha256(repr(canon(tree, nodes.shape, memo, h)).encode()).hexdigest(),
                                   *rest)
            text = repr(sorted(roots.items()))
            sigs[h].setdefault((hashlib.sha256(text.encode()).hexdigest(), str(frame)), []).append(c)
    return {h: len(v) for h, v in sigs.items()}


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(name, len(SPECS[name].space), classes(SPECS[name]), flush=True)
