"""The playground's one form: request parameters → a validated `playground.State`.

All rules (limits, presets, targets, effect syntax) live in
`chanfuzz_site.playground.parse_state` (and `build`, which refuses a program too slow
to generate); this form is the Django face of them so
views read like every other view: bind, `is_valid()`, use `form.state` or show
`form.error` (with `form.pointer` under a bad effect).
"""

from __future__ import annotations

from collections.abc import Mapping

from django import forms

from chanfuzz_site.playground import build
from chanfuzz_site.playground_state import PlaygroundError, State, parse_state


class PlaygroundForm(forms.Form):
    """Binds GET or POST parameters; every field is checked by `parse_state`."""

    def __init__(self, data: Mapping[str, str] | None = None, *, reset_weights: bool = False):
        super().__init__(data)
        self.reset_weights = reset_weights
        self.state: State | None = None
        self.problem: PlaygroundError | None = None

    def clean(self) -> dict:
        try:
            self.state = parse_state(self.data, reset_weights=self.reset_weights)
            # Within the time limit or refused here, once: the view's build finds it cached.
            build(self.state)
        except PlaygroundError as err:
            self.problem = err
            raise forms.ValidationError(err.message, code=err.field or "invalid") from None
        return {}

    @property
    def error(self) -> str:
        return self.problem.message if self.problem else ""

    @property
    def pointer(self) -> str:
        return self.problem.pointer if self.problem else ""

    @property
    def field(self) -> str:
        return self.problem.field if self.problem else ""
