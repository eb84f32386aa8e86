"""runners/logs.py: what a log line looks like in each format, and the settings that choose
it; the events the site and the jobs log (tests/site/test_request_log.py has requests')."""

from __future__ import annotations

import io
import json
import logging
import logging.config
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from runners import config, logs
from runners.campaigns import jobs, programs, services
from runners.campaigns.models import Campaign, CampaignTarget
from runners.engine.run_records import ProgramRun
from runners.engine.verdicts import Classification, Outcome
from tests.site.site_helpers import REPO, clean_env


@pytest.fixture
def configured() -> Iterator[callable]:
    """Install a format's config with its handler on a buffer; restore logging after."""
    root = logging.getLogger()
    saved = (root.handlers[:], root.level)

    def install(fmt: str) -> io.StringIO:
        logging.config.dictConfig(logs.logging_config(fmt, "INFO"))
        buffer = io.StringIO()
        root.handlers[0].setStream(buffer)
        return buffer

    yield install
    root.handlers[:] = saved[0]
    root.setLevel(saved[1])


def test_json_lines_carry_the_event_and_its_fields(configured) -> None:  # noqa: ANN001
    out = configured("json")
    logging.getLogger("chanfuzz.campaigns").info(
        "chunk %d done", 7, extra=logs.fields("chunk_done", campaign=3, chunk=7, seconds=1.5)
    )
    (line,) = out.getvalue().splitlines()
    record = json.loads(line)
    assert record["message"] == "chunk 7 done"
    assert record["level"] == "INFO" and record["logger"] == "chanfuzz.campaigns"
    assert record["event"] == "chunk_done"
    assert (record["campaign"], record["chunk"], record["seconds"]) == (3, 7, 1.5)
    assert isinstance(record["pid"], int) and record["host"]
    assert record["time"][:2] == "20" and "T" in record["time"]


def test_a_traceback_stays_inside_its_json_line(configured) -> None:  # noqa: ANN001
    out = configured("json")
    try:
        raise ZeroDivisionError("boom")
    except ZeroDivisionError:
        logging.getLogger("chanfuzz.x").exception("failed", extra=logs.fields("oops"))
    (line,) = out.getvalue().splitlines()
    record = json.loads(line)
    assert "ZeroDivisionError: boom" in record["exc_info"] and record["event"] == "oops"


def test_text_lines_put_the_fields_after_the_message(configured) -> None:  # noqa: ANN001
    out = configured("text")
    logging.getLogger("chanfuzz.campaigns").info(
        "done", extra=logs.fields("chunk_done", campaign=3, note="two words", empty="")
    )
    try:
        raise ValueError("bad")
    except ValueError:
        logging.getLogger("chanfuzz.x").exception("failed", extra=logs.fields("oops"))
    lines = out.getvalue().splitlines()
    assert lines[0].endswith(
        f"INFO chanfuzz.campaigns[{os.getpid()}]: "
        "done event=chunk_done campaign=3 note='two words' empty=''"
    )
    assert lines[1].endswith("failed event=oops")
    assert lines[-1] == "ValueError: bad"


def test_an_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="log format 'xml': expected json or text"):
        logs.logging_config("xml", "INFO")


def test_the_format_follows_debug_unless_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CHANFUZZ_LOG_FORMAT", raising=False)
    assert (config.log_format(False), config.log_format(True)) == ("json", "text")
    monkeypatch.setenv("CHANFUZZ_LOG_FORMAT", "TEXT")
    assert config.log_format(False) == "text"
    monkeypatch.setenv("CHANFUZZ_LOG_FORMAT", "yaml")
    with pytest.raises(config.ConfigError, match="CHANFUZZ_LOG_FORMAT='yaml'"):
        config.log_format(False)
    monkeypatch.setenv("CHANFUZZ_LOG_LEVEL", "loud")
    with pytest.raises(config.ConfigError, match="CHANFUZZ_LOG_LEVEL='LOUD': expected one of"):
        config.log_level()
    monkeypatch.setenv("CHANFUZZ_LOG_LEVEL", "warning")
    assert config.log_level() == "WARNING"


def _django_logs(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    code = (
        "import django, logging; django.setup();"
        "from runners.logs import fields;"
        "logging.getLogger('chanfuzz.t').info('hello', extra=fields('greeting', n=1));"
        "logging.getLogger('chanfuzz.t').debug('quiet', extra=fields('detail'))"
    )
    return subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60,
        env=clean_env(DJANGO_SETTINGS_MODULE="chanfuzz_site.settings",
                      CHANFUZZ_VAR_DIR=str(tmp_path), **env),
    )  # fmt: skip


def test_a_process_under_the_settings_logs_json_on_stderr(tmp_path: Path) -> None:
    result = _django_logs(tmp_path)
    assert result.returncode == 0, result.stderr
    (line,) = result.stderr.splitlines()
    assert json.loads(line)["event"] == "greeting" and json.loads(line)["n"] == 1
    debug = _django_logs(tmp_path, CHANFUZZ_LOG_LEVEL="DEBUG", CHANFUZZ_LOG_FORMAT="text")
    assert [line.split(": ", 1)[1] for line in debug.stderr.splitlines()] == [
        "hello event=greeting n=1",
        "quiet event=detail",
    ]
    bad = _django_logs(tmp_path, CHANFUZZ_LOG_FORMAT="yaml")
    assert bad.returncode != 0
    assert "ImproperlyConfigured: CHANFUZZ_LOG_FORMAT='yaml': expected json or text" in bad.stderr


# ---------------------------------------------------------------- events


def _events(caplog: pytest.LogCaptureFixture) -> list[dict[str, object]]:
    return [
        {k: v for k, v in r.__dict__.items() if k not in logs._STANDARD}
        for r in caplog.records
        if hasattr(r, "event")
    ]


@pytest.mark.django_db
def test_campaign_life_and_new_findings_are_logged(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="chanfuzz")
    campaign = Campaign.objects.create(
        name="logs", heuristic="A", settings={}, seed=1, program_count=5, timeout_s=5.0,
        repetitions=1, chunk_size=5, generator_version="test", status=Campaign.Status.RUNNING,
    )  # fmt: skip
    target = CampaignTarget.objects.create(campaign=campaign, language="go", toolchain_id="go-t")
    program = programs.store_program(programs.build_from_effect("Get(c1)"))
    crash = ProgramRun(0, Classification(Outcome.CRASH, "panic: x", "go | crash | x"))
    for index in (0, 1):  # the second execution of the signature is no new finding
        services.record_execution(
            program=program, index=index, result=crash, language="go", target=target
        )
    services.pause_campaign(campaign=campaign)
    services.cancel_campaign(campaign=campaign)
    services.delete_campaign(campaign=campaign)
    events = _events(caplog)
    assert [e["event"] for e in events] == [
        "finding_new", "campaign_paused", "campaign_cancelled", "campaign_deleted",
    ]  # fmt: skip
    assert events[0]["signature"] == "go | crash | x" and events[0]["program"] == program.pk
    assert events[0]["outcome"] == "crash" and events[0]["language"] == "go"
    assert all(e["campaign"] == campaign.pk for e in events[1:])


@pytest.mark.django_db
def test_a_chunk_that_is_not_there_is_logged_as_skipped(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="chanfuzz")
    assert jobs.run_chunk(987654)["skipped"] == "chunk gone: its campaign was deleted"
    reason = "chunk gone: its campaign was deleted"
    assert _events(caplog) == [{"event": "chunk_skipped", "chunk": 987654, "reason": reason}]
