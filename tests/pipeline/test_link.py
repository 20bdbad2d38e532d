"""The link's all_reduce rate (pipeline/link.py) is a GPU measurement among ranks: here only that a process of
one rank measures nothing (the ceilings stage of an ordinary run is unchanged). Its pricing is cost.py's
(tests/test_cost.py); the measurement itself has not run on a multi-GPU machine."""
from inductor_prof.pipeline import link


def test_one_process_measures_no_link():
    assert link.world_size() == 1
    assert link.measure() is None
