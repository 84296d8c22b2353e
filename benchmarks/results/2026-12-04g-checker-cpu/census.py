"""What a column representation would hold: every register column an instruction writes (outside skipped regions),
classed by the values its threads hold, over ceiling.py's draw (one configuration per kernel, seed 2; a refused walk
counted up to its refusal).

    python census.py PTX_DIR > census.txt
"""
import collections
import sys

from ceiling import drawn
from bitorder.check import dataflow
from bitorder.check.rules import _text_shape


def classify(col) -> str:
    """float / select / ... for a column of tree or predicate values; for integers: all concrete, one symbolic part
    plus a concrete offset per thread, or symbolic parts that differ between threads."""
    kinds, shared, same = set(), None, True
    for v in col:
        if v.__class__ is bool:
            kinds.add("pred")
            continue
        if v.__class__ is int:
            kinds.add("int")
            sym = ()
        elif v.__class__ is dict:
            kinds.add("poly")
            sym = tuple(sorted((m, c) for m, c in v.items() if m != ()))
        elif v.__class__ is tuple and v and v[0] == "node":
            return "float"
        else:
            return "other:" + (v[0] if isinstance(v, tuple) and v else type(v).__name__)
        if shared is None:
            shared = sym
        elif shared != sym:
            same = False
    if kinds == {"pred"}:
        return "pred"
    if "pred" in kinds:
        return "other:mixed"
    if kinds == {"int"}:
        return "int-concrete"
    return "int-shared+offset" if same else "int-varying-symbolic"


def main(ptx_dir):
    counts = collections.Counter()
    step = dataflow._Block.step

    def counted(self, ins):
        out = step(self, ins)
        if self.region is None:
            for d in _text_shape(ins)[0]:
                if self.cols.get(d) is not None:
                    counts[classify(self.cols[d])] += 1
        return out

    dataflow._Block.step = counted
    for _, _, entry, divisible in drawn(ptx_dir):
        try:
            dataflow.walk(entry, divisible=divisible)
        except dataflow.Unsupported:
            pass
    total = sum(counts.values())
    for k, v in counts.most_common():
        print(f"{v:8d} {v / total:.3f} {k}")


if __name__ == "__main__":
    main(sys.argv[1])
