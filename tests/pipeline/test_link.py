"""The link's all_reduce rate (pipeline/link.py) is a GPU measurement among ranks: here only that a process of
one rank measures nothing (the ceilings stage of an ordinary run is unchanged). Its pricing is cost.py's
(tests/test_cost.py); the measurement itself has not run on a multi-GPU machine."""
from inductor_prof.pipeline import link


def test_one_process_measures_no_link():
    assert link.world_size() == 1
    assert link.measure() is None


def test_the_link_is_measured_at_a_gibibyte_or_the_runs_own_largest_message():
    # at 256 MiB NCCL reached less than the model's own 546 MB all_reduce (llama-train-ddp-h200x2): 1 GiB, or the
    # run's largest message where larger, rounded up to whole bf16 elements (2 B)
    assert link.LINK_BYTES == 1024 ** 3
    assert link.message_bytes(None) == link.message_bytes(546_316_288) == 1024 ** 3
    assert link.message_bytes(3 * 1024 ** 3 + 1) == 3 * 1024 ** 3 + 2


def test_the_runs_largest_message_is_read_from_its_trace():
    # rank 0's trace of llama-train-ddp-h200x2: its last gradient bucket, an all_reduce of 273,158,144 bf16
    # elements ("In msg nelems") = 546,316,288 B; the other 13 calls are 256 B to 54.5 MB
    import gzip
    import json

    from recorded import REPO
    path = REPO / "examples" / "runs" / "llama-train-ddp-h200x2" / "rank0" / "torch_trace.json.gz"
    events = json.loads(gzip.open(path).read())["traceEvents"]
    assert link.largest_message(events) == 273_158_144 * 2
    assert link.largest_message([]) is None
