#!/usr/bin/env bash
# Install the compilers and runtimes chanfuzz renders programs for, plus the
# system services later stages need.
#
#   Go       the machine's Go (/usr/local/go/bin/go, or `go` on PATH, or
#            $CHANFUZZ_GO); Debian's golang-go only when there is none.
#   Crystal  Debian's `crystal` package (1.6.0 on bookworm).
#   Racket   Debian's `racket` package (8.7 CS on bookworm; the only release here).
#   Kotlin   for every line of toolchains/kotlin/versions.txt (the default
#            set: kept small for CI; any other release installs on demand
#            with `manage.py toolchains install kotlin VERSION`): the Kotlin
#            compiler (kotlin-compiler-embeddable) and a kotlinx-coroutines
#            release, both resolved by Maven from Maven Central (done by
#            `python3 -m runners.engine.install defaults`), into
#            $CHANFUZZ_TOOLCHAINS_DIR/kotlin-<kotlin>-coroutines-<version>/
#              compiler/      the compiler's jars (its classpath)
#              lib/           a generated program's runtime classpath
#              kotlinc.jsa    class-data-sharing archive of the compiler
#              runtime.jsa    ... of a program run (with training.jar)
#              toolchain.json manifest, written last: its presence means done
#            Needs a JDK >= 17 and Maven (installed from Debian if missing).
#   Clojure  core.async 1.9.865 (newest) and 0.1.215.5-8022b8-alpha (oldest) with
#            the Clojure each POM names, resolved by Maven (the same `defaults`
#            run) into clojure-<clojure>-core.async-<version>/: one install
#            serves clojure-go and clojure-thread.
#   Services redis-server and bubblewrap from Debian.
#
# Idempotent and non-interactive: what is already there is only checked
# (no apt-get update, no Maven run), so a re-run takes about a second.
# Runs as root, or as a user with passwordless sudo for the apt steps.
set -euo pipefail

REPO_ROOT="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLCHAINS_DIR="${CHANFUZZ_TOOLCHAINS_DIR:-$REPO_ROOT/var/toolchains}"
export DEBIAN_FRONTEND=noninteractive

