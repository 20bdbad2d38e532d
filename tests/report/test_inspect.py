"""The pieces of `inspect`'s terminal view (report/inspect.py) on values written here."""
from inductor_prof.report import inspect as view


def test_stalls_fit_whole_and_drop_the_ones_below_one_percent():
    stalls = [{"reason": "long_scoreboard", "samples": 87}, {"reason": "mio_throttle", "samples": 4},
              {"reason": "wait", "samples": 0.5}]
    assert view.stalls_text(stalls, 100, 80) == "long_scoreboard 87%, mio_throttle 4%"
    assert view.stalls_text(stalls, 100, 30) == "long_scoreboard 87%"          # the second does not fit whole
    assert view.stalls_text(stalls, 100, 10) == "long_scor…"                  # the first is cut, never dropped
    assert view.stalls_text([], 0, 30) == ""


def test_excess_note_names_lines_or_regions_in_order():
    rows = [{"label": "99", "file": "k.py", "line": 99, "l2_excess_pct": 50.0},
            {"label": "81", "file": "k.py", "line": 81, "l2_excess_pct": 25.0},
            {"label": "7", "file": "k.py", "line": 7, "l2_excess_pct": 0.5}]      # below 1%: not said
    assert view.excess_note({"by": "line", "rows": rows}) == (
        "* global accesses not coalesced (up to 50% of their L2 sectors excess): lines 81, 99")
    regions = [{"label": "+0x0100..+0x0140", "start": 256, "l2_excess_pct": 10.0}]
    assert view.excess_note({"by": "region", "rows": regions}) == (
        "* global accesses not coalesced (up to 10% of their L2 sectors excess): regions +0x0100..+0x0140")
    assert view.excess_note({"by": "line", "rows": rows[2:]}) is None


def test_launch_and_occupancy_lines():
    launch = {"grid_x": 2, "grid_y": 66, "grid_z": 1, "block_x": 384, "block_y": 1, "block_z": 1, "cluster_x": 2,
              "cluster_y": 1, "cluster_z": 1, "registers": 168, "shared_static_bytes": 0,
              "shared_dynamic_bytes": 213204, "waves_per_sm": 1.0, "occupancy_theoretical_pct": 18.75,
              "occupancy_achieved_pct": 14.57, "limit_registers": 1, "limit_shared_mem": 1, "limit_warps": 5}
    assert view.launch_line(launch) == ("grid 2x66x1, block 384x1x1, cluster 2x1x1, 168 registers/thread, "
                                        "213,204 B shared/block, 1.0 waves")
    assert view.occupancy_line(launch) == ("14.6% achieved of 18.8% theoretical (limited by registers, shared mem: "
                                           "1 blocks/SM)")
    assert "cluster" not in view.launch_line({**launch, "cluster_x": 0})


def test_modules_said_once_inside_their_block():
    assert view.modules_text(["blocks.*.attn", "blocks.*"], "blocks.*") == "in blocks.*: attn, (the block itself)"
    assert view.modules_text(["a.b", ""], None) == "a.b, (the model itself)"


def test_middle_cut():
    assert view.middle_cut("abcdefghij", 10) == "abcdefghij"
    assert view.middle_cut("abcdefghij", 7) == "abc…hij"
