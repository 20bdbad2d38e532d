"""torch.profiler: `record` runs it over one step (GPU), `trace` parses the Chrome trace it wrote (pure)."""
from .record import record
from .trace import attention_call, op_cost, parse_trace

__all__ = ["record", "attention_call", "op_cost", "parse_trace"]
