"""The CI recipe (examples/ci/): the workflow passes a linter for GitHub workflows (check-jsonschema with its
vendored workflow schema, then shellcheck over each `run:` script as actionlint would, and the references between
jobs and steps), the shell scripts pass shellcheck, and the gate's script runs end to end on the two recorded FLUX
runs (examples/runs/flux-h100 as the baseline, flux-h100-768x1344 as the pull request): its exit status, diff.json,
diff.html and summary.md, and its refusals (another GPU, another inductor-prof version, a folder that is not a
run) as one line. The GPU half (`inductor-prof profile`) cannot run here: ci.sh is run with a stand-in for the
command whose `profile` copies a recorded run (said where it is used)."""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fakes import fake_exe
from recorded import REPO

CI = REPO / "examples" / "ci"
WORKFLOW = CI / "inductor-prof-gate.yml"
SCRIPTS = sorted(CI.glob("*.sh"))
RUNS = REPO / "examples" / "runs"
BASELINE, PR = RUNS / "flux-h100", RUNS / "flux-h100-768x1344"
ATTENTION = "_cudnn_attention_forward [1,24,4608→4544,128] ×3"
MARKER = "<!-- inductor-prof diff -->"


def _tool(name: str) -> str:
    """A linter installed by the dev extra (its console script beside this Python), or skip saying how to get it."""
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.skip(f"{name} not installed: pip install -e '.[dev]' installs it")
    return found


def _env(**extra) -> dict:
    """The scripts' environment: the command is this checkout's package run by this Python."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FAIL_ABOVE", "MIN_SHARE", "ALLOW_DIFFERENT"))}
    env.update(INDUCTOR_PROF=f"{sys.executable} -m inductor_prof", PYTHONPATH=str(REPO), COLUMNS="100")
    env.update(extra)
    return env


def _run(cmd: list, **env) -> subprocess.CompletedProcess:
    return subprocess.run([str(c) for c in cmd], cwd=REPO, env=_env(**env), capture_output=True, text=True,
                          timeout=300)


def _workflow() -> dict:
    """The workflow read as GitHub reads it (YAML 1.2: `on` is a key, not true), by check-jsonschema's reader."""
    ruamel = pytest.importorskip("ruamel.yaml", reason="ruamel.yaml not installed: pip install -e '.[dev]' "
                                 "(check-jsonschema brings it)")
    return ruamel.YAML(typ="safe", pure=True).load(WORKFLOW.read_text())


# ---- the workflow and the scripts, linted

