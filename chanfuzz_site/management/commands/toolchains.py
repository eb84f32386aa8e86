"""`manage.py toolchains list [LANG]` and `manage.py toolchains install LANG VERSION`.

``list`` prints every toolchain version chanfuzz knows of, one a line:
installed ones with where and what (compiler substitutions included), the
others with how to install them or why they cannot be had. ``--installed``
keeps only installed ones, ``--offline`` does not ask the Go module proxy (its
cached list is used), ``--json`` prints JSON.

``install`` installs a kotlinx-coroutines release (with its paired Kotlin
compiler, from Maven Central) or a Go release (from the Go module proxy) into
the toolchain cache ($CHANFUZZ_TOOLCHAINS_DIR). Exit status 1 when it fails;
the reason is then shown by ``list`` too.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from runners.engine.install import InstallError, install
from runners.engine.toolchains import KnownToolchain, known_toolchains
from runners.targets import all_targets, get_target, names


def _as_json(entry: KnownToolchain) -> dict[str, Any]:
    toolchain = entry.toolchain
    return {
        "language": entry.language,
        "version": entry.version,
        "state": entry.state,
        "detail": entry.detail,
        "origin": entry.origin,
        "note": entry.note,
        "id": toolchain.id if toolchain else None,
        "home": str(toolchain.home) if toolchain else None,
        "components": dict(toolchain.components) if toolchain else {},
        "render_options": toolchain.render_options() if toolchain else {},
    }


class Command(BaseCommand):
    help = "List the toolchains chanfuzz knows of, or install one on demand."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        listing = sub.add_parser("list", help="every known toolchain, installed or not (and why)")
        listing.add_argument("language", nargs="?", choices=names())
        listing.add_argument("--installed", action="store_true", help="installed ones only")
        listing.add_argument("--offline", action="store_true", help="do not ask the Go proxy")
        listing.add_argument("--json", action="store_true", help="print JSON")
        one = sub.add_parser("install", help="install LANG VERSION into the toolchain cache")
        one.add_argument("language", choices=names())
        one.add_argument("version")
        one.add_argument(
            "--compiler",
            "--kotlin",
            dest="compiler",
            help="where a target lets you choose: the compiler to install with "
            "(Kotlin: default the one the release was built with)",
        )
        one.add_argument("--force", action="store_true", help="install again")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["action"] == "install":
            self._install(options)
        else:
            self._list(options)

    def _install(self, options: dict[str, Any]) -> None:
        language, version = options["language"], options["version"]
        if options["compiler"] and not get_target(language).compiler_choice:
            raise CommandError(f"--compiler does not apply to {language}")

        def log(message: str) -> None:
            self.stderr.write(message)

        try:
            path = install(
                language, version, compiler=options["compiler"], force=options["force"], log=log
            )
        except InstallError as error:
            raise CommandError(f"cannot install {language} {version}: {error}") from None
        self.stdout.write(f"{language} {version} installed at {path}")

    def _list(self, options: dict[str, Any]) -> None:
        entries = known_toolchains(options["language"], offline=options["offline"])
        if options["installed"]:
            entries = [e for e in entries if e.state == "installed"]
        if options["json"]:
            self.stdout.write(json.dumps([_as_json(e) for e in entries], indent=2))
            return
        for entry in entries:
            line = f"{entry.language:8} {entry.version:10} {entry.state:14} "
            if entry.toolchain is not None:
                line += f"{entry.toolchain.id}  {entry.toolchain.describe()}"
            else:
                # One line per version: a compiler's whole complaint is in --json.
                first, _, rest = entry.detail.partition("\n")
                line += first + (" […]" if rest.strip() else "")
            if entry.note:
                line += f"  [{entry.note}]"
            self.stdout.write(line)
        # A target nothing can install says so once, after its places: users asking
        # for another version learn here that none can be had.
        shown = [get_target(options["language"])] if options["language"] else all_targets()
        for target in shown:
            if target.not_installable:
                self.stdout.write(f"{target.name:8} no other version: {target.not_installable}")
