"""Installing toolchains on demand into ``$CHANFUZZ_TOOLCHAINS_DIR``, for any target.

Each target declares how its versions install (``install`` of its
:class:`~runners.targets.base.TargetSpec`, or ``not_installable`` saying why
none can): Kotlin resolves a kotlinx-coroutines release and its compiler from
Maven Central (:mod:`runners.targets.kotlin_install`), Go downloads
``golang.org/toolchain`` from the Go module proxy (:mod:`runners.targets.go`).
A failed install leaves nothing half-made; it records why in
``.failed/<language>-<version>.json`` so that ``manage.py toolchains list``
shows the toolchain as unavailable with the reason.

Standard library only: ``scripts/install_toolchains.sh`` runs
``python3 -m runners.engine.install defaults`` from the repository root with any
Python 3.11, before or without the project's virtualenv.

Command line::

    python -m runners.engine.install kotlin 0.22.5 [--kotlin 1.2.71]
    python -m runners.engine.install go 1.22.12
    python -m runners.engine.install defaults         # every target's toolchains/*/versions.txt
    python -m runners.engine.install kotlin-all       # every release in releases.txt
    python -m runners.engine.install kotlin-representative  # CI's few (representative.txt)
    python -m runners.engine.install kotlin-releases  # regenerate toolchains/kotlin/releases.txt
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from runners.targets import all_targets, get_target
from runners.targets.base import InstallError, Log, stderr_log
from runners.targets.go import go_proxy_versions
from runners.targets.kotlin_install import (
    central_kotlin_releases,
    install_all_kotlin,
    write_kotlin_releases,
)
from runners.targets.kotlin_releases import (
    KOTLIN_RELEASES_FILE,
    representative_kotlin_releases,
)

__all__ = ["InstallError", "install", "install_all_defaults", "install_all_kotlin", "main"]


def install(
    language: str,
    version: str,
    *,
    compiler: str | None = None,
    force: bool = False,
    log: Log = stderr_log,
) -> Path:
    """Install ``language`` ``version`` (``compiler``: where the target lets one choose
    the compiler a version is installed with, e.g. Kotlin's)."""
    try:
        target = get_target(language)
    except ValueError as error:
        raise InstallError(str(error)) from None
    if target.install is None:
        raise InstallError(target.not_installable or f"{target.title} cannot be installed here")
    if compiler is None:
        return target.install(version, force=force, log=log)
    if not target.compiler_choice:
        raise InstallError(f"{target.title} installs with one compiler only: no compiler choice")
    return target.install(version, force=force, log=log, compiler=compiler)


def install_all_defaults(log: Log = stderr_log) -> list[Path]:
    """What every target installs by default (scripts/install_toolchains.sh)."""
    paths: list[Path] = []
    for target in all_targets():
        if target.install_defaults is not None:
            paths += target.install_defaults(log)
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m runners.engine.install", description=__doc__.split("\n")[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    one = sub.add_parser("kotlin", help="install a kotlinx-coroutines release")
    one.add_argument("version")
    one.add_argument("--kotlin", help="compiler version (default: the paired one)")
    one.add_argument("--force", action="store_true")
    go = sub.add_parser("go", help="install a Go release from the Go module proxy")
    go.add_argument("version")
    go.add_argument("--force", action="store_true")
    sub.add_parser("defaults", help="install every target's defaults (toolchains/*/versions.txt)")
    sub.add_parser("kotlin-all", help="install every release toolchains/kotlin/releases.txt lists")
    sub.add_parser(
        "kotlin-representative",
        help="install the releases toolchains/kotlin/representative.txt names (CI's)",
    )
    sub.add_parser(
        "kotlin-releases", help=f"regenerate {KOTLIN_RELEASES_FILE.name} from Maven Central"
    )
    sub.add_parser("go-versions", help="print the Go versions the module proxy serves")
    args = parser.parse_args(argv)
    try:
        if args.command in ("kotlin", "go"):
            print(
                install(
                    args.command,
                    args.version,
                    compiler=getattr(args, "kotlin", None),
                    force=args.force,
                )
            )
        elif args.command == "defaults":
            for path in install_all_defaults():
                print(path)
        elif args.command in ("kotlin-all", "kotlin-representative"):
            wanted = None if args.command == "kotlin-all" else representative_kotlin_releases()
            failed = install_all_kotlin(wanted)
            if failed:
                print(f"install failed for {', '.join(failed)}", file=sys.stderr)
                return 1
        elif args.command == "kotlin-releases":
            write_kotlin_releases(central_kotlin_releases())
            print(KOTLIN_RELEASES_FILE)
        elif args.command == "go-versions":
            print(" ".join(go_proxy_versions(refresh=True)))
    except InstallError as error:
        print(f"install failed: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
