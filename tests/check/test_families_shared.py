"""Shared words over one symbolic thread (check/families/shared.py), driven directly: a store over part of a word of
another start or width forgets that word (a later read of it falls back, as memory.shared_store forgets it); a
2-byte read inside a 4-byte word is its half; a 4-byte read of two 2-byte words their pack. A planted fault from a
copied tree (the forgetting switched off) makes a stale word read back. A write of a word another thread read
races unless a barrier both take lies between (a warp barrier orders one warp); a planted fault that lets a warp
barrier order two warps is caught."""
import types

import pytest

from bitorder.check.families import floats as ff
from bitorder.check.families import integers as fi
from bitorder.check.families.shared import Shared
from bitorder.check.symbolic import Unsupported

from mutants import checker_test_fails_on_mutant


def _walker():
    """What Shared reads of a walk: its block size (2 threads, 1 thread bit) and substitution memo."""
    return types.SimpleNamespace(n=2, k=1, memo={})


def _leaf(offset: int, width: int):
    return ff.Leaf({("param:arg0/16",): 16, (): offset, (f"{fi.TBIT}0",): 64}, width)


def test_a_word_partly_overwritten_at_another_width_is_forgotten():
    w, s = _walker(), Shared()
    s.write(w, [(0, 0), (1, 8)], 4, _leaf(0, 4))
    s.barrier()
    s.write(w, [(0, 2), (1, 10)], 2, _leaf(100, 2))
    s.barrier()
    with pytest.raises(Unsupported):
        s.read(w, [(0, 0), (1, 8)], 4)
    half = s.read(w, [(0, 2), (1, 10)], 2)
    assert half.__class__ is ff.Leaf and half.width == 2


def test_a_half_of_a_word_and_a_pack_of_halves():
    w, s = _walker(), Shared()
    s.write(w, [(0, 0), (1, 8)], 4, _leaf(0, 4))
    s.write(w, [(0, 16), (1, 24)], 2, _leaf(32, 2))
    s.write(w, [(0, 18), (1, 26)], 2, _leaf(48, 2))
    s.barrier()
    upper = s.read(w, [(0, 2), (1, 10)], 2)       # (each thread reads its own word's upper half)
    assert upper.__class__ is ff.Leaf and upper.width == 2 and fi.at_thread(upper.address, 0) == \
        fi.at_thread(_leaf(2, 2).address, 0)
    packed = s.read(w, [(0, 16), (1, 24)], 4)
    assert packed.__class__ is ff.Pack and len(packed.parts) == 2


def test_planted_fault_a_partly_overwritten_word_kept_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/shared.py",
                                 "                if old is not None and old != (o, width):\n",
                                 "                if False:\n",
                                 "tests/check/test_families_shared.py::"
                                 "test_a_word_partly_overwritten_at_another_width_is_forgotten")


def _reads_then_writes(reader: int, writer: int, barrier: str) -> None:
    """Thread 0 writes word 0, a full barrier, `reader` reads it, `barrier` ("warp", "none"), then `writer` writes it
    (64 threads, two warps)."""
    w, s = types.SimpleNamespace(n=64, k=6, memo={}), Shared()
    s.write(w, [(0, 0)], 4, _leaf(0, 4))
    s.barrier()
    s.read(w, [(reader, 0)], 4)
    if barrier == "warp":
        s.warp_barrier()
    s.write(w, [(writer, 0)], 4, _leaf(100, 4))


@pytest.mark.parametrize("reader, writer, barrier, races", [
    (40, 33, "warp", False),     # one warp, a warp barrier between
    (40, 1, "warp", True),       # two warps: a warp barrier does not order them
    (40, 40, "none", False),     # the reader itself
    (40, 41, "none", True),      # another thread of its warp, no barrier
])
def test_a_write_of_a_word_another_thread_read_races_unless_a_barrier_orders_them(reader, writer, barrier, races):
    if races:
        with pytest.raises(Unsupported, match="read it"):
            _reads_then_writes(reader, writer, barrier)
    else:
        _reads_then_writes(reader, writer, barrier)


def test_planted_fault_a_warp_barrier_ordering_another_warps_read_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/shared.py",
                                 "            out |= mask & ~(0xFFFFFFFF << (t & ~31)) if when[1] != e1 else mask & ~(1 << t)\n",
                                 "            out |= 0 if when[1] != e1 else mask & ~(1 << t)\n",
                                 "tests/check/test_families_shared.py::"
                                 "test_a_write_of_a_word_another_thread_read_races_unless_a_barrier_orders_them[40-1-warp-True]")
