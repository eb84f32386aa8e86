"""The environment readers behind settings.py."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from chanfuzz_site.env import envbool, envlist, envstr


@pytest.mark.parametrize("raw", ["1", "true", "True", "YES", "on", " true "])
def test_envbool_true(monkeypatch: pytest.MonkeyPatch, raw: str) -> None:
    monkeypatch.setenv("X_FLAG", raw)
    assert envbool("X_FLAG", False) is True


@pytest.mark.parametrize("raw", ["0", "false", "False", "no", "OFF"])
def test_envbool_false(monkeypatch: pytest.MonkeyPatch, raw: str) -> None:
    monkeypatch.setenv("X_FLAG", raw)
    assert envbool("X_FLAG", True) is False


def test_envbool_unset_or_empty_gives_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("X_FLAG", raising=False)
    assert envbool("X_FLAG", True) is True
    monkeypatch.setenv("X_FLAG", "")
    assert envbool("X_FLAG", False) is False


def test_envbool_rejects_other_words(monkeypatch: pytest.MonkeyPatch) -> None:
    # A typo must not silently flip debug on or off.
    monkeypatch.setenv("X_FLAG", "ture")
    with pytest.raises(ImproperlyConfigured, match="X_FLAG='ture'"):
        envbool("X_FLAG", False)


def test_envlist(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("X_LIST", raising=False)
    assert envlist("X_LIST", ["a"]) == ["a"]
    monkeypatch.setenv("X_LIST", " example.org, ,localhost ")
    assert envlist("X_LIST", ["a"]) == ["example.org", "localhost"]


def test_envstr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("X_STR", "")
    assert envstr("X_STR", "d") == "d"
    monkeypatch.setenv("X_STR", "v")
    assert envstr("X_STR", "d") == "v"
