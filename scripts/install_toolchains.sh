#!/usr/bin/env bash
# Install the compilers and runtimes chanfuzz renders programs for, plus the
# system services later stages need.
#
#   Go       the machine's Go (/usr/local/go/bin/go, or `go` on PATH, or
#            $CHANFUZZ_GO); Debian's golang-go only when there is none.
#   Crystal  Debian's `crystal` package (1.6.0 on bookworm).
#   Kotlin   for every line of toolchains/kotlin/versions.txt: the Kotlin
#            compiler (kotlin-compiler-embeddable) and a kotlinx-coroutines
#            release, both resolved by Maven from Maven Central, into
#            $CHANFUZZ_TOOLCHAINS_DIR/kotlin-<kotlin>-coroutines-<version>/
#              compiler/      the compiler's jars (its classpath)
#              lib/           a generated program's runtime classpath
#              kotlinc.jsa    class-data-sharing archive of the compiler
#              runtime.jsa    ... of a program run (with training.jar)
#              toolchain.json manifest, written last: its presence means done
#            Needs a JDK >= 17 and Maven (installed from Debian if missing).
#   Services redis-server and bubblewrap from Debian.
#
# Idempotent and non-interactive: what is already there is only checked
# (no apt-get update, no Maven run), so a re-run takes about a second.
# Runs as root, or as a user with passwordless sudo for the apt steps.
set -euo pipefail

REPO_ROOT="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLCHAINS_DIR="${CHANFUZZ_TOOLCHAINS_DIR:-$REPO_ROOT/var/toolchains}"
KOTLIN_DIR="$REPO_ROOT/toolchains/kotlin"
export DEBIAN_FRONTEND=noninteractive

# Keep in step with runners/build.py (_KOTLINC_JVM_FLAGS): the archive is
# dumped by a compile with the same flags it is later used with.
KOTLINC_JVM_FLAGS=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xss16m)

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
APT_PACKAGES=(crystal redis-server bubblewrap)

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

# --- Kotlin: compiler + kotlinx-coroutines from Maven Central ----------------
mkdir -p "$TOOLCHAINS_DIR"
KOTLIN_INSTALLED=()

# Bump when the layout of a Kotlin toolchain directory changes: older ones are
# then installed again (from ~/.m2, so without downloads).
KOTLIN_LAYOUT=2

