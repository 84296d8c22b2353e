"""check.signature leaves what its walk kept alive out of the collector's young generations (signature._age), restores
the collector's state, and leaves a caller's own frozen objects frozen."""
import gc
import os

from bitorder import check

signature_module = __import__("bitorder.check.signature", fromlist=["_MEMO"])
DATA = os.path.join(os.path.dirname(__file__), "data")


def _ptx(name: str) -> str:
    with open(os.path.join(DATA, name)) as f:
        return f.read()


def _fresh(name: str) -> str:
    """The text of a stored kernel, made new to the memos (a comment appended: the same code, another text)."""
    signature_module._BY_TEXT.clear()
    signature_module._MEMO.clear()
    return _ptx(name) + f"\n// {os.urandom(8).hex()}\n"


def test_young_generation_empty_after_a_walk():
    gc.collect()
    assert gc.isenabled()
    check.signature(_fresh("inductor_cross_entropy_t8_red0.ptx"))
    assert gc.isenabled()
    # a first walk leaves tens of thousands of tracked objects alive (its memos); none of them waits in generation 0.
    # A walk after another of the same kernel may leave only hundreds (memos beside signature's): _age then leaves them
    # young, under the threshold, so no collection is due on them (the planted fault below leaves tens of thousands)
    assert gc.get_count()[0] <= gc.get_threshold()[0]


def test_collector_left_off_where_the_caller_turned_it_off():
    gc.disable()
    try:
        check.signature(_fresh("inductor_cross_entropy_t8_red0.ptx"))
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_caller_frozen_objects_stay_frozen():
    gc.collect()
    mine = [[i] for i in range(100)]
    gc.freeze()
    frozen = gc.get_freeze_count()
    try:
        check.signature(_fresh("inductor_cross_entropy_t8_red0.ptx"))
        # (_age moves nothing while the caller holds frozen objects: else gc.unfreeze would thaw all of them; frozen
        # objects the walk's memos held may be freed meanwhile)
        assert 0 < gc.get_freeze_count() <= frozen
        assert not any(o is mine for o in gc.get_objects())
    finally:
        gc.unfreeze()
    assert mine


def test_planted_fault_without_age(tmp_path):
    """The collector's state restored without _age (a copied tree): the young generation holds the walk's objects."""
    from mutants import checker_test_fails_on_mutant
    checker_test_fails_on_mutant(
        tmp_path, "src/bitorder/check/signature.py", "            _age()\n            gc.enable()",
        "            gc.enable()", "tests/check/test_gc_age.py::test_young_generation_empty_after_a_walk")
