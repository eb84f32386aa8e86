"""Forms of the campaign pages: a new campaign, a reproduction of a program.

They check what a person typed (ranges, choices) and turn it into the keyword
arguments of runners.campaigns.services; the services check again and their
ValueError messages are shown on the form, so nothing invalid reaches a 500.
"""

from __future__ import annotations

from typing import Any

from django import forms

from generator.buffering import MAX_CAPACITY as MAX_BUFFERED_CAPACITY
from generator.render import MAX_PCT_DEPTH
from generator.settings import MAX_WEIGHT, PRESETS, RULE_TITLES, RULES, SIZE_LIMITS, settings_for
from runners.campaigns.chunk_sizing import AUTO as AUTO_CHUNK_SIZE
from runners.campaigns.reductions import MAX_CANDIDATES, MAX_JOBS, MAX_SECONDS
from runners.campaigns.services import (
    MAX_CAMPAIGN_REPETITIONS,
    MAX_CHUNK_SIZE,
    MAX_COUNT,
    MAX_RUNS,
    MAX_TIMEOUT_S,
    MAX_TIMES,
    MAX_TRIAGE_RETRIES,
)
from runners.engine.toolchains import Toolchain, installed_toolchains

CUSTOM = "custom"
HEURISTIC_CHOICES = [(k, f"{k}") for k in PRESETS] + [(CUSTOM, "custom weights")]
SEED_LIMIT = 2**62 - 1


def _toolchains_by_id() -> dict[str, Toolchain]:
    return {t.id: t for t in installed_toolchains()}


def _pct_depth_field() -> forms.IntegerField:
    return forms.IntegerField(
        min_value=1,
        max_value=MAX_PCT_DEPTH,
        required=False,
        label="Schedule perturbation (PCT depth)",
        help_text="each program yields to the scheduler before depth - 1 of its channel "
        "operations, drawn from the program (empty: no yields)",
    )


