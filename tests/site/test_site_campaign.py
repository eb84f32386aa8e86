"""`manage.py campaign …` and `manage.py reproduce …` as a person runs them: exit codes,
messages, and a reproduction that runs without Redis."""

from __future__ import annotations

import re

import pytest

from tests.runners.conftest import require_toolchain
from tests.site.site_helpers import Manage


@pytest.fixture
def migrated(manage_process: Manage) -> Manage:
    """A child process with its own migrated database, for tests that need their
    own environment (no Redis)."""
    result = manage_process("migrate", "--noinput", "-v0")
    assert result.returncode == 0, result.stderr
    return manage_process


@pytest.mark.django_db
def test_campaign_arguments_are_checked(manage: Manage) -> None:
    missing = manage("campaign", "create", "--target", "go:0.0.1", "--count", "5")
    assert missing.returncode == 2 and "go 0.0.1" in missing.stderr
    assert "not installed" in missing.stderr
    unknown = manage("campaign", "show", "99")
    assert unknown.returncode == 2 and "no campaign 99" in unknown.stderr
    no_count = manage("campaign", "create", "--target", "go")
    assert no_count.returncode == 2 and "--count (or --effect) is required" in no_count.stderr
    zero = manage("campaign", "create", "--target", "go", "--count", "0")  # not "required"
    assert zero.returncode == 2 and "--count must be from 1 to 1000000" in zero.stderr
    bogus = manage("campaign", "create", "--target", "go", "--count", "1", "--sandbox", "x")
    assert bogus.returncode == 2 and "invalid choice: 'x'" in bogus.stderr
    assert manage("campaign", "list").stdout == ""


def test_campaign_without_redis_is_kept_for_resume(migrated: Manage) -> None:
    require_toolchain("go")
    result = migrated(
        "campaign", "create", "--target", "go", "--count", "3", "--name", "later",
        REDIS_URL="redis://127.0.0.1:1/0",
    )  # fmt: skip
    assert result.returncode == 1
    assert "campaign 1 was created but not queued" in result.stderr
    assert "campaign resume 1" in result.stderr
    listed = migrated("campaign", "list")
    assert re.search(r"^\s+1\s+queued\s+3\s+A\s+go-\S+\s+later$", listed.stdout, re.M), listed
    down = {"REDIS_URL": "redis://127.0.0.1:1/0"}
    requeued = migrated("campaign", "requeue", **down)  # asks Redis about the chunks' jobs
    assert requeued.returncode == 1
    assert "the queue is unavailable (" in requeued.stderr
    assert migrated("campaign", "pause", "1", **down).stdout.strip() == "campaign 1: paused"
    # Once a traceback, with the campaign marked queued for jobs that did not exist.
    resumed = migrated("campaign", "resume", "1", **down)
    assert resumed.returncode == 1
    assert "campaign 1 was not resumed (" in resumed.stderr
    assert "Traceback" not in resumed.stderr
    listed = migrated("campaign", "list")
    assert re.search(r"^\s+1\s+paused\s", listed.stdout, re.M), listed


@pytest.mark.slow  # five manage.py processes
def test_campaign_delete_refuses_a_queued_one_then_deletes_it_stopped(migrated: Manage) -> None:
    require_toolchain("go")
    created = migrated(
        "campaign", "create", "--target", "go", "--count", "3", "--name", "gone",
        REDIS_URL="redis://127.0.0.1:1/0",
    )  # fmt: skip
    assert created.returncode == 1  # created, not queued: no Redis
    refused = migrated("campaign", "delete", "1")
    assert refused.returncode == 2
    assert "campaign 1 is queued: pause or cancel it, then delete it" in refused.stderr
    cancelled = migrated("campaign", "cancel", "1", REDIS_URL="redis://127.0.0.1:1/0")
    assert cancelled.stdout.strip() == "campaign 1: cancelled", cancelled.stderr
    again = migrated("campaign", "pause", "1", REDIS_URL="redis://127.0.0.1:1/0")
    assert again.stdout.strip() == "campaign 1 is already cancelled: nothing to pause"
    deleted = migrated("campaign", "delete", "1", REDIS_URL="redis://127.0.0.1:1/0")
    assert deleted.returncode == 0, deleted.stderr
    assert deleted.stdout.strip() == "campaign 1: deleted (its programs and findings stay)"
    assert migrated("campaign", "list").stdout == ""
    assert migrated("campaign", "delete", "1").returncode == 2  # no campaign 1 any more


