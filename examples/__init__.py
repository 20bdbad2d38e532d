"""Examples run from a checkout (`examples.models.llama_decoder:decoder`)."""
