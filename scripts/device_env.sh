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
# What a user's pip install does once: byte-compile the libraries a profile imports (torch's ~9 s a process
# otherwise). Once per machine; its seconds are the install's, printed, not the first profile's.
if [ ! -e /tmp/pycache/.compiled ]; then
  _t=$(date +%s)
  _dirs=$(python3 - <<'PYEOF'
import importlib.util, os
for name in ("torch", "triton", "numpy", "pandas", "sympy", "networkx", "jinja2", "rich", "typer", "click",
             "safetensors", "huggingface_hub", "filelock", "fsspec", "diffusers", "pynvml", "hatchet", "inductor_prof"):
    spec = importlib.util.find_spec(name)
    if spec and spec.submodule_search_locations:
        print(list(spec.submodule_search_locations)[0])
    elif spec and spec.origin:
        print(spec.origin)
PYEOF
)
  python3 -m compileall -q -j 0 -x '/tests?/|/testing/_internal/' $_dirs >/dev/null 2>&1
  mkdir -p /tmp/pycache && touch /tmp/pycache/.compiled
  echo "device_env: byte-compiled $(echo $_dirs | wc -w) packages in $(( $(date +%s) - _t )) s"
  _t=$(date +%s)   # then install.sh's last step on a GPU machine: doctor
  python3 -m inductor_prof doctor > /tmp/pycache/doctor.txt 2>&1 || tail -n 20 /tmp/pycache/doctor.txt
  echo "device_env: doctor (install.sh's last step) in $(( $(date +%s) - _t )) s"
fi
