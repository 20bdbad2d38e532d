"""Labels beside a chart's points without overlap (pure): each label, most important first, takes the first of
a few places around its point, in rings further out, where its box overlaps no label placed before it, no
point's disc and stays inside the frame; where none is free, the place that overlaps least. Pixel units, y up."""
from __future__ import annotations

import math
from dataclasses import dataclass

CHAR_PX, LINE_PX, GAP_PX = 7.0, 13.0, 3.0   # a label's character width and height (11 px bold), its gap
DIRECTIONS = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]   # right first, then round
RINGS = (0.0, 10.0, 22.0, 38.0)              # further out when the nearer places are taken


@dataclass(frozen=True)
class Box:
    x0: float
    y0: float
    x1: float
    y1: float

    def overlap(self, other: "Box") -> float:
        w = min(self.x1, other.x1) - max(self.x0, other.x0)
        h = min(self.y1, other.y1) - max(self.y0, other.y0)
        return w * h if w > 0 and h > 0 else 0.0


def _disc_overlap(box: Box, x: float, y: float, r: float) -> float:
    """How far the disc at (x, y) of radius r reaches into `box` (0: apart)."""
    dx = max(box.x0 - x, 0, x - box.x1)
    dy = max(box.y0 - y, 0, y - box.y1)
    return max(0.0, r - math.hypot(dx, dy))


def place(points: list[tuple[float, float, float]], texts: list[str], frame: tuple[float, float]) -> list[Box]:
    """A box for texts[i] beside points[i] (x, y, radius; the labelled points first, any others after them,
    which are only avoided), inside frame (width, height)."""
    placed: list[Box] = []
    for i, label in enumerate(texts):
        x, y, r = points[i]
        w, h = CHAR_PX * len(label) + 2, LINE_PX
        best, best_cost = None, math.inf
        for ring in RINGS:
            for dx, dy in DIRECTIONS:
                d = r + GAP_PX + ring
                cx, cy = x + dx * (d + w / 2), y + dy * (d + h / 2)
                box = Box(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
                cost = sum(box.overlap(b) for b in placed) * 10 + sum(
                    _disc_overlap(box, px, py, pr) for j, (px, py, pr) in enumerate(points) if j != i)
                if box.x0 < 0 or box.y0 < 0 or box.x1 > frame[0] or box.y1 > frame[1]:
                    cost += 1e6
                if cost < best_cost:
                    best, best_cost = box, cost
                if cost == 0:
                    break
            if best_cost == 0:
                break
        assert best is not None   # a first box always is one
        placed.append(best)
    return placed
