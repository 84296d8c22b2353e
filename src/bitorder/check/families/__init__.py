"""The walk over element families (docs/check-families.md): one thread whose index is bit symbols, registers
holding one value for every thread. Built so far: step 1, the integers (integers.py) and integer predicates
(predicates.py), and the first part of step 2, float families for global loads, masked selects and the nodes whose
key is a plain hash (floats.py). Each is checked against the concrete walk at every thread of the corpus
(benchmarks/families_check.py). The walk itself is not built yet."""
