"""Launching the chain and merge kernels for a GEMMDesc (GPU side).

`run(a, b, desc, bias)` returns the bytes `desc` prescribes for a @ b (+ bias): a
plain chain writes the output directly; a split writes one partial per part into a
workspace and merge_kernel sums them in K order. a is (M, K) or (B, M, K), b is
(K, N) or (B, K, N), any strides; the output is a fresh contiguous tensor.
"""
from __future__ import annotations

import os

import torch
import triton
from triton import knobs
from triton.runtime import driver

from ..desc import GEMMDesc
from .kernels import chain_kernel, chain_kernel_any_ld, chain_tma_kernel, chain_tma_persistent_kernel, merge_kernel

_TORCH = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}
MERGE_BLOCK = 1024


# Tile sizes are speed knobs only: every tile walks the same chain (the 2026-11-30 sweep:
# identical bytes for 10 tiles on 6 shapes). Measured on the H200 with CUDA graphs: 128x256
# tiles (8 warps, 3 stages) reach 0.85-0.88x cuBLAS where they fill the GPU, 64x64 tiles
# (4 warps, 5 stages) 0.81-0.85x on products too small to fill it with larger tiles.
# The default ("waves") weighs each tile's waves over the SMs against its speed: 0.84x cuBLAS
# above 5 GFLOP against 0.80x for "fill" (the first tile that fills the SMs), same 69 shapes,
# 2026-11-30. Since 2026-11-30f the default is "auto" (below: the waves tile, with the persistent
# kernel and TMA loads where the H200 measured them faster); BITORDER_TILES=waves restores the
# waves tile alone, =fill or =fixed (the first session's 64x128 / 128x128) the earlier choices.
# BITORDER_TILES=persistent (opt-in: slower on skinny products): unbatched plain
# chains that fill the SMs run chain_tma_persistent_kernel (persistent_block). The 2026-11-30c
# qkv sweep (do_bench, 9 shapes): 128x128 persistent 0.82/0.83/0.73/0.63x cuBLAS where the
# default tile gave 0.67/0.67/0.59/0.61x; 128x256 persistent 1.00x on 2048x12288x4096 (0.86x).
TILES = os.environ.get("BITORDER_TILES", "auto")
_SMS: dict = {}
H200_SMS = 132  # for Triton's interpreter on CPU tensors


def _sm_count() -> int:
    dev = torch.cuda.current_device()
    if dev not in _SMS:
        _SMS[dev] = torch.cuda.get_device_properties(dev).multi_processor_count
    return _SMS[dev]


# (tile, its speed relative to cuBLAS on products that fill the GPU: the 2026-11-30 sweep)
# 128x256 tiles take 4 stages: faster than 3 on each of the 9 shapes of the 2026-11-30c qkv sweep
# (do_bench, 1.01-1.11x; the speed factor is the 3-stage one, not re-measured).
_WAVE_TILES = (((128, 256, 64, 8, 4), 0.88), ((128, 128, 64, 8, 3), 0.77), ((64, 64, 64, 4, 5), 0.49))


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


def blocks(m: int, n: int, batch: int = 1, sms: int | None = None):
    """(BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages) for an (m, n) output (speed only)."""
    if TILES == "fixed":
        return (64, 128, 64, 4, 3) if m <= 64 else (128, 128, 64, 8, 3)
    sms = sms or _sm_count()
    if TILES == "fill":  # the largest tile that still fills the SMs
        return next((t for t, _ in _WAVE_TILES[:2] if batch * _cdiv(m, t[0]) * _cdiv(n, t[1]) >= sms), _WAVE_TILES[2][0])
    # "waves": least (waves x tile area / speed): a near-empty last wave costs a whole wave
    return min(_WAVE_TILES, key=lambda t: _cdiv(batch * _cdiv(m, t[0][0]) * _cdiv(n, t[0][1]), sms)
               * t[0][0] * t[0][1] / t[1])[0]


