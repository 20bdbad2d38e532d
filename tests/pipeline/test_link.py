"""The link's measured message: past the size where NCCL's all_reduce rate still climbs (measured on two H200s:
about 300 GB/s busbw at 256 MiB against 306.7 for the model's own 546 MB call)."""
from inductor_prof.pipeline import link


def test_the_link_is_measured_at_a_gibibyte_above_the_ddp_runs_largest_message():
    # the DDP run's largest all_reduce: 546,316,288 B (its tied embedding's gradient bucket); 1 GiB = 1,073,741,824
    assert link.LINK_BYTES == 1024 ** 3 > 546_316_288
    assert link.measure() is None   # one process: no ranks, no measurement
