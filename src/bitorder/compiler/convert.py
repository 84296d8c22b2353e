"""A pinned chain over a tensor-core accumulator: one convert_layout first (paper Algorithm 1,
"a convert_layout only where it is worth it").

RemoveLayoutConversions carries a dot's MMA layout (NVIDIA mma / wgmma, AMD mfma / wmma) into
whatever reduces the accumulator. In it the reduced axis' low bits sit in lanes (rows 0-7 of an
NVIDIA fragment are lanes / 4) and its next bits in registers and warps, so the pinned tree,
which must pair rows 0 and 1 first, shuffles every register of the accumulator at every lane
level: for a 128 x 32 column sum at 4 warps, 99 shuffles and 47 shared stores against the free
sum's 26 and 21, 1.9x the free kernel's time on the H200 (benchmarks/results/2026-11-30h-pinned).

This rewrite runs on the finished TTGIR (after the last RemoveLayoutConversions, so nothing
moves the layout back). It converts the chain's input once to a layout with the reduced axis'
low bits in registers, then lanes, warps on the kept axes first, and gives every step of the
chain the layout that follows from it. The tree is the same (a pinned chain's bits do not
depend on the layout); only where its levels run changes: in registers, then a few shuffles,
with one shared-memory round trip for the conversion. The chain's layouts are written as
linear layouts, computed the way a reshape and a reduction derive them: a reshape of
power-of-two extents is a permutation of the flat index's bits, a reduction drops its axis.

With rows=True (BITORDER_PINNED_CONVERT_ROWS, on by default since 2026-12-02c; =0 turns it off) a chain over a
blocked tensor is converted the same way when its axis does not already run registers, lanes,
warps in order: rows reduced along their contiguous axis (softmax, cross_entropy), where the tree
shuffles once per lane level per register repetition. Fewer shuffles, one more shared-memory
round trip per chain (H200: cross_entropy 1.114 -> 1.057 with shuffle).

With shuffle=True (BITORDER_PINNED_CONVERT_SHUFFLE, on by default since 2026-12-02c; =0 turns it off) the chain is
converted level by level instead (shuffle_plan): before each level whose pair bit sits in a lane,
one convert_layout to the layout with that lane bit swapped for a kept axis' register bit (or, for
a row with no kept bit in registers, the axis' highest register bit), nothing else changed. Triton
3.6 lowers a conversion that is one register/lane transposition with warp shuffles, no shared
memory (ConvertLayoutOpToLLVM's transferWithinWarp, when cvtNeedsWarpShuffle: the minimal
conversion's dims are register and lane and it has fewer than two mixed transpositions): half the
registers cross one lane xor, then the level's add runs in registers and halves them. The first
level whose pair bit is a warp's gathers every warp row bit into kept register (then lane) bits
with one shared-memory conversion. The first conversion's source is read back from the layout
Triton inferred for the chain's first reshape (unsplit), so it is the accumulator's own.
"""
from __future__ import annotations

import ast
import re

_ALIAS_LINE = re.compile(r"^(#[\w.]+) = (#[^\n]*)$", re.M)
_ACCUMULATOR = ("#ttg.nvidia_mma<", "#ttg.amd_mfma<", "#ttg.amd_wmma<")
_RESHAPE = re.compile(r"^(\s*)(%[\w.]+) = tt\.reshape (%[\w.]+(?:#\d+)?) : tensor<([0-9x]+)x(\w+), "
                      r"(#ttg\.slice<\{[^}]*\}>|#[\w.]+)> -> "
                      r"tensor<([0-9x]+)x\w+, (#[\w.]+)>(.*)$", re.M)
_REDUCE_OF = r'^\s*(%[\w.]+) = "tt\.reduce"\({}\) <\{{axis = (\d+) : i32\}}>'


def _dims(shape: str) -> list[int]:
    return [int(d) for d in shape.split("x")]


def _bits(n: int) -> int:
    return n.bit_length() - 1


