"""Which summation order cuBLAS 13.1's gemv kernels (algorithm 13) run, read off the heuristic's answer.

The answer names the kernel through its custom option, and its split_k gives the parts: every
split gemv of the 2026-11-30d probe cut K into parts of ceil(K / split_k) (six of six: 1021, 1388,
518, 1963, 517, 1724). Within a part, the lanes and their chunks per custom option are what the
probe's fit kept (benchmarks/results/2026-11-30d-components/probe_gemv_fit.json, joined with the
2026-11-29 survey's answers by call); every lane folded count-down. This is a hypothesis table
from 1-3 calls per option, not a verified profile entry: nothing plans with it until a GPU gate
has compared it with cuBLAS on fresh shapes (benchmarks/gemv_check.py --rule).

The 2026-11-30i probe (fresh shapes chosen by their answer) added options 10 bf16, 11 (gemv2T:
chains banked every 512 elements, lanes summed in order), 58, 72, 75 bf16, 92 fp16 and 93 bf16,
and showed option 56's split calls cut into chunks of 64 (the cap from the span, below); the
2026-11-30j probes added options 96, 100 and 106 and 73 bf16; the 2026-12-01b probe (the answers
the table held no order for) options 12, 43, 51 bf16, 57 bf16, 67, 69, 101 and 103, and option 11's
split calls; the 2026-12-01c probe (the whole gate's gemv fallbacks, batched ones too) options 94,
62, 50, 40, 72 bf16, 80, 81, 82, 83, 43 bf16, 59, 35 and 66 bf16, and option 75 bf16's split calls.
Options left out: any option no probe has read (73 fp16, 13, 86, 88, 89, ...). "cap" 64: contiguous slices of at most 64 elements
(lanes holding min(64, ceil(span / lanes)), then round robin): what the bf16 calls of option 92
need (contiguous at K = 781, 64-chunks at K = 2769) and every other 64-chunk or contiguous
observation allows.
"""
from __future__ import annotations

from typing import Optional

from ..emulate.simt import GemvOrder
from .profile import candidates_allowed

