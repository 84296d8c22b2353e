"""A reader for the PTX Triton 3.6 emits for sm_90.

parse(text) -> [Entry]: each entry function's parameters, launch bound and body, a list
of Instr (guard predicate, opcode with its modifiers, operands) and Label. Inline-asm
scopes ({ ... } with their own .reg declarations) are flattened, their registers renamed
so that they cannot collide with the function's. Debug sections, comments and module
directives are dropped: they do not change what the code computes.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_ENTRY = re.compile(r"\.(?:visible\s+|weak\s+)?\.?entry\s+(\w+)\s*\(([^)]*)\)", re.S)
_REG_DECL = re.compile(r"\.reg\s+\.(\w+)\s+(%[\w$]+)(?:<(\d+)>)?")
_LABEL = re.compile(r"^([$\w]+):$")
_GUARD = re.compile(r"^@(!?)(%[\w$.]+)\s+")
_REG = re.compile(r"%[A-Za-z_$][\w$]*(?:\.[xyz])?")
_BRACE = re.compile(r"[{}]")
_NEST = re.compile(r"[\[\]{}()]")
_SPLIT = re.compile(r"[\[\]{}(),]")
_LABEL_STMT = re.compile(r"^([$\w]+):\s*(.*)$")
_OPCODE = re.compile(r"^[a-z][\w.:]*$")


@functools.lru_cache(maxsize=None)
def opcode_base(opcode: str) -> str:
    """'shfl.sync.bfly.b32' -> 'shfl' (cached: the walks ask for it per thread)."""
    return opcode.split(".")[0]


class PTXError(ValueError):
    """PTX bitorder cannot read: the message says where."""


@dataclass(frozen=True)
class Instr:
    guard: tuple | None  # (negated, predicate register) or None
    opcode: str          # the full opcode with modifiers, e.g. "shfl.sync.bfly.b32"
    operands: tuple      # operand texts, normalised spacing
    line: int
    # the opcode's first part ('shfl'), read by the walk several times per instruction: stored
    # once, not a property (a field outside __init__, equality and hashing: a function of opcode)
    base: str = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "base", opcode_base(self.opcode))

    def text(self) -> str:
        g = "" if self.guard is None else f"@{'!' if self.guard[0] else ''}{self.guard[1]} "
        return f"{g}{self.opcode} {', '.join(self.operands)};"


@dataclass(frozen=True)
class Label:
    name: str
    line: int


@dataclass
class Entry:
    name: str
    params: list
    reqntid: tuple | None
    regs: dict = field(default_factory=dict)   # register name -> type
    body: list = field(default_factory=list)   # Instr | Label

    def instructions(self):
        return [i for i in self.body if isinstance(i, Instr)]


def _split_operands(s: str) -> list:
    """Operand texts split at the commas outside brackets, braces and parentheses."""
    if not _NEST.search(s):       # the common case: nothing nested, every comma splits
        out = s.split(",")
    else:                         # depth changes only at the bracket characters: visit just those
        out, depth, start = [], 0, 0
        for m in _SPLIT.finditer(s):
            ch = m.group()
            if ch in "[{(":
                depth += 1
            elif ch in "]})":
                depth -= 1
            elif depth == 0:
                out.append(s[start:m.start()])
                start = m.end()
        out.append(s[start:])
    if not out[-1].strip():       # a trailing empty operand is dropped (inner empty ones are kept)
        out.pop()
    return [" ".join(o.split()) for o in out]


def _body_end(text: str, start: int) -> int:
    depth = 0
    for m in _BRACE.finditer(text, start):   # only the braces, not every character
        depth += 1 if m.group() == "{" else -1
        if depth == 0:
            return m.start()
    raise PTXError("unbalanced braces in an entry body")


def parse(ptx: str) -> list:
    """Every .entry of a PTX module, in order. Raises PTXError on text it cannot read."""
    if not isinstance(ptx, str) or ".entry" not in ptx:
        raise PTXError("no .entry function in this text (is it PTX?)")
    text = _COMMENT.sub("", ptx)
    entries = []
    for m in _ENTRY.finditer(text):
        name, params = m.group(1), [p.split()[-1] for p in m.group(2).split(",") if p.strip()]
        open_at = text.find("{", m.end())
        if open_at < 0:
            raise PTXError(f"entry {name} has no body")
        between = text[m.end():open_at]
        rq = re.search(r"\.reqntid\s+([\d,\s]+)", between)
        reqntid = tuple(int(x) for x in rq.group(1).replace(" ", "").split(",") if x) if rq else None
        close = _body_end(text, open_at)
        entries.append(_parse_body(name, params, reqntid, text[open_at + 1:close], text[:open_at].count("\n") + 1))
    return entries


def _parse_body(name, params, reqntid, body, line0) -> Entry:
    entry = Entry(name, params, reqntid)
    scopes = [{}]  # renames for registers declared inside inline-asm braces
    n_scope = 0
    # statements end with ';' or are labels / braces; keep line numbers for messages
    tokens = re.split(r"(;|\{|\}|\n)", body)
    line = line0
    buf = ""
    for tok in tokens:
        if tok == "\n":
            line += 1
            stripped = buf.strip()
            if _LABEL.match(stripped):
                entry.body.append(Label(stripped[:-1], line))
                buf = ""
            elif stripped.startswith((".loc", ".file", ".pragma")) and not stripped.endswith(";"):
                buf = ""  # line-terminated directives (debug locations) carry no ';'
            continue
        in_statement = bool(buf.strip())  # a brace inside a statement is a vector operand
        if tok == "{" and not in_statement:
            n_scope += 1
            scopes.append({})
            continue
        if tok == "}" and not in_statement:
            if len(scopes) == 1:
                raise PTXError(f"{name}: unbalanced '}}' near line {line}")
            scopes.pop()
            continue
        if tok in "{}":
            buf += tok
            continue
        if tok != ";":
            buf += tok
            continue
        stmt = " ".join(buf.split())
        buf = ""
        if not stmt:
            continue
        if stmt.startswith(".reg"):
            for dm in _REG_DECL.finditer(stmt):
                typ, base, count = dm.group(1), dm.group(2), dm.group(3)
                if len(scopes) > 1 and count is None:
                    scopes[-1][base] = f"{base}${n_scope}"
                    entry.regs[f"{base}${n_scope}"] = typ
                else:
                    entry.regs[base] = typ
            continue
        if stmt.startswith(".") or stmt.startswith("//"):
            continue  # other declarations (.shared, .local, .pragma ...)
        lm = _LABEL_STMT.match(stmt) if ":" in stmt else None
        if lm and not lm.group(1).startswith("%"):
            entry.body.append(Label(lm.group(1), line))
            stmt = lm.group(2)
            if not stmt:
                continue
        guard = None
        gm = _GUARD.match(stmt)
        if gm:
            guard = (gm.group(1) == "!", gm.group(2))
            stmt = stmt[gm.end():]
        parts = stmt.split(None, 1)
        opcode = parts[0]
        operands = _split_operands(parts[1]) if len(parts) > 1 else []
        renames = {k: v for s in scopes[1:] for k, v in s.items()}
        if renames:
            def rn(o):
                return _REG.sub(lambda r: renames.get(r.group(0), r.group(0)), o)
            operands = [rn(o) for o in operands]
            if guard:
                guard = (guard[0], renames.get(guard[1], guard[1]))
        if not _OPCODE.match(opcode):
            raise PTXError(f"{name}: cannot read the statement {stmt[:60]!r} near line {line}")
        entry.body.append(Instr(guard, opcode, tuple(operands), line))
    if len(scopes) != 1:
        raise PTXError(f"{name}: unbalanced braces")
    _drop_cache_policies(entry)
    return entry


def _drop_cache_policies(entry: Entry) -> None:
    """Remove L2 cache-policy hints (TorchInductor's eviction_policy): `createpolicy` makes a
    64-bit policy that a load or store with `.L2::cache_hint` takes as its last operand. The PTX
    ISA makes it a performance hint only: the data read or written is the same. Removed (with the
    mov that zeroes the register first) only where every other use of the policy register is that
    last operand; anything else keeps the text as it is (and the walk then refuses createpolicy)."""
    made = {i.operands[0] for i in entry.body
            if isinstance(i, Instr) and i.base == "createpolicy" and i.guard is None and len(i.operands) == 2}
    if not made:
        return

    def defines(i):   # the createpolicy, or Triton's inline asm zeroing the register first
        return i.guard is None and (i.base == "createpolicy" or (
            i.base == "mov" and len(i.operands) == 2 and i.operands[0] in made and re.fullmatch(r"0x0|0", i.operands[1])))

    other = set()     # policy registers read anywhere but as a hint operand
    for i in entry.body:
        if not isinstance(i, Instr) or defines(i):
            continue
        hint = i.base in ("ld", "st") and ".L2::cache_hint" in i.opcode
        for j, o in enumerate(i.operands):
            for r in _REG.findall(o):
                if r in made and not (hint and j == len(i.operands) - 1 and o == r):
                    other.add(r)
        if i.guard is not None and i.guard[1] in made:
            other.add(i.guard[1])
    drop = made - other
    if not drop:
        return
    body = []
    for i in entry.body:
        if isinstance(i, Instr) and defines(i) and i.operands[0] in drop:
            continue
        if (isinstance(i, Instr) and i.base in ("ld", "st") and ".L2::cache_hint" in i.opcode
                and i.operands and i.operands[-1] in drop):
            i = Instr(i.guard, i.opcode.replace(".L2::cache_hint", ""), i.operands[:-1], i.line)
        body.append(i)
    entry.body = body