def chain_layout(shape, axis: int, warps: int, lanes: int) -> dict:
    """Linear-layout bases (register, lane, warp) of a tensor of `shape` that covers it exactly,
    with `axis`' low bits in registers, then lanes, then warps: warps take the kept axes first
    (a level across warps costs a shared-memory round trip), then lanes the kept axes (from the
    last), and what is left of each goes to the reduced axis; registers hold the rest."""
    left = list(shape)
    wpc, tpw = [1] * len(shape), [1] * len(shape)
    kept = [d for d in reversed(range(len(shape))) if d != axis]
    for counts, total in ((wpc, warps), (tpw, lanes)):
        for d in kept + [axis]:
            take = min(total, left[d])
            counts[d] *= take
            left[d] //= take
            total //= take
        if total > 1:
            raise ValueError(f"shape {shape} has fewer elements than {warps} warps of {lanes} lanes")
    spt = left

    def unit(d, v):
        return [v if i == d else 0 for i in range(len(shape))]

    order = [axis] + kept          # registers: the reduced axis' low bits first
    return {"register": [unit(d, 1 << b) for d in order for b in range(_bits(spt[d]))],
            "lane": [unit(d, spt[d] << b) for d in order for b in range(_bits(tpw[d]))],
            "warp": [unit(d, spt[d] * tpw[d] << b) for d in order for b in range(_bits(wpc[d]))]}


def mma_warp_bases(source: str, shape) -> list | None:
    """The warp bases of an NVIDIA mma layout (its #ttg.nvidia_mma attribute) over a 2-D `shape`:
    each warp owns a 16-row tile (wgmma: 16 of the 64 rows; mma.sync: its m16 tile) times the
    instruction's N, warps counted along N first for mma.sync and along M first for wgmma, as
    Triton's linear layouts of these encodings do; None for other layouts or shapes."""
    m = re.match(r"#ttg\.nvidia_mma<\{versionMajor = (\d+).*warpsPerCTA = \[(\d+), (\d+)\].*instrShape = \[(\d+), (\d+)",
                 source)
    if m is None or len(shape) != 2:
        return None
    major, wpc, tile = int(m.group(1)), (int(m.group(2)), int(m.group(3))), (16, int(m.group(5)))
    order = (1, 0) if major == 2 else (0, 1)
    out = []
    for d in order:
        for b in range(_bits(wpc[d])):
            if (tile[d] << b) >= shape[d]:
                return None          # warps broadcast over a short axis: keep Triton's own choice
            out.append([tile[d] << b if i == d else 0 for i in range(2)])
    return out


def chain_layout_keeping_warps(shape, axis: int, warp: list, lanes: int) -> dict:
    """Bases with the given warp bases (the source's: the conversion then stays inside each warp)
    and the reduced axis' other bits in registers first; the kept axis fills the lanes from its low
    bits, its rest registers. The tree's level across warps (an axis bit held by a warp) then runs
    on values already summed over the lower bits."""
    held = [set() for _ in shape]
    for v in warp:
        d = next(i for i, x in enumerate(v) if x)
        held[d].add(_bits(v[d]))
    free = [[b for b in range(_bits(shape[d])) if b not in held[d]] for d in range(len(shape))]
    kept = [d for d in reversed(range(len(shape))) if d != axis]

    def unit(d, b):
        return [1 << b if i == d else 0 for i in range(len(shape))]
    lane, left = [], _bits(lanes)
    for d in kept + [axis]:
        take = free[d][:left]
        lane += [unit(d, b) for b in take]
        free[d] = free[d][len(take):]
        left -= len(take)
    if left:
        raise ValueError(f"shape {shape} has too few elements for {lanes} lanes beside the warps")
    return {"register": [unit(d, b) for d in [axis] + kept for b in free[d]], "lane": lane, "warp": warp}


