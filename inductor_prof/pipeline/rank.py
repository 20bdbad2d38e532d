"""One rank of `profile --nproc N` (`python -m inductor_prof.pipeline.rank SPEC`, started by torchrun): its output
in RUN/logs/rank<i>.log, the spec's body run (the profile into RUN/rank<i>/), and how it ended in
RUN/logs/rank<i>.exit.json, which the launcher (ranks.py) gathers into RUN/ranks.json."""
from __future__ import annotations

import ctypes
import importlib
import json
import os
import signal
import sys
import time
import traceback
from datetime import timedelta
from pathlib import Path

from .. import rundir
from ..errors import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_TERMINATED, EXIT_USER, StepFailed, UserError, one_line

PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """SIGKILL when torchrun dies: it starts each rank in a session of its own, so ending torchrun's process group
    does not reach the ranks (Linux only; elsewhere torchrun's own shutdown has to do)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass


def rank_options(options: dict, rank: int, root: Path):
    """The ProfileOptions of one rank from the launcher's (asdict): its own folder, ncu on rank 0 only unless the
    ncu_all_ranks setting, and no torchrun of its own."""
    from ..settings import Settings
    from ..targets import FluxOptions
    from . import CompileOptions, ProfileOptions

    o = dict(options)
    settings = Settings(**o.pop("settings"))
    flux = FluxOptions(**{**o.pop("flux"), "resolutions": tuple(options["flux"].get("resolutions") or ())})
    comp = CompileOptions(**{**o.pop("compile"), "blocks": tuple(options["compile"].get("blocks") or ())})
    o.update(out=str(rundir.RankedRun(root).rank(rank).root), nproc=None, force=False,
             ncu=bool(o.get("ncu")) and (rank == 0 or settings.ncu_all_ranks))
    return ProfileOptions(**o, settings=settings, flux=flux, compile=comp)


def profile_rank(spec: dict, rank: int, local_rank: int, root: Path) -> None:
    """The default body: this rank's GPU, the NCCL process group (the model's factory may use it: FSDP2, tensor
    parallel), then an ordinary profile into RUN/rank<i>/."""
    import torch
    import torch.distributed as dist

    from . import profile

    torch.cuda.set_device(local_rank)
    # a collective waits for the slowest rank's stages before it (a compile, the ceilings' GEMMs): NCCL's
    # default 10 minutes could end a run whose ranks compile at different speeds
    dist.init_process_group("nccl", device_id=torch.device("cuda", local_rank), timeout=timedelta(minutes=60))
    try:
        result = profile(rank_options(spec["options"], rank, root), log=lambda line: print(line, flush=True))
        if result.failed:
            raise StepFailed(f"stages failed: {', '.join(result.failed)} (details in {result.run.manifest_path})")
    finally:
        dist.destroy_process_group()


def _body(name: str):
    module, _, attr = name.partition(":")
    return getattr(importlib.import_module(module), attr)


def run(spec_path: Path) -> int:
    """Runs this rank's body; returns its exit code after writing its exit record."""
    from ..signals import Terminated, sigterm_as_interrupt

    ranked = rundir.RankedRun(spec_path.parent.parent)
    rank, local_rank = int(os.environ["RANK"]), int(os.environ.get("LOCAL_RANK", os.environ["RANK"]))
    code, why = 0, ""
    try:
        with sigterm_as_interrupt():
            spec = json.loads(spec_path.read_text())
            _body(spec["body"])(spec, rank, local_rank, ranked.root)
    except Terminated:
        code, why = EXIT_TERMINATED, "terminated (SIGTERM; torchrun ends every rank when one fails)"
    except KeyboardInterrupt:
        code, why = EXIT_INTERRUPTED, "interrupted"
    except UserError as e:
        code, why = EXIT_USER, str(e)
    except StepFailed as e:
        code, why = EXIT_FAILED, str(e)
    except Exception as e:   # the traceback goes to the rank's log, the line to its exit record
        traceback.print_exc()
        code, why = EXIT_FAILED, one_line(e, 600)
    if why:
        print(f"rank {rank}: {why}", file=sys.stderr, flush=True)
    rundir.write_json(ranked.rank_exit(rank), {"rank": rank, "exit": code, "why": why, "ended": round(time.time(), 3)})
    return code


def main(argv: list[str]) -> None:
    spec_path = Path(argv[0])
    die_with_parent()
    log = rundir.RankedRun(spec_path.parent.parent).rank_log(int(os.environ["RANK"]))
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "ab") as f:   # the rank's output, C libraries' included (NCCL, the compilers)
        sys.stdout.flush(), sys.stderr.flush()
        os.dup2(f.fileno(), 1)
        os.dup2(f.fileno(), 2)
    sys.exit(run(spec_path))


if __name__ == "__main__":
    main(sys.argv[1:])
