"""The state of record of campaigns: what was asked, what ran, what it showed.

RQ job results expire; these rows do not. A campaign runs its programs on one
or more targets (`CampaignTarget`), in chunks of consecutive indices (`Chunk`,
one RQ job each). Every run of a program on a target is an `Execution`, unique
per (target, index) so a retried chunk never does the same work twice. A
`Program` is stored once, under an id derived from its λ_chan text (the
permalink `/p/<id>`). Executions with the same signature share a `Finding`.
A `Reproduction` re-runs one program K times on one target. `OutcomeCount` keeps
the executions per verdict of each target as they are inserted, so that lists and
progress never count a campaign's rows.

Writes go through runners.campaigns.services, .programs, .chunks and .jobs;
reads for pages through runners.campaigns.selectors.
"""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import IntegrityError, models, transaction
from django.db.models import Count, F, Q

from generator.capabilities import Capabilities
from generator.settings import RULE_TITLES
from runners.engine.verdicts import FINDING_OUTCOMES as VERDICT_FINDINGS
from runners.engine.verdicts import Outcome

# Output kept per execution: enough for a traceback or a goroutine dump, not a
# flood (the sandbox already caps what it reads).
MAX_STREAM_CHARS = 16_000
MAX_DUMP_CHARS = 64_000
# Per attempt in `Execution.attempts` (every attempt, so smaller).
MAX_ATTEMPT_CHARS = 4_000
MAX_SIGNATURE_CHARS = 1_000

SKIPPED = "skipped"  # a program the target's language cannot express
OUTCOME_CHOICES = [(o.value, o.value.replace("_", " ")) for o in Outcome] + [(SKIPPED, SKIPPED)]
FINDING_OUTCOMES = tuple(o.value for o in VERDICT_FINDINGS)


class Campaign(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        PAUSED = "paused"
        CANCELLED = "cancelled"
        DONE = "done"

    name = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    # "A"…"F" (SPEC §7), "custom" when weights were given, "fixed" for fixed programs.
    heuristic = models.CharField(max_length=20)
    settings = models.JSONField(help_text="GeneratorSettings.as_dict()")
    # What every target of the campaign can express (generator.capabilities):
    # programs are generated for it. Empty means every capability.
    capabilities = models.JSONField(default=dict, blank=True)
    seed = models.BigIntegerField(help_text="program i has seed `seed + i`")
    program_count = models.PositiveIntegerField()
    timeout_s = models.FloatField()
    repetitions = models.PositiveIntegerField()
    # Programs per chunk; 0 (runners.campaigns.chunk_sizing.AUTO): each chunk is sized
    # when first claimed, from what the target's finished chunks cost.
    chunk_size = models.PositiveIntegerField()
    triage_retries = models.PositiveSmallIntegerField(default=2)
    # Each program runs up to this many times, a process each, while it ends clean
    # (runners.engine.run_alone.Triage.runs): for races a cold runtime meets now and then.
    # A default in the database too: rows written without it (by SQL, or by workers of
    # before it, during an upgrade) get one run.
    runs = models.PositiveSmallIntegerField(default=1, db_default=1)
    # A run whose processes are all blocked this long is hung then (Limits.quiet_s);
    # None: runs wait out timeout_s.
    hang_quiet_s = models.FloatField(null=True, blank=True)
    # Programs check the values their messages carry (the value oracle) where the
    # target's renderer can: a lost or doubled message is then a finding.
    value_oracle = models.BooleanField(default=True)
    # Schedule perturbation (PCT, generator.render._common.perturb): programs yield
    # before pct_depth - 1 of their communication steps; None: they do not.
    pct_depth = models.PositiveSmallIntegerField(null=True, blank=True)
    generator_version = models.CharField(max_length=20)
    # Non-empty for a campaign of given programs: program i is
    # synthesize(parse(fixed_programs[i]["effect"]), Random(fixed_programs[i]["seed"])).
    fixed_programs = models.JSONField(default=list, blank=True)
    sandbox = models.CharField(max_length=20, blank=True, help_text="empty: the default")
    # Who made it on the web (None: the command line, or before accounts): the only
    # one but staff who may stop it, and whose quotas it counts against.
    owner = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="campaigns",
    )
    # Why it stopped when the system stopped it (a quota), shown on its page.
    status_note = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["status", "created_at"]),
            models.Index(fields=["owner", "status"]),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.name}"

    @property
    def is_active(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)

    def generation_capabilities(self) -> Capabilities:
        """What every target of the campaign can express: what its programs use."""
        return Capabilities.from_dict(self.capabilities)

    def rules_off(self) -> list[str]:
        """The rules its settings weigh that its targets cannot express (never fired)."""
        if self.fixed_programs:
            return []
        off = self.generation_capabilities().rules_off()
        return [RULE_TITLES[r] for r in off if self.settings.get(r)]


