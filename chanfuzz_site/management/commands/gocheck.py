"""`manage.py gocheck FILE.go`: check one Go program for deadlocks and channel misuse.

Go's own front end loads the file (a helper built with the machine's Go); gocheck's model
checker explores every interleaving (generator/gocheck). Prints the findings, each with a
trace of (goroutine, line, operation), and as its last line exactly one of
`verdict: ok | global-deadlock | partial-deadlock | channel-safety | unsupported |
undecided`. Exit status: 0 ok, 1 a violation, 2 bad input (not Go, does not parse or
type-check: Go's own error on stderr), 3 undecided (budget spent), 4 unsupported.
`--emit-effect` prints the inferred behaviour as a λ_chan effect (SPEC §10) where it fits
that fragment.
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from generator.gocheck.explore import DEFAULT_MAX_STATES, DEFAULT_TIME_LIMIT
from runners.gocheck.check import EXIT_CODES, check_file, effect_of, report_lines
from runners.gocheck.frontend import FrontendError

MAX_FILE_BYTES = 1024 * 1024


class Command(BaseCommand):
    help = ("Check a Go program (one package main file, or a test file: each TestXxx as "
            "go test runs it) for deadlocks and channel misuse.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="a .go file holding package main or tests")
        parser.add_argument("--max-states", type=int, default=DEFAULT_MAX_STATES,
                            help=f"state budget (default {DEFAULT_MAX_STATES})")
        parser.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT,
                            help=f"seconds of search (default {DEFAULT_TIME_LIMIT:.0f})")
        parser.add_argument("--emit-effect", action="store_true",
                            help="print the inferred effect in SPEC syntax")
        parser.add_argument("--json", action="store_true",
                            help="print the result as JSON before the verdict line")

    def handle(self, *args: Any, **options: Any) -> None:
        # Nothing can be searched in no states or no time: an answer of "undecided after
        # 1 state" would only hide the typo.
        if options["max_states"] < 1:
            self.stderr.write("gocheck: --max-states must be at least 1")
            sys.exit(EXIT_CODES["bad-input"])
        if not options["time_limit"] > 0:
            self.stderr.write("gocheck: --time-limit must be positive")
            sys.exit(EXIT_CODES["bad-input"])
        path = Path(options["file"])
        try:
            size = path.stat().st_size
            path.read_bytes()[:1]
        except OSError as e:
            self.stderr.write(f"gocheck: cannot read {path}: {e.strerror or e}")
            sys.exit(EXIT_CODES["bad-input"])
        if size > MAX_FILE_BYTES:
            self.stderr.write(f"gocheck: {path} is larger than 1 MiB")
            sys.exit(EXIT_CODES["bad-input"])
        try:
            checked = check_file(path, max_states=options["max_states"],
                                 time_limit=options["time_limit"])
        except FrontendError as e:
            # Not the program's fault: nothing was decided about it.
            self.stderr.write(f"gocheck: {e}")
            self.stdout.write("verdict: undecided")
            sys.exit(EXIT_CODES["undecided"])
        if checked.verdict == "bad-input":
            self.stderr.write(checked.error)
            sys.exit(EXIT_CODES["bad-input"])
        if options["emit_effect"]:
            text, why = effect_of(checked)
            self.stdout.write(f"effect: {text}" if text else f"effect: none ({why})")
        if options["json"]:
            self.stdout.write(json.dumps(asdict(checked.result), indent=1, default=str))
        self.stdout.write("\n".join(report_lines(checked)))
        sys.stdout.flush()
        sys.exit(checked.exit_code)
