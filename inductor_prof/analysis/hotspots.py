"""Where a kernel spends its time, per source line or SASS region (pure: the per-instruction records of
drivers/ncu/source.py in, ranked rows out).

A row sums the instructions (PCs) of one source line (a Triton kernel: its .py file's lines, and the lines of
the Triton or Inductor helpers inlined into it, named by their file), or, for a kernel without line info (a
library kernel), of one SASS region: a basic block, the instructions from a branch target or the instruction
after a branch up to the next such point. Per row: its share of the kernel's executed instructions, its share
of the warp-state samples (where the warps spent their time: the rows are ranked by it), its top stall
reasons, its global loads and stores executed and the L2 bytes they asked for (32-byte sectors), and how much
of that a fully coalesced access would not have asked ("excess").
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import PurePath
from typing import Any

from ..drivers.ncu.metrics import ISSUING

SECTOR_BYTES = 32
GLOBAL_LOADS = {"LDG"}
GLOBAL_STORES = {"STG"}
# opcodes that end a basic block (control goes elsewhere) and those whose address operand starts one
BLOCK_ENDS = {"BRA", "BRX", "JMP", "JMX", "RET", "EXIT", "KILL", "CALL"}
TARGETS_OF = {"BRA", "BRX", "JMP", "JMX", "CALL", "BSSY"}
_ADDRESS = re.compile(r"\b0x([0-9a-fA-F]+)\b")
NO_LINE = "(no line info)"


def opcode(sass: str) -> str:
    """The instruction's opcode without its predicate and modifiers: `@!P1 LDG.E.EL.U16 R40, ...` -> `LDG`."""
    words = sass.split()
    if words and words[0].startswith("@"):
        words = words[1:]
    return words[0].split(".")[0] if words else ""


def _ranked_stalls(stalls: Counter[Any]) -> list[dict[str, Any]]:
    """[{"reason", "samples"}, ...] most samples first (a tie: by name), without the issuing state."""
    return [{"reason": r, "samples": n} for r, n in sorted(stalls.items(), key=lambda kv: (-kv[1], kv[0]))
            if r != ISSUING and n > 0]


def relative_sass(sass: str, function_pc: int, size: int) -> str:
    """A branch with its target inside the kernel written as an offset (`BRA +0x0c30`); others as they are."""
    def offset(m: re.Match[str]) -> str:
        at = int(m.group(1), 16) - function_pc
        return f"+{at:#06x}" if function_pc and 0 <= at < size else m.group(0)
    return _ADDRESS.sub(offset, sass) if opcode(sass) in TARGETS_OF else sass


def _row(pcs: list[dict[str, Any]], total_inst: float, total_samples: float, function_pc: int = 0, size: int = 0) -> dict[str, Any]:
    inst = sum(p["inst"] for p in pcs)
    samples = sum(p["samples"] for p in pcs)
    stalls: Counter[Any] = Counter()
    for p in pcs:
        stalls.update(p.get("stalls") or {})
    sectors = sum(p.get("l2_sectors", 0.0) for p in pcs)
    ideal = sum(p.get("l2_sectors_ideal", p.get("l2_sectors", 0.0)) for p in pcs)
    hottest = max(pcs, key=lambda p: (p["samples"], p["inst"], -p["offset"]))
    return {
        "inst": inst, "inst_pct": 100 * inst / total_inst if total_inst else None,
        "samples": samples, "samples_pct": 100 * samples / total_samples if total_samples else None,
        "issuing_samples": stalls.get(ISSUING, 0.0), "stalls": _ranked_stalls(stalls),
        "global_loads": sum(p["inst"] for p in pcs if opcode(p["sass"]) in GLOBAL_LOADS),
        "global_stores": sum(p["inst"] for p in pcs if opcode(p["sass"]) in GLOBAL_STORES),
        "l2_bytes": sectors * SECTOR_BYTES, "l2_excess_pct": 100 * (sectors - ideal) / sectors if sectors else None,
        "instructions": len(pcs),
        "hottest": {"offset": hottest["offset"], "sass": relative_sass(hottest["sass"], function_pc, size),
                    "samples": hottest["samples"]},
    }


