#!/usr/bin/env python3
"""The own Triton (`tl`) and Gluon attention kernels at every head dim they take, on the GPU, against float64: a
line per case with its figures, exit 1 if any case fails. What the CPU cannot check (tests/attention/kernels
run the `tl` kernel in Triton's interpreter in fp16 only, and compile the Gluon kernel without running it): bf16,
the Gluon kernel's answers, TMA's zero fill past a head dim that is not a power of two, the TMA store that must not
write past it, and this Triton's register spills.

    python3 scripts/check_head_dims.py [--kernels gluon_fa3,triton_fa2] [--dtypes bfloat16,float16]

A dry run on a machine without a GPU (the `tl` kernel in Triton's interpreter, which gets bf16 wrong):
`TRITON_INTERPRET=1 python3 scripts/check_head_dims.py --device cpu --kernels triton_fa2 --dtypes float16`.

Cases (each kernel at its default config unless said): at 80, 96 and 192 (run in 128- and 256-wide tiles) bf16
dense GQA 8/2 and causal GQA at ragged lengths, fp16 dense without GQA, and one mask each (80 documents, 96 a
causal window, 192 left padding + causal); at 64, 128 and 256 fp16 causal GQA (bf16 there: tests/gpu); the
Gluon kernel's split last waves at 80 and 96. The kernels are compiled first, in threads, as the tuner does.
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field, replace

DEVICE = "cuda"


@dataclass(frozen=True)
class Case:
    kernel: str
    D: int
    dtype: str
    what: str                 # dense, causal, window, padding, documents, split
    shape: tuple              # (B, Hq, Hkv, Sq, Sk)
    mask: tuple = field(default=())   # window: (keys,); padding: per batch (lo, hi); documents: lengths

    def label(self) -> str:
        B, Hq, Hkv, Sq, Sk = self.shape
        heads = f"{Hq}/{Hkv}" if Hkv != Hq else f"{Hq}"
        seq = f"{Sq}" if Sq == Sk else f"{Sq}x{Sk}"
        return f"{self.kernel} D={self.D} {self.dtype} {self.what} ({B},{heads},{seq},{self.D})"


def cases(kernels: list[str], dtypes: list[str]) -> list[Case]:
    out = []
    masks = {80: ("documents", (1, 4, 2, 300, 300), (100, 1, 150, 49)),
             96: ("window", (1, 4, 2, 300, 300), (50,)),
             192: ("padding", (2, 4, 2, 300, 300), ((0, 200), (37, 300)))}
    for kernel in kernels:
        for D in (80, 96, 192):
            out += [Case(kernel, D, "bfloat16", "dense", (2, 8, 2, 300, 333)),
                    Case(kernel, D, "bfloat16", "causal", (2, 8, 2, 333, 300)),
                    Case(kernel, D, "float16", "dense", (1, 4, 4, 257, 257)),
                    Case(kernel, D, "bfloat16", masks[D][0], masks[D][1], masks[D][2])]
        out += [Case(kernel, D, "float16", "causal", (2, 8, 2, 300, 333)) for D in (64, 128, 256)]
        if kernel == "gluon_fa3":   # 24 heads x 8 tiles of 128 rows = 192 tiles on 132 SMs: the last waves split
            out += [Case(kernel, D, "bfloat16", "split", (1, 24, 24, 1024, 1031)) for D in (80, 96)]
    return [c for c in out if c.dtype in dtypes]


def inputs(case: Case):
    """(q, k, v, launch keywords, keep mask for the reference or None, causal for the reference)."""
    import torch

    from inductor_prof.attention.kernels import gluon_fa
    from inductor_prof.attention.kernels.key_intervals import KeyIntervals
    from inductor_prof.attention.kernels.mask_schedule import document_intervals, window

    B, Hq, Hkv, Sq, Sk = case.shape
    dtype = getattr(torch, case.dtype)
    g = torch.Generator(device=DEVICE).manual_seed(case.D * 1000 + Sq)
    q = torch.randn(B, Hq, Sq, case.D, device=DEVICE, dtype=dtype, generator=g)
    k, v = (torch.randn(B, Hkv, Sk, case.D, device=DEVICE, dtype=dtype, generator=g) for _ in "kv")
    i = torch.arange(Sq, device=DEVICE)[:, None]
    j = torch.arange(Sk, device=DEVICE)[None, :]
    kw: dict = {}
    keep, causal = None, case.what == "causal"
    if case.what == "causal":
        kw["causal"] = True
    elif case.what == "window":
        kw["band"] = window(case.mask[0])            # keys i - 49 .. i
        keep = ((j >= i - (case.mask[0] - 1)) & (j <= i))[None, None]
    elif case.what == "padding":
        kw.update(causal=True, key_ranges=list(case.mask))
        lo = torch.tensor([r[0] for r in case.mask], device=DEVICE)[:, None, None, None]
        hi = torch.tensor([r[1] for r in case.mask], device=DEVICE)[:, None, None, None]
        keep = (j >= lo) & (j < hi) & (j <= i)
    elif case.what == "documents":
        lo, hi = document_intervals(list(case.mask), True)
        rows = torch.tensor([list(zip(lo, hi))], dtype=torch.int32, device=DEVICE)
        kw["key_intervals"] = KeyIntervals(rows)
        keep = ((j >= rows[0, :, :1]) & (j < rows[0, :, 1:]))[None, None]
    elif case.what == "split":
        kw["config"] = replace(gluon_fa.default_config(case.D), split=True)
    return q, k, v, kw, keep, causal


def module_of(kernel: str):
    from inductor_prof.attention.kernels import gluon_fa, triton_fa

    return {"triton_fa2": triton_fa, "gluon_fa3": gluon_fa}[kernel]


def check(case: Case) -> tuple[bool, str]:
    """(ok, the figures): relative error of the output and the largest log-sum-exp error over the rows that keep
    a key, against float64; rows that keep none must be 0; the kernel's spilled bytes a thread."""
    import torch

    from inductor_prof.attention.benchmark.bench import LSE_TOLERANCE, TOLERANCE
    from inductor_prof.attention.kernels.reference import attention_float64
    from inductor_prof.attention.timing import kernel_spills

    q, k, v, kw, keep, causal = inputs(case)
    out, lse, kernel = module_of(case.kernel).launch(q, k, v, None, **kw)
    if DEVICE == "cuda":
        torch.cuda.synchronize()
    ref, ref_lse = attention_float64(q, k, v, None, causal=causal, mask=keep)
    live = torch.isfinite(ref_lse)
    rel = float((out.double()[live] - ref[live]).norm() / ref[live].norm())
    lse_err = float((lse.double()[live] - ref_lse[live]).abs().max())
    dead_zero = bool((out[~live] == 0).all())
    spills = kernel_spills(kernel)
    tol = TOLERANCE[case.dtype]
    ok = (rel <= tol and lse_err <= LSE_TOLERANCE and dead_zero and spills == 0
          and tuple(out.shape) == tuple(q.shape) and bool(torch.isfinite(out).all()))
    return ok, (f"rel_err {rel:.2e} (tol {tol:g}) lse_err {lse_err:.2e} (tol {LSE_TOLERANCE:g}) rows keeping no key "
                f"{int((~live).sum())} all 0: {dead_zero} spills {spills} B")


