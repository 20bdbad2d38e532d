"""Kernel names: CUPTI (Proton) reports C++ kernels mangled, the torch profiler demangled."""
from __future__ import annotations

import ctypes
import ctypes.util
import functools


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
        ctypes.CDLL(None).free(ctypes.c_void_p(ptr))


def short_name(name: str, width: int = 60) -> str:
    """A demangled C++ name without its argument list and template arguments, for tables."""
    text = demangle(name)
    if text.startswith("void "):
        text = text[5:]
    depth, out = 0, []
    for ch in text:
        if ch in "<(":
            if depth == 0:
                out.append("<…>" if ch == "<" else "")
            depth += 1
        elif ch in ">)":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    text = "".join(out) or text
    return text if len(text) <= width else text[: width - 1] + "…"
