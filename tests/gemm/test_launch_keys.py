"""The launch cache's keys (gemm/launch.py): a compiled kernel is reused only for arguments
Triton's JIT would specialise alike."""
import pytest

torch = pytest.importorskip("torch")

from bitorder.gemm import launch  # noqa: E402


def test_constexprs_key_by_value_and_ints_by_class():
    assert launch._spec(64, True) != launch._spec(128, True)          # BLOCK_M 64 vs 128
    assert launch._spec(64, False) == launch._spec(128, False)        # both multiples of 16
    assert launch._spec(1, False) != launch._spec(17, False)          # 1 is specialised
    assert launch._spec(16, False) != launch._spec(17, False)         # divisibility by 16
    assert launch._spec(2 ** 31, False) != launch._spec(16, False)    # i64 vs i32
    assert launch._spec(True, True) != launch._spec(False, True)


def test_tensors_key_by_dtype_and_alignment():
    buf = torch.zeros(64, dtype=torch.float16)
    assert launch._spec(buf, False) == launch._spec(buf[8:], False)   # 16 bytes apart
    assert launch._spec(buf, False) != launch._spec(buf[1:], False)   # 2 bytes apart
    assert launch._spec(buf, False) != launch._spec(buf.float(), False)


def test_the_fast_path_is_on_unless_turned_off():
    assert launch.FAST is (__import__("os").environ.get("BITORDER_FAST_LAUNCH", "1") != "0")


def test_tiles_fill_the_gpu(monkeypatch):
    """Tiles are speed knobs: with BITORDER_TILES=fill large products take 128x256 tiles, products
    too small to fill 132 SMs with them smaller ones; the default wave model avoids a near-empty
    last wave."""
    monkeypatch.setattr(launch, "TILES", "fill")
    assert launch.blocks(8192, 28672, 1, 132)[:2] == (128, 256)
    assert launch.blocks(1024, 4096, 1, 132)[:2] == (128, 128)
    assert launch.blocks(8, 3072, 2, 132)[:2] == (64, 64)
    monkeypatch.setattr(launch, "TILES", "fixed")
    assert launch.blocks(8, 3072, 1, 132)[:2] == (64, 128)
    monkeypatch.setattr(launch, "TILES", "waves")
    assert launch.blocks(512, 3584, 1, 132)[:2] == (128, 128)        # 64x64 would take 3.4 waves
    assert launch.blocks(2048, 2304, 1, 132)[:2] == (128, 128)       # 128x256: 144 tiles, 2 waves


class _Param:
    def __init__(self, name, constexpr):
        self.name, self.is_constexpr = name, constexpr


class _Compiled:
    function, packed_metadata = "fn", "meta"

    def __init__(self, log):
        self.log = log

    def launch_metadata(self, grid, stream, *args):
        return None

    def run(self, *a):
        self.log.append(("fast", a))


class _Kernel:
    """A stand-in for a JITFunction: the first launch of a specialisation goes through it."""
    arg_names = ["x_ptr", "n", "BLOCK"]
    params = [_Param("x_ptr", False), _Param("n", False), _Param("BLOCK", True)]

    def __init__(self):
        self.log = []

    def __getitem__(self, grid):
        def launch(**kw):
            self.log.append(("jit", grid, kw))
            return _Compiled(self.log)
        return launch


class _Ptr:
    is_cuda = True


class _Stream:
    @staticmethod
    def get_current_device():
        return 0

    @staticmethod
    def get_current_stream(device):
        return 7


def stand_in_gpu(monkeypatch):
    """The fast path on, device 0, stream 7, an empty launch cache: no GPU needed."""
    monkeypatch.setattr(launch, "FAST", True)
    monkeypatch.setattr(launch.torch.cuda, "current_device", lambda: 0)
    monkeypatch.setattr(launch, "driver", type("D", (), {"active": _Stream}))
    monkeypatch.setattr(launch, "_COMPILED", {})


def test_kept_kernels_are_reused_per_specialisation_only(monkeypatch):
    """The fast path binds through the JIT once per specialisation and then calls the compiled
    kernel's launcher with every argument in order; a new specialisation goes through the JIT."""
    stand_in_gpu(monkeypatch)
    k, p = _Kernel(), _Ptr()
    launch._launch(k, (4,), (p, 32, 64), 4, 3)         # first: the JIT
    launch._launch(k, (4,), (p, 48, 64), 4, 3)         # 48: a multiple of 16 like 32: kept kernel
    launch._launch(k, (4,), (p, 33, 64), 4, 3)         # 33: another specialisation: the JIT again
    launch._launch(k, (4,), (p, 32, 128), 4, 3)        # another constexpr: the JIT again
    kinds = [e[0] for e in k.log]
    assert kinds == ["jit", "fast", "jit", "jit"]
    assert k.log[1][1][:4] == (4, 1, 1, 7) and k.log[1][1][-3:] == (p, 48, 64)


