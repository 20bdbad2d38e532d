"""Drivers run an external profiler and parse what it wrote: run(...) has side effects, parse(...) is pure."""
