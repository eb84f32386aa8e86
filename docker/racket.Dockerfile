# Runtime image for Racket programs built by runners/engine/build.py with Debian's
# racket 8.7 (Racket CS), run by runners/engine/sandbox/docker_backend.py.
#
# A build's product is a compiled module (compiled/main_rkt.zo), run with
# `racket main.rkt N`: the image needs the racket executable, its boot files and
# the compiled collections racket/base loads, i.e. Debian's racket package (which
# brings racket-common, the collections, and /etc/racket/config.rktd, where the
# compiled collections are found). No documentation, no DrRacket.
#
# BASE: see go.Dockerfile.
ARG BASE=debian:bookworm-slim
FROM ${BASE}

LABEL org.opencontainers.image.title="chanfuzz Racket runtime" \
      chanfuzz.image="racket"

RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends racket \
 && rm -rf /var/lib/apt/lists/*

USER 65534:65534
WORKDIR /tmp
