"""Columns a narrow terminal cannot show are named under the table, not dropped silently."""
from inductor_prof.report.layout import Col, fit


def _cols():
    # three 10-cell columns: each costs 10 + 3 (EDGES) = 13 cells, the table 1 more for its right border
    return [Col("first", ["a" * 10], rank=0), Col("second col", ["b" * 10], rank=1),
            Col("third\ncol", ["c" * 10], rank=2)]


def test_dropped_columns_are_named_in_the_caption():
    # width 30: 1 + 13 + 13 = 27 <= 30 fits two; a third would need 40
    table = fit(_cols(), 30)
    assert [c.header.plain for c in table.columns] == ["first", "second col"]
    assert table.caption.plain == "left out at 30 columns: third col (--width)"   # a two-line header on one line


def test_no_caption_when_every_column_fits():
    # width 40: 1 + 3 x 13 = 40 fits all three
    table = fit(_cols(), 40)
    assert len(table.columns) == 3 and table.caption is None