install_kotlin() {  # $1 kotlin version, $2 coroutines version, $3 artifact id
    local kv="$1" cv="$2" artifact="$3"
    local name="kotlin-$kv-coroutines-$cv"
    local dest="$TOOLCHAINS_DIR/$name"
    if [ -f "$dest/toolchain.json" ] && grep -q "\"layout\": $KOTLIN_LAYOUT," "$dest/toolchain.json"; then
        KOTLIN_INSTALLED+=("$name (already there)")
        return 0
    fi
    log "installing $name with Maven"
    rm -rf "$dest"
    local tmp
    tmp="$(mktemp -d "$TOOLCHAINS_DIR/.$name.XXXXXX")"
    # -B -ntp: no colours, no download progress; dependency:copy-dependencies
    # copies the artifact and its whole runtime dependency tree into one dir.
    mvn -B -ntp -q -Dstyle.color=never -f "$KOTLIN_DIR/compiler/pom.xml" \
        -Dkotlin.version="$kv" \
        dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$tmp/compiler" \
        || { rm -rf "$tmp"; die "Maven could not resolve kotlin-compiler-embeddable $kv"; }
    mvn -B -ntp -q -Dstyle.color=never -f "$KOTLIN_DIR/runtime/pom.xml" \
        -Dkotlin.version="$kv" -Dcoroutines.version="$cv" -Dcoroutines.artifact="$artifact" \
        dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$tmp/lib" \
        || { rm -rf "$tmp"; die "Maven could not resolve $artifact $cv"; }
    # The archives record the jars' absolute paths: move into place first.
    chmod 755 "$tmp"
    mv "$tmp" "$dest"

    # Classpaths in byte order, exactly as runners/toolchains.py builds them
    # (a class-data archive only maps for the classpath it was dumped with).
    local ccp rcp work
    ccp="$(find "$dest/compiler" -maxdepth 1 -name '*.jar' | LC_ALL=C sort | paste -sd: -)"
    rcp="$(find "$dest/lib" -maxdepth 1 -name '*.jar' | LC_ALL=C sort | paste -sd: -)"
    work="$(mktemp -d)"
    cp "$KOTLIN_DIR/training/Training.kt" "$work/Training.kt"
    # Training compile: dumps the compiler's loaded classes into kotlinc.jsa.
    # Its log of skipped classes is noise.
    if ! "$JAVA_BIN" "${KOTLINC_JVM_FLAGS[@]}" -XX:ArchiveClassesAtExit="$dest/kotlinc.jsa" \
            -cp "$ccp" org.jetbrains.kotlin.cli.jvm.K2JVMCompiler \
            -no-stdlib -no-reflect -jvm-target 17 -classpath "$rcp" \
            -d "$work/classes" "$work/Training.kt" >"$work/compile.log" 2>&1; then
        cat "$work/compile.log" >&2
        rm -rf "$work"
        die "$name cannot compile toolchains/kotlin/training/Training.kt"
    fi
    # Training run: a smoke test of the runtime classpath that also dumps the
    # classes a program run loads into runtime.jsa. Programs run with the
    # classpath lib/*.jar:training.jar:<their classes>, of which the dumped
    # one is a prefix, as class-data sharing requires (an archive cannot be
    # dumped with a directory of classes on the classpath, hence the jar).
    local jar_tool out
    jar_tool="$(dirname "$JAVA_BIN")/jar"
    [ -x "$jar_tool" ] || jar_tool="$(command -v jar || true)"
    [ -n "$jar_tool" ] || { rm -rf "$work"; die "no jar tool next to $JAVA_BIN (install a JDK)"; }
    "$jar_tool" cf "$dest/training.jar" -C "$work/classes" .
    # Logging to stderr: the dump warns about every class it skips.
    out="$("$JAVA_BIN" -XX:ArchiveClassesAtExit="$dest/runtime.jsa" \
        -Xlog:disable -Xlog:all=warning:stderr -cp "$rcp:$dest/training.jar" TrainingKt 0 2>"$work/run.log")" \
        || { cat "$work/run.log" >&2; rm -rf "$work"; die "$name: the training program failed"; }
    rm -rf "$work"
    [ "$out" = ok ] || die "$name: training program printed '$out', expected 'ok'"

    local jv
    jv="$("$JAVA_BIN" -XshowSettings:properties -version 2>&1 \
        | sed -n 's/^ *java\.version = //p' | head -n1)"
    cat >"$dest/toolchain.json.tmp" <<EOF
{
  "layout": $KOTLIN_LAYOUT,
  "language": "kotlin",
  "kotlin_version": "$kv",
  "coroutines_version": "$cv",
  "coroutines_artifact": "$artifact",
  "java": "$JAVA_BIN",
  "java_version": "$jv",
  "jvm_target": "17",
  "cds_archive": "kotlinc.jsa",
  "runtime_cds_archive": "runtime.jsa",
  "runtime_cds_jar": "training.jar"
}
EOF
    mv "$dest/toolchain.json.tmp" "$dest/toolchain.json"
    KOTLIN_INSTALLED+=("$name (installed)")
}

# Same format as runners/toolchains.py reads: "#" starts a comment anywhere.
while IFS= read -r line || [ -n "$line" ]; do
    kv="" cv="" artifact=""
    read -r kv cv artifact _ <<<"${line%%#*}" || true
    [ -n "$kv" ] || continue
    [ -n "$cv" ] || die "toolchains/kotlin/versions.txt: no coroutines version for Kotlin $kv"
    install_kotlin "$kv" "$cv" "${artifact:-kotlinx-coroutines-core-jvm}"
done <"$KOTLIN_DIR/versions.txt"

# --- Summary ------------------------------------------------------------------
first_line() { "$@" 2>&1 | head -n1; }
echo "chanfuzz toolchains:"
echo "  go        $GO_BIN: $(first_line "$GO_BIN" version)"
if [ -x /usr/lib/go/bin/go ] && [ "$(readlink -f /usr/lib/go/bin/go)" != "$(readlink -f "$GO_BIN")" ]; then
    echo "  go        /usr/lib/go/bin/go (Debian): $(first_line /usr/lib/go/bin/go version)"
fi
echo "  crystal   $(command -v crystal): $(first_line crystal --version)"
echo "  java      $JAVA_BIN: $(first_line "$JAVA_BIN" -version)"
echo "  maven     $(first_line mvn -B -v | sed 's/\x1b\[[0-9;]*m//g')"
for k in "${KOTLIN_INSTALLED[@]}"; do
    echo "  kotlin    $TOOLCHAINS_DIR/$k"
done
echo "  redis     $(first_line redis-server --version)"
echo "  bwrap     $(first_line bwrap --version)"
