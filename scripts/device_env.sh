# Sourced at the start of a device command: installs carried wheels (diffusers) and puts the repo on the path.
set -e
if ls .whl/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
  export PYTHONPATH=/tmp/site:$PWD
else
  export PYTHONPATH=$PWD
fi
export PYTHONUNBUFFERED=1
set +e
# The device image sets PYTHONDONTWRITEBYTECODE and ships no .pyc: every Python process (the profile's children
# too) would compile torch's modules again, ~9 s each, which a user's pip install spares. Bytecode goes to /tmp.
unset PYTHONDONTWRITEBYTECODE
export PYTHONPYCACHEPREFIX=/tmp/pycache
