"""scripts/gpu-run's planted faults still apply: every `scripts/mutant-run FILE OLD NEW ... --`
names edit sites that occur exactly once in the current tree (a fault whose site drifted would
fail at the copy step on the H200 and prove nothing)."""
import os
import re
import shlex

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def mutant_runs():
    text = open(os.path.join(ROOT, "scripts", "gpu-run")).read()
    # a fault two jobs build is an array, NAME=('OLD' 'NEW'), passed as "${NAME[@]}": its words in place
    for name, body in re.findall(r"^(\w+)=\((.*?)\)$", text, re.M | re.S):
        text = text.replace(f'"${{{name}[@]}}"', " ".join(shlex.quote(w) for w in shlex.split(body)))
    text = text.replace("\\\n", " ")
    for line in text.splitlines():
        m = re.search(r"scripts/mutant-run (.*?) -- ", line)
        if m:
            words = shlex.split(m.group(1))
            yield words[0], list(zip(words[1::2], words[2::2]))


def test_every_planted_fault_site_occurs_once():
    runs = list(mutant_runs())
    assert len(runs) >= 7
    for path, edits in runs:
        text = open(os.path.join(ROOT, path)).read()
        assert edits, path
        for old, new in edits:
            assert text.count(old) == 1, (path, old)
            assert old != new
