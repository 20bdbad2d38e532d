"""Module paths and model source lines of FX nodes (pure: strings in, strings out).

Dynamo names a node's modules relative to the compiled module (`L['self'].norm1.linear`); under regional
compile that is one block, and the one graph serves every block of its class, so its paths get the block's
path pattern in front (`transformer_blocks.*`). A kernel fuses nodes of several modules: `common_pattern` says
where they all live (`layers.*.mlp.*`).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable

_ROOT = re.compile(r"^L\['[^']*'\]\.?")
_INDEX = re.compile(r"\[(\d+)\]")
_MODULES = re.compile(r"_modules\['([^']*)'\]")
_FRAME = re.compile(r'File "([^"]+)", line (\d+), in ([^\n]+)\n(?: {4}([^\n]*))?')
# torch's own files (functional.py, _contextlib.py) are not the model's code
_TORCH_FILE = re.compile(r"[/\\](?:site|dist)-packages[/\\]torch[/\\]")


def relative_path(dynamo_path: str) -> str:
    """`L['self'].layers[0]._modules['mlp']` -> `layers.0.mlp` (the compiled module itself: "")."""
    path = _MODULES.sub(r"\1", _INDEX.sub(r".\1", _ROOT.sub("", dynamo_path)))
    return path.strip(".").replace("..", ".")


def innermost_module(nn_module_stack: dict | None) -> str | None:
    """The node's own module (the stack's last entry, outermost first), relative; None when the node was
    traced in the compiled module's own forward."""
    if not nn_module_stack:
        return None
    entry = list(nn_module_stack.values())[-1]
    return relative_path(str(entry[0]))


def join(prefix: str, path: str) -> str:
    return ".".join(p for p in (prefix, path) if p)


def block_pattern(paths: Iterable[str]) -> str:
    """The path pattern of blocks of one class: `transformer_blocks.0`, `.1` -> `transformer_blocks.*`."""
    return common_pattern([re.sub(r"(^|\.)\d+(?=\.|$)", r"\1*", p) for p in paths]) or ""


def common_pattern(paths: Iterable[str]) -> str | None:
    """Where all `paths` live. Segments compared left to right: equal ones kept, differing list indices (and
    `*`) become `*`; at the first other difference the pattern stops, with `.*` when every path goes on
    (`attn.norm_q`, `attn.norm_k` -> `attn.*`; `norm1`, `norm1.linear` -> `norm1`). None for no paths."""
    split = [p.split(".") if p else [] for p in dict.fromkeys(paths)]
    if not split:
        return None
    out: list[str] = []
    for i in range(min(len(s) for s in split)):
        column = {s[i] for s in split}
        if len(column) == 1:
            out.append(column.pop())
        elif all(c.isdigit() or c == "*" for c in column):
            out.append("*")
        else:
            out.append("*")
            break
    return ".".join(out)


def short_pattern(pattern: str | None, block: str | None = None) -> str:
    """For a narrow column: a regional block's prefix shown as `*`
    (`transformer_blocks.*.attn.norm_q` with block `transformer_blocks.*` -> `*.attn.norm_q`)."""
    if not pattern:
        return "*" if block and pattern == "" else ""
    if block and (pattern == block or pattern.startswith(block + ".")):
        return "*" + pattern[len(block):]
    return pattern


def block_of(path: str, blocks: Iterable[str]) -> str | None:
    """The block pattern (of `blocks`, the longest first) that `path` lies in, or None."""
    return next((b for b in blocks if path == b or path.startswith(b + ".")), None)


def listed(paths: Iterable[str]) -> str:
    """Sibling modules in short: the first in full, the others from where they part from it (`*.attn.to_q`,
    `*.attn.to_k` -> `*.attn.to_q, to_k`; a parent and its child both in full); spaces between, so a narrow
    column wraps between modules, never inside one."""
    paths = list(dict.fromkeys(paths))
    if not paths:
        return ""
    first = paths[0].split(".")
    out = [paths[0]]
    for p in paths[1:]:
        parts = p.split(".")
        # the first segment where they differ; none (one the other's parent): the path in full
        at = next((i for i, (a, b) in enumerate(zip(first, parts)) if a != b), 0)
        out.append(".".join(parts[at:]))
    return ", ".join(out)


def folded(paths: Iterable[str], shorten: Callable[[str], str] = lambda p: p) -> str:
    """Module paths in short, repeats folded: paths that differ only in list indices shown once, the indices
    as `*`, with how many paths they stand for (`a.0.attn1.to_q`, `a.1.attn1.to_q`, `a.0.attn1.to_k`,
    `a.1.attn1.to_k` -> `a.*.attn1.to_q, to_k ×2`: one count after the list when every group has it, else after
    each); a path alone keeps its indices. `shorten`: applied to each shown path (a block's prefix as `*`)."""
    groups: dict[str, list[str]] = {}
    for p in dict.fromkeys(paths):
        groups.setdefault(".".join("*" if part.isdigit() else part for part in p.split(".")), []).append(p)
    if not groups:
        return ""
    shown = [shorten(pattern if len(members) > 1 else members[0]) or pattern for pattern, members in groups.items()]
    counts = [len(members) for members in groups.values()]
    if len(set(counts)) == 1:
        return listed(shown) + (f" ×{counts[0]}" if counts[0] > 1 else "")
    return ", ".join(p + (f" ×{n}" if n > 1 else "") for p, n in zip(listed(shown).split(", "), counts))


def frames(stack_trace: str | None) -> list[dict]:
    """The frames of a node's stack_trace, outermost first: file, line, function, code."""
    return [{"file": m.group(1), "line": int(m.group(2)), "function": m.group(3).strip(),
             "code": (m.group(4) or "").strip()} for m in _FRAME.finditer(stack_trace or "")]


def model_frame(stack_trace: str | None) -> dict | None:
    """The innermost frame in the model's code (torch's own files skipped)."""
    return next((f for f in reversed(frames(stack_trace)) if not _TORCH_FILE.search(f["file"])), None)


def short_files(files: Iterable[str]) -> dict[str, str]:
    """Each file by its shortest trailing path that no other of `files` ends with."""
    unique = list(dict.fromkeys(files))
    parts = {f: f.replace("\\", "/").split("/") for f in unique}
    out = {}
    for f in unique:
        for n in range(1, len(parts[f]) + 1):
            tail = parts[f][-n:]
            if all(o == f or parts[o][-n:] != tail for o in unique):
                break
        out[f] = "/".join(tail)
    return out
