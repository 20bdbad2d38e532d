"""Recorded fixtures (real outputs; tests/data/README.md says how each was made)."""
from pathlib import Path

DATA = Path(__file__).parent / "data"
REPO = Path(__file__).parent.parent


def data_path(*parts: str) -> Path:
    """A recorded fixture; fails loudly when it is missing."""
    path = DATA.joinpath(*parts)
    if not path.exists():
        raise FileNotFoundError(f"test data missing: {path}")
    return path


# flux_small was recorded before inductor-prof measured the SM clock, power and its GEMM calls' replays: every
# report of it carries that one warning (analysis/older_runs.py; pinned in tests/analysis/test_older_runs.py)
AGE_MARK = "was recorded before inductor-prof measured"


def without_age_warning(lines: list[str]) -> list[str]:
    """Warnings other than the one every report of flux_small carries for its age."""
    return [ln for ln in lines if AGE_MARK not in ln]


# ncu source-pass reports recorded on the H100 (data/README.md), by the kernel they profiled
RMS_KERNEL = ("triton_red_fused__fused_rms_norm__scaled_dot_product_cudnn_attention__to_copy_add_mul_neg_permute_"
              "stack_unbind_unsqueeze_view_2")
NVJET_KERNEL = "nvjet_sm90_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN"
SOURCE_REPORTS = {RMS_KERNEL: "rms_norm_rope.ncu-rep.gz", NVJET_KERNEL: "nvjet_192x192_TNN.ncu-rep.gz"}


def source_report(kernel: str, dest: Path) -> Path:
    """The recorded source report of `kernel`, unpacked to `dest` (a file path)."""
    import gzip

    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_bytes(gzip.decompress(data_path("ncu_source", SOURCE_REPORTS[kernel]).read_bytes()))
    return dest


def source_counters(kernel: str, dest: Path) -> Path:
    """The counters file of `kernel`'s recorded source report (scripts/write_source_counters.py), unpacked to
    `dest`."""
    import gzip

    name = SOURCE_REPORTS[kernel].removesuffix(".ncu-rep.gz") + ".counters.json.gz"
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_bytes(gzip.decompress(data_path("ncu_source", name).read_bytes()))
    return dest


def source_run(folder: Path) -> Path:
    """examples/runs/flux-h100 copied to `folder`, with the two recorded source reports and their counters files
    under ncu/source/ and the status.json the source pass writes: what `inspect` reads after `inductor-prof ncu
    RUN --source ...`."""
    import json
    import shutil

    shutil.copytree(REPO / "examples" / "runs" / "flux-h100", folder)
    status = {}
    for kernel in SOURCE_REPORTS:
        report = source_report(kernel, folder / "ncu" / "source" / f"{kernel}.ncu-rep")
        source_counters(kernel, report.with_name(f"{kernel}.counters.json"))
        status[kernel] = {"name": kernel, "status": "ok", "reason": "", "report": report.name,
                          "origin": "library" if kernel == NVJET_KERNEL else "inductor"}
    (folder / "ncu" / "source" / "status.json").write_text(json.dumps(status, indent=1))
    return folder
