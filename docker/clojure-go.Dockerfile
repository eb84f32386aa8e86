# Runtime image for clojure-go programs built by runners/engine/build.py (AOT-compiled
# classes), run by runners/engine/sandbox/docker_backend.py as
# `java -cp aot.jar:<core.async and Clojure jars>:training.jar:classes chanfuzz.main N`.
#
# Only a headless JRE 17. Clojure, core.async (the release under test) and their AOT
# classes are not in the image: they come from the toolchain's directory, bind-mounted
# read-only per run, so one image serves every release. clojure-go and clojure-thread
# differ only in the programs they run.
#
# BASE: see go.Dockerfile.
ARG BASE=debian:bookworm-slim
FROM ${BASE}

LABEL org.opencontainers.image.title="chanfuzz Clojure core.async (go) runtime" \
      chanfuzz.image="clojure-go"

# ca-certificates-java's postinst (pulled in by the JRE) wants this directory
# on slim images.
RUN mkdir -p /usr/share/man/man1 \
 && apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        openjdk-17-jre-headless \
 && rm -rf /var/lib/apt/lists/*

USER 65534:65534
WORKDIR /tmp
