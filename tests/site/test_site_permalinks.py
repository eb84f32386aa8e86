"""Program permalinks `/p/<id>`: the page, raw sources (the same bytes every time), the
reproducer bundle (zip contents, and its Go run script really compiling and running),
the Reproduce form and the polled reproduction partial; bad input and unknown ids."""

from __future__ import annotations

import io
import os
import re
import stat
import subprocess
import zipfile
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from generator.settings import PRESETS
from runners.campaigns import programs, selectors, services
from runners.campaigns.models import Campaign, Execution, Program, Reproduction
from runners.targets import all_targets, get_target
from tests.runners.conftest import require_toolchain
from tests.site.test_site_campaign_pages import seed_campaign

pytestmark = pytest.mark.django_db

EXTENSIONS = {"go": "go", "kotlin": "kt", "crystal": "cr", "flix": "flix"}
SOURCE_FILE = {"go": "main.go", "kotlin": "Main.kt", "crystal": "main.cr", "flix": "Main.flix"}
LANGUAGES = tuple(t.name for t in all_targets())


@pytest.fixture
def client(user_client: Client) -> Client:
    """This module's pages are used by a signed-in user, as starting work needs an account
    (what anonymous visitors get is tests/site/test_site_accounts.py's)."""
    return user_client



def _program(seed: int = 3) -> Program:
    return programs.store_program(programs.build_generated(seed, PRESETS["A"]))


def _bundle(client: Client, program: Program, **params: str) -> zipfile.ZipFile:
    response = client.get(reverse("program_bundle", args=[program.id]), params)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert f'filename="chanfuzz-{program.id}.zip"' in response["Content-Disposition"]
    return zipfile.ZipFile(io.BytesIO(response.content))


def test_program_page_shows_effect_lambda_and_highlighted_code(client: Client) -> None:
    program = _program()
    response = client.get(f"/p/{program.id}")
    assert response.status_code == 200
    body = response.content.decode()
    assert program.id in body
    assert "http://testserver/p/" + program.id in body  # the permalink, absolute
    from django.utils.html import escape

    assert escape(program.effect_text) in body
    assert escape(program.lambda_text) in body
    # One panel per language, a raw link for each rendered one. The first (Go) comes
    # highlighted with Pygments (server-side); every other fetches its highlighted code
    # when its tab is first shown.
    assert body.count('<div class="highlight">') == 1
    assert '<span class="kn">package</span>' in body  # Go, highlighted
    for language in LANGUAGES:
        assert f'id="source-{language}"' in body
    for language in ("go", "kotlin", "crystal"):
        assert reverse("program_raw", args=[program.id, EXTENSIONS[language]]) in body
    lazy = re.findall(r'id="source-([\w-]+)" hx-get="([^"]+)" hx-trigger="intersect once"', body)
    shown = [language for language, _ in lazy]
    assert shown == [lang for lang in LANGUAGES if lang in shown] and "go" not in shown
    assert {"kotlin", "crystal", "rust-flume"} <= set(shown)
    for language, url in lazy:
        extension = get_target(language).extension
        assert url == reverse("program_code", args=[program.id, extension])
        code = client.get(url)
        assert code.status_code == 200, language
        fragment = code.content.decode()
        assert fragment.count('<div class="highlight">') == 1, language
        assert reverse("program_raw", args=[program.id, extension]) in fragment
    assert "class=\"highlight\"" not in client.get(f"/p/{program.id}/code.nope").content.decode()
    assert reverse("program_bundle", args=[program.id]) in body
    assert "Never executed" in body and "Not reproduced yet" in body


def test_program_page_lists_executions_findings_and_dumps(client: Client) -> None:
    seeded = seed_campaign()
    body = client.get(f"/p/{seeded.programs[1].id}").content.decode()
    assert "STDOUT-MARK" in body
    assert reverse("finding_detail", args=[seeded.crash.pk]) in body
    assert reverse("campaign_detail", args=[seeded.campaign.pk]) in body
    assert "The bundle renders with 3 repetitions" in body
    hang = client.get(f"/p/{seeded.programs[4].id}").content.decode()
    assert "goroutine 1 [chan receive]:" in hang


def test_program_page_and_campaign_page_say_how_many_runs_a_verdict_took(client: Client) -> None:
    seeded = seed_campaign()
    Campaign.objects.filter(pk=seeded.campaign.pk).update(runs=3)
    rows = Execution.objects.filter(campaign=seeded.campaign)
    rows.filter(index__in=(0, 1)).update(runs=3)
    campaign = client.get(reverse("campaign_detail", args=[seeded.campaign.pk])).content.decode()
    assert "up to 3 runs a program while it ends clean ·" in campaign
    assert "3 runs, all clean" in client.get(f"/p/{seeded.programs[0].id}").content.decode()
    crashed = client.get(f"/p/{seeded.programs[1].id}").content.decode()
    assert "at run 3, after 2 clean" in crashed
    hang = client.get(f"/p/{seeded.programs[4].id}").content.decode()  # at its first run
    assert "all clean" not in hang and "at run" not in hang


