"""analysis/diff_gate.py: what fails the gate, from hand-made rows (the columns diff_kernels.rows gives)."""
import math

import pandas as pd

from inductor_prof.analysis.diff_gate import NOTHING, Failure, failures, regressions

NAN = math.nan
STEPS = pd.DataFrame([{"what": "step (plain)", "change_pct": 1.0, "noise_pct": 2.0, "gated": True}])


def _rows(*rows) -> pd.DataFrame:
    cols = ["label", "status", "change_pct", "noise_pct", "share_pct"]
    return pd.DataFrame([dict(zip(cols, r)) for r in rows])


def test_slower_pairs_and_one_sided_rows_above_min_share():
    k = _rows(("k1", "matched", 12.0, 1.0, 5.0),     # 11 points beyond noise > 10: fails
              ("k2", "matched", 10.5, 1.0, 5.0),     # 9.5: passes
              ("k3", "matched", -40.0, 1.0, 5.0),    # a speed-up never fails
              ("k4", "matched", 50.0, 1.0, 0.5),     # below --min-share 1
              ("n1", "new", NAN, NAN, 2.0), ("r1", "removed", NAN, NAN, 1.0), ("n2", "new", NAN, NAN, 0.9))
    assert regressions(STEPS, k, 10, 1.0) == [
        "k1: +12.0% (noise 1.0%, 5.0% of the step)",
        "n1: only in run B (new), 2.0% of the step, judged against nothing",
        "r1: only in run A (removed), 1.0% of the step, judged against nothing"]
    assert regressions(STEPS, k, None, 1.0) == []          # no gate asked for


def test_a_gate_with_nothing_to_judge_fails():
    no_step = STEPS.assign(gated=False)
    assert regressions(no_step, None, 5, 1.0) == [NOTHING]


def test_failures_name_their_row_and_reason():
    """Each failure points at its row (table, index), so `--json` marks that row and the Markdown lists it."""
    k = _rows(("k0", "matched", 1.0, 1.0, 5.0), ("k1", "matched", 12.0, 1.0, 5.0), ("n1", "new", NAN, NAN, 2.0))
    steps = pd.DataFrame([{"what": "step (plain)", "change_pct": 9.0, "noise_pct": NAN, "gated": True},
                          {"what": "step (under Proton)", "change_pct": 50.0, "noise_pct": 1.0, "gated": False}])
    assert failures(steps, k, 5, 1.0) == [
        Failure("steps", 0, "slower", "step (plain)", "+9.0% (noise unknown)"),
        Failure("kernels", 1, "slower", "k1", "+12.0% (noise 1.0%, 5.0% of the step)"),
        Failure("kernels", 2, "new", "n1", "only in run B (new), 2.0% of the step, judged against nothing")]
    assert failures(steps.assign(gated=False), None, 5, 1.0) == [Failure("", None, "nothing to judge", "", NOTHING)]
    assert Failure("", None, "nothing to judge", "", NOTHING).line == NOTHING
