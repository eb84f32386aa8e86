"""JVM hangs signed without the JVM's own threads (runners.targets.jvm.hang_shape since
2026-12-01). Before, a hang's shape counted HotSpot's threads too, which change with the
JDK (Java 17's "Sweeper thread", Java 25's "Training replay thread"), the flags and the
machine: a trial build on Java 25 without the replay thread signed a hang of
kotlinx.coroutines 0.19 "RUNNABLE×7, …" where Java 17 said "RUNNABLE×8, …".

The JVM targets' hang executions are signed again from their stored dumps, and each
finding takes its executions' new signature, merged into the finding that has it already
if one does (its executions, reductions and figures), so that a hang found before and
after the change is one finding, and reproducing, reducing or bisecting an old finding
compares like with like. The rule is written out here as it was when this ran, not
imported: a later change to the shape must not change what this migration did.
"""

import re
from collections import Counter

from django.db import migrations
from django.db.models import Count

JVM_LANGUAGES = ("kotlin", "flix", "clojure-go", "clojure-thread")
_THREAD = re.compile(
    r'^"(?P<name>[^"\n]*)"[^\n]*\n\s+java\.lang\.Thread\.State: (?P<state>\w+)'
    r"(?: \((?P<how>[^)]*)\))?",
    re.M,
)
_JVM_OWN = re.compile(
    r"Reference Handler|Finalizer|Signal Dispatcher|Service Thread|Monitor Deflation Thread"
    r"|C[12] CompilerThread\d+|JVMCI(?:-native)? CompilerThread\d+|Sweeper thread"
    r"|Notification Thread|Common-Cleaner|Attach Listener|Surrogate Locker Thread.*"
    r"|Training replay thread|JFR .*"
)
BATCH = 500
# How runners.campaigns.services bounds a stored dump (at 64,000 characters): a cut dump
# lists fewer threads than its run had, so it says nothing of the run's signature.
_CUT = re.compile(r"\n… \[\d+ more characters dropped\]$")


def signature(language: str, dump: str) -> str:
    """The hang signature `dump` gives today (runners.engine.verdicts.hang_signature)."""
    counts = Counter(
        f"{m['state']} {m['how'] or ''}".strip()
        for m in _THREAD.finditer(dump)
        if not _JVM_OWN.fullmatch(m["name"])
    )
    shape = ", ".join(f"{s}×{n}" if n > 1 else s for s, n in sorted(counts.items()))
    return f"{language} | hang | {shape}" if shape else f"{language} | hang"


def resign(apps, schema_editor):  # noqa: ANN001, ARG001
    Execution = apps.get_model("runners", "Execution")
    Finding = apps.get_model("runners", "Finding")
    Reduction = apps.get_model("runners", "Reduction")
    for language in JVM_LANGUAGES:
        hangs = Execution.objects.filter(signature__startswith=f"{language} | hang").exclude(
            dump=""
        )
        # What each finding's executions are signed now (the most common, should its
        # executions ever disagree): all of them take it. Executions of no finding are
        # signed one by one; a finding whose every dump was cut keeps its signature.
        by_finding: dict[int, Counter] = {}
        loose = []
        for row in hangs.only("id", "signature", "dump", "finding_id").iterator(BATCH):
            if _CUT.search(row.dump):
                continue  # signed with its finding, if another execution tells how
            new = signature(language, row.dump)
            if row.finding_id is not None:
                by_finding.setdefault(row.finding_id, Counter())[new] += 1
            elif new != row.signature:
                row.signature = new
                loose.append(row)
        Execution.objects.bulk_update(loose, ["signature"], batch_size=BATCH)
        for finding_id, signed in by_finding.items():
            finding = Finding.objects.get(pk=finding_id)
            new = signed.most_common(1)[0][0]
            if new == finding.signature:
                continue
            old = finding.signature
            Execution.objects.filter(finding=finding).update(signature=new)
            Reduction.objects.filter(finding=finding, signature=old).update(signature=new)
            into = Finding.objects.filter(signature=new).first()
            if into is None:
                finding.signature = new
                finding.save(update_fields=["signature"])
                continue
            Execution.objects.filter(finding=finding).update(finding=into)
            Reduction.objects.filter(finding=finding).update(finding=into)
            into.first_seen = min(into.first_seen, finding.first_seen)
            into.last_seen = max(into.last_seen, finding.last_seen)
            if into.example_id is None:
                into.example_id = finding.example_id
            if into.bisection is None and finding.bisection is not None:
                into.bisection, into.bisected_at = finding.bisection, finding.bisected_at
            rows = Execution.objects.filter(finding=into)
            figures = rows.aggregate(
                executions=Count("id"), programs=Count("program_id", distinct=True)
            )
            into.execution_count = figures["executions"]
            into.program_count = figures["programs"]
            into.confirmed_hangs = rows.filter(hang_confirmed=True).count()
            into.save()
            finding.delete()


class Migration(migrations.Migration):
    dependencies = [
        ("runners", "0013_chunk_shared_run_size"),
    ]

    operations = [migrations.RunPython(resign, migrations.RunPython.noop)]