def _rank(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Most samples first, then most instructions, then in the kernel's order."""
    rows = sorted(rows, key=lambda r: (-r["samples"], -r["inst"], r["order"]))
    for i, r in enumerate(rows, 1):
        r["rank"] = i
    return rows


def kernel_file_of(pcs: list[dict[str, Any]], kernel: str = "") -> str | None:
    """The kernel's own file: the one named after the kernel (Inductor names its file so), else the file
    most instructions come from (helpers inlined can hold more: Inductor's welford helpers do)."""
    files = Counter(p["file"] for p in pcs if p.get("file"))
    named = [f for f in files if kernel and PurePath(f).name.startswith(kernel)]
    return named[0] if named else (files.most_common(1)[0][0] if files else None)


def by_line(pcs: list[dict[str, Any]], kernel_file: str | None) -> list[dict[str, Any]]:
    """One row per (file, line), ranked; `kernel_file`: the kernel's own file (its lines are named by number
    alone, a helper's as `file.py:N`)."""
    total_inst, total_samples = sum(p["inst"] for p in pcs), sum(p["samples"] for p in pcs)
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for p in pcs:
        groups.setdefault((p.get("file"), p.get("line")), []).append(p)
    rows = []
    for (file, line), members in groups.items():
        own = file is not None and file == kernel_file
        label = NO_LINE if file is None else (str(line) if own else f"{PurePath(file).name}:{line}")
        rows.append({"file": file, "line": line, "kernel_file": own, "label": label,
                     "order": min(p["offset"] for p in members), **_row(members, total_inst, total_samples)})
    return _rank(rows)


def _targets(sass: str, function_pc: int) -> list[int]:
    return [int(h, 16) - function_pc for h in _ADDRESS.findall(sass)]


def basic_blocks(pcs: list[dict[str, Any]], function_pc: int) -> list[list[dict[str, Any]]]:
    """The kernel's instructions (in address order) cut into basic blocks: a block starts at the first
    instruction, at a branch target and after a branch, return or exit."""
    offsets = {p["offset"] for p in pcs}
    starts = {pcs[0]["offset"]} if pcs else set()
    for i, p in enumerate(pcs):
        op = opcode(p["sass"])
        if op in TARGETS_OF:
            starts.update(t for t in _targets(p["sass"], function_pc) if t in offsets)
        if op in BLOCK_ENDS and i + 1 < len(pcs):
            starts.add(pcs[i + 1]["offset"])
    blocks: list[list[dict[str, Any]]] = []
    for p in pcs:
        if p["offset"] in starts or not blocks:
            blocks.append([])
        blocks[-1].append(p)
    return blocks


def by_region(pcs: list[dict[str, Any]], function_pc: int) -> list[dict[str, Any]]:
    """One row per SASS basic block, ranked; named by its offsets and its most executed opcodes."""
    pcs = sorted(pcs, key=lambda p: p["offset"])
    total_inst, total_samples = sum(p["inst"] for p in pcs), sum(p["samples"] for p in pcs)
    rows, size = [], (pcs[-1]["offset"] + 16 if pcs else 0)
    for block in basic_blocks(pcs, function_pc):
        ops: Counter[Any] = Counter()
        for p in block:
            ops[opcode(p["sass"])] += p["inst"]
        first, last = block[0]["offset"], block[-1]["offset"]
        rows.append({"start": first, "end": last, "label": f"+{first:#06x}..+{last:#06x}", "order": first,
                     "opcodes": [op for op, n in ops.most_common(3) if n > 0],
                     **_row(block, total_inst, total_samples, function_pc, size)})
    return _rank(rows)


def kernel_stalls(pcs: list[dict[str, Any]]) -> dict[str, Any]:
    """The whole kernel's samples: total, issuing, and each stall reason with its share of all samples."""
    stalls: Counter[Any] = Counter()
    for p in pcs:
        stalls.update(p.get("stalls") or {})
    total = sum(p["samples"] for p in pcs)
    return {"samples": total, "issuing_pct": 100 * stalls.get(ISSUING, 0.0) / total if total else None,
            "stalls": [{**st, "pct": 100 * st["samples"] / total} for st in _ranked_stalls(stalls)] if total else []}


def hotspots(counters: dict[str, Any]) -> dict[str, Any]:
    """A source report's rows (read_report's dict): by line when its instructions carry line info, else by
    SASS region; with the kernel's totals."""
    pcs = counters.get("pcs") or []
    kernel_file = kernel_file_of(pcs, counters.get("kernel") or "")
    rows = by_line(pcs, kernel_file) if kernel_file else by_region(pcs, counters.get("function_pc") or 0)
    return {"by": "line" if kernel_file else "region", "rows": rows, "kernel_file": kernel_file,
            "inst": sum(p["inst"] for p in pcs), **kernel_stalls(pcs)}