def test_persistent_tiles_only_where_they_fill_the_sms(monkeypatch):
    """BITORDER_TILES=persistent: unbatched products whose 128x128 tiles fill 132 SMs run the
    persistent kernel (128x256 tiles from four waves on); smaller, batched or split ones do not."""
    assert launch.persistent_block(2048, 12288, 132) == (128, 256, 64, 8, 3)
    assert launch.persistent_block(512, 10240, 132) == (128, 128, 64, 8, 4)
    assert launch.persistent_block(32, 10240, 132) is None
    # one wave of 128x256 where 128x128 tiles would spill into a second (M >= 512 only)
    assert launch.persistent_block(512, 4672, 132) == (128, 256, 64, 8, 3)
    assert launch.persistent_block(128, 18176, 132) == (128, 128, 64, 8, 4)
    assert launch.persistent_block(512, 4096, 132) is None
    monkeypatch.setattr(launch, "TILES", "persistent")
    used = []
    monkeypatch.setattr(launch, "_launch", lambda kernel, grid, args, warps, stages: used.append((kernel, grid, warps, stages)))
    monkeypatch.setattr(launch, "ensure_allocator", lambda: None)
    a, b = torch.empty(2048, 1024, dtype=torch.float16), torch.empty(1024, 2560, dtype=torch.float16)
    launch.chain(a, b, torch.empty(2048, 2560, dtype=torch.float16), span=1024)
    assert used[-1] == (launch.chain_tma_persistent_kernel, (132,), 8, 4)
    launch.chain(a[:64], b, torch.empty(64, 2560, dtype=torch.float16), span=1024)
    assert used[-1][0] is launch.chain_kernel
    a3, b3 = a.expand(2, -1, -1), b.expand(2, -1, -1)
    launch.chain(a3, b3, torch.empty(2, 2048, 2560, dtype=torch.float16), span=1024)
    assert used[-1][0] is not launch.chain_tma_persistent_kernel


def test_auto_tiles_route_by_the_measured_rule(monkeypatch):
    """BITORDER_TILES=auto: the persistent kernel on M >= 512 or where its tile is the waves tile;
    a remaining 128x128 tile over aligned operands loads by TMA with 4 stages, or at M <= 128 a
    64x128 one; a 64x64 waves tile loads by TMA (5 stages); 128x256 stays on pointers, and so
    does every tile at M <= 32 (AUTO_POINTER_M)."""
    monkeypatch.setattr(launch, "TILES", "auto")
    used = []
    monkeypatch.setattr(launch, "_launch", lambda kernel, grid, args, warps, stages: used.append((kernel, grid, warps, stages)))
    monkeypatch.setattr(launch, "ensure_allocator", lambda: None)

    def route(m, n, k=1024, batch=None):
        a = torch.empty(m, k, dtype=torch.float16)
        b = torch.empty(k, n, dtype=torch.float16)
        out = torch.empty(m, n, dtype=torch.float16)
        if batch:
            a, b, out = a.expand(batch, -1, -1), b.expand(batch, -1, -1), out.expand(batch, -1, -1).contiguous()
        launch.chain(a, b, out, span=k)
        kernel, grid, warps, stages = used[-1]
        return kernel, stages

    def tile(m, n):
        route(m, n)
        kernel, grid, warps, stages = used[-1]
        return grid[0], warps, stages   # programs along M x N

    assert route(512, 10240) == (launch.chain_tma_persistent_kernel, 4)      # 128x128 persistent, M >= 512
    assert route(2048, 12288) == (launch.chain_tma_persistent_kernel, 3)     # 128x256 persistent
    assert route(128, 50272) == (launch.chain_tma_persistent_kernel, 4)      # its tile is the waves tile
    assert route(128, 18176) == (launch.chain_kernel, 4)                     # waves 128x256 kept (persistent lost)
    assert route(32, 32064) == (launch.chain_kernel, 5)                      # M <= 32: pointers (64x64 waves tile)
    assert route(64, 32064) == (launch.chain_tma_kernel, 5)                  # 64x64 waves tile, by TMA
    assert tile(128, 15360) == (2 * 120, 4, 4)                               # skinny: 64x128, 4 stages
    assert tile(128, 8192) == (2 * 128, 4, 5)                                # 64x64 waves tile, by TMA
    assert tile(256, 8192) == (2 * 64, 8, 4)                                 # 128x128 by TMA (AUTO_TMA_BLOCK)
    assert route(512, 10240, batch=2)[0] is launch.chain_tma_kernel          # batched: no persistent, TMA 128x128
    assert not launch.auto_persistent(128, (128, 256), (128, 128, 64, 8, 4))
