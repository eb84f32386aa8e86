# Runtime image for Kotlin programs built by runners/engine/build.py, run by
# runners/engine/sandbox/docker_backend.py as `java -cp classes:<runtime jars> MainKt`.
#
# Only a headless JRE 17 (what the programs are compiled for). The Kotlin
# standard library and the kotlinx-coroutines version under test are not in
# the image: they come from the toolchain's lib/ directory, bind-mounted
# read-only per run, so one image serves every coroutines version.
#
# Inside a container the JVM sizes its heap from the container's memory limit
# (a quarter of it by default); no -Xmx is needed here, unlike the local
# backend where only RLIMIT_DATA applies.
#
# BASE: see go.Dockerfile.
ARG BASE=debian:bookworm-slim
FROM ${BASE}

LABEL org.opencontainers.image.title="chanfuzz Kotlin/JVM runtime" \
      chanfuzz.image="kotlin"

# ca-certificates-java's postinst (pulled in by the JRE) wants this directory
# on slim images.
RUN mkdir -p /usr/share/man/man1 \
 && apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        openjdk-17-jre-headless \
 && rm -rf /var/lib/apt/lists/*

USER 65534:65534
WORKDIR /tmp
