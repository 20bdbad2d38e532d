"""The helpers next to this file (recorded.py, cli_main.py, fakes.py, ...) are imported by name from every
test folder: this folder goes first on sys.path whatever pytest's import mode."""
import sys
from pathlib import Path

HERE = str(Path(__file__).parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
