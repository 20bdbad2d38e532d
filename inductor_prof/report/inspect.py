"""`inspect RUN KERNEL` in the terminal: the kernel's facts (time, roofline, launch, occupancy, provenance) as
labelled lines, then its source lines (or SASS regions) ranked by warp samples, each row's source text on a
line of its own so that it reads at 80 columns. Renders analysis/inspect.py's view."""
from __future__ import annotations

import textwrap
from pathlib import PurePath

from rich.console import Console
from rich.text import Text

from ..units import MB
from .format import num, rate, short

LABEL = 11        # the facts' label column
SHOWN_FRAMES = 3  # model source lines shown (all in --json)
SHOWN_NODES = 8   # FX node names shown
EXCESS_SHOWN = 1.0   # % of a row's L2 sectors excess (uncoalesced) that earns it a `*`


def _dims(launch: dict, axis: str) -> str:
    return "x".join(num(launch.get(f"{axis}_{d}"), "{:.0f}") for d in "xyz")


def launch_line(launch: dict) -> str:
    parts = [f"grid {_dims(launch, 'grid')}", f"block {_dims(launch, 'block')}"]
    if (launch.get("cluster_x") or 0) > 0:
        parts.append(f"cluster {_dims(launch, 'cluster')}")
    parts.append(f"{num(launch.get('registers'), '{:.0f}')} registers/thread")
    shared = (launch.get("shared_static_bytes") or 0) + (launch.get("shared_dynamic_bytes") or 0)
    parts.append(f"{shared:,.0f} B shared/block")
    if launch.get("waves_per_sm") is not None:
        parts.append(f"{launch['waves_per_sm']:.1f} waves")
    return ", ".join(parts)


def occupancy_line(launch: dict) -> str:
    limits = {k[len("limit_"):].replace("_", " "): v for k, v in launch.items() if k.startswith("limit_")}
    least = min(limits.values()) if limits else None
    by = [k for k, v in limits.items() if v == least]
    return (f"{num(launch.get('occupancy_achieved_pct'))}% achieved of "
            f"{num(launch.get('occupancy_theoretical_pct'))}% theoretical"
            + (f" (limited by {', '.join(by)}: {least:.0f} blocks/SM)" if by else ""))


def roofline_line(view: dict) -> str:
    r = view["roofline"]
    if not r.get("bound"):
        return "no flops or bytes known for it: no roofline position"
    got = f"{num(r.get('gbps'), '{:.0f}')} GB/s, {rate(r.get('tflops'))} TFLOP/s"
    ceiling = f"{r.get('ceiling')}" + (f" {num(r.get('ceiling_rate'), '{:.0f}')} {r.get('ceiling_unit')}"
                                        if r.get("ceiling_rate") else "")
    text = f"{r['bound']}-bound: {got}, {num(r.get('pct_of_peak'))}% of {ceiling}"
    if r.get("headroom_ms_per_step") is not None:
        text += (f"; {num(r['headroom_ms_per_step'], '{:.2f}')} ms/step above its speed of light "
                 f"({num(r.get('sol_ms_per_step'), '{:.2f}')} ms/step)")
        reach = r.get("reachable_headroom_ms_per_step")
        if reach is not None and reach < r["headroom_ms_per_step"]:   # analysis/reachable.py
            text += f", {num(reach, '{:.2f}')} to {r.get('binding_unit')} fully busy"
    if r.get("do"):
        text += f"; to do: {r['do']}"
    return text


def inductor_line(config: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in config.items() if k != "candidate_configs")


def modules_text(modules: list[str], block: str | None) -> str:
    """The modules, the block's path said once in front where they all sit in it."""
    if block and all(m == block or m.startswith(block + ".") for m in modules):
        inner = [m[len(block) + 1:] or "(the block itself)" for m in modules]
        return f"in {block}: {', '.join(inner)}"
    return ", ".join(m or "(the model itself)" for m in modules)


