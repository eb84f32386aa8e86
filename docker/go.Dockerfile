# Runtime image for Go programs built by runners/engine/build.py (static binaries:
# CGO_ENABLED=0), run by runners/engine/sandbox/docker_backend.py.
#
# The program, its directory and the sandbox's PID-1 helper are bind-mounted
# read-only at run time, so the image holds no chanfuzz files: nothing here
# changes when a program or the helper does.
#
# BASE is a registry image in production; where no registry is reachable,
# scripts/install_sandbox.sh builds one with debootstrap and passes
#   --build-arg BASE=localhost/chanfuzz-bookworm
ARG BASE=debian:bookworm-slim
FROM ${BASE}

LABEL org.opencontainers.image.title="chanfuzz Go runtime" \
      chanfuzz.image="go"

# A static Go binary needs nothing from the image but a file system to start
# in; uid 65534 (nobody) is in Debian's /etc/passwd already.
USER 65534:65534
WORKDIR /tmp
