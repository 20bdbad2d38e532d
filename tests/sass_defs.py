"""Which wgmma (HGMMA) descriptors of a compiled kernel read a uniform register that is not written on every path
to them (a must-define analysis over nvdisasm's SASS: basic blocks, branches, uniform-register writes).

Why: Triton 3.6's ptxas (sm_90a) wrote the Q descriptor's registers of the Gluon kernel's serial band path (three
loops in a row) only in the first loop's preheader, and the second loop read them when the first ran no
iteration: its QK^T wgmmas then read shared memory at a stale address (illegal address on the H100,
compute-sanitizer: invalid __shared__ read at 0x30460 past a 196,936-byte allocation). The PTX was right."""
from __future__ import annotations

import re

_INSN = re.compile(r"^\s*/\*([0-9a-f]+)\*/\s+(.*?)\s*;?\s*$")
_LABEL = re.compile(r"^(\.L_x_\d+):")
_UR = re.compile(r"\bUR(\d+)\b")
_BRA = re.compile(r"\bBRA\b.*`\((\.L_x_\d+)\)")


def parse(sass: str) -> list[tuple[str | None, int, str]]:
    """(label opening here or None, offset, instruction text without the offset) per instruction; labels that
    stand alone attach to the next instruction."""
    out, label = [], None
    for line in sass.splitlines():
        m = _LABEL.match(line.strip())
        if m:
            label = m[1]
            continue
        m = _INSN.match(line)
        if m:
            out.append((label, int(m[1], 16), m[2]))
            label = None
    return out


def _pred_and_op(text: str) -> tuple[str, str, list[str]]:
    pred = ""
    if text.startswith("@"):
        pred, text = text.split(None, 1)
    op, _, rest = text.partition(" ")
    return pred, op, [x.strip() for x in rest.split(",")] if rest else []


def writes(text: str) -> set[int]:
    """Uniform registers an instruction writes: its first operand when that is a bare URn (two for .64 and .WIDE
    forms). Predicated writes count (the analysis looks for registers never written, not for conditional ones)."""
    _, op, args = _pred_and_op(text)
    if not args or not re.fullmatch(r"UR\d+", args[0]):
        return set()
    n = int(args[0][2:])
    return {n, n + 1} if (".64" in op or ".WIDE" in op) else {n}


def hgmma_reads(text: str) -> set[int]:
    """Uniform registers a wgmma reads for its descriptors: gdesc[URn] is A's (n, n+1) and B's (n+2, n+3) with A in
    shared memory; with A in registers (a register operand before gdesc) only B's."""
    _, op, args = _pred_and_op(text)
    if not op.startswith("HGMMA"):
        return set()
    for k, a in enumerate(args):
        m = re.match(r"gdesc\[UR(\d+)\]", a)
        if m:
            n = int(m[1])
            a_in_regs = k >= 2 and re.fullmatch(r"R\d+", args[1]) is not None
            return {n + 2, n + 3} if a_in_regs else {n, n + 1, n + 2, n + 3}
    return set()


def undefined_descriptor_reads(sass: str) -> list[tuple[int, str, set[int]]]:
    """(offset, instruction, registers) for each HGMMA reading a uniform register that some path from the kernel's
    entry reaches it by without writing."""
    insns = parse(sass)
    # basic blocks: start at offset 0, at labels and after branches/exits
    starts = {0}
    index_of_label = {}
    for k, (label, _, text) in enumerate(insns):
        if label:
            starts.add(k)
            index_of_label[label] = k
        _, op, _ = _pred_and_op(text)
        if op.startswith(("BRA", "EXIT", "RET", "BRX", "JMP")) and k + 1 < len(insns):
            starts.add(k + 1)
    order = sorted(starts)
    blocks = [(s, (order[i + 1] if i + 1 < len(order) else len(insns))) for i, s in enumerate(order)]
    block_at = {s: b for b, (s, _) in enumerate(blocks)}
    succ: list[list[int]] = []
    for s, e in blocks:
        nxt = []
        pred, op, _ = _pred_and_op(insns[e - 1][2])
        m = _BRA.search(insns[e - 1][2])
        if m and m[1] in index_of_label:
            nxt.append(block_at[index_of_label[m[1]]])
        unconditional = not pred and (op.startswith(("BRA", "EXIT", "RET", "JMP")))
        if not unconditional and e < len(insns):
            nxt.append(block_at[e])
        succ.append(nxt)
    preds: list[list[int]] = [[] for _ in blocks]
    for b, ss in enumerate(succ):
        for t in ss:
            preds[t].append(b)
    everything = set(range(256))
    into = [set() if b == 0 else set(everything) for b in range(len(blocks))]
    gen = [set().union(*(writes(insns[k][2]) for k in range(s, e))) for s, e in blocks]
    changed = True
    while changed:
        changed = False
        for b in range(1, len(blocks)):
            new = set.intersection(*((into[p] | gen[p]) for p in preds[b])) if preds[b] else set()
            if new != into[b]:
                into[b], changed = new, True
    bad = []
    for b, (s, e) in enumerate(blocks):
        defined = set(into[b])
        for k in range(s, e):
            text = insns[k][2]
            missing = hgmma_reads(text) - defined
            if missing:
                bad.append((insns[k][1], text, missing))
            defined |= writes(text)
    return bad