def test_workflow_passes_the_github_workflow_schema():
    r = subprocess.run([_tool("check-jsonschema"), "--builtin-schema", "vendor.github-workflows", str(WORKFLOW)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr


def test_workflow_schema_check_catches_a_broken_workflow(tmp_path):
    """The linter above is not a no-op: a step with neither `run` nor `uses`, a job without `runs-on`."""
    bad = tmp_path / "bad.yml"
    bad.write_text(WORKFLOW.read_text().replace("      - uses: actions/checkout@v4", "      - usse: actions/checkout@v4",
                                                1))
    r = subprocess.run([_tool("check-jsonschema"), "--builtin-schema", "vendor.github-workflows", str(bad)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "'uses' is a required property" in r.stdout


def _run_blocks(wf: dict) -> list[tuple[str, str]]:
    return [(f"{job}: {step.get('name', step.get('run', '')[:30])}", step["run"])
            for job, spec in wf["jobs"].items() for step in spec["steps"] if "run" in step]


def test_workflow_run_scripts_pass_shellcheck(tmp_path):
    """Each `run:` script as bash runs it, its `${{ }}` expressions standing for a word (as actionlint checks)."""
    shellcheck = _tool("shellcheck")
    for where, script in _run_blocks(_workflow()):
        path = tmp_path / "step.sh"
        path.write_text("#!/usr/bin/env bash\nset -e\n" + re.sub(r"\$\{\{.*?\}\}", "EXPR", script))
        r = subprocess.run([shellcheck, "--shell=bash", str(path)], capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, f"{where}:\n{r.stdout}"


def test_scripts_pass_shellcheck():
    r = subprocess.run([_tool("shellcheck"), *map(str, SCRIPTS)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout
    assert {p.name for p in SCRIPTS} == {"ci.sh", "comment.sh", "gate.sh", "profile.sh"}
    assert all(os.access(p, os.X_OK) for p in SCRIPTS)


def test_workflow_references_resolve():
    """What the schema cannot see: jobs it needs, step outputs and env it reads, and the scripts it calls, exist;
    the gate runs on pull requests only, after the profile, and the comment is skipped for forks."""
    wf = _workflow()
    jobs = wf["jobs"]
    env = set(wf.get("env", {}))
    text = WORKFLOW.read_text()   # the scripts its comments name too
    for name, job in jobs.items():
        needs = job.get("needs", [])
        assert set([needs] if isinstance(needs, str) else needs) <= set(jobs), name
        ids = [s["id"] for s in job["steps"] if "id" in s]
        for step in job["steps"]:
            blob = json.dumps(step)
            for ref in re.findall(r"steps\.([\w-]+)\.outputs\.[\w-]+", blob):
                assert ref in ids[: ids.index(ref) + 1] and ref in ids, f"{name}: steps.{ref}"
            for var in re.findall(r"env\.(\w+)", blob):
                assert var in env, f"{name}: env.{var}"
    for script in re.findall(r"examples/ci/[\w.-]+\.sh", text):
        assert (REPO / script).is_file(), script
    called = {s for _, run in _run_blocks(wf) for s in re.findall(r"bash (examples/ci/[\w.-]+\.sh)", run)}
    assert called == {"examples/ci/profile.sh", "examples/ci/gate.sh", "examples/ci/comment.sh"}
    assert jobs["gate"]["if"] == "github.event_name == 'pull_request'" and jobs["gate"]["needs"] == "profile"
    assert jobs["gate"]["runs-on"] == "ubuntu-latest" and "gpu" in jobs["profile"]["runs-on"]
    comment = next(s for s in jobs["gate"]["steps"] if s.get("name") == "Comment on the pull request")
    assert "github.event.pull_request.head.repo.full_name == github.repository" in comment["if"]


# ---- gate.sh end to end on the two recorded FLUX runs

def test_gate_fails_on_the_attention_call_and_writes_the_pages(tmp_path):
    # the README's diff of the two: cuDNN attention +8.6 % at noise 1.3 % (7.2-7.4 points beyond it) holds 20.8 %
    # of the step; above FAIL_ABOVE=5 (the default), the only row that is
    out = tmp_path / "gate"
    r = _run(["bash", CI / "gate.sh", BASELINE, PR, out])
    assert r.returncode == 1, r.stderr
    doc = json.loads((out / "diff.json").read_text())
    assert doc["schema_version"] == 1
    gate = doc["gate"]
    assert (gate["verdict"], gate["exit_code"], gate["fail_above_pct"], gate["min_share_pct"]) == ("failed", 1, 5, 1)
    assert [(f["table"], f["what"], f["reason"]) for f in gate["failing"]] == [
        ("kernels", f"{ATTENTION} (cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x128_"
                    "4x1x1_cga1x1x1_kernel0_0)", "slower")]
    assert gate["failing"][0]["detail"] == "+8.6% (noise 1.3%, 20.8% of the step)"
    assert [k["fails_gate"] for k in doc["kernels"][:3]] == [True, False, False]
    summary = (out / "summary.md").read_text()
    assert r.stdout == summary and summary.startswith(f"{MARKER}\n## inductor-prof diff: ❌ gate failed\n")
    assert f"| `{ATTENTION}`<br>" in summary and "| 25.597 | 27.789 | +2.193 | +8.6 | 1.3 | 20.8 | ❌ slower |" in summary
    # TOP=10 rows: the attention call, 5 GEMM calls (each on one nvjet kernel), 4 Inductor kernels
    assert summary.count("<br>`nvjet_") == 5 and summary.count("| `triton_") == 4
    html = (out / "diff.html").read_text()
    assert "gate (--fail-above 5% beyond noise, step and kernels &gt;= 1% of the step): FAILED" in html


def test_gate_passes_above_the_attention_change(tmp_path):
    out = tmp_path / "gate"
    r = _run(["bash", CI / "gate.sh", BASELINE, PR, out], FAIL_ABOVE="7.5", TOP="3")
    assert r.returncode == 0, r.stderr
    gate = json.loads((out / "diff.json").read_text())["gate"]
    assert (gate["verdict"], gate["exit_code"], gate["failing"]) == ("passed", 0, [])
    summary = (out / "summary.md").read_text()
    assert "## inductor-prof diff: ✅ gate passed" in summary and "3 of 79 matched" in summary


def _copy_run(src: Path, dst: Path) -> Path:
    """A recorded run without what diff does not read (ncu reports, the attention kernels, the torch trace)."""
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("ncu", "attention", "torch_trace.json.gz"))
    return dst


def _edit_manifest(run: Path, edit) -> None:
    m = json.loads((run / "manifest.json").read_text())
    edit(m)
    (run / "manifest.json").write_text(json.dumps(m))


def _refused(out: Path, r: subprocess.CompletedProcess, line: str) -> None:
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stderr == line + "\n"                          # diff's one line, nothing else
    assert not (out / "diff.json").exists()
    summary = (out / "summary.md").read_text()
    assert summary.startswith(f"{MARKER}\n## inductor-prof diff: ⛔ gate refused\n\n**Gate refused** (exit 2): "
                              "nothing was judged.\n\n~~~~\n" + line + "\n~~~~\n")
    assert r.stdout == summary


def test_gate_refuses_a_baseline_from_another_gpu(tmp_path):
    base = _copy_run(BASELINE, tmp_path / "base")
    _edit_manifest(base, lambda m: m["env"]["gpu"].update(name="NVIDIA A100-SXM4-80GB"))
    out = tmp_path / "gate"
    r = _run(["bash", CI / "gate.sh", base, PR, out])
    _refused(out, r, "error: --fail-above: runs on different GPUs (A: NVIDIA A100-SXM4-80GB, B: NVIDIA H100 80GB "
                     "HBM3; manifest.json env.gpu); pass --allow-different to gate anyway")
    # told to compare anyway: judged (and failed, on the attention call), with the warning said
    r = _run(["bash", CI / "gate.sh", base, PR, out], ALLOW_DIFFERENT="1")
    assert r.returncode == 1
    assert "warning: gating anyway (--allow-different): runs on different GPUs" in r.stderr
    gate = json.loads((out / "diff.json").read_text())["gate"]
    assert gate["allow_different"] is True and gate["verdict"] == "failed" and len(gate["gaps"]) == 1
    assert "Gated anyway (`--allow-different`), though: runs on different GPUs" in (out / "summary.md").read_text()


def test_gate_refuses_a_baseline_from_another_tool_version(tmp_path):
    base = _copy_run(BASELINE, tmp_path / "base")
    _edit_manifest(base, lambda m: m["env"].update(inductor_prof="0.0.9"))
    out = tmp_path / "gate"
    r = _run(["bash", CI / "gate.sh", base, PR, out])
    _refused(out, r, "error: --fail-above: runs of different inductor-prof versions (A: 0.0.9, B: 0.1.0; "
                     "manifest.json env.inductor_prof); pass --allow-different to gate anyway")


def test_gate_refuses_an_artifact_folder_that_is_not_a_run(tmp_path):
    art = tmp_path / "artifact"
    _copy_run(PR, art / "run")          # the run one level down, as an artifact unpacked a level up
    out = tmp_path / "gate"
    r = _run(["bash", CI / "gate.sh", BASELINE, art, out])
    _refused(out, r, f"error: {art} is not an inductor-prof run folder (no manifest.json; the run folder in it: "
                     f"{art / 'run'})")
    empty = tmp_path / "empty"
    empty.mkdir()
    r = _run(["bash", CI / "gate.sh", empty, PR, out])
    _refused(out, r, f"error: {empty} is not an inductor-prof run folder (no manifest.json)")


def test_scripts_say_their_usage():
    for script, usage in (("gate.sh", "BASELINE_RUN PR_RUN OUT_DIR"), ("profile.sh", "RUN_DIR TARGET"),
                          ("ci.sh", "BASELINE_RUN OUT_DIR TARGET"), ("comment.sh", "PR_NUMBER SUMMARY_MD")):
        r = _run(["bash", CI / script])
        assert r.returncode == 2 and r.stderr.startswith("usage: ") and usage in r.stderr, script


# ---- ci.sh and comment.sh, around stand-ins for what needs a GPU or GitHub

def test_ci_script_profiles_then_gates(tmp_path):
    """ci.sh in order: profile.sh into OUT/run, then gate.sh against the baseline. The GPU step is a stand-in:
    INDUCTOR_PROF's `profile` copies the recorded 768x1344 run to --out (no measurement of its own); every other
    command is this checkout's inductor-prof."""
    stand_in = fake_exe(tmp_path, f"""
if args[0] == 'profile':
    open(sys.argv[0] + '.calls', 'a').write(' '.join(args) + '\\n')
    out = args[args.index('--out') + 1]
    shutil.copytree({str(PR)!r}, out, ignore=shutil.ignore_patterns('ncu', 'attention', 'torch_trace.json.gz'))
    sys.exit(0)
os.execv(sys.executable, [sys.executable, '-m', 'inductor_prof', *args])
""", name="inductor-prof-stand-in")
    out = tmp_path / "ci"
    r = _run(["bash", CI / "ci.sh", BASELINE, out, "flux", "--double-blocks", "2"], INDUCTOR_PROF=stand_in,
             FAIL_ABOVE="7.5")
    assert r.returncode == 0, r.stderr
    assert Path(stand_in + ".calls").read_text() == f"profile flux --out {out / 'run'} --force --double-blocks 2\n"
    assert "## inductor-prof diff: ✅ gate passed" in r.stdout
    assert json.loads((out / "diff.json").read_text())["b"] == str(out / "run")


def test_comment_script_updates_its_earlier_comment_or_posts_one(tmp_path):
    """comment.sh against a stand-in `gh` that logs its arguments: `gh api` listing the comments prints what its
    --jq would select (an id, or nothing)."""
    summary = tmp_path / "summary.md"
    summary.write_text(f"{MARKER}\n## inductor-prof diff: ✅ gate passed\n")
    for found, expected in (("4242", ["api --method PATCH repos/o/r/issues/comments/4242 -F body=@" + str(summary)]),
                            ("", ["pr comment 7 --repo o/r --body-file " + str(summary)])):
        bin_dir = tmp_path / f"bin{found}"
        bin_dir.mkdir()
        fake_exe(bin_dir, f"""
open({str(bin_dir / 'calls')!r}, 'a').write(' '.join(args) + '\\n')
if args[:2] == ['api', '--paginate']:
    print({found!r})
""", name="gh")
        r = _run(["bash", CI / "comment.sh", "7", summary], PATH=f"{bin_dir}:{os.environ['PATH']}",
                 GITHUB_REPOSITORY="o/r")
        assert r.returncode == 0, r.stderr
        calls = (bin_dir / "calls").read_text().splitlines()
        assert calls[0].startswith("api --paginate repos/o/r/issues/7/comments --jq ") and MARKER in calls[0]
        assert calls[1:] == expected
    other = tmp_path / "other.md"
    other.write_text("# not a summary\n")
    r = _run(["bash", CI / "comment.sh", "7", other], GITHUB_REPOSITORY="o/r")
    assert r.returncode == 2 and "does not start with <!-- inductor-prof diff -->" in r.stderr
