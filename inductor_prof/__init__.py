"""inductor-prof: which kernels did Inductor write for my model, how fast are they, how far from the limit.

Public API: `profile(...)` runs the pipeline into a run folder; `load_report(path)` reads one back as
DataFrames. Importing this package changes no global state (no torch / Inductor config is touched).
"""
__version__ = "0.1.0"


def profile(*args, **kwargs):
    from .pipeline import profile as _profile

    return _profile(*args, **kwargs)


def load_report(path):
    from .analysis import load_run_tables

    return load_run_tables(path)


__all__ = ["profile", "load_report", "__version__"]
