"""One package per external tool (proton, torch_profiler, ncu). In each, the modules that run the tool (with
side effects, on a GPU) are apart from those that parse what it wrote (pure, testable on recorded files)."""
