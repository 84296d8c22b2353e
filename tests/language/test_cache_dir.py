"""Triton's cache directory names the whole compile state (language.pinned.apply_cache_dir): a hooked
compile is never stored where an unhooked one looks, whichever switch changes last."""
import triton

import bitorder
from bitorder.compiler import layouts


def test_pin_all_leaves_the_layout_pass_its_own_directory():
    """The 2026-12-02e CI failure: pin_all's exit used to set the plain directory with the hook on."""
    plain = triton.knobs.cache.dir
    with layouts.applied(True):
        hooked = triton.knobs.cache.dir
        assert hooked != plain and hooked.endswith(layouts._SOURCE)
        with bitorder.pin_all():
            assert triton.knobs.cache.dir.endswith(layouts._SOURCE) and "pinned-all" in triton.knobs.cache.dir
        assert triton.knobs.cache.dir == hooked
    assert triton.knobs.cache.dir == plain


def test_each_switch_setting_has_a_directory_of_its_own():
    with layouts.applied(True):
        seen = set()
        for rowperm in (True, False):
            with layouts.conversions(rowperm=rowperm):
                seen.add(triton.knobs.cache.dir)
        assert len(seen) == 2
