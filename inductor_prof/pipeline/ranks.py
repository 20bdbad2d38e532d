"""`profile --nproc N`: the target under torchrun, each rank an ordinary profile into RUN/rank<i>/, and RUN/ranks.json
saying how each rank ended (and which one failed first, with its log's last lines).

torchrun runs `python -m inductor_prof.pipeline.rank RUN/logs/spec.json` N times; that entry sets the rank's GPU,
starts the process group and calls the spec's `body` (the profile; tests name a program of their own). torchrun
ends the other ranks when one fails; each rank writes its own exit record, and torchrun's failure summary gives
the exit of a rank killed before it could (a signal)."""
from __future__ import annotations

import re
import socket
import sys
import time
from dataclasses import asdict, dataclass
from typing import Callable

from .. import procs, rundir
from ..childenv import child_env
from ..errors import UserError

RANK_ENTRY = "inductor_prof.pipeline.rank"
BODY = "inductor_prof.pipeline.rank:profile_rank"
# NVLink multicast (NCCL's NVLS algorithms) stays off in the ranks: the lent multi-GPU machines are set up without it
RANK_ENV = {"NCCL_NVLS_ENABLE": "0"}
GRACE_S = 40.0    # torchrun gives its ranks 30 s to end on SIGTERM before it kills them
ENDED = (130, 143)   # a rank's exit when Ctrl-C or SIGTERM (torchrun ending it after another failed) ended it


@dataclass
class RankedResult:
    run: rundir.RankedRun
    ranks: list[dict]          # ranks.json's records
    failed_rank: int | None
    why: str                   # the failed rank's exit and its reason, "" when all ended well


def visible_gpus() -> int:
    import torch

    return torch.cuda.device_count()


def check_nproc(nproc: int, gpus: int) -> None:
    """Before anything starts: N ranks need N GPUs, one each."""
    if nproc < 1:
        raise UserError(f"{{nproc}} must be at least 1, not {nproc}", ("nproc",))
    if nproc > gpus:
        raise UserError(f"{{nproc}} {nproc} needs {nproc} GPUs; {gpus} visible here (torch.cuda.device_count())",
                        ("nproc",))


def free_port() -> int:
    """A TCP port free on this host now, for torchrun's rendezvous."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def torchrun_command(nproc: int, port: int, spec: str, python: str = sys.executable) -> list[str]:
    return [python, "-m", "torch.distributed.run", "--nnodes", "1", "--nproc-per-node", str(nproc),
            "--master-addr", "127.0.0.1", "--master-port", str(port), "-m", RANK_ENTRY, spec]


# torchrun's failure summary: one block per failed rank ("rank : 1 (local_rank: 1)", "exitcode : -11 (pid...)"),
# the first observed failure after "Root Cause"
_BLOCK = re.compile(r"rank\s*:\s*(\d+)[^\n]*\n\s*exitcode\s*:\s*(-?\d+)")


def torchrun_failures(text: str) -> tuple[dict[int, int], int | None]:
    """({rank: exit code torchrun saw}, the rank of the first observed failure), from torchrun's output."""
    exits = {int(r): int(c) for r, c in _BLOCK.findall(text)}
    root = _BLOCK.search(text.split("Root Cause", 1)[1]) if "Root Cause" in text else None
    return exits, int(root.group(1)) if root else None


def rank_record(rank: int, own: dict | None, seen: int | None, log_tail: str) -> dict:
    """How rank `rank` ended: its own exit record (`own`), else the exit torchrun saw (`seen`: a signal killed
    it before it could write one), else unknown. status: ok, failed, ended (ended by Ctrl-C or SIGTERM,
    torchrun's way of ending the others), unknown."""
    if own is not None:
        code, why = own.get("exit"), str(own.get("why") or "")
    elif seen is not None:
        code, why = seen, f"{procs.describe_exit(seen)} with no exit record of its own (killed)"
    else:
        code, why = None, "no exit record (it never started, or was killed before it could write one)"
    if code is None:
        status = "unknown"
    elif code == 0:
        status = "ok"
    elif code in ENDED or code == -15:
        status = "ended"
    else:
        status = "failed"
    return {"rank": rank, "folder": f"rank{rank}", "exit": code, "status": status, "why": why,
            "log": f"logs/rank{rank}.log", "last_lines": "" if status == "ok" else log_tail,
            "ended": (own or {}).get("ended")}


