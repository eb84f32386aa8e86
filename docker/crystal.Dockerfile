# Runtime image for Crystal programs built by runners/engine/build.py with Debian's
# crystal 1.6 (dynamically linked), run by runners/engine/sandbox/docker_backend.py.
#
# Only the shared libraries a compiled Crystal program loads (no compiler):
# libgc (Boehm GC), libevent (the event loop behind fibers and channels) and
# libpcre (Regex, which parts of the standard library use). Check with
# `ldd program` when the Crystal version changes.
#
# BASE: see go.Dockerfile.
ARG BASE=debian:bookworm-slim
FROM ${BASE}

LABEL org.opencontainers.image.title="chanfuzz Crystal runtime" \
      chanfuzz.image="crystal"

RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        libgc1 libevent-2.1-7 libpcre3 \
 && rm -rf /var/lib/apt/lists/*

USER 65534:65534
WORKDIR /tmp