def blocked_bases(body: str, shape) -> dict:
    """The linear-layout bases of a #ttg.blocked layout (its attribute body) over `shape`: per
    dimension in `order`, sizePerThread in registers, threadsPerWarp in lanes, warpsPerCTA in
    warps, bases past the shape broadcasting (zero), and the shape's rest as register
    repetitions; Triton's blocked-to-linear conversion, up to the order of the registers."""
    f = {k: [int(x) for x in v.split(",")] for k, v in re.findall(r"(\w+) = \[([0-9, ]+)\]", body)}
    spt, tpw, wpc, order = f["sizePerThread"], f["threadsPerWarp"], f["warpsPerCTA"], f["order"]
    out = {"register": [], "lane": [], "warp": []}
    covered = [1] * len(shape)
    for kind, counts in (("register", spt), ("lane", tpw), ("warp", wpc)):
        for d in order:
            for _ in range(_bits(counts[d])):
                v = covered[d] if covered[d] < shape[d] else 0
                out[kind].append([v if i == d else 0 for i in range(len(shape))])
                covered[d] *= 2
    for d in order:
        while covered[d] < shape[d]:
            out["register"].append([covered[d] if i == d else 0 for i in range(len(shape))])
            covered[d] *= 2
    return out


def split(layout: dict, axis: int) -> dict:
    """The layout of reshape(x, [..., S/2, 2, ...]) at `axis`: bit 0 of the axis' coordinate
    becomes the new size-2 axis, the rest the halved one (row-major flat order unchanged)."""
    return {k: [v[:axis] + [v[axis] >> 1, v[axis] & 1] + v[axis + 1:] for v in vs] for k, vs in layout.items()}


def drop(layout: dict, axis: int) -> dict:
    """The layout once `axis` is reduced away (tt.reduce's slice, or a reshape dropping an axis of
    1): lanes and warps keep their bases (now broadcasting), registers lose theirs."""
    out = {k: [v[:axis] + v[axis + 1:] for v in vs] for k, vs in layout.items()}
    out["register"] = [v for v in out["register"] if any(v)]
    return out


def text(layout: dict) -> str:
    """The #ttg.linear attribute of a layout's bases, as the TTGIR parser reads it."""
    def vs(k):
        return "[" + ", ".join("[" + ", ".join(map(str, v)) + "]" for v in layout[k]) + "]"
    return f"#ttg.linear<{{register = {vs('register')}, lane = {vs('lane')}, warp = {vs('warp')}, block = []}}>"


def parse_linear(attr: str) -> dict | None:
    """The bases of a #ttg.linear attribute's text (register, lane, warp), or None for another
    attribute or a layout over several CTAs."""
    if not attr.startswith("#ttg.linear<"):
        return None
    got = {k: ast.literal_eval(v) for k, v in re.findall(r"(register|lane|warp|block) = (\[[-0-9, \[\]]*\])", attr)}
    if set(got) != {"register", "lane", "warp", "block"} or got.pop("block"):
        return None
    return got


def unsplit(layout: dict, axis: int) -> dict:
    """split's inverse: the layout of x from that of reshape(x, [..., S/2, 2, ...]) at `axis`."""
    return {k: [v[:axis] + [2 * v[axis] + v[axis + 1]] + v[axis + 2:] for v in vs] for k, vs in layout.items()}


def swap_pair_into_registers(layout: dict, axis: int) -> dict | None:
    """The layout that differs from `layout` in one exchange: the lane basis holding the pair bit
    (`axis`' coordinate 1) trades places with the first register basis on a kept axis only; None
    when the pair bit is not a lane's or no register holds a kept axis' bit. Triton 3.6 lowers
    such a conversion (one register bit swapped with one lane bit, warps unchanged) with warp
    shuffles, no shared memory: half the registers cross one lane xor (docs/pinned.md)."""
    pair = [1 if i == axis else 0 for i in range(len(next(v for vs in layout.values() for v in vs)))]
    if pair not in layout["lane"]:
        return None
    regs = layout["register"]
    i = next((i for i, v in enumerate(regs) if v[axis] == 0 and any(v)), None)
    if i is None:     # no kept axis' bit in registers: the axis' highest register bit (a later level)
        i = max((i for i, v in enumerate(regs) if v[axis] > 1), key=lambda i: regs[i][axis], default=None)
    if i is None:
        return None
    j = layout["lane"].index(pair)
    out = {k: [list(v) for v in vs] for k, vs in layout.items()}
    out["register"][i], out["lane"][j] = out["lane"][j], out["register"][i]
    return out


