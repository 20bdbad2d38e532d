"""`profile --ncu` on the GPU, cold (no compile cache): the metric pass's replay finds every Inductor kernel's
binary in the run's Triton cache (none is compiled again under ncu: Triton's cache key holds the ptxas version,
inductor/cache.py inductors_ptxas), and the source pass ran in its own process beside the metric pass. Needs ncu
(the ncu settings from the environment: INDUCTOR_PROF_SUDO=1 where the counters need root)."""
import dataclasses
import importlib.util
import json

import pytest

from inductor_prof.pipeline import ProfileOptions, profile
from inductor_prof.rundir import RunDir
from inductor_prof.settings import resolve
from inductor_prof.targets import FluxOptions

# looked for, not imported: importing diffusers costs about 2 CPU-seconds at every collection, CPU runs included,
# where these tests are skipped (gpu/conftest.py)
if importlib.util.find_spec("diffusers") is None:
    pytest.skip("could not import 'diffusers'", allow_module_level=True)


def test_a_cold_profiles_ncu_compiles_no_kernel_again_and_the_source_pass_runs_beside_it(tmp_path):
    from inductor_prof.drivers.ncu.locate import find_ncu
    from inductor_prof.errors import UserError

    settings = dataclasses.replace(resolve()[0], compile_cache="off", ncu_source_kernels=2)
    try:
        find_ncu(settings.ncu)
    except UserError as e:
        pytest.skip(str(e))
    opts = ProfileOptions(target="flux", out=str(tmp_path / "run"), steps=2, warmup=1, ceilings=False,
                          attention=False, ncu=True, settings=settings,
                          flux=FluxOptions(height=256, width=256, text_len=64, double_blocks=1, single_blocks=1))
    assert profile(opts, log=lambda m: None).failed == {}
    run = RunDir(tmp_path / "run")
    stages = json.loads(run.manifest_path.read_text())["stages"]
    assert stages["ncu"]["status"] == "ok" and stages["ncu"]["ok"] == stages["ncu"]["kernels"] >= 10
    cubins = list((run.inductor_cache / "triton").rglob("*.cubin"))
    assert cubins
    # what the model's compile built, the replay found: no binary written once ncu started
    assert [c for c in cubins if c.stat().st_mtime >= stages["ncu"]["started"]] == []
    source = stages["ncu_source"]
    assert source["status"] == "ok" and source["beside"] == "ran beside the metric pass" and source["ok"] >= 2
    assert source["seconds_by_phase"]["profiling"] > 0   # its own ncu process, timed from its marks