def test_program_page_queries_stay_few(client: Client, django_assert_max_num_queries) -> None:  # noqa: ANN001
    seeded = seed_campaign()
    # 10; 2 for the signed-in user's session and row, 2 for their quotas' run-seconds.
    with django_assert_max_num_queries(14):
        assert client.get(f"/p/{seeded.programs[1].id}").status_code == 200


def test_unknown_or_malformed_program_ids(client: Client) -> None:
    program = _program()
    assert client.get("/p/aaaaaaaaaaaa").status_code == 404
    assert client.get("/p/aaaaaaaaaaaa.go").status_code == 404
    assert client.get("/p/aaaaaaaaaaaa.zip").status_code == 404
    assert client.post("/p/aaaaaaaaaaaa/reproduce", {"times": 1}).status_code == 404
    assert client.get("/p/short").status_code == 404
    assert client.get(f"/p/{program.id}.rs").status_code == 404
    # An id typed in capitals is the same program: redirected to the canonical permalink.
    upper = client.get(f"/p/{program.id.upper()}")
    assert upper.status_code == 301 and upper["Location"] == f"/p/{program.id}"


@pytest.mark.parametrize("language", ["go", "kotlin", "crystal"])
def test_raw_source_is_plain_text_and_stable(client: Client, language: str) -> None:
    program = _program()
    url = f"/p/{program.id}.{EXTENSIONS[language]}"
    first = client.get(url)
    assert first.status_code == 200
    assert first["Content-Type"] == "text/plain; charset=utf-8"
    assert SOURCE_FILE[language] in first["Content-Disposition"]
    assert first.content == client.get(url).content
    assert first.content.decode() == selectors.program_source(program, language)
    # The same program stored again (same λ_chan text, same id) renders the same bytes.
    again = programs.store_program(programs.build_generated(3, PRESETS["A"]))
    assert again.id == program.id
    assert selectors.program_source(again, language).encode() == first.content
    repeated = client.get(url, {"repetitions": "7"})
    assert repeated.status_code == 200 and repeated.content != first.content
    assert repeated.content.decode() == selectors.program_source(program, language, repetitions=7)


def test_raw_source_bad_repetitions_and_unexpressible_flix(client: Client) -> None:
    program = _program()
    for bad in ("0", "-1", "x", "100001"):
        assert client.get(f"/p/{program.id}.go", {"repetitions": bad}).status_code == 400
    # A put case in a select cannot be written in Flix: 404 saying why, not a 500.
    put_select = programs.store_program(
        programs.build_from_effect("Spawn(Get(c1)) ; SelPut(c1, eps)")
    )
    flix = client.get(f"/p/{put_select.id}.flix")
    assert flix.status_code == 404
    page = client.get(f"/p/{put_select.id}").content.decode()
    assert "Flix cannot express program" in page


def test_bundle_contents(client: Client) -> None:
    seeded = seed_campaign()
    program = seeded.programs[1]
    archive = _bundle(client, program)
    root = f"chanfuzz-{program.id}/"
    names = set(archive.namelist())
    for language in ("go", "kotlin", "crystal"):
        source = archive.read(f"{root}{language}/{SOURCE_FILE[language]}").decode()
        # Rendered with the repetitions the finding was observed with (the campaign's 3),
        # checking its values as campaigns' runs do.
        assert source == selectors.program_source(
            program, language, version=None if language != "go" else seeded.target.toolchain_id,
            repetitions=3, values=True,
        )  # fmt: skip
        if language == "go":
            assert "vals := newValueCheck(&prog0Values)" in source
        script = archive.getinfo(f"{root}run-{language}.sh")
        assert stat.S_IMODE(script.external_attr >> 16) == 0o755
        assert "exit $status" in archive.read(script).decode()
    for dockerfile in ("go", "crystal", "kotlin"):
        assert f"{root}docker/{dockerfile}.Dockerfile" in names
    assert archive.read(f"{root}effect.txt").decode() == program.effect_text + "\n"
    assert archive.read(f"{root}lambda_chan.txt").decode() == program.lambda_text + "\n"
    readme = archive.read(f"{root}README.md").decode()
    assert f"http://testserver/p/{program.id}" in readme
    assert "exit status 0" in readme  # the expected result
    assert "panic: send on closed channel" in readme  # what was observed
    assert seeded.target.toolchain_description in readme
    assert "repeats the program 3 time(s)" in readme
    # The same bytes on every download; ?repetitions= overrides the observed count.
    again = client.get(reverse("program_bundle", args=[program.id]))
    assert again.content == client.get(reverse("program_bundle", args=[program.id])).content
    once = _bundle(client, program, repetitions="1")
    assert once.read(f"{root}go/main.go").decode() == selectors.program_source(
        program, "go", values=True
    )
    bad = client.get(reverse("program_bundle", args=[program.id]), {"repetitions": "0"})
    assert bad.status_code == 400


