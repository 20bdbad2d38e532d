"""The figures examples/sweeps/README.md quotes from the committed Nsight Compute pages of (2,32/8,1024,64), the
head-dim-64 shape where gluon_fa3 stayed under 0.95x cuDNN before its two-CTA config and the page recorded after
it, read back from the pages themselves (ncu's raw CSV: a header row, a units row, one row per kernel) and found
in the README's text."""
import csv
from pathlib import Path
from recorded import REPO

SWEEPS = REPO / "examples" / "sweeps"
PAGE = SWEEPS / "ncu-own-attention" / "gqa-1024-d64-dense.csv"
PAGE_2CTA = SWEEPS / "ncu-own-attention" / "gqa-1024-d64-2cta.csv"


def _kernels(page: Path = PAGE) -> dict[str, dict[str, str]]:
    lines = [ln for ln in page.read_text().splitlines() if not ln.startswith("==PROF==")]
    rows = list(csv.DictReader(lines))[1:]  # the first row after the header holds units
    out = {}
    for row in rows:
        name = row["Kernel Name"]
        key = "gluon" if name == "attn_fwd_ws_kernel" else "cudnn" if name.startswith("cudnn") else name
        out[key] = row
    return out


def _num(row, metric) -> float:
    return float(row[metric].replace(",", ""))


PCT = ("smsp__issue_active.avg.pct_of_peak_sustained_active",
       "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
       "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active")  # issue active, tensor pipe, MUFU


def _stalls(row, *reasons) -> tuple[float, ...]:
    return tuple(_num(row, f"smsp__average_warps_issue_stalled_{r}_per_issue_active.ratio") for r in reasons)


def _readme_says(*phrases) -> None:
    text = " ".join((SWEEPS / "README.md").read_text().split())
    for phrase in phrases:
        assert phrase in text, phrase


def _pct_pairs(g, c) -> list[tuple[float, float]]:
    """(gluon, cuDNN) of each PCT metric, to one decimal as the README quotes them."""
    return [(round(_num(g, m), 1), round(_num(c, m), 1)) for m in PCT]


def test_page_holds_the_figures_the_readme_quotes():
    k = _kernels()
    g, c = k["gluon"], k["cudnn"]
    # gpu__time_duration is in ns: 59,136 ns -> 59.1 us; 53,280 -> 53.3
    assert round(_num(g, "gpu__time_duration.sum") / 1e3, 1) == 59.1
    assert round(_num(c, "gpu__time_duration.sum") / 1e3, 1) == 53.3
    # smsp__inst_executed.sum: 17,005,844 -> 17.0 M; 18,052,200 -> 18.1 M
    assert round(_num(g, "smsp__inst_executed.sum") / 1e6, 1) == 17.0
    assert round(_num(c, "smsp__inst_executed.sum") / 1e6, 1) == 18.1
    assert _pct_pairs(g, c) == [(41.1, 48.5), (40.4, 45.0), (42.5, 46.7)]
    assert _stalls(g, "long_scoreboard", "wait") == (1.89, 1.70)
    assert _stalls(c, "barrier", "wait") == (0.97, 0.81)
    for row in (g, c):  # both persistent: one CTA of three warpgroups per SM
        assert (_num(row, "launch__grid_size"), _num(row, "launch__block_size")) == (132, 384)
        assert _num(row, "launch__registers_per_thread") == 168


def test_readme_quotes_the_page():
    _readme_says("gluon_fa3 takes 59.1 us to cuDNN's 53.3", "(17.0 M against 18.1 M)",
                 "issues on 41.1% of cycles to cuDNN's 48.5%", "tensor pipe 40.4% against 45.0%",
                 "MUFU 42.5% against 46.7%", "gluon_fa3 long_scoreboard 1.89, wait 1.70",
                 "cuDNN barrier 0.97, wait 0.81")


def test_two_cta_page_holds_the_figures_the_readme_quotes():
    k = _kernels(PAGE_2CTA)
    g, c = k["gluon"], k["cudnn"]
    # 57,056 ns -> 57.1 us; cuDNN 53,184 -> 53.2
    assert round(_num(g, "gpu__time_duration.sum") / 1e3, 1) == 57.1
    assert round(_num(c, "gpu__time_duration.sum") / 1e3, 1) == 53.2
    # two CTAs of two warpgroups on each of 132 SMs: 264 x 256 threads, 65,536 / 512 = 128 registers a thread
    assert (_num(g, "launch__grid_size"), _num(g, "launch__block_size")) == (264, 256)
    assert _num(g, "launch__registers_per_thread") == 128
    # issue active 45.02 -> 45.0 (cuDNN 48.24 -> 48.2); tensor pipe 41.79 -> 41.8; MUFU 44.37 -> 44.4
    assert _pct_pairs(g, c) == [(45.0, 48.2), (41.8, 45.0), (44.4, 46.6)]
    assert _stalls(g, "long_scoreboard", "wait") == (3.5, 1.73)
    # 15.33 warps active per SM cycle: two CTAs' 16 warps, nearly all resident all the time
    assert round(_num(g, "sm__warps_active.avg.per_cycle_active"), 1) == 15.3
    _readme_says("gluon_fa3 takes 57.1 us to cuDNN's 53.2", "264 CTAs of 256 threads, 128 registers",
                 "issues on 45.0% of cycles to cuDNN's 48.2%", "tensor pipe 41.8% against 45.0%",
                 "MUFU 44.4% against 46.6%", "15.3 warps active per SM",
                 "long_scoreboard 3.50 (1.89 before), wait 1.73")