def compile_all(todo: list[Case]) -> float:
    """Every case's kernel compiled at once, a thread each (timing.compile_in_parallel); returns seconds."""
    from inductor_prof.attention.timing import compile_in_parallel, compile_workers

    def one(case: Case) -> None:
        q, k, v, kw, _, _ = inputs(case)
        module_of(case.kernel).launch(q, k, v, None, compile_only=True, **kw)
    t0 = time.perf_counter()
    compile_in_parallel(one, todo, compile_workers())
    return time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kernels", default="gluon_fa3,triton_fa2")
    ap.add_argument("--dtypes", default="bfloat16,float16")
    ap.add_argument("--device", default="cuda", help="cpu: a dry run under TRITON_INTERPRET=1")
    a = ap.parse_args()
    global DEVICE
    DEVICE = a.device
    todo = cases(a.kernels.split(","), a.dtypes.split(","))
    failed = 0
    for kernel in a.kernels.split(","):   # a kernel's cases compiled, then checked: the first one's lines come early
        mine = [c for c in todo if c.kernel == kernel]
        print(f"{kernel}: compiled {len(mine)} cases in {compile_all(mine):.1f} s", flush=True)
        for case in mine:
            try:
                ok, said = check(case)
            except Exception as e:  # noqa: BLE001  (a case that raises is a failed case, said on its line)
                ok, said = False, f"raised {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300]
            failed += not ok
            print(f"{case.label()}: {said} {'ok' if ok else 'FAILED'}", flush=True)
    print(f"head dims: {len(todo) - failed} of {len(todo)} cases ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
