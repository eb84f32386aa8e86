# Runtime image for the Rust targets' programs (rust-crossbeam, rust-flume,
# rust-flume-async, rust-chan, rust-std), built by cargo on the host
# (runners/targets/rust_cargo.py) and run by runners/engine/sandbox/docker_backend.py.
# Every Rust target declares this one file; scripts/install_sandbox.sh tags an
# image per target from it (localhost/chanfuzz-rust-flume, ...).
#
# The program, its directory and the sandbox's PID-1 helper are bind-mounted
# read-only at run time, so the image holds no chanfuzz files.
#
# BASE is a registry image in production; where no registry is reachable,
# scripts/install_sandbox.sh builds one with debootstrap and passes
#   --build-arg BASE=localhost/chanfuzz-bookworm
ARG BASE=debian:bookworm-slim
FROM ${BASE}

LABEL org.opencontainers.image.title="chanfuzz Rust runtime" \
      chanfuzz.image="rust"

# A release build links glibc and libgcc_s dynamically, both in Debian's base
# (libgcc-s1 comes with apt's own dependencies); nothing else is needed.
USER 65534:65534
WORKDIR /tmp