def first_failure(records: list[dict], root_cause: int | None) -> dict | None:
    """The rank that brought the run down: torchrun's first observed failure where it failed of itself, else the
    failed rank that ended first, else a rank that never said how it ended."""
    failed = [r for r in records if r["status"] == "failed"]
    for r in failed:
        if r["rank"] == root_cause:
            return r
    if failed:
        return min(failed, key=lambda r: (r["ended"] is None, r["ended"] or 0, r["rank"]))
    return next((r for r in records if r["status"] == "unknown"), None)


def _read_text(path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


def _own_exit(path) -> dict | None:
    import json

    try:
        data = json.loads(path.read_text())
        return data if isinstance(data, dict) else None
    except (OSError, ValueError):
        return None


def collect(ranked: rundir.RankedRun, nproc: int) -> tuple[list[dict], dict | None]:
    """Each rank's record from what the ranks and torchrun left in the folder, and the first failure."""
    seen, root_cause = torchrun_failures(_read_text(ranked.torchrun_log))
    records = [rank_record(i, _own_exit(ranked.rank_exit(i)), seen.get(i),
                           procs.tail(_read_text(ranked.rank_log(i)), 6)) for i in range(nproc)]
    return records, first_failure(records, root_cause)


def profile_ranks(opts, log: Callable[[str], None] = print, gpus: Callable[[], int] = visible_gpus,
                  body: str = BODY, check: Callable | None = None, python: str = sys.executable) -> RankedResult:
    """opts: pipeline.ProfileOptions with `nproc`. `gpus`, `body`, `check` (the target's check, before the
    folder is made), `python`: what a test replaces."""
    check_nproc(opts.nproc, gpus())
    if check is None:
        from ..targets import check_target as check
    check(opts.target, opts.flux)  # type: ignore[misc]  # set just above when None
    root = rundir.create(opts.out, opts.force).root
    ranked = rundir.RankedRun(root)
    rundir.write_json(ranked.spec_json, {"options": asdict(opts), "body": body, "nproc": opts.nproc})
    cmd = torchrun_command(opts.nproc, free_port(), str(ranked.spec_json), python)
    top = {"tool": "inductor-prof", "nproc": opts.nproc, "command": sys.argv, "torchrun": cmd,
           "created": round(time.time(), 3), "status": "running"}
    rundir.write_json(ranked.ranks_json, top)
    log(f"launching {opts.nproc} ranks under torchrun (each rank's log: {root}/logs/rank<i>.log)")
    status, finished = "interrupted", None
    try:
        finished = procs.run_logged(cmd, child_env(RANK_ENV), ranked.torchrun_log, opts.settings.ranks_timeout,
                                    grace=GRACE_S)
        status = "timed out" if finished.timed_out else "ok" if finished.ok else "failed"
    finally:   # Ctrl-C and SIGTERM too: the folder says how far each rank got
        records, failure = collect(ranked, opts.nproc)
        if status == "ok" and failure is not None:
            status = "failed"
        why = f"rank {failure['rank']}: {failure['why']}" if failure else ""
        if status == "failed" and failure is None:   # torchrun itself (a port taken, a bad argument)
            why = f"torchrun {procs.describe_exit(finished.returncode if finished else None)}: " \
                  f"{procs.tail(_read_text(ranked.torchrun_log)) or '(no output)'}"
        if status == "timed out":
            why = f"ranks_timeout: no end after {opts.settings.ranks_timeout:g} s (all ranks ended)"
        rundir.write_json(ranked.ranks_json, {
            **top, "status": status, "failed_rank": failure["rank"] if failure else None, "why": why,
            "torchrun_exit": finished.returncode if finished else None,
            "seconds": round(finished.seconds, 3) if finished else None, "ranks": records})
    return RankedResult(ranked, records, failure["rank"] if failure and status != "ok" else None,
                        why if status != "ok" else "")
