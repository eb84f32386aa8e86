#!/usr/bin/env bash
# Mutation score of some modules against the quick test suite (docs/testing.md).
#
#   scripts/mutation_score.sh MODULE[:FUNCTION_GLOB]...
#
#   scripts/mutation_score.sh generator/termination.py
#   scripts/mutation_score.sh generator/effects.py runners/engine/verdicts.py
#   scripts/mutation_score.sh 'runners/campaigns/selectors.py:x_campaign_progress*'
#
# mutmut 3.8.1 ([tool.mutmut] in pyproject.toml) mutates only the named modules (its
# `only_mutate`; every other file is copied unchanged into ./mutants/), runs the quick suite
# (`-m "not slow"`) of MUTATION_TESTS (default: the mirror of each module's package under
# tests/, see below) once to learn which tests reach which function, then runs each mutant
# against the tests that reach its function only. A FUNCTION_GLOB narrows a module to some
# of its functions, by mutmut's names: `x_parse*` for a function, `xǁ_ParserǁMETHOD*` for a
# method. MUTATION_AGAIN=survivors runs again only the mutants not killed last time.
#
# One mutant at a time (--max-children 1): the run never takes more than one core. Mutants,
# stats and results stay in ./mutants/ (gitignored) between runs; a run with other modules
# or other tests collects the stats again. `rm -rf mutants` starts afresh.
#
# Printed per module: mutants, killed, survived, timeouts (counted as killed: the suite did
# not pass), no tests (no quick test reaches the function), other (suspicious, segfault,
# not checked), score = (killed + timeouts) / mutants, then the survivors' names; see them
# with `.venv/bin/mutmut show NAME`. Equivalent mutants are judged by hand and taken out of
# the score in docs/testing.md.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ $# -eq 0 || $1 == -h || $1 == --help ]]; then
  sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'
  [[ $# -eq 0 ]] && exit 2
  exit 0
fi

for arg in "$@"; do
  module=${arg%%:*}
  if [[ $module != *.py || ! -f $module ]]; then
    echo "mutation_score.sh: no such module: $module (give a path such as generator/effects.py)" >&2
    exit 2
  fi
done

# The tests that may reach a module: its package's mirror under tests/ (generator/… →
# tests/generator, runners/engine/… → tests/runners/engine), quick tests only. The sandbox
# tests are left out: they need the host's bubblewrap and cgroups, and reach none of the
# modules measured here.
if [[ -z ${MUTATION_TESTS:-} ]]; then
  dirs=()
  for arg in "$@"; do
    module=${arg%%:*}
    case $module in
      generator/*) dir=tests/generator ;;
      runners/*/*) dir=tests/runners/$(cut -d/ -f2 <<<"$module") ;;
      *) dir=tests/runners ;;
    esac
    [[ " ${dirs[*]:-} " == *" $dir "* ]] || dirs+=("$dir")
  done
  MUTATION_TESTS="${dirs[*]} --ignore=tests/runners/engine/sandbox"
fi
export MUTATION_TESTS

exec .venv/bin/python - "$@" <<'PY'
import fnmatch
import json
import os
import sys
from collections import Counter
from pathlib import Path

from mutmut import configuration

args = sys.argv[1:]
def dotted(module: str) -> str:
    """mutmut's name of a module: a package's __init__.py is the package."""
    return module[: -len(".py")].replace("/", ".").removesuffix(".__init__")


modules = []
globs = []
for arg in args:
    module, _, function_glob = arg.partition(":")
    if module not in modules:
        modules.append(module)
    globs.append(f"{dotted(module)}.{function_glob or '*'}")
tests = os.environ["MUTATION_TESTS"].split()

# mutmut reads [tool.mutmut] once and keeps it; narrow it to the modules and tests asked for.
cfg = configuration.config()
cfg.only_mutate = modules
cfg.pytest_add_cli_args_test_selection = tests

# mutmut's stats map tests to the functions mutated when they were collected: collect them
# again when the modules or the tests differ from the last run's.
selection = json.dumps({"modules": sorted(modules), "tests": tests})
marker = Path("mutants/chanfuzz-selection.json")
if not marker.exists() or marker.read_text() != selection:
    Path("mutants/mutmut-stats.json").unlink(missing_ok=True)
    Path("mutants").mkdir(exist_ok=True)
    marker.write_text(selection)
# mutmut mutates a file only when its copy in mutants/ is older than the source; a copy left
# by a run that did not mutate it is newer: take it away, and the results it has not got.
for module in modules:
    copy = Path("mutants") / module
    if copy.exists() and "__mutmut_" not in copy.read_text():
        copy.unlink()
        Path(f"mutants/{module}.meta").unlink(missing_ok=True)
        # Its functions are in no test's stats yet.
        Path("mutants/mutmut-stats.json").unlink(missing_ok=True)

from mutmut.__main__ import cli  # noqa: E402  (after the configuration is narrowed)
from mutmut.mutation.data import SourceFileMutationData  # noqa: E402
from mutmut.stats import status_by_exit_code  # noqa: E402

# mutmut runs again every mutant a name or glob matches. MUTATION_AGAIN=survivors runs only
# those of the last run's that the tests did not kill (after adding tests: the killed stay
# killed), with the stats of new tests collected first.
targets = globs
if os.environ.get("MUTATION_AGAIN") == "survivors":
    targets = []
    for module in modules:
        data = SourceFileMutationData(path=module)
        data.load()
        targets += [
            name
            for name, code in data.exit_code_by_key.items()
            if any(fnmatch.fnmatch(name, g) for g in globs)
            and status_by_exit_code[code] not in ("killed", "timeout")
        ]
    if not targets:
        print("mutation_score.sh: no survivor to run again")

try:
    if targets:
        cli(["run", "--max-children", "1", *targets], standalone_mode=False)
except SystemExit as stop:
    if stop.code not in (0, None):
        raise

print()
print(f"{'module':<44} {'mutants':>7} {'killed':>6} {'survived':>8} {'timeouts':>8} "
      f"{'no tests':>8} {'other':>5} {'score':>7}")
survivors = []
for module in modules:
    data = SourceFileMutationData(path=module)
    data.load()
    mine = [g for g in globs if g.startswith(dotted(module) + ".")]
    statuses = Counter()
    for name, code in data.exit_code_by_key.items():
        if not any(fnmatch.fnmatch(name, g) for g in mine):
            continue
        status = status_by_exit_code[code]
        statuses[status] += 1
        if status == "survived":
            survivors.append(name)
    total = sum(statuses.values())
    killed, timeouts = statuses["killed"], statuses["timeout"]
    other = total - killed - timeouts - statuses["survived"] - statuses["no tests"]
    score = f"{100 * (killed + timeouts) / total:.1f} %" if total else "-"
    print(f"{module:<44} {total:>7} {killed:>6} {statuses['survived']:>8} {timeouts:>8} "
          f"{statuses['no tests']:>8} {other:>5} {score:>7}")
if survivors:
    print()
    print("survived (`.venv/bin/mutmut show NAME`):")
    for name in sorted(survivors):
        print(f"  {name}")
PY