def fact_rows(view: dict) -> list[tuple[str, str]]:
    rows = [("time", f"{num(view.get('avg_us'))} µs a call, {num(view.get('calls_per_step'), '{:.0f}')} calls/step, "
                     f"{num(view.get('step_ms'), '{:.3f}')} ms/step, {num(view.get('pct_of_gpu_time'))}% of GPU time"),
            ("roofline", roofline_line(view))]
    sc = next((s for s in view["source_counters"] if "launch" in s), None)
    if sc:
        rows += [("launch", launch_line(sc["launch"])), ("occupancy", occupancy_line(sc["launch"]))]
    elif view["ncu"]:
        rows.append(("ncu", f"{num(view['ncu'].get('registers'), '{:.0f}')} registers/thread, "
                            f"{num(view['ncu'].get('occupancy_pct'))}% occupancy achieved"))
    if view["ncu"].get("replayed_call"):
        rows.append(("replayed", f"{view['ncu']['replayed_call']} (its costliest call)"))
    if view["inductor_config"]:
        rows.append(("config", inductor_line(view["inductor_config"])))
    if view.get("aten_ops"):
        rows.append(("ATen ops", view["aten_ops"]))
    p = view["provenance"]
    if p.get("nodes"):
        nodes = [n["name"] for n in p["nodes"]]
        rows.append(("FX nodes", f"{len(nodes)}: {', '.join(nodes[:SHOWN_NODES])}"
                                 + (", ..." if len(nodes) > SHOWN_NODES else "")))
    if p.get("modules"):
        rows.append(("modules", modules_text(p["modules"], p.get("block"))))
    for i, f in enumerate((p.get("frames") or [])[:SHOWN_FRAMES]):
        rows.append(("model" if i == 0 else "", f"{PurePath(f['file']).name}:{f['line']}  {f.get('code') or ''}"))
    if p.get("source") and p["source"] not in ("traced", "ATen op and input shapes"):
        rows.append(("provenance", f"({p['source']})"))
    return rows


def wrapped(label: str, value: str, width: int) -> list[str]:
    """`label` in its column, `value` wrapped beside it (a word longer than the room, a kernel name, is split)."""
    room = max(width - LABEL - 1, 20)
    lines = textwrap.wrap(value, room, break_on_hyphens=False) or [""]
    return [f"{label if i == 0 else '':<{LABEL}} {line}".rstrip() for i, line in enumerate(lines)]


def stalls_text(stalls: list, samples: float, width: int) -> str:
    """The top stall reasons with their share of `samples`, as many whole ones as fit in `width` (at least one)."""
    shares = [(st["reason"], 100 * st["samples"] / samples) for st in stalls] if samples else []
    items = [f"{r} {pct:.0f}%" for i, (r, pct) in enumerate(shares) if i == 0 or pct >= 1]
    text = items[0] if items else ""
    for item in items[1:]:
        if len(text) + 2 + len(item) > width:
            break
        text += ", " + item
    return short(text, max(width, 8))


def _memory(row: dict) -> str:
    if not row["l2_bytes"]:
        return ""
    kind = "+".join(k for k, key in (("ld", "global_loads"), ("st", "global_stores")) if row[key])
    return f"{row['l2_bytes'] / MB:.1f} {kind}" + ("*" if (row.get("l2_excess_pct") or 0) >= EXCESS_SHOWN else "")


def _second_line(row: dict, by: str) -> str:
    if by == "line":
        return row.get("code") or ""
    hot = row["hottest"]
    return (f"+{hot['offset']:#06x} {hot['sass']}  (hottest of {row['instructions']}; "
            f"{', '.join(row.get('opcodes') or [])})")


