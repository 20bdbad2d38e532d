"""A table fitted to the console's width: columns are dropped, least important first, never squeezed, so a
number is always shown in full; the one shortened column (kernel names) takes what is left."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from rich.cells import cell_len
from rich.table import Table
from rich.text import Text

from ..names import distinct

EDGES = 3   # what a column costs beyond its text: a space each side and its left border (+1 right border)
FLOOR = 8   # a shortened name keeps this many cells at least (shorten: below it only a plain cut is left)


@dataclass
class Col:
    header: str
    cells: Sequence[str | Text]
    rank: float = 0             # importance: 0 first; at a narrow width the highest ranks are dropped
    right: bool = False         # numbers: right-aligned
    flex: tuple[int, int] | None = None   # text that gets what is left: (fewest, most) cells wide
    names: bool = False         # flex: kernel names (str cells), shortened to the width and kept distinct; its
    #                             Text cells and other columns' text wrap
    prefer: tuple[float, int] | None = None   # flex: (rank, width): at that rank it grows to `width`

    def natural(self) -> int:
        """Width of the widest cell; a header may wrap at its spaces, so only its longest word counts."""
        widest = max((cell_len(c.plain if isinstance(c, Text) else c) for c in self.cells), default=0)
        return max(widest, *(cell_len(w) for w in self.header.split()))

    def least(self) -> int:
        return min(self.flex[0], self.natural()) if self.flex else self.natural()


def fit(columns: list[Col], width: int, title: str | None = None) -> Table:
    """A rich Table of `columns` (in their order) no wider than `width`. By rank, each column is added at its
    least width while it fits, and a column with `prefer` grows at that rank; when that growth does not fit,
    it takes what is left and no further column is added. Room left then widens them (see `wants`)."""
    steps = sorted([(c.rank, 0, c) for c in columns] + [(c.prefer[0], 1, c) for c in columns if c.prefer],
                   key=lambda s: (s[0], s[1]))
    widths: dict[int, int] = {}
    used = 1
    for _, grows, col in steps:
        if not grows and (not widths or used + col.least() + EDGES <= width):
            widths[id(col)] = col.least()
            used += col.least() + EDGES
        elif not grows and len(widths) == 1 and _lend(columns, widths, used + col.least() + EDGES - width):
            # a lone name column gives up room for a second (a number): names alone tell nothing
            used = width - col.least() - EDGES
            widths[id(col)] = col.least()
            used += col.least() + EDGES
        elif grows and id(col) in widths:
            assert col.prefer is not None   # a growing column has a preferred width
            want = max(0, min(col.prefer[1], col.natural()) - widths[id(col)])
            widths[id(col)] += min(want, max(0, width - used))
            used += min(want, max(0, width - used))
            if used + EDGES >= width:
                break
    chosen = [c for c in columns if id(c) in widths]
    if len(chosen) < 2 <= len(columns):
        return too_narrow(columns, width, title)
    spare = max(0, width - used)
    ranked = sorted(chosen, key=lambda c: c.rank)
    # what is left goes to kernel names, then to headers that would wrap, then to other text
    wants = [(c, min(c.flex[1], c.natural())) for c in ranked if c.names and c.flex]   # names: a flex column
    wants += [(c, cell_len(c.header)) for c in ranked if not c.flex and cell_len(c.header) > widths[id(c)]]
    wants += [(c, min(c.flex[1], c.natural())) for c in ranked if c.flex and not c.names]
    for col, want in wants:
        grow = min(spare, max(0, want - widths[id(col)]))
        if col.flex or grow == want - widths[id(col)]:      # a header: on one line or not at all
            widths[id(col)] += grow
            spare -= grow
    left_out = [" ".join(c.header.split()) for c in columns if id(c) not in widths]
    caption = Text(f"left out at {width} columns: {', '.join(left_out)} (--width)") if left_out else None
    table = Table(title=Text(title) if title else None, title_justify="left", header_style="bold",
                  caption=caption, caption_justify="left")
    for col in chosen:
        wraps = not col.names or any(isinstance(c, Text) for c in col.cells)   # a shortened name fits: never wraps
        table.add_column(Text(col.header), justify="right" if col.right else "left", width=widths[id(col)],
                         no_wrap=not wraps, overflow="fold" if wraps else "ellipsis")
    cells = [_fit_name_cells(c.cells, widths[id(c)]) if c.names else c.cells for c in chosen]
    for row in zip(*cells):
        table.add_row(*(c if isinstance(c, Text) else Text(c) for c in row))
    return table


def _lend(columns: list[Col], widths: dict[int, int], need: int) -> bool:
    """Shortens the one placed column, when it is a flex one, by `need` cells (not below FLOOR); False when it
    cannot."""
    placed = next(c for c in columns if id(c) in widths)
    if not placed.flex or widths[id(placed)] - need < FLOOR:
        return False
    widths[id(placed)] -= need
    return True


def too_narrow(columns: list[Col], width: int, title: str | None) -> Table:
    """The table at a width that holds no name with a number beside it: one line saying so (a name column of
    "…" cells, or names without a number, told nothing). Its one column keeps the first column's header."""
    first = min(columns, key=lambda c: c.rank)
    second = min((c for c in columns if c is not first), key=lambda c: c.rank)
    least = 1 + min(first.least(), FLOOR if first.flex else first.least()) + second.least() + 2 * EDGES
    table = Table(title=Text(title) if title else None, title_justify="left", show_header=False, box=None,
                  padding=0)
    table.add_column(Text(first.header), width=max(1, width))
    table.add_row(Text(f"too narrow at {width} columns for this table: it needs {least} (--width)", overflow="fold"))
    return table


