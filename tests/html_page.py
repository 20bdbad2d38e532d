"""Read a rendered HTML report back with the standard library's parser: its tables (by id) as header and row
texts (a row of class "sub" under "sub", with the index of the row above it) and each row's cells' attributes
("cells": data-k, data-v: what --json holds), every URL-bearing attribute, and the text of each <script> and
<style>."""
from __future__ import annotations

from html.parser import HTMLParser

URL_ATTRIBUTES = {"src", "href", "action", "data", "poster", "srcset", "formaction", "background"}


class Page(HTMLParser):
    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tables: dict[str, dict] = {}               # by id; a table without one as "table-N"
        self.urls: list[tuple[str, str, str]] = []      # (tag, attribute, value)
        self.tags: list[str] = []
        self.scripts: list[str] = []
        self.styles: list[str] = []
        self._open: list[dict] = []                     # tables being read (nested ones on top)
        self._raw = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.urls += [(tag, k, v or "") for k, v in attrs if k in URL_ATTRIBUTES]
        top = self._open[-1] if self._open else None
        if tag == "table":
            table = {"headers": [], "rows": [], "sub": [], "row": None, "cell": None, "row_is_sub": False,
                     "cells": [], "attrs": None, "ids": []}
            self.tables[dict(attrs).get("id") or f"table-{len(self.tables)}"] = table
            self._open.append(table)
        elif tag == "tr" and top is not None:
            top["row"], top["attrs"], top["row_id"] = [], [], dict(attrs).get("id")
            top["row_is_sub"] = "sub" in (dict(attrs).get("class") or "").split()
        elif tag in ("td", "th") and top is not None and top["row"] is not None:
            top["cell"] = []
            top["attrs"].append(dict(attrs))
        elif tag in ("script", "style"):
            self._raw = []

    def handle_endtag(self, tag):
        top = self._open[-1] if self._open else None
        if tag in ("td", "th") and top is not None and top["cell"] is not None:
            top["row"].append("".join(top["cell"]).strip())
            top["cell"] = None
        elif tag == "tr" and top is not None and top["row"] is not None:
            if top["row_is_sub"]:        # a row of class "sub" belongs to the row above it: kept apart
                top["sub"].append((len(top["rows"]) - 1, top["row"]))
            elif top["headers"]:
                top["rows"].append(top["row"])
                top["cells"].append(top["attrs"])
                top["ids"].append(top["row_id"])
            else:                        # the first row is the header (a key/value table's first pair)
                top["headers"] = top["row"]
            top["row"] = None
        elif tag == "table" and top is not None:
            self._open.pop()
        elif tag in ("script", "style") and self._raw is not None:
            (self.scripts if tag == "script" else self.styles).append("".join(self._raw))
            self._raw = None

    def handle_data(self, data):
        for table in self._open:         # a nested table's text is also its outer cell's
            if table["cell"] is not None:
                table["cell"].append(data)
        if self._raw is not None:
            self._raw.append(data)

    def row(self, table_id: str, first_cell: str) -> dict[str, str]:
        t = self.tables[table_id]
        match = [r for r in t["rows"] if r[0] == first_cell]
        assert len(match) == 1, f"{first_cell!r}: {len(match)} rows in {table_id}"
        return dict(zip(t["headers"], match[0]))

    def values(self, table_id: str) -> list[dict[str, str]]:
        """Each row of a table as {data-k: data-v} over its cells that carry them."""
        return [{a["data-k"]: a.get("data-v", "") for a in cells if a.get("data-k")}
                for cells in self.tables[table_id]["cells"]]
