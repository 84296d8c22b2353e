"""The walk over element families (docs/check-families.md): one thread whose index is bit symbols, registers
holding one value for every thread. integers.py and predicates.py (step 1), floats.py (float families, lazy
reductions), subst.py (thread-bit substitution), shared.py (shared-memory exchanges), walk.py (the walk of a
straight-line kernel into store families) and names.py (their canonical "v2" signature). Checked against the concrete
walk at every thread (benchmarks/families_check.py, benchmarks/families_walk.py); not used by check.signature yet."""