def persistent_block(m: int, n: int, sms: int):
    """The persistent kernel's tile for an unbatched (m, n) output, or None where its 128x128 tiles
    would not fill the SMs (speed only): 128x256 from four waves of them on, or (M >= 512) where
    they fit one wave and 128x128 tiles would spill into a second; else 128x128 (4 stages)."""
    big, small = _cdiv(m, 128) * _cdiv(n, 256), _cdiv(m, 128) * _cdiv(n, 128)
    if small < sms:
        return None
    # the 2026-11-30e fp16 sweep (CUDA graphs): at 512x4672x4544, 76 tiles of 128x256 (one wave)
    # 0.736x cuBLAS against 0.674x for 148 of 128x128 (a wave and 16 more); on the other 5 shapes
    # with M >= 512, 128x128 won (0.71-0.98x against 0.52-0.74x); at M = 128, 128x256 persistent
    # tiles ran at 0.39-0.79x, so the one-wave case is taken from M = 512 only
    if big >= 4 * sms or (big <= sms and m >= 512):
        return (128, 256, 64, 8, 3)
    return (128, 128, 64, 8, 4)


# BITORDER_TILES=auto (the default; its kernels gated whole on the H200, 45,120 cases, 2026-11-30f):
# the waves tile, except that
# (1) the persistent kernel takes unbatched products where the 2026-11-30d bench (default against
# BITORDER_TILES=persistent, 120 realistic shapes, CUDA graphs) saw it win: on M >= 512 it was
# 0.99-1.27x the waves tile's speed (35 shapes); on M <= 128 it lost (0.40-0.96x: a 128-row tile
# over 32 rows) unless its tile was the waves tile itself (0.99x, 1.18x); (2) a remaining 128x128
# tile over TMA-aligned operands loads by TMA with 4 stages: 1.05-1.19x the pointer tile's speed on
# 6 of 6 shapes of the 2026-11-30c qkv sweep (at 128x256 TMA was slower: ptxas serializes its wgmma).
AUTO_TMA_BLOCK = (128, 128, 64, 8, 4)
# (3) At M <= 128 a 64x128 tile with 4 stages (2026-11-30e fp16 sweep, CUDA graphs, every tile
# cuBLAS's bytes: 0.95x cuBLAS on 128x15360x5120 against 0.92x for the 128x128 TMA tile; 96 KB of
# ring lets two CTAs share an SM), and (4) a 64x64 waves tile loads by TMA (0.76/0.87/0.72x cuBLAS
# against 0.73/0.73/0.65x by pointers at M = 128, N = 6144/8192/15360). (5) At M <= 32 neither
# TMA route: the 2026-11-30f bench (130 shapes, CUDA graphs; geometric means at M = 1, 2, 8, 32)
# had them at 0.67-0.77x cuBLAS where the pointer kernel ran at 0.87-0.93x; at M = 128 they gave
# 0.79x against its 0.77x.
AUTO_POINTER_M = 32
AUTO_SKINNY_M = 128
AUTO_SKINNY_BLOCK = (64, 128, 64, 4, 4)


def auto_tma_block(m: int, waves_tile: tuple):
    """BITORDER_TILES=auto: the TMA tile for a whole-K chain over aligned operands with m output
    rows whose waves tile is waves_tile, or None to keep the pointer kernel (speed only)."""
    if m <= AUTO_POINTER_M:
        return None
    if tuple(waves_tile[:2]) == (64, 64):
        return (64, 64, 64, 4, 5)
    if tuple(waves_tile[:2]) != (128, 128):
        return None
    return AUTO_SKINNY_BLOCK if m <= AUTO_SKINNY_M else AUTO_TMA_BLOCK


def auto_persistent(m: int, waves_tile: tuple, pblock: tuple) -> bool:
    """BITORDER_TILES=auto: whether an unbatched (m, n) product runs the persistent kernel (speed only)."""
    return m >= 512 or tuple(pblock[:2]) == tuple(waves_tile)


