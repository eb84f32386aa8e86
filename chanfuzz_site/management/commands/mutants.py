"""`manage.py mutants {list,install,installed,test} TARGET [ID]`: mutants of channel code.

TARGET is a target language whose channel implementation has mutants
(runners.mutation.kinds: the Go runtime's chan.go/select.go, …):

- `list TARGET [--base VERSION]`: every mutant of the base toolchain's channel
  implementation, one a line: id, file:line, operator, the change;
- `install TARGET ID [--base VERSION]`: make mutant ID a toolchain (its id ends
  in `-mutant-<ID>`): `toolchains list`, `fuzz --version`, campaigns and the
  web app then see it, marked as a mutant; the same id always makes the same
  mutant of the same base;
- `installed TARGET`: the installed mutant toolchains;
- `test TARGET ID`: does the implementation's own test suite kill it?

Exit 0 on success, 1 when `test` finds the mutant survives, 2 on bad arguments
(a target without mutants among them, saying which targets have some), 3 when
the implementation's own tests cannot be had here (it says why).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from runners.engine.toolchains import ToolchainUnavailable, find_toolchain, installed_toolchains
from runners.mutation.base import MutantKind
from runners.mutation.kinds import installed_mutant, kind_for
from runners.targets.base import Toolchain


class Command(BaseCommand):
    help = "Mutants of a runtime's channel implementation, as toolchains."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=("list", "install", "installed", "test"))
        parser.add_argument("target")
        parser.add_argument("mutant_id", nargs="?")
        parser.add_argument("--base", help="the release or toolchain id to mutate (newest)")

    def handle(self, *args: Any, **options: Any) -> None:
        target = options["target"]
        try:
            kind = kind_for(target)
        except KeyError as exc:
            raise CommandError(exc.args[0], returncode=2) from exc
        if target not in kind.targets:  # a kind's name (crossbeam-channel): its first target
            target = kind.targets[0]
        action = options["action"]
        if action == "installed":
            for toolchain in installed_toolchains(target):
                if toolchain.origin == "mutant":
                    self.stdout.write(f"{toolchain.id:48} {toolchain.component('mutant')}")
            return
        if action == "test":
            self._test(target, kind, options["mutant_id"], options["base"])
            return
        base = self._base(target, options["base"])
        if action == "list":
            for m in kind.list_mutants(base):
                self.stdout.write(f"{m.id:28} {m.file}:{m.line:<5} {m.operator:8} {m.describe()}")
            return
        if not options["mutant_id"]:
            raise CommandError("give the ID of the mutant to install", returncode=2)
        try:
            mutant = kind.find(base, options["mutant_id"])
        except KeyError as exc:
            raise CommandError(
                f"{exc.args[0]} (see `mutants list {target}`)", returncode=2
            ) from exc
        directory = kind.install(mutant, base)
        toolchain = installed_mutant(target, base, mutant.id)
        name = toolchain.id if toolchain else f"mutant {mutant.id} (not found as a toolchain)"
        self.stdout.write(f"installed {name} at {directory}: {mutant.describe()}")

    def _base(self, target: str, wanted: str | None) -> Toolchain:
        try:
            base = find_toolchain(target, wanted)
        except ToolchainUnavailable as exc:
            raise CommandError(exc.reason, returncode=2) from exc
        if base.origin == "mutant":
            raise CommandError(f"{base.id} is a mutant: give a release as --base", returncode=2)
        return base

    def _test(self, target: str, kind: MutantKind, mutant_id: str | None, base: str | None) -> None:
        if not mutant_id:
            raise CommandError("give the ID of an installed mutant", returncode=2)
        chosen = [
            t
            for t in installed_toolchains(target)
            if t.origin == "mutant" and t.id.endswith(f"-mutant-{mutant_id}")
            and (base is None or base in (t.version, t.id.split("-mutant-")[0]))
        ]  # fmt: skip
        if not chosen:
            raise CommandError(
                f"mutant {mutant_id} is not installed (mutants install)", returncode=2
            )
        toolchain = chosen[0]
        self.stdout.write(f"running {kind.runtime_tests_name} with {toolchain.id}")
        result = kind.runtime_tests(toolchain)
        self.stdout.write(
            f"{result.status}{' by ' + result.by if result.by else ''} in {result.seconds:.0f} s"
        )
        if result.output:
            self.stdout.write(result.output[-1500:])
        if result.status == "survived":
            raise CommandError("the runtime's own tests did not kill it", returncode=1)
        if result.status == "unavailable":
            raise CommandError("the runtime's own tests cannot be run here", returncode=3)