def _fit_name_cells(cells: Sequence[str | Text], width: int) -> list[str | Text]:
    """fit_names over the str cells of a names column; its Text cells (prose, not a kernel name) as they are."""
    names = iter(fit_names([c for c in cells if not isinstance(c, Text)], width))
    return [c if isinstance(c, Text) else next(names) for c in cells]


_WORDS = re.compile(r"<[^<>]*>$")      # a library name's identifying words (names.short_name)
_INDEX = re.compile(r"_\d+$")          # an Inductor kernel's index
_NUMBER = re.compile(r" #\d+$")


def shorten(label: str, width: int) -> str:
    """`label` in `width` cells: whole when it fits; else cut with "…" where it tells least: a library name
    `head<words>` keeps its words' beginning and its head's, an Inductor name its beginning and its end (the
    index), and a ` #2` is always kept."""
    if cell_len(label) <= width:
        return label
    number = _NUMBER.search(label)
    suffix = number.group() if number else ""
    body = label[: len(label) - len(suffix)]
    room = width - len(suffix)
    if room < 8:
        return label[: width - 1] + "…"
    words = _WORDS.search(body)
    if words:
        head, hint = body[: words.start()], words.group()
        keep_head = min(len(head), max(room - len(hint), room // 2))
        head = head if keep_head == len(head) else head[: keep_head - 1] + "…"
        room_hint = room - len(head)
        hint = hint if len(hint) <= room_hint else hint[: room_hint - 2] + "…>"
        return head + hint + suffix
    tail = _INDEX.search(body)
    keep = min(max(len(tail.group()) if tail else 0, room // 3), room - 7)
    return body[: room - keep - 1] + "…" + body[len(body) - keep:] + suffix


def fit_names(labels: list[str], width: int) -> list[str]:
    """Each label shortened to `width`; labels that shortening made equal are numbered ` #2`, ` #3`, ..."""
    short = [shorten(label, width) for label in labels]
    if len(set(short)) == len(short):
        return short
    numbered = distinct(short)
    return [s if n == s else shorten(label + n[len(s):], width) for label, s, n in zip(labels, short, numbered)]
