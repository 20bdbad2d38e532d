#!/usr/bin/env bash
# Builds docker/Dockerfile where no image can be pulled, then runs `inductor-prof report
# examples/runs/flux-h100` and `inductor-prof doctor` inside it. The base is Debian bookworm made here with
# debootstrap (FROM scratch + its rootfs), the builder buildah (vfs storage, chroot isolation: no daemon);
# torch is the CPU build. Needs root and `apt-get install buildah debootstrap`. The Dockerfile's default base
# (NGC PyTorch, CUDA and ncu) needs a registry: see docker/README.md.
# Environment: WORK (rootfs and tar, default /tmp/inductor-prof-docker), MIRROR (Debian mirror, default the
# one apt uses here), CA (the CA bundle pip must trust, default /etc/ssl/certs/ca-certificates.crt), WHEELS
# (local wheels; a torch-*+cpu wheel there is used, else torch comes from PyTorch's CPU index).
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${WORK:-/tmp/inductor-prof-docker}
shopt -s nullglob
sources=(/etc/apt/sources.list.d/*.sources)
[ ${#sources[@]} -eq 0 ] || MIRROR=${MIRROR:-$(sed -n 's/^URIs: *\(.*\/debian\)\/*$/\1/p' "${sources[@]}" | head -1)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
CA=${CA:-/etc/ssl/certs/ca-certificates.crt}
WHEELS=${WHEELS:-/opt/wheels}
BASE=localhost/inductor-prof-debian-base
IMAGE=localhost/inductor-prof:cpu
bah=(buildah --storage-driver vfs)
mkdir -p "$WORK"

if ! "${bah[@]}" images --format '{{.Name}}' | grep -qx "$BASE"; then
  echo "== base: debootstrap bookworm from $MIRROR"
  [ -x "$WORK/rootfs/bin/bash" ] || debootstrap --variant=minbase bookworm "$WORK/rootfs" "$MIRROR"
  tar -C "$WORK/rootfs" -cf "$WORK/rootfs.tar" .
  printf 'FROM scratch\nADD rootfs.tar /\nCMD ["/bin/bash"]\n' > "$WORK/Containerfile"
  "${bah[@]}" bud --isolation chroot -f "$WORK/Containerfile" -t "$BASE" "$WORK"
fi

echo "== image: docker/Dockerfile on $BASE"
args=(--build-arg "BASE=$BASE")
if [ -f "$CA" ]; then
  args+=(--volume "$CA:/host-ca.crt:ro" --build-arg PIP_CERT=/host-ca.crt)
fi
wheels=("$WHEELS"/torch-*+cpu-*.whl)
if [ ${#wheels[@]} -gt 0 ]; then
  wheel=${wheels[-1]}   # exactly that wheel (its +cpu label matches nothing on an index); its dependencies from PyPI
  version=$(basename "$wheel" | cut -d- -f2)
  args+=(--volume "$WHEELS:/host-wheels:ro" --build-arg PIP_FIND_LINKS=/host-wheels --build-arg "TORCH=torch==$version")
else
  args+=(--build-arg TORCH_INDEX=https://download.pytorch.org/whl/cpu)
fi
"${bah[@]}" bud --isolation chroot "${args[@]}" -f docker/Dockerfile -t "$IMAGE" .

echo "== in the image"
ctr=$("${bah[@]}" from "$IMAGE")
trap '"${bah[@]}" rm "$ctr" >/dev/null' EXIT
in_image() { "${bah[@]}" run --isolation chroot --workingdir /work --volume "$PWD/examples:/work/examples:ro" \
               --env COLUMNS=120 "$ctr" -- "$@"; }
in_image inductor-prof --version
in_image inductor-prof report examples/runs/flux-h100 --top 5
set +e
in_image inductor-prof doctor
rc=$?
set -e
if [ "$rc" -ne 1 ]; then   # no GPU here: `profile --ncu` would fail, and doctor must say so with exit 1
  echo "doctor exited $rc; expected 1 (no GPU in this build)" >&2
  exit 1
fi
echo "== done: $IMAGE built; report ran; doctor exited 1 (no GPU here, as expected)"
