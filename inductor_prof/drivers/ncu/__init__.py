"""Nsight Compute: where it is (locate), its command line (command), the program it profiles (replay), the
metrics asked for (metrics), reading its reports (report), and the stage over a run's kernels (stage)."""
