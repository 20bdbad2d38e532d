"""The own Triton and Gluon attention kernels compiled ahead of time for sm_90 (no GPU: Triton's bundled ptxas
and cuobjdump), one line per variant: a digest of its SASS with addresses and comments stripped, and its
instruction count. A refactor of the kernels' Python that leaves every line unchanged changed no instruction,
so it needs no new measurement on the GPU.

    python scripts/kernel_sass_digest.py > before.txt   # then refactor, run again, and diff the two files
    python scripts/kernel_sass_digest.py "D128 ws" --sass   # the variants whose name holds this, with their SASS
"""
from __future__ import annotations

import hashlib
import itertools
import re
import sys

import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

TARGET = GPUTarget("cuda", 90, 32)
_ADDR = re.compile(r"/\*[0-9a-f]{4,}\*/")
_COMMENT = re.compile(r"/\*.*?\*/")


def digest(kernel) -> tuple[str, int]:
    """(first 16 hex digits of the SHA-1 of its normalised SASS, instructions)."""
    lines = []
    for line in kernel.asm["sass"].splitlines():
        text = _COMMENT.sub("", _ADDR.sub("", line)).strip()
        if text and not text.startswith((".", "//", "Function", "code for")):
            lines.append(" ".join(text.split()))
    return hashlib.sha1("\n".join(lines).encode()).hexdigest()[:16], sum(";" in ln for ln in lines)


def triton_variants():
    from inductor_prof.attention.kernels import triton_fa

    for d, (causal, band, ranges, rows) in itertools.product((64, 128), [(False, False, False, False),
                                                                           (True, False, False, False),
                                                                           (False, True, False, False),
                                                                           (False, True, True, False),
                                                                           (False, True, False, True)]):
        # the first config, and the first that splits a tile in two (the second half's own path)
        configs = triton_fa.candidate_configs(d)
        for cfg in (configs[0], next(c for c in configs if c.split == 2)):
            sub = cfg.block_m // cfg.split
            sig = {"desc_q": f"tensordesc<bf16[{sub},{d}]>", "desc_k": f"tensordesc<bf16[{cfg.block_n},{d}]>",
                   "desc_v": f"tensordesc<bf16[{cfg.block_n},{d}]>", "O": "*bf16", "LSE": "*fp32", "sm_scale": "fp32",
                   **{n: "i32" for n in ("H", "N_Q", "N_KV", "GROUP", "stride_oz", "stride_oh", "stride_om",
                                         "HEADS_PER_GROUP", "LEFT", "RIGHT")},
                   "KV_RANGE": "*i32" if ranges else "*fp32", "ROW_KEYS": "*i32" if rows else "*fp32",
                   "SCHED": "*i32" if rows else "*fp32",
                   **{n: "constexpr" for n in ("HEAD_DIM", "BLOCK_M", "BLOCK_N", "SPLIT", "NUM_STAGES", "CAUSAL",
                                               "BAND", "RANGES", "ROWS")}}
            src = ASTSource(fn=triton_fa.attn_fwd_kernel, signature=sig, constexprs={
                "HEAD_DIM": d, "BLOCK_M": cfg.block_m, "BLOCK_N": cfg.block_n, "SPLIT": cfg.split,
                "NUM_STAGES": cfg.num_stages, "CAUSAL": causal, "BAND": band, "RANGES": ranges, "ROWS": rows})
            yield (f"triton_fa2 D{d} {cfg.label()} causal={causal} band={band} ranges={ranges} rows={rows}",
                   lambda src=src, cfg=cfg: triton.compile(src, target=TARGET, options={
                       "num_warps": cfg.num_warps, "num_stages": cfg.num_stages}))


def gluon_variants():
    from triton.experimental import gluon  # noqa: F401  (Gluon's language, for the layouts below)
    from triton.experimental.gluon import language as gl
    from triton.experimental.gluon._runtime import GluonASTSource

    from inductor_prof.attention.kernels import gluon_kernel, gluon_tiles

    for d, masked, (causal, band, ranges, rows) in [
            (d, m, v) for d in (64, 128) for m, v in [(False, (False, False, False, False)),
                                                      (True, (True, False, False, False)),
                                                      (True, (False, True, False, False)),
                                                      (True, (False, True, True, False)),
                                                      (True, (False, True, False, True))]]:
        configs = gluon_tiles.candidate_configs(d, masked)
        serial = [c for c in configs if not c.overlap][:1]   # the serial path too, where a config takes it
        for cfg in configs[:2] + serial:
            def desc(n, d=d):
                layout = gl.NVMMASharedLayout.get_default_for([n, d], gl.bfloat16)
                return f"tensordesc<bf16[{n},{d}],{layout!r}>"
            sig = {"desc_q": desc(64), "desc_k": desc(cfg.block_n), "desc_v": desc(cfg.block_n), "O": "*bf16",
                   "desc_o": desc(64), "LSE": "*fp32", "WS": "*fp32", "STATS": "*fp32", "FLAGS": "*i32",
                   "epoch": "i32", "sm_scale": "fp32",
                   **{n: "i32" for n in ("H", "GROUP", "N_Q", "N_KV", "stride_oz", "stride_oh", "stride_om", "n_m",
                                         "n_tiles", "n_dp", "LEFT", "RIGHT")},
                   "KV_RANGE": "*i32" if ranges else "*fp32", "ROW_KEYS": "*i32" if rows else "*fp32",
                   "SCHED": "*i32" if rows else "*fp32",
                   **{n: "constexpr" for n in ("HEAD_DIM", "BLOCK_N", "STAGES", "OVERLAP", "CONSUMER_REGS", "CAUSAL",
                                               "Q_BUFS", "N_CONS", "SPLIT", "BAND", "RANGES", "ROWS")}}
            src = GluonASTSource(fn=gluon_kernel.attn_fwd_ws_kernel, signature=sig, constexprs={
                "HEAD_DIM": d, "BLOCK_N": cfg.block_n, "STAGES": cfg.stages, "OVERLAP": cfg.overlap,
                "CONSUMER_REGS": cfg.consumer_regs, "CAUSAL": causal, "Q_BUFS": cfg.q_buffers,
                "N_CONS": cfg.consumers, "SPLIT": cfg.split and not causal and not band, "BAND": band,
                "RANGES": ranges, "ROWS": rows})
            yield (f"gluon_fa3 D{d} {cfg.label()} causal={causal} band={band} ranges={ranges} rows={rows}",
                   lambda src=src, cfg=cfg: triton.compile(src, target=TARGET,
                                                           options=gluon_tiles.launch_options(cfg)))


def main(argv: list[str]) -> int:
    words = [a for a in argv if not a.startswith("--")]
    print(f"# triton {triton.__version__}, sm_90")
    failed = 0
    for name, compile_it in itertools.chain(triton_variants(), gluon_variants()):
        if words and not any(w in name for w in words):
            continue
        try:
            kernel = compile_it()
            sha, n = digest(kernel)
            print(f"{sha} {n:6d} {name}", flush=True)
            if "--sass" in argv:
                print(kernel.asm["sass"])
        except Exception as e:  # noqa: BLE001  (a variant that does not compile is a line too)
            failed += 1
            print(f"{'failed':16s} {'':6s} {name}: {str(e).splitlines()[0][:200]}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
