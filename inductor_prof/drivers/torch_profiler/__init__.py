"""torch.profiler: `record` runs it over one step (GPU), `trace` parses the Chrome trace it wrote (pure), `replays`
prices CUDA graph replays' library kernels from a step without graphs (pure)."""
from .record import PHASE_RANGE, phase_range, record
from .trace import attention_call, op_cost, parse_trace, parse_trace_launches

__all__ = ["PHASE_RANGE", "phase_range", "record", "attention_call", "op_cost", "parse_trace", "parse_trace_launches"]