class CampaignForm(forms.Form):
    name = forms.CharField(max_length=200, required=False)
    heuristic = forms.ChoiceField(choices=HEURISTIC_CHOICES, initial="A")
    targets = forms.MultipleChoiceField(
        choices=(), widget=forms.CheckboxSelectMultiple, help_text="one or more toolchains"
    )
    count = forms.IntegerField(min_value=1, max_value=MAX_COUNT, initial=100, label="Programs")
    timeout_s = forms.FloatField(
        min_value=0.1, max_value=MAX_TIMEOUT_S, initial=10.0, label="Timeout (s)"
    )
    repetitions = forms.IntegerField(min_value=1, max_value=MAX_CAMPAIGN_REPETITIONS, initial=10)
    seed = forms.IntegerField(min_value=-SEED_LIMIT, max_value=SEED_LIMIT, initial=0)
    chunk_size = forms.IntegerField(
        min_value=0,
        max_value=MAX_CHUNK_SIZE,
        required=False,
        initial=None,
        help_text="empty or 0: each chunk sized from what the earlier ones cost to compile and run",
    )
    triage_retries = forms.IntegerField(
        min_value=0, max_value=MAX_TRIAGE_RETRIES, initial=2, label="Re-runs of a timeout"
    )
    runs = forms.IntegerField(
        min_value=1,
        max_value=MAX_RUNS,
        required=False,
        initial=1,
        label="Runs of a program",
        help_text="each a process of its own, while it ends clean: for races a cold runtime "
        "meets now and then, where a compile costs more than a run",
    )
    hang_quiet_s = forms.FloatField(
        min_value=0.1,
        max_value=MAX_TIMEOUT_S,
        required=False,
        label="Hung after blocked for (s)",
        help_text="a run whose processes use no CPU and have no thread running this long is "
        "a hang then, not at the timeout (empty: wait out the timeout)",
    )
    value_oracle = forms.BooleanField(
        required=False,
        initial=True,
        label="Check values",
        help_text="every send carries a value of its own, and the program checks that each "
        "arrives once, on its channel (a lost or doubled message is a finding)",
    )
    pct_depth = _pct_depth_field()
    buffered = forms.BooleanField(
        required=False,
        initial=False,
        label="buffered channels, close and range (beyond the paper)",
        help_text=f"channels of capacity 1–{MAX_BUFFERED_CAPACITY}, closes and ranges added to "
        "each program where every target can write them, and selects with a default where "
        "every target can write one (Go, Crystal), each program still proved terminating",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Read per form, not at import: toolchains get installed while the site runs.
        self._toolchains = _toolchains_by_id()
        self.fields["targets"].choices = [
            (t.id, f"{t.language} {t.version} ({t.id})") for t in self._toolchains.values()
        ]
        defaults = PRESETS["A"]
        for rule in RULES:
            self.fields[f"w_{rule}"] = forms.IntegerField(
                min_value=0,
                max_value=MAX_WEIGHT,
                required=False,
                initial=defaults.weight(rule),
                label=RULE_TITLES[rule],
            )
        for size, (low, high) in SIZE_LIMITS.items():
            self.fields[f"s_{size}"] = forms.IntegerField(
                min_value=low,
                max_value=high,
                initial=getattr(defaults, size),
                label=size.replace("_", " ").capitalize(),
            )

    def weight_fields(self) -> list[forms.BoundField]:
        return [self[f"w_{rule}"] for rule in RULES]

    def size_fields(self) -> list[forms.BoundField]:
        return [self[f"s_{size}"] for size in SIZE_LIMITS]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        heuristic = data.get("heuristic")
        if heuristic == CUSTOM:
            missing = [RULE_TITLES[r] for r in RULES if data.get(f"w_{r}") is None]
            if missing:
                raise forms.ValidationError(f"custom weights need a value for {', '.join(missing)}")
        quiet, timeout = data.get("hang_quiet_s"), data.get("timeout_s")
        if quiet is not None and timeout is not None and quiet > timeout:
            # The service refuses it too, in its own words ("hang_quiet_s must be …").
            self.add_error("hang_quiet_s", f"at most the timeout ({timeout:g} s)")
        if heuristic and not self.errors:
            try:
                settings_for(
                    self._base(), **self.weights(), **self.sizes(), buffered=data["buffered"]
                )
            except ValueError as exc:
                raise forms.ValidationError(str(exc)) from None
        return data

    def _base(self) -> str:
        heuristic = self.cleaned_data["heuristic"]
        return "A" if heuristic == CUSTOM else heuristic

    def weights(self) -> dict[str, int]:
        """Rule weights given by the user (only for custom: a preset is taken as it is)."""
        if self.cleaned_data["heuristic"] != CUSTOM:
            return {}
        return {rule: self.cleaned_data[f"w_{rule}"] for rule in RULES}

    def sizes(self) -> dict[str, int]:
        return {size: self.cleaned_data[f"s_{size}"] for size in SIZE_LIMITS}

    def service_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of runners.campaigns.services.create_campaign."""
        d = self.cleaned_data
        return {
            "name": d["name"],
            "heuristic": self._base(),
            "weights": self.weights() or None,
            "sizes": self.sizes(),
            # The toolchain id selects exactly that toolchain (find_toolchain matches ids).
            "targets": [(self._toolchains[tid].language, tid) for tid in d["targets"]],
            "count": d["count"],
            "timeout_s": d["timeout_s"],
            "repetitions": d["repetitions"],
            "seed": d["seed"],
            "chunk_size": d["chunk_size"] or AUTO_CHUNK_SIZE,
            "triage_retries": d["triage_retries"],
            "runs": d["runs"] or 1,  # empty: one run, as before the field
            "hang_quiet_s": d["hang_quiet_s"],
            "value_oracle": d["value_oracle"],
            "pct_depth": d["pct_depth"],
            "buffered": d["buffered"],
        }


def preset_table() -> list[tuple[str, list[int]]]:
    """Each preset's weights in RULES order, for the form's reference table."""
    return [(k, [p.weight(r) for r in RULES]) for k, p in PRESETS.items()]


class ReproduceForm(forms.Form):
    target = forms.ChoiceField(choices=())
    times = forms.IntegerField(min_value=1, max_value=MAX_TIMES, initial=10, label="Times (K)")
    timeout_s = forms.FloatField(
        min_value=0.1, max_value=MAX_TIMEOUT_S, initial=10.0, label="Timeout (s)"
    )
    repetitions = forms.IntegerField(min_value=1, max_value=MAX_CAMPAIGN_REPETITIONS, initial=10)
    pct_depth = _pct_depth_field()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._toolchains = _toolchains_by_id()
        self.fields["target"].choices = [
            (t.id, f"{t.language} {t.version} ({t.id})") for t in self._toolchains.values()
        ]

    def service_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of runners.campaigns.services.reproduce (without the program)."""
        d = self.cleaned_data
        return {
            "language": self._toolchains[d["target"]].language,
            "version": d["target"],
            "times": d["times"],
            "timeout_s": d["timeout_s"],
            "repetitions": d["repetitions"],
            "pct_depth": d["pct_depth"],
        }


class ReduceForm(forms.Form):
    """The budget of a reduction; toolchain, repetitions and timeout are the finding's own.
    `language`: the finding's, when no campaign here ran its program (one loaded with the
    documentation): then the toolchain to run it on is chosen among that language's."""

    max_candidates = forms.IntegerField(
        min_value=1, max_value=MAX_CANDIDATES, initial=200, label="Candidates at most"
    )
    max_minutes = forms.FloatField(min_value=1, max_value=MAX_SECONDS / 60, initial=60,
                                   label="Minutes at most")  # fmt: skip
    jobs = forms.IntegerField(min_value=1, max_value=MAX_JOBS, initial=2, label="Parallel runs")

    def __init__(self, *args: Any, language: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if language is not None:
            choices = [
                (t.id, f"{t.version} ({t.id})")
                for t in installed_toolchains()
                if t.language == language
            ]
            self.fields["toolchain"] = forms.ChoiceField(
                choices=choices,
                label="Toolchain",
                help_text="no campaign here ran this program: the toolchain to reduce it on",
            )

    def service_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of runners.campaigns.reductions.start_reduction (budget, and
        the toolchain where the form asked for one)."""
        d = self.cleaned_data
        chosen = {"version": d["toolchain"]} if "toolchain" in d else {}
        return {
            "max_candidates": d["max_candidates"],
            "max_seconds": d["max_minutes"] * 60,
            "jobs": d["jobs"],
            **chosen,
        }
