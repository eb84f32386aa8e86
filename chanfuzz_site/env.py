"""Reading settings from the environment, in the manner of healthchecks' `envbool`.

Bad values fail loudly at start-up with the variable's name rather than being
silently taken as the default: a typo in `DJANGO_DEBUG` must not turn debug on
(or off) unnoticed.
"""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


def envstr(name: str, default: str) -> str:
    """The variable's value; unset or empty gives `default`."""
    return os.environ.get(name) or default


def envbool(name: str, default: bool) -> bool:
    """1/true/yes/on or 0/false/no/off (any case); unset or empty gives `default`."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if raw.lower() in _TRUE:
        return True
    if raw.lower() in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r}: expected one of true/false, yes/no, on/off, 1/0")


def envlist(name: str, default: list[str]) -> list[str]:
    """A comma-separated list, items stripped and empty ones dropped; unset gives `default`."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]