def gather_warp_pairs(layout: dict, axis: int) -> dict | None:
    """The layout with every warp basis on `axis` alone traded for a kept axis' basis, registers'
    first, then lanes' (from the last): one shared-memory round trip that leaves no tree level
    across warps (Triton's reduction would cross warps once per level); None when the layout has
    no warp on the axis or not enough kept bases."""
    pair_warps = [j for j, v in enumerate(layout["warp"]) if v[axis] and not any(x for i, x in enumerate(v) if i != axis)]
    if not pair_warps:
        return None
    kept = [("register", i) for i, v in enumerate(layout["register"]) if v[axis] == 0 and any(v)] + \
        [("lane", i) for i, v in reversed(list(enumerate(layout["lane"]))) if v[axis] == 0 and any(v)]
    if len(kept) < len(pair_warps):
        return None
    out = {k: [list(v) for v in vs] for k, vs in layout.items()}
    for j, (kind, i) in zip(pair_warps, kept):
        out[kind][i], out["warp"][j] = out["warp"][j], out[kind][i]
    return out


def shuffle_plan(source: dict, axis: int, levels: int, gather_warps: bool = True) -> list:
    """[(the layout a level's input is converted to, or None to leave it), the layout of its
    reshape] for each of a pinned chain's `levels`, from the layout of its input (`source`, the
    tensor before the first reshape): a level whose pair bit sits in a lane first swaps it with a
    kept axis' register bit (swap_pair_into_registers), so its add runs in registers; a pair in
    registers or warps is reduced as it lies. The layouts follow the way Triton derives them
    (split for the reshape, drop for the reduction's slice)."""
    plan, cur = [], source
    rank = len(next(v for vs in source.values() for v in vs))
    for _ in range(levels):
        conv = swap_pair_into_registers(cur, axis)
        if conv is None and gather_warps and [int(d == axis) for d in range(rank)] in cur["warp"]:
            conv = gather_warp_pairs(cur, axis)
            if conv is not None:
                conv = swap_pair_into_registers(conv, axis) or conv
        shaped = split(conv or cur, axis)
        plan.append((conv, shaped))
        cur = drop(shaped, axis + 1)
    return plan


def _shuffle_chain(lines: list, steps: list, axis: int, defs: dict, name: str, new_defs: list) -> bool:
    """Edit a pinned chain's lines for the shuffle mode (BITORDER_PINNED_CONVERT_SHUFFLE): one
    convert_layout before each level whose pair bit is in a lane (shuffle_plan), each step's
    layout renamed #<name>_<k>; False (nothing edited) when the chain's first reshape layout is
    not a linear layout Triton inferred or no level needs a swap."""
    reshapes = [(i, m) for i, m in steps[:-1] if m is not None]
    attr = defs.get(reshapes[0][1].group(8), "")
    first = parse_linear(attr)
    if first is None and attr.startswith("#ttg.blocked<"):
        first = blocked_bases(attr[len("#ttg.blocked<{"):-2], _dims(reshapes[0][1].group(7)))
    if first is None:
        return False
    plan = shuffle_plan(unsplit(first, axis), axis, len(reshapes))
    if not any(conv for conv, _ in plan):
        return False
    renamed = {}
    for k, ((i, m), (conv, shaped)) in enumerate(zip(reshapes, plan)):
        renamed[m.group(8)] = f"{name}_{k}"
        new_defs.append(f"{name}_{k} = {text(shaped)}")
        ind, res, operand, dtype = m.group(1), m.group(2), m.group(3), m.group(5)
        src = m.group(6) if k == 0 else f"#ttg.slice<{{dim = {axis + 1}, parent = {name}_{k - 1}}}>"
        ty = f"tensor<{m.group(4)}x{dtype}"
        head = ""
        if conv is not None:
            new_defs.append(f"{name}_s{k} = {text(conv)}")
            head = f"{ind}{res}_sw = ttg.convert_layout {operand} : {ty}, {src}> -> {ty}, {name}_s{k}>\n"
            operand, src = f"{res}_sw", f"{name}_s{k}"
        lines[i] = (f"{head}{ind}{res} = tt.reshape {operand} : {ty}, {src}> -> "
                    f"tensor<{m.group(7)}x{dtype}, {name}_{k}>{m.group(9)}")
    cur = drop(plan[-1][1], axis + 1)
    for i, m in steps[1:]:      # the reductions' types and the last reshape read the new layouts
        if m is None or i == steps[-1][0]:
            for old, new in renamed.items():
                lines[i] = re.sub(re.escape(old) + r"(?=[>}])", new, lines[i])
    new_defs.append(f"{name}_out = {text(drop(cur, axis))}")
    return True