# (custom option, dtype) -> (kernel, lanes, chunk, cap, the probe-fit records it rests on: numbers
# are the 2026-11-30d fit's records, "i<n>" the 2026-11-30i probe's, benchmarks/results/
# 2026-11-30i-gemv/probe). The dtype is part of the key: option 75 ran a lane-strided fp16 kernel
# (records 13, 31) and, for a bf16 call with a bias and 132 parts, a kernel none of the model's
# orders fits (record 11); the bias-free bf16 calls of i10-i12 are lane-strided too.
# Contiguous lanes hold at most 64 elements (cap 64) wherever a record could tell (options 56, 66,
# 68, 74, 92 bf16, 100); options 58, 72 and 92 fp16 were only seen with parts under 64 per lane, where
# the cap changes nothing: they take the cap their family showed, and the GPU rule check decides.
RULES = {
    (7, "fp16"): ("gemv2N_kernel", 1, None, None, (0, 10, 16, 25)),     # K <= 44 only: any order fit there
    (7, "bf16"): ("gemv2N_kernel", 1, None, None, (6,)),
    (10, "fp16"): ("gemvNSP_kernel", 32, 4, None, (26,)),
    (10, "bf16"): ("gemvNSP_kernel", 32, 4, None, ("i22", "i23", "i24")),
    (51, "fp16"): ("gemvx<h,f,f,f,true,...,7>", 4, 1, None, (5,)),
    # unsplit calls: contiguous under 64 per lane (30, 19, 29); split calls 64-chunks (i0-i3): cap 64
    (56, "fp16"): ("gemvx<true,...> (A as the vector)", 2, None, 64, (30, "i0")),
    (56, "bf16"): ("gemvx<true,...> (A as the vector)", 2, None, 64, (19, 29, "i1", "i2", "i3")),
    (57, "fp16"): ("gemvx<h,f,f,f,true,...,7>", 2, 1, None, (21,)),
    (58, "fp16"): ("gemvx<h,h,h,f,true,true,true,false,8>", 4, None, 64, ("i19", "i20", "i21")),
    (66, "fp16"): ("gemvx<long,h,f,f,f,...,9>", 8, None, 64, (7,)),
    (68, "fp16"): ("gemvx<long,h,f,f,f,...,9>", 4, None, 64, (4,)),
    (72, "fp16"): ("gemvx<h,h,h,f,false,true,true,false,6>", 16, None, 64, ("i25", "i26", "i27")),
    (74, "fp16"): ("gemvx<h,h,h,f,false,true,true,false,7>", 32, None, 64, (14,)),
    (74, "bf16"): ("gemvx<bf,bf,bf,f,false,true,true,false,7>", 32, None, 64, (1, 12)),
    (75, "fp16"): ("gemvx<h,h,h,f,false,true,false,false,7>", 32, 1, None, (13, 31)),
    (75, "bf16"): ("gemvx<bf,bf,bf,f,false,true,false,false,7>", 32, 1, None, ("i10", "i11", "i12")),
    (92, "fp16"): ("gemvx<h,h,h,f,false,true,false,false,9>", 32, None, 64, ("i13", "i14", "i15")),
    (92, "bf16"): ("gemvx<bf,bf,bf,f,false,true,false,false,9>", 32, None, 64, (22, 23)),
    (93, "fp16"): ("gemvx<h,f,f,f,false,true,false,false,9>", 32, 1, None, (27,)),
    (93, "bf16"): ("gemvx<bf,bf,bf,f,false,true,true,false,9>", 32, 1, None, ("i16", "i17", "i18")),
    (100, "bf16"): ("gemvx<bf,...,9>", 16, None, 64, (8, 17)),
    # 2026-11-30j probe (records j8-j13, benchmarks/results/2026-11-30j-gemv/probe): each pinned to
    # lanes of 64-chunks at K 456-2467, where chunk 64 and contiguous cap 64 agree; the family's cap
    # 64 is taken, the GPU rule check decides shorter K
    (96, "fp16"): ("gemvx<h,h,h,f,false,true,false,false,7> (block 32x4)", 4, None, 64, ("j8", "j9")),
    (100, "fp16"): ("gemvx<h,h,h,f,false,true,false,false,9> (block 32x16)", 16, None, 64, ("j10", "j11")),
    (106, "fp16"): ("gemvx<h,h,h,f,false,true,false,false,9> (block 64x8)", 8, None, 64, ("j12", "j13")),
    # 2026-11-30j call 2's probe (records 4-9 "p2-<n>", benchmarks/results/2026-11-30j-gemv/probe-2)
    (96, "bf16"): ("gemvx<bf,bf,bf,f,false,true,false,false,7> (block 32x4)", 4, None, 64, ("p2-4", "p2-5")),
    (106, "bf16"): ("gemvx<bf,bf,bf,f,false,true,false,false,9> (block 64x8)", 8, None, 64, ("p2-6", "p2-7")),
    (73, "bf16"): ("gemvx<bf,bf,bf,f,false,true,true,false,6> (block 16x4)", 16, 1, None, ("p2-8", "p2-9")),
    # gemv2T_kernel_val<...,128,16,4,4>: 16 lanes strided, each chain banked every 512 elements,
    # the lanes summed in order by one thread (records i4-i9, K 366-1026, read bytewise by the twin)
    (11, "fp16"): ("gemv2T_kernel_val<h,h,h,f,128,16,4,4>", 16, 1, None, ("i4", "i5", "i6")),
    (11, "bf16"): ("gemv2T_kernel_val<bf,bf,bf,f,128,16,4,4>", 16, 1, None, ("i7", "i8", "i9")),
    # 2026-12-01b probe (records b<n>, benchmarks/results/2026-12-01b-gemv: --want unknown, the answers
    # the table held no order for): each pinned to one tree (2 lanes: every fold is one add)
    (101, "bf16"): ("gemvx<int,bf,bf,bf,f,false,true,false,false,9>", 16, 1, None, ("b4",)),
    (101, "fp16"): ("gemvx<int,h,f,f,f,false,true,false,false,9> (split)", 16, 1, None, ("b5", "b6")),
    (103, "bf16"): ("gemvx<int,bf,bf,bf,f,false,true,false,false,7>", 2, 1, None, ("b7",)),
    (43, "fp16"): ("gemvx<int,h,h,h,f,true,true,true,false,7>", 8, 1, None, ("b15",)),
    (51, "bf16"): ("gemvx<int,bf,f,f,f,true,true,false,false,7> (split)", 4, 1, None, ("b16", "b17")),
    (57, "bf16"): ("gemvx<int,bf,f,f,f,true,true,false,false,7> (split)", 2, 1, None, ("b18", "b19")),
    (67, "bf16"): ("gemvx<long,bf,bf,bf,f,true,true,false,false,9>", 8, 1, None, ("b20", "b21")),
    (67, "fp16"): ("gemvx<long,h,h,h,f,true,true,false,false,9>", 8, 1, None, ("b22", "b23")),
    (69, "fp16"): ("gemvx<long,h,f,f,f,true,true,false,false,9> (split)", 4, 1, None, ("b24", "b25")),
    # gemv2T_kernel_val<...,128,16,2,2>: as option 11's but banked every 256 (b13 pins 256 at K = 323)
    (12, "bf16"): ("gemv2T_kernel_val<bf,bf,bf,f,128,16,2,2>", 16, 1, None, ("b12", "b13")),
    (12, "fp16"): ("gemv2T_kernel_val<h,h,h,f,128,16,2,2>", 16, 1, None, ("b14",)),
}
# Fields other than the lanes and chunks where a kernel family differs from the gemvx default
# (lanes folded by a count-down butterfly, one chain per lane).
EXTRA = {(11, "fp16"): dict(fold="seq", block=512), (11, "bf16"): dict(fold="seq", block=512),
         (12, "fp16"): dict(fold="seq", block=256), (12, "bf16"): dict(fold="seq", block=256),
         (1, "fp16"): dict(fold="seq"), (1, "bf16"): dict(fold="seq"), (2, "bf16"): dict(fold="seq"),
         (2, "fp16"): dict(fold="seq")}