_COMPILED: dict = {}
# Kept-kernel launches (on since the 2026-11-30 gate: 41,932 cases, 0 mismatches, with them on);
# BITORDER_FAST_LAUNCH=0 goes through Triton's JIT binding on every call instead. (Keying them
# by the caller's route instead of per argument saved 2 of 73 us per call on the H200: dropped.)
FAST = os.environ.get("BITORDER_FAST_LAUNCH", "1") != "0"
# BITORDER_TMA=1: plain chains over 16-byte-aligned operands load their tiles by TMA
# (chain_tma_kernel: the same dots in the same order); =persistent: one program per SM walks
# unbatched products' tiles (chain_tma_persistent_kernel). Opt-in until the H200 has gated and
# timed them.
TMA = {"1": True, "persistent": "persistent"}.get(os.environ.get("BITORDER_TMA", ""), False)


def _spec(x, constexpr: bool):
    """What Triton's JIT specialises an argument on: a constexpr's value, a tensor's dtype and
    16-byte alignment, an int's being 1, a multiple of 16, or past int32."""
    if constexpr:
        return x
    if isinstance(x, torch.Tensor):
        return x.dtype, x.data_ptr() % 16 == 0
    if isinstance(x, int):
        return x == 1, x % 16 == 0, -2 ** 31 <= x < 2 ** 31
    if hasattr(x, "block_shape") and hasattr(x, "base"):
        # a host TMA descriptor: the JIT specialises it on its type text alone (element type, box, shared layout);
        # its base, shape and strides are launch arguments the launcher unpacks each call
        return "desc", x.base.dtype, tuple(x.block_shape), repr(getattr(x, "layout", None))
    return type(x), x


def _launch(kernel, grid, args, num_warps, num_stages, fast=None, **options):
    """kernel[grid](*args), with Triton's JIT binding run once per specialisation: later calls
    whose arguments specialise alike (_spec) launch the compiled kernel directly, as the JIT
    itself would (it costs tens of microseconds a call; this a few). args holds every
    parameter in order, constexprs included, as the JIT hands them to the launcher. fast: the
    caller's switch (default FAST); num_stages None for a Gluon kernel; options (maxnreg) are
    compile options, in the key."""
    key = compiled = None
    first = args[0].base if hasattr(args[0], "base") else args[0]   # (a TMA descriptor's tensor)
    if (FAST if fast is None else fast) and first.is_cuda:   # (off, or Triton's interpreter: the JIT's own launch)
        key = (kernel, num_warps, num_stages, tuple(sorted(options.items())), torch.cuda.current_device(),
               *(_spec(x, p.is_constexpr) for x, p in zip(args, kernel.params)))
        compiled = _COMPILED.get(key)
    if compiled is None:
        stages = {} if num_stages is None else {"num_stages": num_stages}
        compiled = kernel[grid](**dict(zip(kernel.arg_names, args)), num_warps=num_warps, **stages, **options)
        if key is not None:
            if len(_COMPILED) > 4096:
                _COMPILED.clear()
            _COMPILED[key] = compiled
        return
    stream = driver.active.get_current_stream(driver.active.get_current_device())
    g = (*grid, 1, 1)
    compiled.run(g[0], g[1], g[2], stream, compiled.function, compiled.packed_metadata,
                 compiled.launch_metadata(grid, stream, *args),
                 knobs.runtime.launch_enter_hook, knobs.runtime.launch_exit_hook, *args)


def _as3d(x):
    return x if x.dim() == 3 else x.unsqueeze(0)


def _major(x):
    """(row_major, the other stride) of a 2-D or batched operand; a copy if it is neither."""
    s0, s1 = x.stride(-2), x.stride(-1)
    if s1 == 1 and (x.shape[-2] == 1 or s0 >= x.shape[-1]):
        return x, True, max(s0, 1)
    if s0 == 1 and (x.shape[-1] == 1 or s1 >= x.shape[-2]):
        return x, False, max(s1, 1)
    x = x.contiguous()  # the same values: the bits do not change
    return x, True, x.stride(-2)


def tma_aligned(a, b, strides) -> bool:
    """Whether TMA descriptors can describe operands a and b: 16-byte-aligned bases, and every
    stride given (elements of a's type: leading and batch strides) a multiple of 16 bytes."""
    return (a.data_ptr() % 16 == 0 and b.data_ptr() % 16 == 0
            and all(x * a.element_size() % 16 == 0 for x in strides))


