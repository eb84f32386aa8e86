"""Reproductions on a queue of their own when CHANFUZZ_INTERACTIVE_QUEUE names one
(compose.yaml: `rqworker interactive`), and on "default" otherwise. Against a real Redis."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest
from django.test import override_settings

from runners.campaigns import queueing
from runners.campaigns.models import Reproduction
from tests.runners.redis_helpers import running_redis
from tests.site.site_helpers import REPO, clean_env

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_redis(tmp_path_factory.mktemp("redis")) as server:
        yield server.url


def test_one_queue_unless_an_interactive_one_is_configured(redis_url: str) -> None:
    with override_settings(RQ_QUEUES={"default": {"URL": redis_url}}):
        assert queueing.interactive_queue_name() == "default"
    # Named but not among the queues (a test's override, say): everything on "default".
    with override_settings(INTERACTIVE_QUEUE="interactive"):
        with override_settings(RQ_QUEUES={"default": {"URL": redis_url}}):
            assert queueing.interactive_queue_name() == "default"
        queues = {"default": {"URL": redis_url}, "interactive": {"URL": redis_url}}
        with override_settings(RQ_QUEUES=queues):
            assert queueing.interactive_queue_name() == "interactive"
            queueing.get_queue().connection.flushdb()
            queueing.enqueue_or_fail(
                Reproduction.objects.none(), "builtins.print", "x", queue_name="interactive"
            )
            assert queueing.get_queue("interactive").count == 1
            assert queueing.get_queue().count == 0


def test_the_setting_adds_the_queue() -> None:
    code = (
        "import django; django.setup(); from django.conf import settings;"
        "print(sorted(settings.RQ_QUEUES), settings.INTERACTIVE_QUEUE)"
    )
    for value, expected in (("", "['default'] default"),
                            ("interactive", "['default', 'interactive'] interactive")):  # fmt: skip
        out = subprocess.run(
            [sys.executable, "-c", code],
            cwd=REPO,
            env=clean_env(
                CHANFUZZ_INTERACTIVE_QUEUE=value, DJANGO_SETTINGS_MODULE="chanfuzz_site.settings"
            ),
            capture_output=True,
            text=True,
            check=True,
        )
        assert out.stdout.strip() == expected