# The most outputs (M or N) a rule is known to hold for, where more broke it: option 10 fp16 was
# identical on 16 fresh shapes up to 5,681 outputs and differed on both calls with 10,675 and
# 14,030 (2026-11-30i, gemv-check --rule, seed 20261206), identical at 8,106 and 10,136
# (2026-11-30j, seed 20261207) but differed at 8,566 (K = 264; seed 20261209): the bound is the
# largest identical call below the smallest differing one. Option 10 bf16 identical up to 6,535
# and differed at 14,533. Past some output count cuBLAS launches other gemvNSP_kernel instances
# (template <1, 16, 4, 1024> and <1, 8, 4, 1024> where <1, 32, 4, 1024> ran below: the 2026-11-30j
# probe of option 10 past 7,000 outputs, benchmarks/results/2026-11-30j-gemv/probe-10). Past the
# bound the order follows the lane count those instances run (below); other options' larger calls
# go to cuBLAS, counted.
MAX_OUTPUTS = {(10, "fp16"): 8106, (10, "bf16"): 6535}
# Past it: the 2026-12-01e CPU fit of all 33 designed gemvNSP
# records (benchmarks/fit_gemvnsp.py; 2026-11-30d to 2026-12-01d probes): lanes = the launch's
# blockDim.y, chunk 4 round robin, one fma chain per lane, the count-down butterfly over the lanes
# padded to a power of two (GemvOrder fold "down"); 33 of 33 bit for bit, the only order left of
# about 350 on the five records that pin it. blockDim.y follows the output count alone: cuBLAS takes
# the first (x, y) of (24|4|8, 32), (24, 26), (16, 24), (24, 20), (56, 12), (24, 16) whose one wave
# (132 SMs x blocks a SM x x) holds the outputs, (4, 32) past them (225 of 225 recorded launches).
# (outputs up to, lanes): the 12 -> 16 switch is bracketed only by 14,101 and 15,160 (a guess between).
# Ground check (2026-12-01e call 4, benchmarks/results/2026-12-01e-gate): 63 fresh calls past the bound
# (6,566-15,777 outputs: every lane count of the table) identical, three draws each; a planted fault
# (32 lanes at every count, mutant-nsp) fails 22 of the 310 cases. Then the default.
NSP_LANES = ((8448, 32), (9504, 26), (10560, 24), (12672, 20), (14784, 12), (15840, 16))


def nsp_lanes(outputs: int) -> int:
    """gemvNSP_kernel's lanes (blockDim.y) for a call with this many outputs (NSP_LANES; 32 past it)."""
    return next((y for top, y in NSP_LANES if outputs <= top), 32)


