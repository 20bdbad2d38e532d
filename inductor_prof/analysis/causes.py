"""Why a kernel whose bytes are not the problem is slow, from the source pass's counters (pure): the lines whose
global accesses were not coalesced, the warps' stall reasons, what limits its occupancy. Where the roofline says
"fewer bytes" yet ncu finds the busy unit is not DRAM (L1/shared, L2 with DRAM idle, or no unit busy), the item's
"do" names these causes, with the lines, instead of bytes the kernel already moves at their minimum."""
from __future__ import annotations

import re
from typing import Any, cast

from .hotspots import hotspots

# a line whose accesses asked for at least 1% more L2 sectors than coalesced ones would: `*` in inspect
UNCOALESCED_LINE_PCT = 1.0
# the excess sectors worth an action: a twentieth of the kernel's L2 traffic (below: a rounding of the layout)
UNCOALESCED_KERNEL_PCT = 5.0
# long-scoreboard (waiting for a global or local load) this share of the warps' samples: the loads' latency is
# not hidden. ncu's WarpStateStats rule flags a stall reason taking a large part of the samples; 30%: the
# biggest single reason by far on every kernel of the shipped runs where it is the cause (43-75%)
LONG_SCOREBOARD_PCT = 30.0
# occupancy below this share of the warp slots, limited by registers or shared memory, is named with the latency
OCCUPANCY_NAMED_PCT = 75.0
# a grid of less than half a wave leaves most of the GPU idle: the tile or launch configuration is the cause
PART_WAVE = 0.5
LIMITS = {"registers": "registers", "shared_mem": "shared memory", "warps": "warps a block",
          "blocks": "blocks an SM", "barriers": "barriers"}
# the act that raises an occupancy its limit holds down
FEWER = {"registers": "fewer registers a thread",
         "shared memory": "less shared memory a block"}


def source_facts(counters: dict[str, Any]) -> dict[str, Any]:
    """The facts of one kernel's source counters (drivers/ncu/source.py's dict) the causes are judged from:
    uncoalesced lines (label, % excess of its sectors), the excess as % of the kernel's L2 bytes, each stall
    reason's % of the warps' samples, occupancy achieved and theoretical and what limits it."""
    spots = hotspots(counters)
    rows = spots["rows"]
    texts = {f: t.splitlines() for f, t in (counters.get("files") or {}).items() if t}
    l2 = sum(r["l2_bytes"] for r in rows)
    bad = [r for r in rows if (r.get("l2_excess_pct") or 0) >= UNCOALESCED_LINE_PCT]
    excess = sum(r["l2_bytes"] * r["l2_excess_pct"] / 100 for r in bad)
    bad.sort(key=lambda r: (r.get("file") or "", r.get("line") or r.get("start") or 0))
    launch = counters.get("launch") or {}
    limits = {k[len("limit_"):]: v for k, v in launch.items() if k.startswith("limit_")}
    least = min(limits.values()) if limits else None
    return {"by": spots["by"],
            "uncoalesced": [(r["label"], r["l2_excess_pct"]) for r in bad],
            "excess_pct_of_l2": 100 * excess / l2 if l2 else 0.0,
            "stalls": {s["reason"]: s["pct"] for s in spots["stalls"]},
            "occupancy_pct": launch.get("occupancy_achieved_pct"),
            "theoretical_pct": launch.get("occupancy_theoretical_pct"),
            "limited_by": [LIMITS.get(k, k) for k, v in limits.items() if v == least],
            "registers": launch.get("registers"),
            "busiest_lines": _busiest(rows, texts), "waves": launch.get("waves_per_sm")}


# the ops a line of Triton spends many instructions on, as its source names them
EXPENSIVE = (("exp", re.compile(r"\bexp2?\(")), ("log", re.compile(r"\blog2?\(")),
             ("sqrt", re.compile(r"\br?sqrt\(")), ("division", re.compile(r"[^/]/[^/]|\bdiv_rn\(|fdiv\(")),
             ("erf", re.compile(r"\berf\(")), ("tanh", re.compile(r"\btanh\(")), ("pow", re.compile(r"\bpow\(")),
             ("sin/cos", re.compile(r"\b(sin|cos)\(")), ("conversion", re.compile(r"\.to\(tl\.")))
BUSIEST_PCT = 40.0    # the arithmetic lines named until they hold this share of the instructions (at most 4)
LINE_LEAST_PCT = 5.0  # a line under this share of the instructions is not worth naming


def _busiest(rows: list[dict[str, Any]], texts: dict[str, list[str]]) -> list[tuple[str, float, str]]:
    """(label, % of the instructions, the expensive op its source names or "") of the lines with the most
    instructions that move no global memory (the kernel's own, or a helper inlined into it: Inductor's welford
    helpers), most first, until BUSIEST_PCT of the instructions."""
    math_rows = sorted((r for r in rows if r.get("line") and not r["global_loads"] and not r["global_stores"]
                        and (r.get("inst_pct") or 0) >= LINE_LEAST_PCT), key=lambda r: -r["inst_pct"])
    out, held = [], 0.0
    for r in math_rows[:4]:
        lines = texts.get(r.get("file") or "", [])
        code = lines[r["line"] - 1] if 1 <= (r.get("line") or 0) <= len(lines) else ""
        code = code.split("=", 1)[-1]
        op = next((name for name, pattern in EXPENSIVE if pattern.search(code)), "")
        out.append((r["label"], r["inst_pct"], op))
        held += r["inst_pct"]
        if held >= BUSIEST_PCT:
            break
    return out