def _allocator(size: int, align: int, stream):
    return torch.empty(size, dtype=torch.int8, device="cuda")


def ensure_allocator():
    """Device-side TMA descriptors live in a per-launch scratch buffer: give Triton a torch
    allocator unless the caller has set one."""
    if triton.runtime._allocation._allocator.get() is triton.runtime._allocation._NULL_ALLOCATOR:
        triton.set_allocator(_allocator)


def chain(a, b, out, *, span: int, group: int = 16, tail_first: bool = False, k_step: int = 16, bias=None,
          parts: int = 1, block=None, tma: bool | None = None, strided: bool = False):
    """Launch chain_kernel: out[part] = the chain over part `part` of K, in out's type.
    tma (default BITORDER_TMA): True: a plain chain over aligned operands runs chain_tma_kernel;
    "persistent": an unbatched one runs chain_tma_persistent_kernel on one program per SM.
    Every route walks the same dots in the same order: the tile and route choose speed, never bits.
    strided: K's tiles of `span` dealt to the parts in turn (part p: tiles p, p + parts, ...)."""
    if strided and (tail_first or parts < 2):
        raise NotImplementedError("a strided split walks its tiles' groups from each tile's start, over 2+ parts")
    a3, b3 = _as3d(a), _as3d(b)
    batch, M, K = a3.shape
    N = b3.shape[-1]
    a3, a_row, sa = _major(a3)
    b3, b_row, sb = _major(b3)
    o = out.view(parts, batch, M, N)  # out is contiguous: the output, or the workspace of partials
    sms = _sm_count() if a3.is_cuda else H200_SMS
    BM, BN, BK, warps, *stages = block or blocks(M, N, batch * parts, sms)
    sab = a3.stride(0) if a3.shape[0] > 1 else 0   # a batch of one (or a broadcast operand) steps by 0
    sbb = b3.stride(0) if b3.shape[0] > 1 else 0
    whole_k = group == 16 and not tail_first and parts == 1 and span >= K   # what the TMA kernels walk
    if tma is None and block is None and TILES in ("persistent", "auto") and batch == 1 and parts == 1:
        pblock = persistent_block(M, N, sms)
        if pblock is not None and (TILES == "persistent" or auto_persistent(M, (BM, BN), pblock)):
            tma, (BM, BN, BK, warps, *stages) = "persistent", pblock
    aligned = None   # tma_aligned(...), asked at most once a call (host time)
    if tma is None and block is None and TILES == "auto" and whole_k:
        aligned = tma_aligned(a3, b3, (sa, sb, sab, sbb))
        tblock = auto_tma_block(M, (BM, BN)) if aligned else None
        if tblock is not None:
            tma, (BM, BN, BK, warps, *stages) = True, tblock
    tma = TMA if tma is None else tma
    if tma and whole_k and (aligned if aligned is not None else tma_aligned(a3, b3, (sa, sb, sab, sbb))):
        ensure_allocator()
        if tma == "persistent" and batch == 1:
            _launch(chain_tma_persistent_kernel, (min(sms, _cdiv(M, BM) * _cdiv(N, BN)),), (
                a3, b3, o, bias if bias is not None else a3, M, N, K, sa, sb, o.stride(2), a_row, b_row,
                bias is not None, BM, BN, BK, sms, False), warps, stages[0] if stages else 3)
            return out
        _launch(chain_tma_kernel, (_cdiv(M, BM) * _cdiv(N, BN), batch), (
            a3, b3, o, bias if bias is not None else a3, M, N, K, sab, sa, sbb, sb,
            o.stride(1), o.stride(2), a_row, b_row, bias is not None, BM, BN, BK), warps, stages[0] if stages else 3)
        return out
    grid = (_cdiv(M, BM) * _cdiv(N, BN), batch, parts)
    kernel = chain_kernel if (sa % 16 == 0 and sb % 16 == 0 and N % 16 == 0) else chain_kernel_any_ld
    _launch(kernel, grid, (
        a3, b3, o, bias if bias is not None else a3, M, N, K, span, k_step, sab, sa, sbb, sb,
        o.stride(1), o.stride(2), o.stride(0),
        a_row, b_row, group, tail_first, bias is not None, BM, BN, BK, strided), warps, stages[0] if stages else 3)
    return out


