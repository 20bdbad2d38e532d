"""steptime.py: the step of a run, one definition (profile stage, report, diff)."""
import math

from inductor_prof import steptime
from inductor_prof.steptime import stage_times, step_ms


def test_step_of_several_sizes_is_the_sum_of_their_medians():
    # size s1: 10, 11, 30 ms (median 11); s2: 30, 11, 10 ms (median 11): the step is 11 + 11 = 22 ms.
    # Summed per pass (40, 22, 40) the median would be 40: the pairing of steps taken apart decides it.
    assert step_ms({"s1": [10, 11, 30], "s2": [30, 11, 10]}) == 22
    assert step_ms({None: [3, 1, 2, 4]}) == 2.5          # one size: the median of its steps, (2 + 3) / 2
    assert math.isnan(step_ms({}))


def test_a_stage_entry_read_as_times():
    by_size = {"s1": [1.0], "s2": [2.0]}
    assert stage_times({"step_ms": [3.0], "step_ms_by_size": by_size}) == by_size
    assert stage_times({"step_ms": [3.0]}) == {None: [3.0]}
    assert stage_times({"step_ms": []}) is None and stage_times(None) is None


# ---- mutation audit: what is not a step ------------------------------------------------------------------------

def test_no_steps_and_empty_sizes():
    assert math.isnan(steptime.median_ms([])) and math.isnan(steptime.step_ms({}))
    # an empty per-size table, or a size with no steps: the plain step list, else nothing
    assert steptime.stage_times({"step_ms_by_size": {}, "step_ms": [1.0]}) == {None: [1.0]}
    assert steptime.stage_times({"step_ms_by_size": {"a": [2.0], "b": []}, "step_ms": [1.0]}) == {None: [1.0]}
    assert steptime.stage_times({"step_ms_by_size": ["not", "a", "dict"], "step_ms": [1.0]}) == {None: [1.0]}
    assert steptime.stage_times({"step_ms_by_size": {"a": [2.0]}}) == {"a": [2.0]}
    assert steptime.stage_times({"step_ms": []}) is None and steptime.stage_times(None) is None


def test_a_stages_steps_for_their_spread():
    manifest = {"stages": {"plain_steps": {"step_ms": [2, 1.5]}, "proton_steps": {"step_ms": []},
                           "compile": None}}
    assert steptime.stage_steps(manifest, "plain_steps") == [2.0, 1.5]     # floats, in the order taken
    # no steps, no such stage, a stage of no fields, no stages, steps that are not a list: none
    assert steptime.stage_steps(manifest, "proton_steps") is None
    assert steptime.stage_steps(manifest, "ncu") is None and steptime.stage_steps(manifest, "compile") is None
    assert steptime.stage_steps({}, "plain_steps") is None
    assert steptime.stage_steps({"stages": {"plain_steps": {"step_ms": "12"}}}, "plain_steps") is None
