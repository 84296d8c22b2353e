"""The walk over element families (docs/check-families.md): one thread whose index is bit symbols, registers
holding one value for every thread. Step 1 of that design is built: its integers (integers.py) and integer
predicates (predicates.py), each checked against the concrete walk at every thread of the corpus
(benchmarks/families_check.py). The walk itself is not built yet."""
