"""Which experiments `inductor-prof try` runs for a run's advice (pure): each experiment is one change to how the
model compiles (torch.compile's mode or Inductor options), the advice items it answers, and the exact change for
the user to apply.

- "launch overhead and idle" (category host): CUDA graphs, mode="reduce-overhead" (max-autotune where the run
  compiled with max-autotune-no-cudagraphs).
- Inductor's own kernels (categories "Inductor ..."): coordinate-descent tuning of their launch configs, and
  max-autotune (without graphs, so its gain is not the graphs').
- Library GEMMs (category GEMM): Inductor's GEMM templates (max_autotune_gemm: its Triton template against
  cuBLAS at each of the model's GEMM shapes).
- An attention item naming a faster backend ("use gluon_fa3 for (1,24,4608,128)"): the model's SDPA calls routed
  to that backend through a custom op (experiments/attention_override.py), the model not edited.
"""
from __future__ import annotations

import re

from dataclasses import asdict, dataclass, field
from typing import Any, Callable

HOST = "host"
GEMM = "GEMM"
GRAPH_MODES = ("reduce-overhead", "max-autotune")   # torch.compile's modes that replay CUDA graphs
INDUCTOR = "Inductor"   # the prefix of the categories of Inductor's own kernels ("Inductor pointwise", ...)


@dataclass(frozen=True)
class Experiment:
    name: str
    what: str                  # what is changed, in words
    mode: str | None = None    # torch.compile's mode; None: the run's own
    options: dict[str, Any] = field(default_factory=dict)   # torch.compile(options=...): Inductor config entries
    apply: str = ""            # the exact change for the user to apply
    profile_flag: str = ""     # the `profile` option that applies it, where there is one (then `diff` compares)
    answers: tuple[str, ...] = ()   # the `what` of the advice items it answers
    attention: str | None = None    # the attention backend the model's SDPA calls are routed to

    def record(self) -> dict[str, Any]:
        return asdict(self) | {"answers": list(self.answers)}


def uses_cuda_graphs(mode: str) -> bool:
    return mode in GRAPH_MODES


def _graphs(run_mode: str) -> Experiment:
    mode = "max-autotune" if run_mode.startswith("max-autotune") else "reduce-overhead"
    return Experiment("cuda_graphs", f"CUDA graphs: torch.compile mode={mode!r} (was {run_mode!r})", mode=mode,
                      apply=f'torch.compile(model, mode="{mode}")', profile_flag=f"--mode {mode}")


CATALOG: dict[str, Callable[[str], Experiment]] = {
    "cuda_graphs": _graphs,
    "coordinate_descent": lambda run_mode: Experiment(
        "coordinate_descent", "Inductor's coordinate-descent tuning of its kernels' launch configs",
        options={"coordinate_descent_tuning": True},
        apply='torch._inductor.config.coordinate_descent_tuning = True   # before torch.compile'),
    "max_autotune": lambda run_mode: Experiment(
        "max_autotune", "max-autotune without CUDA graphs: each kernel's configs and the GEMM templates benchmarked",
        mode="max-autotune-no-cudagraphs", apply='torch.compile(model, mode="max-autotune-no-cudagraphs")',
        profile_flag="--mode max-autotune-no-cudagraphs"),
    "gemm_templates": lambda run_mode: Experiment(
        "gemm_templates", "Inductor's GEMM templates (Triton) against cuBLAS at each GEMM shape (max_autotune_gemm)",
        options={"max_autotune_gemm": True},
        apply='torch._inductor.config.max_autotune_gemm = True   # before torch.compile'),
}
USE_BACKEND = re.compile(r"^use (\S+) (?:for|instead of) ")   # advice.py's attention items' `do`


def _attention(backend: str) -> Experiment:
    return Experiment("attention_backend", f"the model's scaled_dot_product_attention calls on {backend} (a custom "
                      "op; masked calls stay on SDPA)", attention=backend,
                      apply=f"route F.scaled_dot_product_attention to {backend} through a torch.library custom op, "
                            "as inductor_prof/experiments/attention_override.py does")


NAMES = (*CATALOG, "attention_backend")


def backend_of(item: dict[str, Any]) -> str | None:
    """The backend an attention item says to use, or None."""
    m = USE_BACKEND.match(str(item.get("do") or ""))
    return m.group(1) if m else None


def answers(name: str, items: list[dict[str, Any]]) -> list[str]:
    """The advice items (their `what`) experiment `name` answers."""
    def hit(i: dict[str, Any]) -> bool:
        cat = str(i.get("category") or "")
        if name == "cuda_graphs":
            return cat == HOST and i.get("what") == "launch overhead and idle"
        if name in ("coordinate_descent", "max_autotune"):
            return cat.startswith(INDUCTOR) or (name == "max_autotune" and cat == GEMM)
        if name == "gemm_templates":
            return cat == GEMM
        if name == "attention_backend":
            return backend_of(i) is not None
        return False
    return [i["what"] for i in items if hit(i)]


def plan(items: list[dict[str, Any]], run_mode: str, asked: list[str] | None = None, top: int = 5) -> list[Experiment]:
    """The experiments for the top `top` advice items, in the order of the first item each answers; `asked`: these
    experiments whatever the advice (each still says which items it answers). CUDA graphs are not tried for a run
    already compiled with them (reduce-overhead, max-autotune)."""
    every, items = items, items[:top]
    chosen = []
    for name in NAMES if asked is None else asked:
        if name == "cuda_graphs" and uses_cuda_graphs(run_mode):
            continue
        said = answers(name, items)
        if name == "attention_backend":   # the backend the first such item names; none named, nothing to try
            # asked for, the first item naming a backend below the top ones too
            said = (said or (answers(name, every) if asked is not None else []))[:1]
            backend = next((backend_of(i) for i in every if i["what"] in said), None)
            if backend is None:
                continue
            exp = _attention(backend)
        else:
            exp = CATALOG[name](run_mode)
        if asked is not None or said:
            first = min((k for k, i in enumerate(every) if i["what"] in said), default=len(every))
            chosen.append((first, Experiment(**{**asdict(exp), "answers": tuple(said)})))
    return [e for _, e in sorted(chosen, key=lambda fe: fe[0])]


def not_planned(asked: list[str] | None, planned: list[Experiment], run_mode: str) -> dict[str, str]:
    """The asked experiments `plan` left out, and why (said in experiments.json, not dropped silently)."""
    names = {e.name for e in planned}
    why = {"cuda_graphs": f"the run already compiles with CUDA graphs (mode {run_mode!r})",
           "attention_backend": "no advice item names a faster attention backend (the attention stage measured "
                                "none faster than the model's, or the run has no attention.csv)"}
    return {n: why.get(n, "not planned") for n in asked or [] if n not in names}


def applied_command(command: list[str], profile_flag: str, out: str) -> list[str] | None:
    """The run's own `profile` command line (manifest["command"]: the program, then its arguments) with the
    experiment's option in place of the run's and `out` as its folder, so the run with the change applied can be
    diffed against this one; None where the experiment has no `profile` option or the command is not a profile."""
    if not profile_flag or "profile" not in command:
        return None
    args = list(command[command.index("profile"):])
    flag, _, value = profile_flag.partition(" ")
    drop = {flag: 1, "--out": 1, "-o": 1, "--force": 0}
    kept, i = [], 0
    while i < len(args):
        a = args[i]
        name = a.split("=", 1)[0]
        if name in drop:
            i += 1 + (drop[name] if "=" not in a else 0)
            continue
        kept.append(a)
        i += 1
    return ["inductor-prof", *kept, flag, value, "--out", out]
