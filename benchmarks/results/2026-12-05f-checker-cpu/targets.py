import sys, random, collections, traceback
sys.path.insert(0, 'src'); sys.path.insert(0, 'benchmarks')
from corpus import SPECS
from bitorder import check
from bitorder.check.prune import compile_config
rng = random.Random(0)
specs = SPECS if isinstance(SPECS, list) else list(SPECS.values())
out = collections.Counter(); bad = []
for spec in rng.sample(specs, int(sys.argv[2])):
    named = {**spec.make("cpu", 7), **spec.fixed}
    for cfg in rng.sample(spec.space, min(2, len(spec.space))):
        for tgt in sys.argv[1].split(','):
            try:
                c = compile_config(spec.fn, cfg, named, {}, tgt)
            except Exception as e:
                out[(tgt, 'compile-fail')] += 1; continue
            try:
                lv = check.level(c)
                out[(tgt, lv[:2])] += 1
            except Exception as e:
                out[(tgt, type(e).__name__)] += 1; bad.append((spec.name, tgt, str(cfg), traceback.format_exc()[-600:]))
print(out)
for b in bad[:5]: print(b)