@pytest.mark.slow
def test_bundle_go_script_compiles_and_runs_to_exit_0(client: Client, tmp_path: Path) -> None:
    go = require_toolchain("go")
    program = _program()
    _bundle(client, program).extractall(tmp_path)
    script = tmp_path / f"chanfuzz-{program.id}" / "run-go.sh"
    env = {
        **os.environ,
        "GO": str(go.executable),
        "GOROOT": str(go.home),
        "GOCACHE": str(tmp_path / "gocache"),
        "GOPATH": str(tmp_path / "gopath"),
        "GOTOOLCHAIN": "local",
        "GOFLAGS": "-buildvcs=false",
        "TIMEOUT": "60",
    }
    done = subprocess.run(["sh", str(script)], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "terminated (exit 0): as expected" in done.stdout


@pytest.mark.slow
def test_bundle_go_script_reports_a_deadlock_as_a_crash(client: Client, tmp_path: Path) -> None:
    go = require_toolchain("go")
    program = programs.store_program(programs.build_from_effect("Spawn(Get(c2)) ; Get(c1)"))
    _bundle(client, program).extractall(tmp_path)
    env = {
        **os.environ, "GO": str(go.executable), "GOROOT": str(go.home), "TIMEOUT": "60",
        "GOCACHE": str(tmp_path / "gocache"), "GOPATH": str(tmp_path / "gopath"),
        "GOTOOLCHAIN": "local", "GOFLAGS": "-buildvcs=false",
    }  # fmt: skip
    done = subprocess.run(
        ["sh", str(tmp_path / f"chanfuzz-{program.id}" / "run-go.sh")],
        env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    # Go's runtime sees every goroutine asleep and exits 2.
    assert done.returncode == 2, done.stdout + done.stderr
    assert "all goroutines are asleep" in done.stderr
    assert "crashed: exit status 2" in done.stdout
    readme = (tmp_path / f"chanfuzz-{program.id}" / "README.md").read_text()
    assert "given as an effect, not generated" in readme


@pytest.mark.slow
def test_bundle_crystal_script_builds_as_chanfuzz_and_runs_under_sched_batch(
    client: Client, tmp_path: Path
) -> None:
    crystal = require_toolchain("crystal")
    program = _program()
    _bundle(client, program).extractall(tmp_path)
    script = tmp_path / f"chanfuzz-{program.id}" / "run-crystal.sh"
    text = script.read_text()
    assert f"build --no-debug {' '.join(get_target('crystal').build_flags)} -o prog" in text
    assert 'timeout -k 5 "$TIMEOUT" $BATCH ./prog' in text
    # The script's own choice of $BATCH, given a command that reports its policy.
    (chooser,) = [line for line in text.splitlines() if line.startswith("BATCH=")]
    policy = subprocess.run(
        ["sh", "-c", f"{chooser}\n$BATCH cut -d' ' -f41 /proc/self/stat"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert int(policy.stdout) == os.SCHED_BATCH
    env = {
        **os.environ,
        "CRYSTAL": str(crystal.executable),
        "CRYSTAL_CACHE_DIR": str(tmp_path / "crystal-cache"),
        "TIMEOUT": "60",
    }
    done = subprocess.run(["sh", str(script)], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "terminated (exit 0): as expected" in done.stdout


def test_reproduce_form_creates_a_reproduction(client: Client) -> None:
    go = require_toolchain("go")
    program = _program()
    url = reverse("program_reproduce", args=[program.id])
    response = client.post(url, {"target": go.id, "times": 5, "timeout_s": 3, "repetitions": 2})
    assert response.status_code == 302
    assert response["Location"] == f"/p/{program.id}#reproductions"
    repro = Reproduction.objects.get()
    assert (repro.program_id, repro.toolchain_id, repro.times) == (program.id, go.id, 5)
    assert (repro.timeout_s, repro.repetitions, repro.status) == (3.0, 2, "queued")
    page = client.get(f"/p/{program.id}").content.decode()
    assert f'id="reproduction-{repro.pk}"' in page
    assert reverse("reproduction_status", args=[repro.pk]) in page  # polling while queued
    assert client.get(url).status_code == 405


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"times": 0}, "greater than or equal to 1"),
        ({"times": 10001}, "less than or equal to 10000"),
        ({"target": "nowhere-1.0"}, "Select a valid choice"),
        ({"timeout_s": "soon"}, "Enter a number"),
    ],
)
def test_reproduce_form_refuses_bad_input(client: Client, data: dict, message: str) -> None:
    go = require_toolchain("go")
    program = _program()
    form = {"target": go.id, "times": 3, "timeout_s": 5, "repetitions": 1, **data}
    response = client.post(reverse("program_reproduce", args=[program.id]), form)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert Reproduction.objects.count() == 0


def test_reproduction_partial_stops_polling_when_done(
    client: Client,
    django_assert_num_queries,  # noqa: ANN001
) -> None:
    go = require_toolchain("go")
    program = _program()
    repro = services.reproduce(program=program, language="go", version=go.id, times=4)
    url = reverse("reproduction_status", args=[repro.pk])
    # Polled every 2 s: one query while it runs (the original's runs wait for the end).
    with django_assert_num_queries(1):
        queued = client.get(url, headers={"HX-Request": "true"})
    assert queued.status_code == 200 and 'hx-trigger="every 2s"' in queued.content.decode()
    Reproduction.objects.filter(pk=repro.pk).update(
        status="done", completed=4, crashed=1, hung=1, finished_at=timezone.now()
    )
    done = client.get(url, headers={"HX-Request": "true"})
    assert done.status_code == 286
    body = done.content.decode()
    assert "hx-trigger" not in body and "rate 50 %" in body
    assert client.get(reverse("reproduction_status", args=[999999])).status_code == 404


def test_each_rust_target_raw_source_uses_its_own_library(client: Client) -> None:
    program = programs.store_program(programs.build_from_effect("Spawn(Put(c1)) ; Get(c1)"))
    flume = client.get(f"/p/{program.id}.flume.rs").content.decode()
    crossbeam = client.get(f"/p/{program.id}.crossbeam.rs").content.decode()
    std = client.get(f"/p/{program.id}.std.rs").content.decode()
    assert "flume::bounded" in flume and "crossbeam" not in flume
    assert "crossbeam_channel::bounded" in crossbeam
    assert "sync_channel" in std


def _hang_with_attempts(outcomes: list[str]):  # noqa: ANN202
    """The seeded campaign's hanging program, its runs there having had `outcomes`."""
    seeded = seed_campaign()
    program = seeded.programs[4]
    execution = program.executions.get()
    execution.attempts = [{"outcome": o, "timeout_s": 10.0} for o in outcomes]
    execution.save(update_fields=["attempts"])
    return seeded, program


def test_reproduce_form_starts_with_the_findings_own_settings(client: Client) -> None:
    seeded, program = _hang_with_attempts(["timeout", "timeout"])
    body = client.get(f"/p/{program.id}").content.decode()
    assert f"Found on <code>{seeded.target.toolchain_id}</code> with 3 repetitions" in body
    assert "2 of 2 runs failed there" in body
    assert 'name="repetitions" value="3"' in body
    assert 'name="timeout_s" value="10.0"' in body
    assert f'<option value="{seeded.target.toolchain_id}" selected>' in body
    assert 'name="pct_depth"' in body and 'name="pct_depth" value=' not in body  # none used


def test_reproduce_form_starts_with_the_findings_schedule_perturbation(client: Client) -> None:
    seeded, program = _hang_with_attempts(["timeout"])
    Campaign.objects.filter(pk=seeded.campaign.pk).update(pct_depth=5)
    body = client.get(f"/p/{program.id}").content.decode()
    assert "with 3 repetitions, schedule perturbation of depth 5 and a 10.0 s timeout" in body
    assert 'name="pct_depth" value="5"' in body


@pytest.mark.parametrize(
    ("completed", "repetitions", "says"),
    [
        (10, 3, "chance 0.1 %: the bug is most likely not present with these settings."),
        (2, 3, "chance 25.0 %: too few runs to tell; run more."),
        (10, 1, "Not the same settings: repetitions 1 (found with 3)."),
    ],
)
def test_a_reproduction_that_never_failed_says_what_that_means(
    client: Client, completed: int, repetitions: int, says: str
) -> None:
    seeded, program = _hang_with_attempts(["timeout", "terminated"])
    repro = Reproduction.objects.create(
        program=program, language="go", toolchain_id=seeded.target.toolchain_id,
        times=completed, timeout_s=10.0, repetitions=repetitions, status="done",
        completed=completed, finished_at=timezone.now(),
    )  # fmt: skip
    body = client.get(reverse("reproduction_status", args=[repro.pk])).content.decode()
    assert "Originally 1 of 2 run(s) failed (50 %)." in body
    assert says in body
    assert says in client.get(f"/p/{program.id}").content.decode()
