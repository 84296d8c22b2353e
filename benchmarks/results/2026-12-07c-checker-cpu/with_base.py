"""One dump for wired_partitions.py from the alone run and the paired run: the alone run's answers (the final tree, the
family walk on by default) with the paired run's v1 answers ("base_answers": a copy of the tree, FAMILIES off; v1 is
unchanged between the two trees).

    python with_base.py alone_wired.json.gz paired_a.json.gz paired_b.json.gz OUT.json"""
import gzip
import json
import sys


def main(alone, a, b, out):
    answers = json.load(gzip.open(alone))["answers"]
    base = {}
    for path in (a, b):
        base.update(json.load(gzip.open(path))["base_answers"])
    with open(out, "w") as f:
        json.dump({"answers": answers, "base_answers": base}, f)


if __name__ == "__main__":
    main(*sys.argv[1:5])
