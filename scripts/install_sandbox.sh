#!/usr/bin/env bash
# Install what runners/sandbox needs, and print the DOCKER_HOST to use.
#
#   local backend   bubblewrap, and gcc + libc6-dev to build the sandbox's
#                   PID-1 helper (runners/engine/sandbox/init.c, static) and the local
#                   runs' launcher (launch.c, static) ahead of time.
#   docker backend  (skipped with CHANFUZZ_SANDBOX_DOCKER=0, and when not root)
#                   podman + Debian's runc, a podman API service that the
#                   docker SDK talks to, the docker SDK in .venv, and the
#                   runtime images localhost/chanfuzz-{go,crystal,kotlin}
#                   built from docker/*.Dockerfile.
#
# No image registry is needed: the base image is a Debian bookworm root file
# system made with `debootstrap --variant=minbase` from the apt mirror, cached
# as var/sandbox/bookworm-minbase.tar and imported as localhost/chanfuzz-bookworm.
# With a registry, CHANFUZZ_DOCKER_BASE=debian:bookworm-slim skips all that.
#
# Podman runs here only with runc (crun fails on this cgroup v1 host) and with
# explicit nofile/nproc ulimits; that configuration is written to
# var/sandbox/containers.conf and given to every podman we start through
# CONTAINERS_CONF -- /etc/containers is left alone.
#
# Idempotent and non-interactive; a second run only checks (about a second).
# Logs go to stderr; the one line on stdout is `DOCKER_HOST=unix://...` (empty
# when the docker backend was skipped), so CI can do
#   export "$(scripts/install_sandbox.sh)"
#
# Environment:
#   CHANFUZZ_SANDBOX_DOCKER=0     local backend only
#   CHANFUZZ_PODMAN_SOCKET        default /run/podman/podman.sock
#   CHANFUZZ_DOCKER_BASE          base image for the Dockerfiles (skips debootstrap)
#   CHANFUZZ_DEBIAN_MIRROR        default http://deb.debian.org/debian
#   CHANFUZZ_SANDBOX_IMAGES       targets to build images for, default every target of the
#                                 registry (runners/targets/) that declares a Dockerfile
#   PYTHON                        interpreter with the project installed (default .venv/bin/python)
set -euo pipefail