def instruction_cause(facts: dict[str, Any], sm_pct: float) -> str | None:
    """An instruction-bound kernel's action naming its busiest arithmetic lines and their ops; None without them."""
    lines = facts.get("busiest_lines") or []
    if not lines:
        return None
    said = ", ".join(label + (f" ({op})" if op else "") for label, _, op in lines)
    return (f"fewer or cheaper ops at lines {said} ({sum(p for _, p, _ in lines):.0f}% of the instructions; SM "
            f"{sm_pct:.0f}% busy)")


STALL_REASONS = ("long_scoreboard", "math_pipe_throttle", "mio_throttle", "barrier")


def counter_facts(row: dict[str, Any]) -> dict[str, Any] | None:
    """The facts of a kernel's ncu row (the metric pass's stall and occupancy counters, drivers/ncu/metrics.py),
    for a kernel the source pass did not profile: no lines, so no uncoalesced ones. A reason's share of the warps'
    time: its stalled cycles per issue over all cycles between issues. None where the run's ncu.csv has no stall
    counters (recorded before they were asked for)."""
    def known(v: Any) -> float | None:
        return float(v) if v is not None and v == v else None
    between = known(row.get("warp_cycles_per_issue"))
    if not between:
        return None
    # cast: the comprehension's `if` keeps only the reasons whose counter is known (not None)
    stalls = {r: 100 * cast(float, known(row.get(f"stall_{r}"))) / between for r in STALL_REASONS
              if known(row.get(f"stall_{r}")) is not None}
    measured = {k: known(row.get(f"limit_{k}")) for k in ("registers", "shared_mem", "warps", "blocks")}
    limits = {k: v for k, v in measured.items() if v is not None}
    least = min(limits.values()) if limits else None
    return {"by": "line", "uncoalesced": [], "excess_pct_of_l2": 0.0, "stalls": stalls, "busiest_lines": [],
            "occupancy_pct": known(row.get("occupancy_pct")),
            "theoretical_pct": known(row.get("occupancy_theoretical_pct")),
            "limited_by": [LIMITS.get(k, k) for k, v in limits.items() if v == least],
            "registers": known(row.get("registers"))}


def causes(facts: dict[str, Any]) -> list[str]:
    """What to do, one phrase a cause with its evidence, the cause with the larger share first: coalesce the lines
    that asked for excess sectors (share: the excess's % of the kernel's L2 bytes); hide the loads' latency where
    long-scoreboard holds LONG_SCOREBOARD_PCT of the warps' samples (share: that %), naming the occupancy and its
    limiter where it is below OCCUPANCY_NAMED_PCT. [] where the counters show neither."""
    out = []
    if facts["uncoalesced"] and facts["excess_pct_of_l2"] >= UNCOALESCED_KERNEL_PCT:
        what = "lines" if facts["by"] == "line" else "regions"
        worst = max(p for _, p in facts["uncoalesced"])
        out.append((facts["excess_pct_of_l2"],
                    f"coalesce {what} {', '.join(label for label, _ in facts['uncoalesced'])} (up to {worst:.0f}% "
                    f"excess L2 sectors, {facts['excess_pct_of_l2']:.0f}% of its L2 bytes): contiguous index "
                    "innermost"))
    waiting = facts["stalls"].get("long_scoreboard", 0.0)
    if waiting >= LONG_SCOREBOARD_PCT:
        phrase = f"hide load latency (long-scoreboard {waiting:.0f}% of the warps' time"
        occ, theory = facts["occupancy_pct"], facts["theoretical_pct"]
        fewer = [FEWER[k] for k in facts["limited_by"] if k in FEWER]
        if occ is not None and theory is not None and theory < OCCUPANCY_NAMED_PCT and facts["limited_by"]:
            regs = f" {facts['registers']:.0f}/thread" if "registers" in facts["limited_by"] and \
                facts.get("registers") else ""
            phrase += f", occupancy {occ:.0f}% of {theory:.0f}% ({' and '.join(facts['limited_by'])}{regs})"
        else:
            fewer = []
        out.append((waiting, phrase + "): " + "".join(f"{f} or " for f in fewer) + "more loads in flight a warp "
                    "(a larger XBLOCK)"))
    waves = facts.get("waves")
    if waves is not None and waves < PART_WAVE:
        # a launch configuration cause: most SMs idle whatever each block does
        out.append((100 * (1 - waves), f"more blocks a launch ({waves:.2f} waves: the grid leaves "
                                       f"{100 * (1 - waves):.0f}% of the SMs' block slots empty): smaller tiles"))
    return [text for _, text in sorted(out, key=lambda c: -c[0])]
