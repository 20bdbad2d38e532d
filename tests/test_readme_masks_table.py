"""The masks table (docs/attention.md, moved from the README) and the ranges quoted beside it (and in
examples/sweeps/README.md) against examples/sweeps/masks-h100.csv: each time to the microsecond, each ratio
recomputed from the two times (not from the recorded ratio columns) to two decimals, each range from every row of
the file."""
import csv
import re

from recorded import REPO

HEAD = "| mask | S | D | gluon_fa3 ms | triton_fa2 ms | flex_compiled ms | cuDNN causal ms |"


def _csv() -> list[dict]:
    with open(REPO / "examples" / "sweeps" / "masks-h100.csv", newline="") as f:
        return list(csv.DictReader(f))


def _ms(x: str) -> float | None:
    return float(x) if x and float(x) == float(x) else None


def _key(r: dict) -> tuple[str, str, str]:
    docs = int(r["documents"])
    mask = f"window {r['window']}" if r["mask"] == "window" else f"padding {r['key_lengths']}" \
        if r["mask"] == "padding" else f"{docs} document{'s' if docs != 1 else ''}"
    return mask, r["S"], r["D"]


def _ratios(rows, num: str, den: str) -> list[float]:
    return [_ms(r[num]) / _ms(r[den]) for r in rows if _ms(r[num]) and _ms(r[den])]


def _range(values) -> str:
    return f"{min(values):.2f}x-{max(values):.2f}x"


def test_every_readme_masks_row_matches_the_sweep():
    lines = (REPO / "docs" / "attention.md").read_text().splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith(HEAD)) + 2
    sweep = {_key(r): r for r in _csv()}
    n = 0
    for ln in lines[start:]:
        if not ln.startswith("| "):
            break
        mask, S, D, *cells = [c.strip() for c in ln.strip("|").split("|")]
        r = sweep[(mask, S, D)]
        times = [_ms(r[k]) for k in ("gluon_ms", "tl_ms", "flex_ms", "cudnn_causal_ms")]
        assert cells[:4] == [f"{t:.3f}" if t else "-" for t in times], ln
        g, t, fx, cu = times
        assert cells[4:] == [f"{fx / g:.2f}", f"{fx / t:.2f}", f"{cu / g:.2f}" if cu else "-"], ln
        n += 1
    assert n == sum(1 for r in _csv() if r["S"] in ("1024", "8192"))     # the table's two lengths, every row


def test_quoted_ranges_are_the_whole_sweep():
    rows = _csv()
    readme = " ".join((REPO / "docs" / "attention.md").read_text().split())
    gluon, tl = _range(_ratios(rows, "flex_ms", "gluon_ms")), _range(_ratios(rows, "flex_ms", "tl_ms"))
    assert f"{len(rows)} rows, 1,024-16,384 tokens): gluon_fa3 {gluon} of flex_compiled at every row" in readme
    assert f"triton_fa2 (untuned) {tl}" in readme
    sweeps = " ".join((REPO / "examples" / "sweeps" / "README.md").read_text().split())
    docs = _range(_ratios([r for r in rows if r["mask"] == "documents"], "flex_ms", "gluon_ms"))
    cudnn = _ratios(rows, "cudnn_causal_ms", "gluon_ms")
    assert f"gluon_fa3 over flex_compiled: {gluon} at every row, documents {docs}; over cuDNN causal " \
           f"{_range(cudnn)} (the lowest {min(cudnn):.3f}x" in sweeps
    below = _ratios(rows, "flex_ms", "tl_ms")
    d64 = _range(_ratios([r for r in rows if r["mask"] == "window" and r["D"] == "64"], "flex_ms", "tl_ms"))
    assert f"triton_fa2, untuned: {tl} of flex, below 1 at {sum(x < 1 for x in below)} of the {len(rows)} rows " \
           f"(every head-dim-64 window: {d64})" in sweeps
    assert re.search(r"\b1\.00x-1\.30x\b", sweeps)


def test_the_sweeps_document_lengths():
    """examples/sweeps/README.md quotes the four documents of 4,096 tokens that scripts/bench_masks.py packs."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_masks", REPO / "scripts" / "bench_masks.py")
    bench_masks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench_masks)
    lengths = bench_masks.documents(4096, 4)
    assert sum(lengths) == 4096 and bench_masks.documents(4096, 1) == [4096]
    sweeps = " ".join((REPO / "examples" / "sweeps" / "README.md").read_text().split())
    assert f"at 4,096 tokens {'/'.join(f'{n:,}' for n in lengths)} for four" in sweeps
    assert min(bench_masks.documents(1024, 16)) < 1024 // 16 < max(bench_masks.documents(1024, 16))   # uneven