REPO_ROOT="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)"
VAR_DIR="${CHANFUZZ_VAR_DIR:-$REPO_ROOT/var}"
SANDBOX_DIR="$VAR_DIR/sandbox"
SOCKET="${CHANFUZZ_PODMAN_SOCKET:-/run/podman/podman.sock}"
MIRROR="${CHANFUZZ_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
BASE_IMAGE="localhost/chanfuzz-bookworm"
# The targets with an image, from the target registry (standard library only).
registry_images() {
    (cd "$REPO_ROOT" && python3 -c 'from runners.targets import all_targets
print(" ".join(t.name for t in all_targets() if t.dockerfile))')
}
IMAGES="${CHANFUZZ_SANDBOX_IMAGES:-$(registry_images)}"
WANT_DOCKER="${CHANFUZZ_SANDBOX_DOCKER:-1}"
export DEBIAN_FRONTEND=noninteractive

log() { printf '[install_sandbox] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

SUDO=()
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO=(sudo -n)
fi

pkg_installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

apt_install() {
    local missing=() p
    for p in "$@"; do
        pkg_installed "$p" || missing+=("$p")
    done
    [ "${#missing[@]}" -eq 0 ] && return 0
    command -v apt-get >/dev/null 2>&1 || die "no apt-get: install ${missing[*]} by hand"
    if [ "$(id -u)" -ne 0 ] && [ "${#SUDO[@]}" -eq 0 ]; then
        die "not root and no passwordless sudo: install ${missing[*]} by hand"
    fi
    log "apt-get install ${missing[*]}"
    "${SUDO[@]}" apt-get update -qq
    "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

PY="${PYTHON:-}"
if [ -z "$PY" ]; then
    if [ -x "$REPO_ROOT/.venv/bin/python" ]; then PY="$REPO_ROOT/.venv/bin/python"; else PY=python3; fi
fi

if [ "$WANT_DOCKER" != "0" ] && [ "$(id -u)" -ne 0 ]; then
    log "not root: skipping the docker backend (rootful podman); set CHANFUZZ_SANDBOX_DOCKER=0 to silence"
    WANT_DOCKER=0
fi

# --- packages -------------------------------------------------------------------
PACKAGES=(bubblewrap gcc libc6-dev)
if [ "$WANT_DOCKER" != "0" ]; then
    # runc named explicitly, or apt satisfies podman's "crun | runc" with crun.
    PACKAGES+=(podman runc debootstrap iptables)
fi
apt_install "${PACKAGES[@]}"

# --- the PID-1 helper (both backends) and the local runs' launcher ----------------
mkdir -p "$SANDBOX_DIR"
built="$(cd "$REPO_ROOT" && PYTHONPATH="$REPO_ROOT${PYTHONPATH:+:$PYTHONPATH}" "$PY" -m runners.engine.sandbox.helper)" \
    || die "building the sandbox helper and launcher failed"
while IFS= read -r path; do
    log "built: $path"
    # Those built from earlier versions of init.c or launch.c are no longer used.
    name="$(basename "$path")"
    find "$(dirname "$path")" -maxdepth 1 -name "${name%-*}-*" ! -name "$name" -delete
done <<<"$built"

if [ "$WANT_DOCKER" = "0" ]; then
    log "local backend ready (docker backend skipped)"
    echo "DOCKER_HOST="
    exit 0
fi

# --- the docker SDK ---------------------------------------------------------------
# Not `import docker`: run from the repository root, that finds the docker/
# directory of Dockerfiles as a namespace package.
if ! "$PY" -c 'from docker import DockerClient' 2>/dev/null; then
    log "pip install the docker SDK into $PY's environment"
    "$PY" -m pip install --quiet --disable-pip-version-check 'docker>=7.1,<8' \
        || die "pip install docker failed"
fi

# --- podman configuration -------------------------------------------------------------
CONF="$SANDBOX_DIR/containers.conf"
cat >"$CONF.new" <<'EOF'
# Written by scripts/install_sandbox.sh; used through CONTAINERS_CONF by the
# podman service it starts. Measured on Debian bookworm with cgroup v1:
# crun fails ("cgroups in hybrid mode not supported"), runc works; containers
# start only with nofile/nproc limits the host's hard limits allow.
[containers]
default_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]
log_driver = "k8s-file"

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
EOF
if cmp -s "$CONF.new" "$CONF"; then rm "$CONF.new"; else mv "$CONF.new" "$CONF"; log "wrote $CONF"; fi
export CONTAINERS_CONF="$CONF"

# --- base image -------------------------------------------------------------------------
if [ -n "${CHANFUZZ_DOCKER_BASE:-}" ]; then
    BASE_IMAGE="$CHANFUZZ_DOCKER_BASE"
    log "base image: $BASE_IMAGE (from CHANFUZZ_DOCKER_BASE)"
elif podman image exists "$BASE_IMAGE"; then
    log "base image: $BASE_IMAGE (present)"
else
    TARBALL="$SANDBOX_DIR/bookworm-minbase.tar"
    if [ ! -f "$TARBALL" ]; then
        ROOTFS="$SANDBOX_DIR/rootfs.tmp"
        rm -rf "$ROOTFS"
        log "debootstrap --variant=minbase bookworm from $MIRROR (about 30-45 s)"
        debootstrap --variant=minbase bookworm "$ROOTFS" "$MIRROR" >"$SANDBOX_DIR/debootstrap.log" 2>&1 \
            || die "debootstrap failed: see $SANDBOX_DIR/debootstrap.log"
        # The downloaded .debs are installed already: not needed in the image.
        rm -rf "$ROOTFS/var/cache/apt/archives/"*.deb
        tar -C "$ROOTFS" --numeric-owner -cf "$TARBALL.tmp" .
        mv "$TARBALL.tmp" "$TARBALL"
        rm -rf "$ROOTFS"
    fi
    log "podman import $TARBALL as $BASE_IMAGE"
    podman import --quiet "$TARBALL" "$BASE_IMAGE" >/dev/null
fi

# --- runtime images -------------------------------------------------------------------
for language in $IMAGES; do
    dockerfile="$REPO_ROOT/$(cd "$REPO_ROOT" && python3 -c "from runners.targets import get_target
print(get_target('$language').dockerfile)")"
    [ -f "$dockerfile" ] || die "no $dockerfile"
    image="localhost/chanfuzz-$language"
    # Rebuild when the Dockerfile or the base changed: both are in the label.
    want="$( (sha256sum <"$dockerfile"; podman image inspect --format '{{.Id}}' "$BASE_IMAGE" 2>/dev/null || echo "$BASE_IMAGE") \
        | sha256sum | cut -d' ' -f1)"
    have="$(podman image inspect --format '{{index .Labels "chanfuzz.build"}}' "$image" 2>/dev/null || true)"
    if [ "$have" = "$want" ]; then
        log "image $image is up to date"
        continue
    fi
    log "podman build $image"
    # --network host: RUN apt-get reaches the mirror without a CNI bridge.
    podman build --quiet --network host --build-arg "BASE=$BASE_IMAGE" --label "chanfuzz.build=$want" \
        -t "$image" -f "$dockerfile" "$REPO_ROOT/docker" >"$SANDBOX_DIR/build-$language.log" 2>&1 \
        || die "podman build $image failed: see $SANDBOX_DIR/build-$language.log"
done

# --- the API service ----------------------------------------------------------------------
ping_engine() {
    "$PY" - "$SOCKET" <<'EOF' 2>/dev/null
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(3)
s.connect(sys.argv[1])
s.sendall(b"GET /_ping HTTP/1.0\r\nHost: d\r\n\r\n")
reply = b""
while chunk := s.recv(4096):
    reply += chunk
sys.exit(0 if reply.startswith(b"HTTP/1.") and reply.rstrip().endswith(b"OK") else 1)
EOF
}

# The pid of a podman service at $SOCKET that a checkout now gone started: its working
# directory (or its CONTAINERS_CONF) was deleted. It still answers pings, but every
# container it starts fails ("write child: broken pipe", rlimits refused).
stale_service() {
    local pid conf
    for pid in $(pgrep -f "podman system service .*unix://$SOCKET" || true); do
        conf="$(tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | sed -n 's/^CONTAINERS_CONF=//p')"
        if [[ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" == *" (deleted)" ]] \
            || [[ -n "$conf" && ! -f "$conf" ]]; then
            echo "$pid"
            return 0
        fi
    done
    return 1
}

if stale="$(stale_service)"; then
    log "the podman service at $SOCKET (pid $stale) was started by a checkout that is gone: restarting it"
    kill "$stale" 2>/dev/null || true
    for _ in $(seq 100); do
        kill -0 "$stale" 2>/dev/null || break
        sleep 0.1
    done
    kill -9 "$stale" 2>/dev/null || true
fi

if ping_engine; then
    log "podman service answers at $SOCKET"
else
    mkdir -p "$(dirname "$SOCKET")"
    rm -f "$SOCKET"
    log "starting podman system service at $SOCKET (log: $SANDBOX_DIR/podman-service.log)"
    # From its own directory: conmon drops files such as "oom" (a container was
    # OOM-killed) into the service's working directory, which must not be the repo.
    (cd "$SANDBOX_DIR" && exec setsid nohup podman system service --time=0 "unix://$SOCKET" \
        >"$SANDBOX_DIR/podman-service.log" 2>&1 </dev/null) &
    echo $! >"$SANDBOX_DIR/podman-service.pid"
    for _ in $(seq 100); do
        ping_engine && break
        sleep 0.1
    done
    ping_engine || die "the podman service did not come up: see $SANDBOX_DIR/podman-service.log"
fi

echo "DOCKER_HOST=unix://$SOCKET"