def _chain(lines: list, first: int):
    """The pinned chain whose first reshape is lines[first]: (reduced axis, [(reshape line, its
    match), (the reduction's type line, None), ...] up to the reshape that drops the axis), or
    None when the ops after it are not a pinned chain."""
    m = _RESHAPE.match(lines[first])
    axis = next((i for i, (a, b) in enumerate(zip(_dims(m.group(4)), _dims(m.group(7)))) if a != b), None)
    if axis is None:
        return None
    steps, value = [(first, m)], m.group(2)
    while True:
        red = next((i for i, ln in enumerate(lines) if re.match(_REDUCE_OF.format(re.escape(value)), ln)), None)
        if red is None or int(re.match(_REDUCE_OF.format(re.escape(value)), lines[red]).group(2)) != axis + 1:
            return None
        close = next(i for i in range(red, len(lines)) if lines[i].lstrip().startswith("}) : (tensor<"))
        out = re.match(r'\s*(%[\w.]+) = ', lines[red]).group(1)
        nxt = next((i for i, ln in enumerate(lines) if (r := _RESHAPE.match(ln)) and r.group(3) == out), None)
        if nxt is None:
            return None
        r = _RESHAPE.match(lines[nxt])
        steps += [(close, None), (nxt, r)]
        if len(_dims(r.group(7))) <= len(_dims(r.group(4))):     # the reshape dropping the axis
            return axis, steps
        value = r.group(2)


def _in_order(bases: dict, axis: int) -> bool:
    """Whether the axis' bits already run registers, then lanes, then warps, low to high."""
    bits = [v[axis] for k in ("register", "lane", "warp") for v in bases[k] if v[axis]]
    return bits == sorted(bits)


def _retarget_result(lines: list, steps: list, name: str, dtype: str) -> None:
    """The chain's last reshape (dropping the axis) yields #<name>_out; its users read that when
    they are all conversions, else one more conversion goes back to the layout they expect."""
    i, m = steps[-1]
    out_ty = f"tensor<{m.group(7)}x{dtype}"
    lines[i] = lines[i].replace(f"-> {out_ty}, {m.group(8)}>", f"-> {out_ty}, {name}_out>")
    users = [j for j, ln in enumerate(lines) if j != i and re.search(re.escape(m.group(2)) + r"\b", ln)]
    if users and all(" = ttg.convert_layout " + m.group(2) + " :" in lines[j] for j in users):
        for j in users:
            lines[j] = lines[j].replace(f"{out_ty}, {m.group(8)}> ->", f"{out_ty}, {name}_out> ->")
    else:     # back to the layout the rest of the kernel was compiled for
        lines[i] = lines[i].replace(f"{m.group(2)} = tt.reshape", f"{m.group(2)}_out = tt.reshape", 1)
        lines[i] += (f"\n{m.group(1)}{m.group(2)} = ttg.convert_layout {m.group(2)}_out : {out_ty}, {name}_out> -> "
                     f"{out_ty}, {m.group(8)}>")


