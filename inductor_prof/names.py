"""Kernel names: CUPTI (Proton) reports C++ kernels mangled, the torch profiler demangled."""
from __future__ import annotations

import ctypes
import ctypes.util
import functools
import re


@functools.lru_cache(maxsize=1)
def _cxa_demangle():
    for lib in ("libstdc++.so.6", ctypes.util.find_library("stdc++"), ctypes.util.find_library("c++")):
        if not lib:
            continue
        try:
            fn = ctypes.CDLL(lib).__cxa_demangle
        except (OSError, AttributeError):
            continue
        fn.restype = ctypes.c_void_p
        fn.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_size_t),
                       ctypes.POINTER(ctypes.c_int)]
        return fn
    return None


@functools.lru_cache(maxsize=4096)
def demangle(name: str) -> str:
    """Itanium C++ demangling through the C++ runtime; the name unchanged where it is not mangled."""
    if not name.startswith("_Z"):
        return name
    fn = _cxa_demangle()
    if fn is None:
        return name
    status = ctypes.c_int(0)
    ptr = fn(name.encode(), None, None, ctypes.byref(status))
    if status.value != 0 or not ptr:
        return name
    try:
        return ctypes.string_at(ptr).decode(errors="replace")
    finally:
        _free()(ctypes.c_void_p(ptr))


@functools.lru_cache(maxsize=1)
def _free():
    """libc's free, found once (a CDLL made per name cost more than the demangling)."""
    return ctypes.CDLL(None).free


_LENGTH = re.compile(r"\d+")


def _mangled_idents(name: str) -> list[tuple[str, int, int]]:
    """The <length><identifier> pieces of an Itanium mangled name, (identifier, start, end), skipping the
    substitutions (S_, S5_, T_) and literals (Li4E) whose digits are no lengths."""
    out, i = [], 2
    while i < len(name):
        c = name[i]
        if c in "ST" and i + 1 < len(name) and (name[i + 1].isdigit() or name[i + 1] == "_"):
            i = name.find("_", i + 1) + 1 or len(name)
        elif c == "L":
            i = name.find("E", i + 1) + 1 or len(name)
        elif c.isdigit():
            m = _LENGTH.match(name, i)
            assert m is not None   # c is a digit
            n = int(m.group())
            out.append((name[m.end():m.end() + n], i, m.end() + n))
            i = m.end() + n
        else:
            i += 1
    return out


def _words_of_mangled(name: str) -> str:
    """A mangled name that cannot be demangled, in short: its nested name (`cutlass::device_kernel`) and the
    first three CamelCase names of its template arguments (`GemmUniversal`...)."""
    idents = _mangled_idents(name)
    if not idents:
        return name[:64]
    head = [idents[0]]
    for piece in idents[1:]:   # the nested name: pieces one right after the other (template arguments follow)
        if piece[1] != head[-1][2]:
            break
        head.append(piece)
    words = [w for w, _, _ in idents[len(head):] if w[:1].isupper() and any(c.islower() for c in w)]
    text = "::".join(w for w, _, _ in head)
    return f"{text}<{','.join(list(dict.fromkeys(words))[:3])}>" if words else text


def short_name(name: str) -> str:
    """A demangled C++ kernel name for tables: the function's name (without PyTorch's `at::native::`) and the
    identifying words of its template arguments, e.g. `vectorized_elementwise_kernel<cos,double>` for
    `void at::native::vectorized_elementwise_kernel<2, at::native::cos_kernel_cuda(...)::{lambda(double)#1},
    std::array<char*, 2ul> >(...)`. The full name stays in the JSON and CSV."""
    text = demangle(name).replace("(anonymous namespace)::", "")
    if text.startswith("_Z"):   # cut short by the profiler (CUPTI keeps ~1,000 characters): not demangled
        return _words_of_mangled(text)
    if text.startswith("void "):
        text = text[5:]
    head, args = _split(text)
    for ns in _PYTORCH_NS:
        if head.startswith(ns):
            head = head[len(ns):]
            break
    words = _words(args)
    return f"{head}<{','.join(words)}>" if words else head


def distinct(labels: list[str]) -> list[str]:
    """`labels` with each repeat numbered (` #2`, ` #3`, ... in list order), so that no two are equal."""
    count: dict[str, int] = {}
    taken = set(labels)
    out = []
    for label in labels:
        n = count[label] = count.get(label, 0) + 1
        if n > 1:
            while f"{label} #{n}" in taken:
                n += 1
            count[label] = n
            label = f"{label} #{n}"
            taken.add(label)
        out.append(label)
    return out


_PYTORCH_NS = ("at::native::", "at::")
# Words of a template argument list that say nothing about which kernel this is: C++ keywords and builtin
# types used for indices, PyTorch's launch wrappers and plumbing types.
_NOISE = {"lambda", "operator", "const", "unsigned", "signed", "int", "char", "bool", "true", "false", "void",
          "array", "anonymous", "namespace", "gpu_kernel_impl", "gpu_kernel_impl_nocast", "OffsetCalculator",
          "TrivialOffsetCalculator"}
_TOKEN = re.compile(r"\d\w*|[A-Za-z_]\w*|::|\S")   # no whitespace: a token after a space is as after none
_SUFFIXES = ("_kernel_cuda", "_kernel")   # cos_kernel_cuda -> cos


def _words(args: str) -> list[str]:
    """The identifying words of a template argument list: type and function names, and the types a lambda
    takes (its element type), without namespaces, function parameter lists or numbers."""
    tokens = _TOKEN.findall(args)
    words, parens = [], []          # parens: for each open "(", whether it is a lambda's parameter list
    for i, tok in enumerate(tokens):
        if tok == "(":
            parens.append(i > 0 and tokens[i - 1] == "lambda")
        elif tok == ")":
            if parens:
                parens.pop()
        elif (tok[0].isalpha() or tok[0] == "_") and (not parens or parens[-1]):
            if tokens[i + 1:i + 2] == ["::"] or tok in _NOISE:
                continue            # a namespace or enclosing class, or noise
            for suffix in _SUFFIXES:
                if tok.endswith(suffix) and len(tok) > len(suffix):
                    tok = tok[: -len(suffix)]
                    break
            if tok not in words:
                words.append(tok)
    return words


_BRACKET = re.compile(r"[<>(]")


def _split(text: str) -> tuple[str, str]:
    """(the qualified name, its outermost template argument list) of a demangled function signature."""
    depth, start = 0, None
    for m in _BRACKET.finditer(text):   # the brackets alone: a character loop cost most of short_name
        ch, i = m.group(), m.start()
        if ch == "<":
            if depth == 0 and start is None:
                start = i
            depth += 1
        elif ch == ">":
            depth -= 1
            if depth == 0 and start is not None:
                return text[:start], text[start + 1:i]
        elif depth == 0:
            return text[:i], ""
    return text, ""