log() { printf '[install_toolchains] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

SUDO=()
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO=(sudo -n)
fi

pkg_installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

# Install the Debian packages among "$@" that are missing, in one apt run.
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
    # Lock timeout: other apt runs (unattended upgrades, a parallel install)
    # make apt-get fail at once otherwise.
    log "apt-get install ${missing[*]}"
    "${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=600 update -qq
    "${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

java_major() {  # $1 = java executable; prints e.g. 17
    "$1" -XshowSettings:properties -version 2>&1 \
        | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -n1
}

# --- What is needed from apt --------------------------------------------------
# eu-stack (elfutils) dumps the threads of a hung Rust program (its runtime prints nothing
# on SIGQUIT); c++filt (binutils) demangles their names.
APT_PACKAGES=(crystal racket redis-server bubblewrap elfutils binutils)
command -v python3 >/dev/null 2>&1 || APT_PACKAGES+=(python3)

GO_BIN=""
if [ -n "${CHANFUZZ_GO:-}" ]; then
    [ -x "$CHANFUZZ_GO" ] || die "CHANFUZZ_GO=$CHANFUZZ_GO is not an executable"
    GO_BIN="$CHANFUZZ_GO"
elif [ -x /usr/local/go/bin/go ]; then
    GO_BIN=/usr/local/go/bin/go
elif command -v go >/dev/null 2>&1; then
    GO_BIN="$(command -v go)"
else
    APT_PACKAGES+=(golang-go)
fi

JAVA_BIN=""
if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
    JAVA_BIN="$JAVA_HOME/bin/java"
elif command -v java >/dev/null 2>&1; then
    JAVA_BIN="$(command -v java)"
fi
JAVA_MAJOR=""
[ -n "$JAVA_BIN" ] && JAVA_MAJOR="$(java_major "$JAVA_BIN")"
if [ -z "$JAVA_MAJOR" ] || [ "$JAVA_MAJOR" -lt 17 ]; then
    APT_PACKAGES+=(openjdk-17-jdk-headless)
    JAVA_BIN=""  # found after the install below
fi
command -v mvn >/dev/null 2>&1 || APT_PACKAGES+=(maven)

apt_install "${APT_PACKAGES[@]}"

if [ -z "$GO_BIN" ]; then
    # Debian's /usr/bin/go is a symlink into /usr/lib/go-1.xx/bin: keep the real
    # path so GOROOT is derived from it.
    GO_BIN="$(readlink -f /usr/bin/go)"
fi
if [ -z "$JAVA_BIN" ]; then
    JAVA_BIN="$(find /usr/lib/jvm -maxdepth 3 -path '*java-17-openjdk-*/bin/java' | head -n1)"
    [ -n "$JAVA_BIN" ] || die "openjdk-17-jdk-headless installed but no java found under /usr/lib/jvm"
fi
JAVA_BIN="$(readlink -f "$JAVA_BIN")"

# --- Every target's default toolchains ----------------------------------------
# Kotlin: compiler + kotlinx-coroutines from Maven Central (toolchains/kotlin/versions.txt);
# Rust: channel-crate releases from crates.io, built with the machine's cargo
# (toolchains/rust/versions.txt). The install logic is each target's module under
# runners/targets/ (also behind `manage.py toolchains install TARGET VERSION`); it
# needs only Python's standard library, so it runs with the virtualenv's Python
# when there is one and the system's otherwise.
mkdir -p "$TOOLCHAINS_DIR"
PYTHON_BIN="$REPO_ROOT/.venv/bin/python"
[ -x "$PYTHON_BIN" ] || PYTHON_BIN="$(command -v python3)"
KOTLIN_INSTALLED=()
# Prints one toolchain directory a line; progress and errors go to stderr.
kotlin_out="$(cd "$REPO_ROOT" && CHANFUZZ_TOOLCHAINS_DIR="$TOOLCHAINS_DIR" JAVA_HOME="$(dirname "$(dirname "$JAVA_BIN")")" \
    PYTHONPATH="$REPO_ROOT${PYTHONPATH:+:$PYTHONPATH}" "$PYTHON_BIN" -m runners.engine.install defaults)" \
    || die "installing the default toolchains of toolchains/*/versions.txt failed (see above)"
while IFS= read -r dir; do
    [ -n "$dir" ] && KOTLIN_INSTALLED+=("$(basename "$dir")")
done <<<"$kotlin_out"

# --- Summary ------------------------------------------------------------------
first_line() { "$@" 2>&1 | head -n1; }
echo "chanfuzz toolchains:"
echo "  go        $GO_BIN: $(first_line "$GO_BIN" version)"
if [ -x /usr/lib/go/bin/go ] && [ "$(readlink -f /usr/lib/go/bin/go)" != "$(readlink -f "$GO_BIN")" ]; then
    echo "  go        /usr/lib/go/bin/go (Debian): $(first_line /usr/lib/go/bin/go version)"
fi
echo "  crystal   $(command -v crystal): $(first_line crystal --version)"
echo "  racket    $(command -v racket): $(first_line racket --version)"
echo "  java      $JAVA_BIN: $(first_line "$JAVA_BIN" -version)"
for java25 in "$TOOLCHAINS_DIR"/java-*/bin/java; do  # Kotlin's runs (runners/targets/run_java.py)
    if [ -x "$java25" ]; then
        echo "  java      $java25: $(first_line "$java25" -version) (runs Kotlin programs)"
    fi
done
echo "  maven     $(first_line mvn -B -v | sed 's/\x1b\[[0-9;]*m//g')"
for k in "${KOTLIN_INSTALLED[@]}"; do
    printf '  %-9s %s\n' "${k%%-*}" "$TOOLCHAINS_DIR/$k"
done
if command -v cargo >/dev/null 2>&1; then
    echo "  cargo     $(first_line cargo --version)"
fi
echo "  redis     $(first_line redis-server --version)"
echo "  bwrap     $(first_line bwrap --version)"
