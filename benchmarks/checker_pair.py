"""Where two configurations of one corpus kernel differ on the GPU: per draw (checker_gate's wide
draws, then checker_adversarial's narrow / NaN / signed-zero ones), whether their outputs are
byte-identical and, where not, the first elements that differ (bits in hex, with the input row's
NaNs and signed zeros counted). Writes pair.json and each configuration's PTX (as the JIT built it)
to --out: what a wrong merge of the checker is read from.

    python benchmarks/checker_pair.py --out DIR --kernel NAME --configs I J [--draws 5] [--seed 7]
"""
from __future__ import annotations

import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(__file__))
from checker_adversarial import _variants  # noqa: E402
from checker_gate import _cfg, _configs, launch, snapshot  # noqa: E402
from corpus import SPECS  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--configs", type=int, nargs=2, required=True, help="indices into the kernel's space")
    ap.add_argument("--draws", type=int, default=5)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    spec = SPECS[a.kernel]
    cfgs = [_configs(spec, None, a.seed)[i] for i in a.configs]
    draws = [("wide", spec.make("cuda", a.seed + 1000 * (d + 1))) for d in range(a.draws)]
    draws += [v for d in range(2) for v in _variants(spec.make("cuda", a.seed + 77 * (d + 1)), spec.outputs, a.seed + d)]
    report = {"kernel": a.kernel, "configs": [_cfg(c) for c in cfgs], "device": torch.cuda.get_device_name(), "draws": []}
    for label, args in draws:
        outs = []
        [kept] = snapshot(spec, [args])
        for i, cfg in enumerate(cfgs):
            k = launch(spec, cfg, args, kept)
            torch.cuda.synchronize()
            outs.append({o: args[o].clone() for o in spec.outputs})
            with open(os.path.join(a.out, f"config{i}.ptx"), "w") as f:
                f.write(k.asm["ptx"])
        row = {"draw": label, "identical": True, "first": []}
        for o in spec.outputs:
            x, y = (t[o].contiguous().view(-1) for t in outs)
            bx, by = x.view(torch.int32) if x.element_size() == 4 else x, y.view(torch.int32) if y.element_size() == 4 else y
            bad = (bx != by).nonzero().view(-1)
            if len(bad):
                row["identical"] = False
                for j in bad[:4].tolist():
                    row["first"].append({"output": o, "index": j, "a": hex(int(bx[j]) & 0xFFFFFFFF),
                                         "b": hex(int(by[j]) & 0xFFFFFFFF), "differ": len(bad)})
        ins = [v for n, v in args.items() if torch.is_tensor(v) and v.is_floating_point() and n not in spec.outputs]
        row["inputs"] = [{"nan": int(torch.isnan(v).sum()), "neg_zero": int(((v == 0) & torch.signbit(v)).sum()),
                          "pos_zero": int(((v == 0) & ~torch.signbit(v)).sum())} for v in ins]
        report["draws"].append(row)
        print(label, row["identical"], row["first"][:2], flush=True)
    with open(os.path.join(a.out, "pair.json"), "w") as f:
        json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