def rows_lines(sc: dict, top: int, width: int) -> list[str]:
    """The ranked rows as text lines: a row of numbers, then its source text (or the region's hottest SASS)."""
    rows = sc["rows"][:top] if top else sc["rows"]
    head = "line" if sc["by"] == "line" else "region"
    lw = max([len(head)] + [len(r["label"]) for r in rows])
    out = [f"{'#':>3}  {head:<{lw}}  {'smp%':>5}  {'inst%':>5}  {'L2 MB':>8}  top stalls (of its samples)"]
    for r in rows:
        numbers = (f"{r['rank']:>3}  {r['label']:<{lw}}  {num(r['samples_pct']):>5}  {num(r['inst_pct']):>5}  "
                   f"{_memory(r):>8}  ")
        out.append(numbers + stalls_text(r["stalls"], r["samples"], width - len(numbers)))
        second = _second_line(r, sc["by"])
        if second:
            out.append(short(f"{'':5}| {second}", width))
    return out


def middle_cut(text: str, width: int) -> str:
    if len(text) <= width:
        return text
    keep = max(width - 1, 2)
    return text[: keep // 2] + "…" + text[len(text) - (keep - keep // 2):]


def source_header(sc: dict, run: str, width: int) -> list[str]:
    what = "Source lines" if sc["by"] == "line" else "SASS regions (basic blocks: the kernel has no line info)"
    report = sc["report"][len(run) + 1:] if sc["report"].startswith(run + "/") else sc["report"]
    return [f"{what} ranked by warp samples ({sc['samples']:,.0f} samples, {sc['inst'] / 1e6:,.1f} M warp "
            "instructions executed)",
            middle_cut(f"from {report}", width),
            "warps: " + ", ".join(f"{st['reason']} {st['pct']:.1f}%" for st in sc["stalls"][:4])
            + f"; issuing {num(sc.get('issuing_pct'))}% of samples"]


def excess_note(sc: dict) -> str | None:
    rows = [r for r in sc["rows"] if (r.get("l2_excess_pct") or 0) >= EXCESS_SHOWN]
    if not rows:
        return None
    worst = max(r["l2_excess_pct"] for r in rows)
    in_order = sorted(rows, key=lambda r: (r.get("file") or "", r.get("line") or r.get("start") or 0))
    what = "lines" if sc["by"] == "line" else "regions"
    return (f"* global accesses not coalesced (up to {worst:.0f}% of their L2 sectors excess): {what} "
            + ", ".join(r["label"] for r in in_order))


def render(view: dict, out: Console, top: int = 10) -> None:
    name = view["display"] or view["name"]
    for line in textwrap.wrap(name, out.width) or [name]:
        out.print(Text(line, style="bold"))
    lines = wrapped("kernel", f"{view.get('category')}, module {view.get('module') or '-'}, run {view['run']}",
                    out.width)
    for label, value in fact_rows(view):
        lines += wrapped(label, value, out.width)
    for line in lines:
        out.print(Text(line), no_wrap=True, crop=True)
    for sc in view["source_counters"]:
        out.print()
        if "error" in sc:
            out.print(Text(f"{sc['report']}: {sc['error']}"), soft_wrap=True)
            continue
        for line in source_header(sc, view["run"], out.width):
            for part in textwrap.wrap(line, out.width, break_on_hyphens=False):
                out.print(Text(part))
        for line in rows_lines(sc, top, out.width):
            out.print(Text(line), no_wrap=True, overflow="ellipsis", crop=True)
        shown = len(sc["rows"]) if not top else min(top, len(sc["rows"]))
        if shown < len(sc["rows"]):
            out.print(Text(f"{shown} of {len(sc['rows'])} {'lines' if sc['by'] == 'line' else 'regions'} "
                           "(--top; --top 0 shows all)"))
        for part in textwrap.wrap(excess_note(sc) or "", out.width):
            out.print(Text(part))
    if view["missing"]:   # the command on a line of its own, whole, to copy
        out.print()
        said = view["missing"].removesuffix(view["collect"]).rstrip(": ") + ":"
        for part in textwrap.wrap(said, out.width, break_on_hyphens=False):
            out.print(Text(part))
        out.print(Text(f"  {view['collect']}"), soft_wrap=True)