def rewrite(src: str, rows: bool = False, keep_warps: bool = False, shuffle: bool = False) -> tuple[str, list[str]]:
    """(finished TTGIR with each pinned chain over an accumulator layout converted first, what
    changed). A chain qualifies when its first reshape splits an axis of a tensor in an MMA
    layout (or, with rows, a blocked layout out of order along the axis). Its steps get layouts
    of their own (#bitorder_chain<n>_<k>), so nothing else in the module changes; the result goes back to the layout its users expect with one more
    convert_layout, unless its only users were conversions already (then they take it as is)."""
    defs = dict(_ALIAS_LINE.findall(src))
    warps = int(re.search(r'"ttg\.num-warps" = (\d+)', src).group(1))
    lanes = int(re.search(r'"ttg\.threads-per-warp" = (\d+)', src).group(1))
    lines, new_defs, changes = src.split("\n"), [], []
    firsts = [i for i, ln in enumerate(lines) if (m := _RESHAPE.match(ln)) and
              defs.get(m.group(6), "").startswith(_ACCUMULATOR + (("#ttg.blocked<",) if rows else ()))]
    for n, first in enumerate(firsts):
        found = _chain(lines, first)
        if found is None:
            continue
        axis, steps = found
        m0 = steps[0][1]
        shape, dtype = _dims(m0.group(4)), m0.group(5)
        source = defs[m0.group(6)]
        if source.startswith("#ttg.blocked<") and _in_order(blocked_bases(source[len("#ttg.blocked<{"):-2], shape), axis):
            continue    # a blocked input whose axis already runs registers, lanes, warps in order
        name = f"#bitorder_chain{n}"
        if shuffle and _shuffle_chain(lines, steps, axis, defs, name, new_defs):
            _retarget_result(lines, steps, name, dtype)
            changes.append(f"{m0.group(2)}: {m0.group(4)} {m0.group(6)} -> lane pair bits swapped into registers "
                           f"level by level on axis {axis}")
            continue
        try:
            warp = mma_warp_bases(source, shape) if keep_warps else None
            layout = chain_layout_keeping_warps(shape, axis, warp, lanes) if warp is not None else \
                chain_layout(shape, axis, warps, lanes)
        except ValueError:
            continue
        new_defs.append(f"{name} = {text(layout)}")
        cur, k, renamed = layout, 0, {}
        for i, m in steps[:-1]:
            if m is None:
                continue
            cur = split(cur, axis)
            renamed[m.group(8)] = f"{name}_{k}"
            new_defs.append(f"{name}_{k} = {text(cur)}")
            cur, k = drop(cur, axis + 1), k + 1
        new_defs.append(f"{name}_out = {text(drop(cur, axis))}")
        ty = f"tensor<{m0.group(4)}x{dtype}"
        lines[first] = (f"{m0.group(1)}{m0.group(2)}_in = ttg.convert_layout {m0.group(3)} : {ty}, {m0.group(6)}> -> "
                        f"{ty}, {name}>\n{m0.group(1)}{m0.group(2)} = tt.reshape {m0.group(2)}_in : {ty}, {name}> -> "
                        f"tensor<{m0.group(7)}x{dtype}, {renamed[m0.group(8)]}>{m0.group(9)}")
        for i, _ in steps[1:]:      # the reductions and the later reshapes read the new layouts
            for old, new in renamed.items():
                lines[i] = re.sub(re.escape(old) + r"(?=[>}])", new, lines[i])
        _retarget_result(lines, steps, name, dtype)
        changes.append(f"{m0.group(2)}: {m0.group(4)} {m0.group(6)} -> registers on axis {axis} "
                       f"({len(renamed)} levels)")
    if not changes:
        return src, []
    out = "\n".join(lines)
    head = out.index("\nmodule") if "\nmodule" in out else out.index("module")
    return out[:head] + "\n" + "\n".join(new_defs) + out[head:], changes