# Option 56's split calls cut every part, the shorter last one too, into chunks of 64 (records
# i0-i3: i2's last part of 126 splits 64 + 62): the cap applied to the span, as GemvOrder.chunk_of
# does for every contiguous order (2026-11-30j: option 92's split call K = 23597 / 16 needs the
# span's 47 in its last part). Option 56 is listed contiguous with cap 64, so spans of at least
# 128 give chunks of 64; shorter spans give ceil(span / 2), a reading no probe has made yet.
# gemv2T (option 11) split calls (2026-12-01b records b8-b11, split_k 8) cut K into spans of
# ceil(K / split_k) and bank every 512 from each span's start, as the unsplit calls do.
# From the 2026-12-01c designed probe of the whole gate's algorithm-13 fallbacks (benchmarks/results/
# 2026-12-01c-gemv: records c<n>; batched calls carried the design in every entry, all equal): each
# the one order of the model left on every record of its key; contiguous lanes take the cap 64 of
# their family where the records' parts were shorter (82 fp16 pins it at K = 7336). Then 203 fresh
# calls on them identical (ground check), and the gate's whole gemv ground with them as defaults.
PROBED_2026_12_01C = {
    (94, "fp16"): ("gemvx<int,int,h,h,h,f,false,true,true,false,6> (batched)", 2, None, 64,
                   tuple(f"c{i}" for i in (3, 4, 5, 6, 8, 12, 17, 23, 31, 38, 42, 47, 71))),
    (94, "bf16"): ("gemvx<int,int,bf,bf,bf,f,false,true,true,false,6> (batched)", 2, None, 64,
                   ("c9", "c18", "c22", "c45", "c55", "c64", "c76")),
    (62, "fp16"): ("gemvx<int,int,h,h,h,f,true,true,false,false,8> (batched)", 2, None, 64, ("c88",)),
    (62, "bf16"): ("gemvx<int,int,bf,bf,bf,f,true,true,false,false,8> (batched)", 2, None, 64, ("c95",)),
    (50, "fp16"): ("gemvx<int,int,h,h,h,f,true,true,true,false,7> (batched)", 4, None, 64, ("c59", "c66", "c72")),
    (50, "bf16"): ("gemvx<int,int,bf,bf,bf,f,true,true,true,false,7> (batched)", 4, None, 64, ("c96",)),
    (40, "bf16"): ("gemvx<int,int,bf,bf,bf,f,true,true,true,false,6> (batched)", 4, None, 64, ("c89",)),
    (72, "bf16"): ("gemvx<int,int,bf,bf,bf,f,false,true,true,false,6> (batched)", 16, None, 64, ("c63", "c75")),
    (80, "bf16"): ("gemvx<int,int,bf,bf,bf,f,false,true,true,false,7> (Lt bias)", 16, None, 64, ("c60", "c73", "c79")),
    (81, "fp16"): ("gemvx<int,int,h,h,h,f,false,true,true,false,7>", 16, 1, None, ("c83", "c85", "c90", "c93", "c94")),
    (81, "bf16"): ("gemvx<int,int,bf,bf,bf,f,false,true,true,false,7> (batched)", 16, 1, None, ("c97",)),
    (82, "fp16"): ("gemvx<int,int,h,h,h,f,false,true,false,false,8> (Lt bias)", 32, None, 64, ("c44", "c81")),
    (83, "fp16"): ("gemvx<int,int,h,h,h,f,false,true,true,false,8> (Lt bias)", 32, 1, None, ("c91",)),
    (43, "bf16"): ("gemvx<int,int,bf,bf,bf,f,true,true,true,false,7>", 8, 1, None, ("c87", "c99")),
    (59, "fp16"): ("gemvx<int,int,h,h,h,f,true,true,true,false,8> (Lt bias)", 4, 1, None, ("c84",)),
    (35, "fp16"): ("gemvx<int,int,h,h,h,f,true,true,true,false,7>", 16, 1, None, ("c98",)),
    (66, "bf16"): ("gemvx<long,long,bf,f,f,f,true,true,false,false,9> (split)", 8, None, 64, ("c100",)),
}
RULES.update(PROBED_2026_12_01C)
# From the 2026-12-01d designed probe of two fresh censuses' algorithm-13 fallbacks
# (benchmarks/results/2026-12-01d-ground/probe_gemv.json.gz, records d<n>; answers joined from the
# censuses): the one order of the model's family left on every record of the key (gemvx kernels
# only; contiguous lanes take their family's cap 64). Ground check 2026-12-01e (benchmarks/results/
# 2026-12-01e-ground): a census of the gate's gemv ground with ten times the fuzz (fresh seed), its
# algorithm-13 fallbacks rerun under BITORDER_UNVERIFIED=1: 52 fresh calls on these twelve keys
# (1 to 12 a key), three draws each, all identical; then the defaults.
PROBED_2026_12_01D = {
    (42, "bf16"): ("gemvx<int,int,bf,bf,bf,f,true,true,true,false,7> (batched)", 8, None, 64, ("d41",)),
    (47, "bf16"): ("gemvx<int,int,bf,bf,bf,f,true,true,false,false,9> (Lt bias, batched)", 32, 1, None, ("d5", "d28", "d34")),
    (48, "bf16"): ("gemvx<int,int,bf,bf,bf,f,true,true,true,false,6> (batched)", 2, None, 64, ("d50",)),
    (49, "bf16"): ("gemvx<int,int,bf,bf,bf,f,true,true,true,false,6> (batched)", 2, 1, None, ("d18",)),
    (55, "bf16"): ("gemvx<int,int,bf,bf,bf,f,true,true,false,false,9> (batched)", 16, 1, None, ("d10", "d14")),
    (55, "fp16"): ("gemvx<int,int,h,f,f,f,true,true,false,false,9> (split 132)", 16, 1, None, ("d39",)),
    (77, "bf16"): ("gemvx<int,int,bf,bf,bf,f,false,true,true,false,5> (batched)", 4, 1, None, ("d17",)),
    (88, "fp16"): ("gemvx<int,int,h,h,h,f,false,true,true,false,7> (batched)", 8, None, 64, ("d16",)),
    (95, "bf16"): ("gemvx<int,int,bf,bf,bf,f,false,true,false,false,6> (Lt bias)", 2, 1, None, ("d45",)),
    (110, "bf16"): ("gemvx<int,int,bf,bf,bf,f,false,true,false,false,9> (batched)", 4, None, 64, ("d27",)),
    (110, "fp16"): ("gemvx<int,int,h,h,h,f,false,true,false,false,9> (batched)", 4, None, 64, ("d23",)),
    (111, "bf16"): ("gemvx<int,int,bf,bf,bf,f,false,true,false,false,9> (Lt bias)", 4, 1, None, ("d30",)),
}
RULES.update(PROBED_2026_12_01D)
# Candidates of the same probe that the 2026-12-01e ground check met no fresh call of: planned only
# under BITORDER_UNVERIFIED=1.
CANDIDATES_2026_12_01D = {
    (114, "fp16"): ("gemvx<long,long,h,h,h,f,false,true,false,false,9> (batched)", 4, None, 64, ("d49",)),
}
# The 2026-12-01f designed probe of the gemv census's algorithm-13 fallbacks (benchmarks/results/
# 2026-12-01f-probe/probe_gemv.json.gz, records f<n>): per key, the orders every record of it left
# (benchmarks/gemv_rules_by_key.py; benchmarks/results/2026-12-01f-probe/rules.json); contiguous
# lanes take their family's cap 64 (the records' parts are under 64 a lane). Each agrees with its
# sister dtype's rule where there is one (42, 48, 82, 83, 88, 95, 111; 33 fp16's 2026-12-01d candidate
# too: f19, f20). Ground check the same day
# (benchmarks/results/2026-12-01f-probe, call 5): a census of the gate's gemv ground with twenty times
# the fuzz (fresh seed) and the whole gate's fallbacks, rerun under BITORDER_UNVERIFIED=1: 193 planned
# calls identical (1 to 25 a key, three draws each); the keys met became the defaults. Left out: 26
# bf16 (16 lanes, contiguous or in chunks of 16: one record, K = 248, where they agree).
PROBED_2026_12_01F = {
    (2, "fp16"): ("gemv2N_kernel<int,int,h,h,h,f,128,4,4,4,1,false>", 4, None, None, ("f0", "f1", "f2")),
    (32, "bf16"): ("gemvx<...>", 8, None, 64, ("f16",)),
    (33, "bf16"): ("gemvx<...>", 8, 1, None, ("f17", "f18")),
    (33, "fp16"): ("gemvx<int,int,h,h,h,f,true,true,true,false,6> (batched)", 8, 1, None, ("d52", "f19", "f20")),
    (40, "fp16"): ("gemvx<...>", 4, None, 64, ("f21", "f22", "f23")),
    (42, "fp16"): ("gemvx<...>", 8, None, 64, ("f24", "f25", "f26")),
    (48, "fp16"): ("gemvx<...>", 2, None, 64, ("f27",)),
    (52, "fp16"): ("gemvx<...>", 8, None, 64, ("f28", "f29", "f30")),
    (63, "bf16"): ("gemvx<...>", 2, 1, None, ("f31", "f32", "f33")),
    (69, "bf16"): ("gemvx<...>", 4, 1, None, ("f34", "f35", "f36")),
    (83, "bf16"): ("gemvx<...>", 32, 1, None, ("f44", "f45")),
    (86, "bf16"): ("gemvx<...>", 4, None, 64, ("f46", "f47", "f48")),
    (86, "fp16"): ("gemvx<...>", 4, None, 64, ("f51", "f52", "f53")),
    (88, "bf16"): ("gemvx<...>", 8, None, 64, ("f55", "f56")),
    (89, "bf16"): ("gemvx<...>", 8, 1, None, ("f57", "f58", "f59")),
    (89, "fp16"): ("gemvx<...>", 8, 1, None, ("f60", "f61", "f62")),
    (95, "fp16"): ("gemvx<...>", 2, 1, None, ("f63",)),
    (97, "bf16"): ("gemvx<...>", 4, 1, None, ("f64", "f65", "f66")),
    (102, "bf16"): ("gemvx<...>", 2, None, 64, ("f67", "f68")),
    (102, "fp16"): ("gemvx<...>", 2, None, 64, ("f69", "f70", "f71")),
    (111, "fp16"): ("gemvx<...>", 4, 1, None, ("f72", "f73", "f74")),
}
RULES.update(PROBED_2026_12_01F)
# The same probe's keys no fresh call met in the ground check: candidates (BITORDER_UNVERIFIED=1).
CANDIDATES_2026_12_01F = {
    (73, "fp16"): ("gemvx<...> (Lt bias)", 16, 1, None, ("f37",)),
    (82, "bf16"): ("gemvx<...> (split)", 32, None, 64, ("f43",)),
}
# Every candidate key (planned only under BITORDER_UNVERIFIED=1, after RULES).
CANDIDATES = {**CANDIDATES_2026_12_01D, **CANDIDATES_2026_12_01F}
# gemv2N kernels (options 1 and 2) read in the 2026-12-01e refit of the 2026-12-01c/d probes (records
# no earlier reading had looked at): 2 or 4 contiguous lanes added in order; recorded only to K = 10
# (option 1) and 33 (option 2), so planned to K = 64 (MAX_K). Ground check 2026-12-01f
# (benchmarks/results/2026-12-01f-ground): 27 fresh calls (K 2-31, batched, three draws each) identical;
# then the defaults.
PROBED_2026_12_01E = {
    (1, "bf16"): ("gemv2N_kernel<int,int,bf,bf,bf,f,128,2,4,4,1,false>", 2, None, None, ("d7", "c61", "c65")),
    (1, "fp16"): ("gemv2N_kernel<int,int,h,h,h,f,128,2,4,4,1,false>", 2, None, None, ("d43",)),
    (2, "bf16"): ("gemv2N_kernel<int,int,bf,bf,bf,f,128,4,4,4,1,false>", 4, None, None, ("d53", "c78")),
}
RULES.update(PROBED_2026_12_01E)
# The most K a rule plans, where a call past it could run what no record has read: gemv2N's recorded
# reach, and the 2026-12-01f keys with contiguous lanes whose cap of 64 no record or fresh call could
# tell from no cap (each lane's slice at most 64 there: K <= 64 x lanes, where the two agree); 88 bf16
# and 102 met fresh calls past it (K to 2,397 and 1,403), identical with the cap.
MAX_K = {key: 64 for key in PROBED_2026_12_01E} | {(2, "fp16"): 64} | {
    key: 64 * lanes for key, (_, lanes, chunk, cap, _) in PROBED_2026_12_01F.items()
    if chunk is None and cap == 64 and key not in ((88, "bf16"), (102, "bf16"), (102, "fp16"))}