class CampaignTarget(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="targets")
    language = models.CharField(max_length=20)
    requested_version = models.CharField(max_length=100, blank=True)
    toolchain_id = models.CharField(max_length=200)
    toolchain_description = models.TextField(blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "toolchain_id"], name="campaign_target_unique_toolchain"
            )
        ]

    def __str__(self) -> str:
        return f"{self.language} ({self.toolchain_id})"


class Program(models.Model):
    class Source(models.TextChoices):
        GENERATED = "generated"  # generate_program(seed, GeneratorSettings(**settings))
        EFFECT = "effect"  # synthesize(parse(effect_text), Random(seed))

    # First 12 characters of the base32 sha256 of the λ_chan text (programs.program_id).
    id = models.CharField(max_length=12, primary_key=True)
    effect_text = models.TextField()
    effect_size = models.PositiveIntegerField(help_text="len(effect_text)")
    lambda_text = models.TextField()
    source = models.CharField(max_length=10, choices=Source.choices)
    seed = models.BigIntegerField()
    settings = models.JSONField(null=True, blank=True)
    # The capabilities it was generated for (with seed and settings, they make it).
    capabilities = models.JSONField(default=dict, blank=True)
    generator_version = models.CharField(max_length=20)
    # The seed to render this program with, derived from the id, so the sources
    # shown on its page are the same every time.
    render_seed = models.BigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.id


