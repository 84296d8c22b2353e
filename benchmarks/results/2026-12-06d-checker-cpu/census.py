"""Which PTX features the corpus's classing time lies in: every stored configuration's PTX (the whole corpus in
/tmp/ckd/all, 2026-12-04e's dump_all.py) read for the constructs a walk over one symbolic thread would have to
model, and each configuration weighed by its interpreted classing seconds in 2026-12-06c's paired dumps.

    python census.py /tmp/ckd/all ../2026-12-06c-checker-cpu/paired_native_half_{a,b}.json.gz > census.json

A configuration's features: loop (a backward branch), shfl, shared (ld/st.shared), bar, half (16-bit floats:
f16/bf16 conversions or packed x2 arithmetic), tensor (mma, wgmma, ldmatrix), async (cp.async, TMA), select
(selp on floats), pred_store (a guarded global store). "first_milestone" is the time in configurations with none of
loop, tensor or async: what a symbolic walk that models shuffles, shared memory, masks and 16-bit data, but not
loops, would cover.
"""
import collections
import glob
import gzip
import json
import os
import pickle
import re
import sys

FEATURES = {
    "loop": None,   # computed: a branch to an earlier label
    "shfl": re.compile(r"\bshfl\."),
    "shared": re.compile(r"\b(ld|st)\.shared"),
    "bar": re.compile(r"\bbar(rier)?\.sync"),
    "half": re.compile(r"cvt\.f32\.(b?f16)|\.(b?f16)x2\b|cvt\.rn\.(b?f16)"),
    "tensor": re.compile(r"\b(w?gmma|mma|ldmatrix|stmatrix)\."),
    "async": re.compile(r"\bcp\.async|cp\.reduce|\.tensor\."),
    "select": re.compile(r"\bselp\.(f32|b32|b16)"),
}


def features(ptx: str) -> set:
    out = {k for k, rx in FEATURES.items() if rx is not None and rx.search(ptx)}
    labels, at = {}, 0
    for i, line in enumerate(ptx.splitlines()):
        m = re.match(r"^\$?(\w+):", line.strip())
        if m:
            labels[m.group(1)] = i
        b = re.search(r"\bbra(\.uni)?\s+\$?(\w+);", line)
        if b and b.group(2) in labels and labels[b.group(2)] < i:
            out.add("loop")
    return out


def main():
    root, dumps = sys.argv[1], sys.argv[2:]
    secs = {}
    for path in dumps:
        secs.update(json.load(gzip.open(path))["base_seconds"])
    by_feature, by_combo, total = collections.Counter(), collections.Counter(), 0.0
    counted = 0
    for pkl in sorted(glob.glob(os.path.join(root, "*.pkl"))):
        name = os.path.basename(pkl)[:-4]
        for _, j, cfg, _, asm in pickle.load(open(pkl, "rb")):
            s = secs.get(f"{name}|{j}|{cfg}")
            if asm is None or s is None:
                continue
            f = features(asm["ptx"])
            counted += 1
            total += s
            for k in f:
                by_feature[k] += s
            by_combo["+".join(sorted(f & {"loop", "tensor", "async"})) or "none of loop/tensor/async"] += s
    print(json.dumps({"configurations": counted, "seconds": round(total, 1),
                      "seconds_with_feature": {k: round(v, 1) for k, v in by_feature.most_common()},
                      "share_with_feature": {k: round(v / total, 3) for k, v in by_feature.most_common()},
                      "by_loop_tensor_async": {k: round(v, 1) for k, v in by_combo.most_common()}}, indent=1))


if __name__ == "__main__":
    main()
