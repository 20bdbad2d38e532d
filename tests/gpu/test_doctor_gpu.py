"""`doctor` on a GPU machine: every GPU probe runs in its child and passes; where ncu is found, it reads the
counters of the probe kernel (as root, or with counter access); the exit code is 1 exactly when a row failed."""
import json

import torch
from typer.testing import CliRunner

from inductor_prof.cli import app

runner = CliRunner()


def test_doctor_on_a_gpu(tmp_path):
    r = runner.invoke(app, ["doctor", "--json", "--out", str(tmp_path)])
    rows = {c["name"]: c for c in json.loads(r.output)["checks"]}
    for name in ("GPU and driver", "CUDA runtime", "Proton", "Inductor -> Triton", "cuDNN SDPA"):
        assert rows[name]["status"] == "ok", rows[name]
    assert torch.cuda.get_device_name(0) in rows["GPU and driver"]["detail"]
    assert f"CUDA {torch.version.cuda} " in rows["CUDA runtime"]["detail"]
    if rows["ncu"]["status"] == "ok":
        assert rows["ncu counters"]["status"] == "ok", rows["ncu counters"]
        assert " µs, DRAM " in rows["ncu counters"]["detail"]
    failed = [c for c in rows.values() if c["status"] == "fail"]
    assert r.exit_code == (1 if failed else 0), failed
