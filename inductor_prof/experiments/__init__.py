"""`inductor-prof try`: the run's advice tried, each experiment in a process of its own (worker.py, started by
launch.py), its results written under RUN/experiments/ only (run.py)."""