# A batch of dots (bmm with M = N = 1) answered as gemv: the option does not always name the kernel
# (2026-12-01e refit: option 10's batched dots ran gemvx with 2 contiguous lanes at K 6-15 and 16 at
# K 148-197, option 92 bf16's 32 strided lanes against its rule's contiguous ones; two such gate calls
# had differed, 2026-12-01); the 13 batched-dot records of options 72, 75 and 94 keep their option's
# rule. Ground check 2026-12-01f: 72 (13 fresh calls, K 44-545) and 94 (9, K 3-36) identical; 75 fp16
# differed at K = 910 (the cancelling draw, all 13 entries) and was identical at K 1,329-63,529 (13
# calls), 75 bf16 at K 5,307-297,770 (11; records from K = 518). The 2026-12-01f probe then read K = 910:
# 32 contiguous lanes, not the rule's strided ones.
# (option, dtype) -> [(lowest K, highest K or None, (lanes, chunk, cap) or None for the option's rule)];
# a K outside every range runs cuBLAS.
BATCHED_DOTS = {(72, "fp16"): [(1, None, None)], (72, "bf16"): [(1, None, None)],
                (94, "fp16"): [(1, None, None)], (94, "bf16"): [(1, None, None)],
                (75, "fp16"): [(1329, None, None)], (75, "bf16"): [(518, None, None)],
                # the 2026-12-01f probe's, ground-checked in call 5: 74 (7 fresh calls), 10 (24), 86 bf16 (2)
                (74, "fp16"): [(1, None, None)], (74, "bf16"): [(1, None, None)],
                (86, "bf16"): [(40, 80, (4, None, 64))],
                (10, "fp16"): [(3, 15, (2, None, 64)), (148, 254, (16, None, 64))],
                (10, "bf16"): [(3, 15, (2, None, 64)), (130, 254, (16, None, 64))]}
