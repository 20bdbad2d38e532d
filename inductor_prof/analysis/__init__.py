"""From a run folder to the report's tables: `load` reads the files; `kernels`, `roofline`, `ncu_compare` and
`summary` are pure (DataFrames in, DataFrames out)."""
from .kernels import CATEGORIES, classify, kernel_table
from .load import RunTables, load_run_tables
from .ncu_compare import ANNOTATION_TOLERANCE, merge_ncu
from .roofline import add_derived
from .summary import summarize

__all__ = ["CATEGORIES", "classify", "kernel_table", "RunTables", "load_run_tables", "ANNOTATION_TOLERANCE",
           "merge_ncu", "add_derived", "summarize"]