class Chunk(models.Model):
    class State(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"  # gave up after MAX_CHUNK_ATTEMPTS (see last_error)

    target = models.ForeignKey(CampaignTarget, on_delete=models.CASCADE, related_name="chunks")
    start = models.PositiveIntegerField()
    end = models.PositiveIntegerField(help_text="exclusive")
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    rq_job_id = models.CharField(max_length=64, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    # An auto-sized campaign's chunk (runners.campaigns.chunk_sizing): the size it was
    # given when first claimed, and what running it cost, for the sizes of the next ones.
    sized = models.PositiveIntegerField(null=True, blank=True)
    cost_programs = models.PositiveIntegerField(null=True, blank=True)
    compile_s = models.FloatField(null=True, blank=True, help_text="rendering and compiling")
    run_s = models.FloatField(null=True, blank=True, help_text="every run, re-runs included")
    waited_s = models.FloatField(
        null=True, blank=True, help_text="of run_s, the wait at its end for hung programs"
    )
    # Where the target's next chunk starts its shared runs (chunk_sizing.shared_runs_for):
    # the size this chunk's grew to, as fuzz carries it from batch to batch.
    shared_run_size = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["target_id", "start"]
        constraints = [
            models.UniqueConstraint(fields=["target", "start"], name="chunk_unique_start")
        ]
        indexes = [models.Index(fields=["state", "heartbeat_at"])]

    def __str__(self) -> str:
        return f"chunk [{self.start}, {self.end}) of {self.target}"


class Finding(models.Model):
    """One bug: every execution whose verdict has this signature (runners.engine.verdicts)."""

    signature = models.CharField(max_length=MAX_SIGNATURE_CHARS, unique=True)
    outcome = models.CharField(max_length=20, choices=OUTCOME_CHOICES)
    language = models.CharField(max_length=20)
    title = models.TextField(help_text="the reason of the first execution")
    first_seen = models.DateTimeField()
    last_seen = models.DateTimeField()
    execution_count = models.PositiveIntegerField(default=0)
    program_count = models.PositiveIntegerField(default=0)
    confirmed_hangs = models.PositiveIntegerField(default=0)
    # The program with the shortest effect text that shows it.
    example = models.ForeignKey(Program, null=True, on_delete=models.SET_NULL, related_name="+")
    # The last `manage.py bisect` of the example across releases (runners.engine.bisect.Bisection).
    bisection = models.JSONField(null=True, blank=True)
    bisected_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-last_seen"]
        indexes = [models.Index(fields=["last_seen"]), models.Index(fields=["outcome"])]

    def __str__(self) -> str:
        return f"{self.outcome}: {self.signature[:80]}"


class Reproduction(models.Model):
    """Program run `times` times on one target: how often does the bug show?"""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    program = models.ForeignKey(Program, on_delete=models.CASCADE, related_name="reproductions")
    language = models.CharField(max_length=20)
    requested_version = models.CharField(max_length=100, blank=True)
    toolchain_id = models.CharField(max_length=200)
    toolchain_description = models.TextField(blank=True)
    times = models.PositiveIntegerField()
    timeout_s = models.FloatField()
    repetitions = models.PositiveIntegerField()
    pct_depth = models.PositiveSmallIntegerField(null=True, blank=True)  # as Campaign's
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    completed = models.PositiveIntegerField(default=0)
    crashed = models.PositiveIntegerField(default=0)
    hung = models.PositiveIntegerField(default=0)
    wrong_values = models.PositiveIntegerField(default=0)  # runs the value oracle failed
    rq_job_id = models.CharField(max_length=64, blank=True)
    last_error = models.TextField(blank=True)
    # Who asked for it on the web (None: the command line, or an anonymous playground run).
    owner = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.program_id} on {self.toolchain_id} ×{self.times}"

    @property
    def rate(self) -> float | None:
        """Share of completed runs that failed (crashed, hung, a wrong value); None before
        any run completed."""
        return self.failed / self.completed if self.completed else None

    @property
    def failed(self) -> int:
        return self.crashed + self.hung + self.wrong_values


class Reduction(models.Model):
    """A finding's program made as small as it can be while it still fails the same way,
    as often (runners.engine.reduce); `state` is the reducer's ReductionState, saved
    after every candidate, so a killed reduction resumes where it was."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"
        CANCELLED = "cancelled"

    finding = models.ForeignKey(Finding, on_delete=models.CASCADE, related_name="reductions")
    program = models.ForeignKey(Program, on_delete=models.CASCADE, related_name="+")
    reduced = models.ForeignKey(
        Program, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    language = models.CharField(max_length=20)
    toolchain_id = models.CharField(max_length=200)
    toolchain_description = models.TextField(blank=True)
    signature = models.CharField(max_length=MAX_SIGNATURE_CHARS)
    timeout_s = models.FloatField()
    repetitions = models.PositiveIntegerField()
    pct_depth = models.PositiveSmallIntegerField(null=True, blank=True)  # as Campaign's
    # A run blocked this long is hung (as the campaign's `hang_quiet_s`); None: the timeout.
    hang_quiet_s = models.FloatField(null=True, blank=True)
    jobs = models.PositiveSmallIntegerField(default=2)
    baseline_runs = models.PositiveIntegerField(default=16)
    keep_ratio = models.FloatField(default=0.5)
    alpha = models.FloatField(default=0.05)
    max_candidates = models.PositiveIntegerField(default=200)
    max_seconds = models.FloatField(default=3600.0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    state = models.JSONField(null=True, blank=True)
    rq_job_id = models.CharField(max_length=64, blank=True)
    last_error = models.TextField(blank=True)
    # Who asked for it on the web (None: the command line, or an anonymous playground run).
    owner = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"reduction of {self.program_id} on {self.toolchain_id}"

    @property
    def is_active(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)


class Execution(models.Model):
    target = models.ForeignKey(
        CampaignTarget, null=True, blank=True, on_delete=models.CASCADE, related_name="executions"
    )
    # Denormalised from target, so campaign-wide lists need no join.
    campaign = models.ForeignKey(
        Campaign, null=True, blank=True, on_delete=models.CASCADE, related_name="executions"
    )
    reproduction = models.ForeignKey(
        Reproduction, null=True, blank=True, on_delete=models.CASCADE, related_name="executions"
    )
    program = models.ForeignKey(Program, on_delete=models.PROTECT, related_name="executions")
    index = models.PositiveIntegerField(help_text="within the campaign, or the reproduction run")
    outcome = models.CharField(max_length=20, choices=OUTCOME_CHOICES)
    reason = models.TextField(blank=True)
    signature = models.CharField(max_length=MAX_SIGNATURE_CHARS, blank=True)
    exit_code = models.IntegerField(null=True, blank=True)
    signal = models.IntegerField(null=True, blank=True)
    duration_s = models.FloatField(null=True, blank=True)
    # The first attempt's output, bounded (MAX_STREAM_CHARS, MAX_DUMP_CHARS).
    stdout = models.TextField(blank=True)
    stderr = models.TextField(blank=True)
    dump = models.TextField(blank=True)
    # Every attempt: timeout_s, outcome, exit_code, signal, timed_out, duration_s,
    # stdout, stderr, dump (each bounded by MAX_ATTEMPT_CHARS).
    attempts = models.JSONField(default=list, blank=True)
    hang_confirmed = models.BooleanField(null=True, blank=True)
    # The runs the verdict took: the clean ones before it (Campaign.runs) and its own;
    # one where a row is written without it (as Campaign.runs).
    runs = models.PositiveSmallIntegerField(default=1, db_default=1)
    compile_output = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finding = models.ForeignKey(
        Finding, null=True, blank=True, on_delete=models.SET_NULL, related_name="executions"
    )

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(
                fields=["target", "index"],
                condition=Q(target__isnull=False),
                name="execution_unique_target_index",
            )
        ]
        indexes = [
            models.Index(fields=["campaign", "outcome"]),
            models.Index(fields=["target", "outcome"]),
            models.Index(fields=["finding", "created_at"]),
            models.Index(fields=["finding", "program"]),
            models.Index(fields=["created_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.program_id} #{self.index}: {self.outcome}"

    def save(self, *args: object, **kwargs: object) -> None:
        # A campaign's execution is counted in the transaction that inserts it, so the
        # stored counts can never disagree with the rows (executions are never changed
        # after their insert; bulk_create bypasses this: its callers call recount).
        if not self._state.adding or self.target_id is None:
            super().save(*args, **kwargs)
            return
        with transaction.atomic():
            super().save(*args, **kwargs)
            campaign_id = self.campaign_id
            if campaign_id is None:
                campaign_id = CampaignTarget.objects.values_list("campaign_id", flat=True).get(
                    pk=self.target_id
                )
            OutcomeCount.add(
                target_id=self.target_id, campaign_id=campaign_id, outcome=self.outcome
            )

    @property
    def is_finding(self) -> bool:
        return self.outcome in FINDING_OUTCOMES


class OutcomeCount(models.Model):
    """How many of one campaign target's executions have one verdict.

    Kept by `Execution.save` as rows are inserted, because counting them is what made
    the campaign list slow: with 1,000,000 executions stored, 187 ms of its 210 ms went
    to COUNT(*) over the (campaign, outcome) index (docs/deploy.md, the load test). A
    list or a progress bar now reads a few rows per target, whatever the campaign's size.
    """

    target = models.ForeignKey(
        CampaignTarget, on_delete=models.CASCADE, related_name="outcome_counts"
    )
    # Denormalised from target, so the campaign list sums without a join.
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="outcome_counts")
    outcome = models.CharField(max_length=20, choices=OUTCOME_CHOICES)
    count = models.PositiveBigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["target", "outcome"], name="outcome_count_unique")
        ]

    def __str__(self) -> str:
        return f"target {self.target_id}: {self.count} {self.outcome}"

    @classmethod
    def add(cls, *, target_id: int, campaign_id: int, outcome: str, n: int = 1) -> None:
        """Count `n` more executions of `outcome` on the target (inside the caller's
        transaction: the increment commits or rolls back with the rows it counts)."""
        row = cls.objects.filter(target_id=target_id, outcome=outcome)
        if row.update(count=F("count") + n):
            return
        try:
            with transaction.atomic():  # a savepoint: a lost race must not spoil the caller's
                cls.objects.create(
                    target_id=target_id, campaign_id=campaign_id, outcome=outcome, count=n
                )
        except IntegrityError:
            # Another worker made the row between our update and create: it waited for
            # that worker's commit, so the row is there now.
            row.update(count=F("count") + n)

    @classmethod
    def recount(cls, target_ids: list[int]) -> None:
        """Count the targets' executions again from their rows (after a bulk insert)."""
        with transaction.atomic():
            cls.objects.filter(target_id__in=target_ids).delete()
            cls.objects.bulk_create(
                cls(
                    target_id=row["target_id"],
                    campaign_id=row["target__campaign_id"],
                    outcome=row["outcome"],
                    count=row["n"],
                )
                for row in Execution.objects.filter(target_id__in=target_ids)
                .values("target_id", "target__campaign_id", "outcome")
                .annotate(n=Count("*"))
                .order_by()
            )


class MutantTests(models.Model):
    """What a channel implementation's own test suite did to one mutant toolchain
    (runners.mutation): the yardstick the mutation report sets chanfuzz against. Run as
    an RQ job (runners.mutation_study.jobs.run_runtime_tests)."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        KILLED = "killed"
        SURVIVED = "survived"
        BUILD_FAILED = "build failed"
        UNAVAILABLE = "unavailable"  # the suite cannot be had here (it says why)
        FAILED = "failed"  # the job itself failed (last_error)

    toolchain_id = models.CharField(max_length=200, unique=True)
    kind = models.CharField(max_length=40)  # runners.mutation.kinds
    language = models.CharField(max_length=20)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.QUEUED)
    by = models.CharField(max_length=500, blank=True)  # what killed it
    seconds = models.FloatField(default=0.0)
    output = models.TextField(blank=True)
    rq_job_id = models.CharField(max_length=64, blank=True)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.toolchain_id}: {self.status}"

    @property
    def is_done(self) -> bool:
        return self.status not in (self.Status.QUEUED, self.Status.RUNNING)
