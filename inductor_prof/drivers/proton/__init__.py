"""Proton: `session` runs it (side effects, needs a GPU), `hatchet` parses what it wrote (pure), `launches`
keeps a hatchet's kernel rows as a compact table beside it."""
from . import launches
from .hatchet import FLOP_METRICS, device_info, kernel_rows, load_hatchet, parse
from .session import BlockScopes, back_to_back_steps, discarded_session, phase_scope, session, size_scope, \
    timed_steps

__all__ = ["FLOP_METRICS", "device_info", "kernel_rows", "launches", "load_hatchet", "parse", "BlockScopes",
           "back_to_back_steps", "discarded_session", "phase_scope", "session", "size_scope", "timed_steps"]