# Read in the 2026-12-01f probe (benchmarks/results/2026-12-01f-probe, records f<n>): option 74's dots
# keep its rule (f38-f41, K 112-942); option 10's run 2 contiguous lanes at K 6-12 (f4, f6, f7, f14;
# 2026-12-01e: 6-15) and 16 at K = 130 (f8; 2026-12-01e: 148 and 197), K 16-129 unread; option 86 bf16's
# keep its rule at K 43 and 48 (f49, f50; planned at K 40-80); option 75 fp16's at K = 910 run 32
# contiguous lanes (f42; where that kernel starts and stops is not read: 800-1,328 here). The last is a
# candidate (BITORDER_UNVERIFIED=1): no fresh call met it.
BATCHED_DOT_CANDIDATES = {(75, "fp16"): [(800, 1328, (32, None, 64))]}


def batched_dot_order(answer: dict, k: int, dtype: str) -> Optional[GemvOrder]:
    """The GemvOrder of a batch of dots (bmm, M = N = 1, K long) answered as gemv (algorithm 13), or
    None (cuBLAS): its option's rule only where BATCHED_DOTS says the option names the kernel."""
    if answer is None or int(answer.get("algo_id", -1)) != 13 or int(answer.get("split_k") or 1) != 1:
        return None
    key = (int(answer.get("custom_option", -1)), dtype)
    table = BATCHED_DOTS.get(key) or (BATCHED_DOT_CANDIDATES.get(key) if candidates_allowed() else None)
    for low, high, shape in table or ():
        if k >= low and (high is None or k <= high):
            if shape is None:
                return order_for(answer, k, dtype, outputs=1)
            lanes, chunk, cap = shape
            return GemvOrder(lanes=lanes, chunk=chunk, cap=cap, fold="down")
    return None


