"""Columns a narrow terminal cannot show are named under the table, not dropped silently."""
from inductor_prof.report.layout import Col, fit
import io
from rich.console import Console


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


# report/layout.fit at a narrow width: a lone name column gives up room for one number (names with no
# number told nothing, `--width 40`); a width with no room for both says so in one line (COLUMNS=5 filled every
# cell with "…").
NAMES = ["nvjet_sm90_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN", "triton_poi_fused_gelu_view_12"]


def _columns():
    return [Col("kernel", list(NAMES), 0, flex=(32, 64), names=True),
            Col("% GPU", ["42.5", "0.9"], 1, right=True),       # widest cell "42.5": 4
            Col("calls", ["570", "10"], 2, right=True)]


def _text(table, width):
    console = Console(width=width, file=io.StringIO(), record=True)
    console.print(table)
    return console.export_text()


def test_names_give_room_for_a_number_at_40():
    # names at their least (32) cost 1 + 32 + 3 = 36; "% GPU" needs 4 + 3 more: 43 > 40, so names give 3 up
    table = fit(_columns(), 40)
    assert [c.header.plain for c in table.columns] == ["kernel", "% GPU"]
    assert [c.width for c in table.columns] == [29, 4]
    assert "42.5" in _text(table, 40)


def test_the_narrowest_width_for_a_name_and_a_number():
    # 1 + (8 + 3) + (4 + 3) = 19: the names' floor (8) and "% GPU"
    assert [c.width for c in fit(_columns(), 19).columns] == [8, 4]
    table = fit(_columns(), 18)
    text = " ".join(_text(table, 18).split())   # wrapped at the 18 columns given
    assert "too narrow at 18 columns for this table: it needs 19 (--width)" in text
    assert "…" not in text and "42.5" not in text


def test_a_wide_table_is_unchanged():
    table = fit(_columns(), 200)
    assert [c.width for c in table.columns] == [51, 5, 5]    # the longest name; headers on one line
