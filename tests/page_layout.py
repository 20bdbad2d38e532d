"""Measure a rendered HTML report in headless Chromium (headless.py), without the DevTools protocol: a copy of
the page gets an inline script that, once the page has loaded, writes what it measured (each table's tallest
row and widths, the page's scroll width, whether a cut name's text is still whole) into an attribute of <body>;
Chromium's --dump-dom hands the DOM back and the test reads that attribute."""
from __future__ import annotations

import html
import json
import re
from pathlib import Path

from headless import open_page

PROBE = """<script>
window.addEventListener('load', () => setTimeout(() => {
  if (OPEN) document.querySelectorAll('details[id]').forEach(d => { d.open = true; });
  const out = {page: document.documentElement.scrollWidth, tables: {}, cuts: []};
  document.querySelectorAll('table[id]').forEach(t => {
    if (!t.offsetParent) return;            // a table in a closed <details>: not laid out
    const rows = Array.from(t.tBodies).flatMap(b => Array.from(b.rows))
      .filter(r => !r.classList.contains('sub') && r.offsetParent);
    const tallest = rows.reduce((m, r) => r.offsetHeight > m[0] ? [r.offsetHeight, r.cells[0].textContent.trim()]
                                                               : m, [0, '']);
    out.tables[t.id] = {row: tallest[0], at: tallest[1], width: t.offsetWidth,
                        room: t.parentElement.clientWidth, rows: rows.length,
                        header: t.tHead ? getComputedStyle(t.tHead.rows[0].cells[0]).position : ''};
  });
  document.querySelectorAll('[data-full]').forEach(e => {
    if (e.innerText !== e.getAttribute('data-full')) out.cuts.push([e.getAttribute('data-full'), e.innerText]);
  });
  document.body.setAttribute('data-layout', JSON.stringify(out));
}, 300));
</script>"""


def measure(page: Path, work: Path, width: int, extra_head: str = "", open_all: bool = False,
            height: int = 3200) -> tuple[dict, Path]:
    """What PROBE measured of `page` in a `width` px window (`extra_head`: markup put at the end of <head>, a
    planted fault; `open_all`: every <details> with an id opened first: the source views and per-line sections),
    and the screenshot's path (the window's `height`)."""
    work.mkdir(parents=True, exist_ok=True)
    probed = work / "probed.html"
    probed.write_text(page.read_text().replace("</head>", extra_head + "</head>", 1)
                      .replace("</body>", PROBE.replace("OPEN", "true" if open_all else "false") + "</body>"))
    load = open_page(probed, work, width=width, height=height)
    found = re.search(r'data-layout="([^"]*)"', load.dom)
    assert found, "the layout probe wrote nothing (the page's scripts failed?)"
    return json.loads(html.unescape(found.group(1))), load.screenshot


def too_tall(layout: dict, limits: dict[str, int], default: int) -> dict[str, tuple[int, str]]:
    """The tables whose tallest row is above its limit (by id prefix, else `default` px): id -> (px, its row)."""
    def limit(table_id: str) -> int:
        return next((px for prefix, px in limits.items() if table_id.startswith(prefix)), default)
    return {t: (m["row"], m["at"]) for t, m in layout["tables"].items() if m["row"] > limit(t)}