@pytest.mark.django_db
def test_reproduce_unknown_program(manage: Manage) -> None:
    result = manage("reproduce", "nosuchprogrm", "--lang", "go", "--times", "1")
    assert result.returncode == 2 and "no program nosuchprogrm" in result.stderr


@pytest.mark.slow
def test_reproduce_runs_without_redis_and_records_the_rate(migrated: Manage) -> None:
    require_toolchain("go")
    # A deadlocking program: Go reports "all goroutines are asleep" every time.
    stored = migrated(
        "shell", "-c",
        "from runners.campaigns.programs import build_from_effect, store_program; "
        "print(store_program(build_from_effect('Spawn(Get(c2)) ; Get(c1)')).id)",
    )  # fmt: skip
    assert stored.returncode == 0, stored.stderr
    program_id = stored.stdout.split()[-1]
    result = migrated(
        "reproduce", program_id, "--lang", "go", "--times", "3", "--timeout", "20",
        "--repetitions", "1", REDIS_URL="redis://127.0.0.1:1/0",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert f"program {program_id} on go-" in result.stdout
    assert "3 crashed, 0 hung, 0 wrong values of 3 runs (rate 100%)" in result.stdout


# ---- --buffered: beyond the paper (issue #15)


@pytest.mark.django_db
def test_campaign_create_buffered_stores_the_setting_and_says_what_targets_lack(
    manage: Manage,
) -> None:
    from chanfuzz_site.beyond_paper import missing_note
    from generator.settings import settings_for
    from runners.campaigns.models import Campaign
    from runners.campaigns.programs import build_generated, campaign_program

    require_toolchain("go")
    # No Redis needed: the test's transaction never commits, so nothing is enqueued.
    result = manage("campaign", "create", "--target", "go", "--count", "4", "--buffered")
    assert result.returncode == 0, result.stderr
    campaign = Campaign.objects.get()
    assert campaign.settings["buffered"] is True
    capabilities = campaign.generation_capabilities()
    note = missing_note(capabilities, ["go"])
    assert result.stdout == f"campaign {campaign.pk} created: {campaign.name}\n" + (
        note + "\n" if note else ""
    )
    # Each chunk regenerates the program the settings and capabilities make.
    settings = settings_for("A", buffered=True)
    for i in range(4):
        expected = build_generated(campaign.seed + i, settings, capabilities)
        assert campaign_program(campaign, i).id == expected.id


@pytest.mark.django_db
def test_campaign_create_without_buffered_keeps_the_papers_stored_settings(
    manage: Manage,
) -> None:
    from runners.campaigns.models import Campaign

    require_toolchain("go")
    result = manage("campaign", "create", "--target", "go", "--count", "2")
    assert result.returncode == 0, result.stderr
    assert "buffered" not in Campaign.objects.get().settings
    assert "note:" not in result.stdout


@pytest.mark.django_db
def test_campaign_buffered_with_given_effects_is_refused(manage: Manage) -> None:
    result = manage(
        "campaign", "create", "--target", "go", "--effect", "Get(c1)", "--buffered"
    )  # fmt: skip
    assert result.returncode == 2
    assert "--buffered applies to generated programs" in result.stderr


@pytest.mark.django_db
def test_campaign_of_given_effects_says_which_can_deadlock(manage: Manage) -> None:
    # Given effects are run unchecked (a known deadlock on more targets); the user is told
    # which of them may hang on their own.
    require_toolchain("go")
    result = manage(
        "campaign", "create", "--target", "go",
        "--effect", "Spawn(Put(c1)) ; Get(c1)", "--effect", "Spawn(Get(c2)) ; Get(c1)",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "effect 1" not in result.stderr
    assert "note: effect 2 can deadlock (chanfuzz's checker)" in result.stderr
