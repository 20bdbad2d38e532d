#!/usr/bin/env bash
# Installs this checkout (editable) with its extras into the active Python: `bash scripts/install.sh flux,html|dev`.
# Without an NVIDIA driver (no nvidia-smi), torch comes first from PyTorch's CPU wheel index
# (INDUCTOR_PROF_TORCH_INDEX to use another): PyPI's torch for Linux is the CUDA build, several GB with its
# NVIDIA packages. A torch already installed is kept, and so is the choice of pip on a machine with a GPU.
# Any failure stops here with pip's own message.
set -euo pipefail
extra=${1:?usage: bash scripts/install.sh flux|dev}
cd "$(dirname "$0")/.."
if ! command -v nvidia-smi >/dev/null; then
  python3 -m pip install torch --index-url "${INDUCTOR_PROF_TORCH_INDEX:-https://download.pytorch.org/whl/cpu}"
fi
python3 -m pip install -e ".[$extra]"