# Option 75 bf16's split calls on cuBLASLt's M = 1 bias path (2026-12-01c, 23 records with 4 to 465
# outputs, splits 3-132) keep the table's order (32 lanes strided over ceil(K / split)) and nothing
# else. With 2 or 3 outputs the fitter had found no order: its bias check compared 4 designed rows
# with the 2 or 3 recorded (fixed 2026-12-01e); the 15 such records fit the same order, bias "out",
# and nothing else of 2,976 candidates (benchmarks/fit_split75.py); then 42 fresh calls with 2 or 3
# outputs identical (2026-12-01e call 4): split calls of every output count plan.


def order_for(answer: dict, k: int, dtype: str, outputs: int = 1) -> Optional[GemvOrder]:
    """The GemvOrder the table predicts for an algorithm-13 answer on a K-long fp16 or bf16
    product with `outputs` outputs (M or N), or None (not algorithm 13, an option the table does
    not hold for the dtype, more outputs than MAX_OUTPUTS allows but for unsplit option 10, whose
    gemvNSP lane count then follows the outputs: nsp_lanes)."""
    if answer is None or int(answer.get("algo_id", -1)) != 13:
        return None
    split = int(answer.get("split_k") or 1)
    if split < 1:                    # -1: the split left to run time; no rule knows it
        return None
    key = (int(answer.get("custom_option", -1)), dtype)
    rule = RULES.get(key) or (CANDIDATES.get(key) if candidates_allowed() else None)
    if rule is None or k > MAX_K.get(key, k):
        return None
    _, lanes, chunk, cap, _ = rule
    if outputs > MAX_OUTPUTS.get(key, outputs):
        if not (key[0] == 10 and split == 1):
            return None
        lanes = nsp_lanes(outputs)   # gemvNSP's other instances
    span = -(-k // split) if split > 1 else None
    return GemvOrder(lanes=lanes, chunk=chunk, cap=cap, span=span, **{"fold": "down", **EXTRA.get(key, {})})


def lt_bias_placement(answer: dict) -> str:
    """Where cuBLASLt's BIAS epilogue adds F.linear's bias on its gemv path (M = 1, algorithm 13):
    "acc" (in fp32 before the one rounding) when the answer is unsplit, "out" (to the rounded
    output, rounded again) when split: splitKreduce rounds and a third kernel (cublasLt::epilogue)
    adds the bias. The 2026-12-01b ltbias probe: 1,182 unsplit calls fit "acc" only and 399 split
    calls "out" only, of 1,581 with one fit (26 more fit both), no exception
    (benchmarks/results/2026-12-01b-ltbias)."""
    return "out" if int(answer.get("split_k") or 1) > 1 else "acc"


# gemmSN (algorithm 11; M from 2 to 16), read off designed experiments and draws on the H200
# (2026-12-01 probe, benchmarks/results/2026-12-01-simt-probe); every output row gave the same bits.
# gemmSN_TN_kernel<float, 128, 16, 2, 4, ...> (torch B a transposed view, A row-major): 16 lanes
# round robin over K (chunk 1), each lane's chain banked every 256, the lanes added in order
# (10x16x39, 7x31x250, 2x2388x21245 each left exactly this order of 189 / 189 / 756 candidates).
GEMMSN_TN = GemvOrder(lanes=16, chunk=1, fold="seq", block=256)
# gemmSN_NN_kernel<float, 128, 2, ...> (custom option 0) and <float, 256, 4, ...> (option 1), torch A
# and B row-major: 2 or 4 lanes over contiguous halves / quarters of K, each lane's chain banked
# counted from the lane's start, the lanes added in order, a bias in fp32 before the rounding
# (3x8612x5641: 2,471 of 2,471 experiments; all seven records' draws, bias "acc"). The 4-lane kernel
# banks every 128. The 2-lane kernel banks every 256 (read on the CPU in session 2026-12-01d: the
# 2026-12-01c survey's walk of 2x10219x666 fits block 256 at all 664 positions and block 128 at 537;
# the sampled bits of its 7 records fit 256; the one 2026-12-01b sn-check call that differed from
# block 128, 2x10104x739, differed on exactly the 38 / 31 / 180 outputs where 128 and 256 differ,
# and its five identical calls at K 142-290 are ones where the two give the same bytes).
GEMMSN_NN = {0: GemvOrder(lanes=2, fold="seq", block=256, block_in_chunk=True),
             1: GemvOrder(lanes=4, fold="seq", block=128, block_in_chunk=True)}


# Both NN kernels are planned at every K. The 2-lane kernel's block 256 past K = 256 (where it and
# the old block-128 reading part) was a candidate until the 2026-12-01e ground check: 109 fresh calls
# with K 258-60,978 (96 of them batched), three draws each, all identical (sn_check --min-k 257,
# benchmarks/results/2026-12-01e-ground). (Until 2026-12-01d the default stopped at K = 290 under
# block 128, which gives other bytes than 256 for K 257-290.)


def gemmsn_order_for(answer: dict, layout: str, m: int, bias: bool, k: int = 1) -> Optional[GemvOrder]:
    """The GemvOrder every output of an algorithm-11 (gemmSN) call runs, where the probes pinned it:
    layout "nt" (A row-major, B a transposed view) and "nn" (both row-major),
    with or without a bias (in fp32 before the rounding); 2 <= M <= 16; None otherwise (A transposed,
    other options)."""
    if answer is None or int(answer.get("algo_id", -1)) != 11 or not 2 <= m <= 16:
        return None
    if layout == "nt":    # GEMMSN_TN's bias is "acc": fp32 before the rounding (2026-12-01c: 85 of 85; after it: 0)
        return GEMMSN_TN
    option = int(answer.get("custom_option", -1))
    if layout == "nn":
        return GEMMSN_NN.get(option)
    return None


# magma_sgemmEx_kernel<float, bf16, bf16, transA, transB, ...> (algorithm 16; bf16, small K): every
# output one fp32 chain in increasing K from +0, a bias in fp32 before the rounding. The six records
# of the 2026-12-01 probe (K 4-15, A transposed or both, with and without a bias: designed
# experiments and draws) keep this order and reject 2 or 4 lanes, strided or contiguous, and the
# bias after the rounding (tests/cublas/test_magma_records.py).
MAGMA_ORDER = GemvOrder(lanes=1, fold="seq")


def magma_order_for(answer: dict) -> Optional[GemvOrder]:
    """MAGMA_ORDER for an algorithm-16 answer, None for any other."""
    return MAGMA_ORDER if answer is not None and int(answer.get("algo_id", -1)) == 16 else None
