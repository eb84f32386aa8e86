# The chanfuzz application image: the web app (gunicorn) and the RQ workers of compose.yaml.
#
#   docker compose build            (compose.yaml builds it as localhost/chanfuzz-app)
#
# One image for both: the web app also needs the toolchains, since a campaign's form checks
# that the releases it names are installed. Toolchains (scripts/install_toolchains.sh: Go,
# Crystal, Racket, Kotlin and Clojure core.async from Maven Central, the Rust crates' default
# releases) and the local sandbox (bubblewrap and its PID-1 helper, scripts/install_sandbox.sh
# with CHANFUZZ_SANDBOX_DOCKER=0) are installed at build time; INSTALL_TOOLCHAINS=0 leaves
# the toolchains out (a web-only image, minutes instead of a long first build).
#
# BASE must be a Debian bookworm (the scripts use apt): Python's official image by default;
# a bare one (scripts/install_sandbox.sh's debootstrapped localhost/chanfuzz-bookworm, where no
# registry is reachable) gets Debian's Python 3.11.
ARG BASE=python:3.11-slim-bookworm
FROM ${BASE}

ARG INSTALL_TOOLCHAINS=1
ENV PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DEBIAN_FRONTEND=noninteractive \
    CHANFUZZ_VAR_DIR=/srv/chanfuzz/var \
    CHANFUZZ_TOOLCHAINS_DIR=/srv/chanfuzz/toolchains \
    CHANFUZZ_CACHE_DIR=/srv/chanfuzz/var/cache

# The project's Python in a virtualenv; a bare Debian base gets Debian's Python 3.11 first.
RUN if ! python3 -c 'import ensurepip' 2>/dev/null; then \
        apt-get update -qq && apt-get install -y -qq --no-install-recommends \
            python3 python3-venv ca-certificates >/dev/null; \
    fi \
    && python3 -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH

WORKDIR /app
# Dependencies first, so that a change to the code does not reinstall them.
COPY pyproject.toml README.md ./
RUN mkdir -p generator runners chanfuzz_site \
    && touch generator/__init__.py runners/__init__.py chanfuzz_site/__init__.py \
    && pip install -e . \
    && rm -rf generator runners chanfuzz_site
COPY . .
# Editable again now that the code is here (templates and static files are read from /app).
RUN pip install --no-deps -e . \
    && if [ "$INSTALL_TOOLCHAINS" = 1 ]; then bash scripts/install_toolchains.sh; fi \
    && CHANFUZZ_SANDBOX_DOCKER=0 PYTHON=python3 bash scripts/install_sandbox.sh >/dev/null \
    && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /srv/chanfuzz/var

EXPOSE 8000
# compose.yaml gives each service its command; this one is the web app.
CMD ["gunicorn", "chanfuzz_site.wsgi:application", "--bind", "0.0.0.0:8000", \
     "--access-logfile", "-", "--timeout", "120"]
