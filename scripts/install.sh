#!/usr/bin/env bash
# Installs this checkout (editable) with its extras into the active Python: `bash scripts/install.sh [EXTRAS]`,
# e.g. `flux,html` or `dev`. Without EXTRAS it is the light install (report, diff, inspect, trace, doctor: no
# torch, no triton, no ncu-report; `ncu` adds the .ncu-rep reader alone). When an extra pulls torch
# (torch_extras below; tests/test_light_install.py keeps the list true to pyproject.toml) on a machine without
# an NVIDIA driver (no nvidia-smi), torch comes first from PyTorch's CPU wheel index (INDUCTOR_PROF_TORCH_INDEX
# to use another): PyPI's torch for Linux is the CUDA build, several GB with its NVIDIA packages. A torch already
# installed is kept, and so is the choice of pip on a machine with a GPU. Any failure stops here with pip's own
# message.
set -euo pipefail
extras=${1:-}
torch_extras="gpu flux llama dev"
cd "$(dirname "$0")/.."
needs_torch=
for extra in ${extras//,/ }; do
  case " $torch_extras " in *" $extra "*) needs_torch=1;; esac
done
if [ -n "$needs_torch" ] && ! command -v nvidia-smi >/dev/null; then
  python3 -m pip install torch --index-url "${INDUCTOR_PROF_TORCH_INDEX:-https://download.pytorch.org/whl/cpu}"
fi
python3 -m pip install -e ".${extras:+[$extras]}"