def rounded(acc: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """fp32 sums rounded once to dtype by merge_kernel's conversion (cvt.rn, the chain kernel's store)."""
    acc = acc.contiguous()
    out = torch.empty(acc.shape, dtype=dtype, device=acc.device)
    n = acc.numel()
    _launch(merge_kernel, (_cdiv(n, MERGE_BLOCK),), (acc, out, acc, n, 1, n, acc.shape[-1], False, 0, MERGE_BLOCK), 4, 3)
    return out


def out_shape(a, b):
    """The product's shape; batch dimensions are equal or absent here (api routes the rest)."""
    return (*(a.shape[:-2] or b.shape[:-2]), a.shape[-2], b.shape[-1])


def run(a, b, desc: GEMMDesc, bias=None, out_dtype=None, block=None, tma: bool | None = None):
    """a @ b (+ bias) with exactly the bits `desc` prescribes (families plain and split_k).
    block and tma (see chain) are speed knobs."""
    out = _run(a, b, desc, bias, out_dtype, block, tma)
    if "add_zero" in desc.epilogue:
        # cuBLAS's merge adds an empty part's +0 partial to the rounded output: -0 becomes +0
        # (masked_fill, not out + 0: the fill leaves a NaN's bits as they are)
        out.masked_fill_(out == 0, 0)
    return out


def _run(a, b, desc, bias, out_dtype, block, tma):
    out_dtype = out_dtype or a.dtype
    shape = out_shape(a, b)
    out = torch.empty(shape, dtype=out_dtype, device=a.device)
    if desc.instruction_k not in (8, 16) or desc.promotion is not None:
        raise NotImplementedError(f"no Triton kernel for {desc}")
    tail = dict(group=desc.instruction_k, tail_first=desc.k_tail == "first", k_step=desc.k_step or 16, block=block, tma=tma)
    has_bias = bias is not None
    if desc.family == "plain":
        if has_bias and "bias_out" in desc.epilogue:
            # the rounded chain, then the bias added in fp32 and rounded again (torch's addmm over nvjet's
            # badd kernels): fp16/bf16 + fp16/bf16 is exact in fp32 wherever a second rounding could tie
            chain(a, b, out, span=desc.k, bias=None, **tail)
            return out.copy_((out.float() + bias.float()).to(out_dtype))
        if has_bias and "bias_acc" not in desc.epilogue:
            raise NotImplementedError(f"no Triton kernel adds a bias as {desc.epilogue}")   # never drop it silently
        return chain(a, b, out, span=desc.k, bias=bias if has_bias else None, **tail)
    strided = desc.strided_split   # (GEMMDesc allows split_k no other layout, nor a serial strided merge)
    if (desc.family != "split_k" or len(desc.k_cuts) != 1 or desc.merge_dtype != "fp32"
            or (desc.k_parts is not None and not strided)):
        raise NotImplementedError(f"no Triton kernel for {desc}")
    serial = desc.merge_order == "serial_added"
    if not serial and desc.merge_order != "sequential":
        raise NotImplementedError(f"no Triton kernel for {desc}")
    # Serial parts keep their fp32 accumulators; the merge rounds after every add.
    ws_dtype = torch.float32 if serial else _TORCH[desc.partial_dtype]
    parts = desc.parts
    ws = torch.empty((parts, *shape), dtype=ws_dtype, device=a.device)
    chain(a, b, ws, span=desc.k_cuts[0], parts=parts, strided=strided, **tail)
    if not has_bias:
        mode = 0
    elif "bias_out" in desc.epilogue:
        mode = 3
    elif "bias_last" in desc.epilogue:
        mode = 4
    else:
        mode = 2 if serial else 1
    n = out.numel()
    _launch(merge_kernel, (_cdiv(n, MERGE_BLOCK),),
            (ws, out, bias if has_bias else ws, n, parts, n, shape[-1], serial, mode, MERGE_BLOCK), 4, 3)
    return out
