"""`manage.py mutants {list,install,installed,test} TARGET [ID]`: mutants of channel code.

- `list go [--base VERSION]`: every mutant of the base Go's `runtime/chan.go` and
  `select.go`, one a line: id, file:line, operator, the change;
- `install go ID [--base VERSION]`: make mutant ID a toolchain
  (`go-<version>-mutant-<ID>`): `toolchains list`, `fuzz --version`, campaigns and
  the web app then see it, marked as a mutant; the same id always makes the same
  mutant of the same base;
- `installed go`: the installed mutant toolchains;
- `test go ID`: does Go's own channel test suite kill it (runners.mutation.runtime_tests)?

Only Go has mutants so far; other targets are refused with exit 2 saying so.
Exit 0 on success, 1 when `test` finds the mutant survives, 2 on bad arguments.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from runners.engine.toolchains import ToolchainUnavailable, find_toolchain, installed_toolchains
from runners.mutation import go_mutants
from runners.mutation.runtime_tests import go_runtime_tests
from runners.targets.go import mutants_dir


class Command(BaseCommand):
    help = "Mutants of a runtime's channel implementation, as toolchains."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=("list", "install", "installed", "test"))
        parser.add_argument("target")
        parser.add_argument("mutant_id", nargs="?")
        parser.add_argument("--base", help="the Go version or toolchain id to mutate (newest)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["target"] != "go":
            raise CommandError(
                f"no mutants of {options['target']} yet: only the Go runtime's channel code "
                "is mutated so far",
                returncode=2,
            )
        action = options["action"]
        if action == "installed":
            for toolchain in installed_toolchains("go"):
                if toolchain.origin == "mutant":
                    self.stdout.write(f"{toolchain.id:44} {toolchain.component('mutant')}")
            return
        if action == "test":
            self._test(options["mutant_id"], options["base"])
            return
        try:
            base = find_toolchain("go", options["base"])
        except ToolchainUnavailable as exc:
            raise CommandError(exc.reason, returncode=2) from exc
        if base.origin == "mutant":
            raise CommandError(f"{base.id} is a mutant: give a release as --base", returncode=2)
        if action == "list":
            for m in go_mutants.list_mutants(base.home):
                self.stdout.write(f"{m.id:22} {m.file}:{m.line:<5} {m.operator:7} {m.describe()}")
            return
        if not options["mutant_id"]:
            raise CommandError("give the ID of the mutant to install", returncode=2)
        try:
            mutant = go_mutants.find_mutant(base.home, options["mutant_id"])
        except KeyError as exc:
            raise CommandError(f"{exc.args[0]} (see `mutants list go`)", returncode=2) from exc
        directory = go_mutants.install(
            mutant, goroot=base.home, base_id=base.id, base_version=base.version,
            root=mutants_dir(),
        )  # fmt: skip
        self.stdout.write(
            f"installed go-{base.version}-mutant-{mutant.id} at {directory}: {mutant.describe()}"
        )

    def _test(self, mutant_id: str | None, base: str | None) -> None:
        if not mutant_id:
            raise CommandError("give the ID of an installed mutant", returncode=2)
        wanted = [t for t in installed_toolchains("go") if t.origin == "mutant"]
        chosen = [t for t in wanted if t.id.endswith(f"-mutant-{mutant_id}")]
        if base is not None:
            chosen = [t for t in chosen if base in (t.version, t.id.split("-mutant-")[0])]
        if not chosen:
            raise CommandError(f"mutant {mutant_id} is not installed (mutants install)", 2)
        toolchain = chosen[0]
        self.stdout.write(f"running Go's own channel tests with {toolchain.id}")
        result = go_runtime_tests(toolchain)
        self.stdout.write(
            f"{result.status}{' by ' + result.by if result.by else ''} in {result.seconds:.0f} s"
        )
        if result.output:
            self.stdout.write(result.output[-1500:])
        if result.status == "survived":
            raise CommandError("the runtime's own tests did not kill it", returncode=1)
