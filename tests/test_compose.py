"""compose.yaml's promises (docs/deploy.md), read as YAML: what runs, on which queues, with
which settings, and that every sandbox image of docker/ is built. No engine runs it here
(images from Docker Hub cannot be pulled on this machine); where a compose implementation is
installed, `config` validates the file as well (docker-compose 1.29 from Debian's
`docker-compose`, which scripts/test.sh installs; `docker compose` v2, or `podman-compose`)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from runners import config
from tests.missing import unavailable

yaml = pytest.importorskip("yaml")

REPO = Path(__file__).resolve().parent.parent
COMPOSE = REPO / "compose.yaml"
APP_SERVICES = ("migrate", "web", "worker", "worker-interactive")
SETTINGS = {"DATABASE_URL", "REDIS_URL", "DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS"}


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text())


def test_the_services_and_their_commands(compose: dict) -> None:
    services = compose["services"]
    assert {"postgres", "redis", *APP_SERVICES} <= set(services)
    assert services["web"]["command"][0] == "gunicorn"
    assert services["web"]["command"][1] == "chanfuzz_site.wsgi:application"
    assert services["worker"]["command"][-2:] == ["rqworker", "default"]
    assert services["worker-interactive"]["command"][-2:] == ["rqworker", "interactive"]
    assert services["migrate"]["command"][-2:] == ["migrate", "--noinput"]
    assert services["migrate"]["restart"] == "no"
    for name in ("web", "worker", "worker-interactive"):
        depends = services[name]["depends_on"]
        assert depends["migrate"]["condition"] == "service_completed_successfully"
        assert depends["postgres"]["condition"] == "service_healthy"
        assert depends["redis"]["condition"] == "service_healthy"


def test_workers_scale(compose: dict) -> None:
    """`--scale worker=N` needs no fixed container name and no host port."""
    for name in ("worker", "worker-interactive"):
        service = compose["services"][name]
        assert "container_name" not in service and "ports" not in service


def test_redis_keeps_an_append_only_file_and_postgres_a_volume(compose: dict) -> None:
    redis = compose["services"]["redis"]
    command = redis["command"]
    assert command[command.index("--appendonly") + 1] == "yes"
    assert any(v.endswith(":/data") for v in redis["volumes"])
    postgres = compose["services"]["postgres"]
    assert postgres["image"].startswith("postgres:")
    assert any(v.endswith(":/var/lib/postgresql/data") for v in postgres["volumes"])
    assert set(compose["volumes"]) >= {"pgdata", "redisdata"}


def test_settings_come_from_the_environment(compose: dict) -> None:
    declared = {v.name for v in config.VARIABLES}
    for name in APP_SERVICES:
        service = compose["services"][name]
        environment = service["environment"]
        assert set(environment) >= SETTINGS, name
        assert environment["CHANFUZZ_INTERACTIVE_QUEUE"] == "interactive"
        assert environment["DATABASE_URL"].startswith("postgres://")
        assert environment["REDIS_URL"] == "redis://redis:6379/0"
        # Secrets have no default: compose refuses to start without them.
        assert ":?" in environment["DJANGO_SECRET_KEY"]
        ours = {k for k in environment if k.startswith(("DJANGO_", "CHANFUZZ_"))}
        assert ours <= declared, ours - declared
        assert service["image"] == "localhost/chanfuzz-app"
        assert (REPO / service["build"]["dockerfile"]).is_file()


def test_every_targets_sandbox_image_is_built(compose: dict) -> None:
    """As scripts/install_sandbox.sh builds them: one image per target that has a
    Dockerfile, named as the docker backend looks it up, from the docker/ folder."""
    from runners.targets import all_targets

    targets = [t for t in all_targets() if t.dockerfile]
    assert targets
    for target in targets:
        service = compose["services"][f"sandbox-{target.name}"]
        assert service["build"]["context"] == "docker"
        assert f"docker/{service['build']['dockerfile']}" == target.dockerfile
        # The docker backend's default image name (CHANFUZZ_DOCKER_IMAGE_PREFIX).
        assert service["image"] == f"localhost/chanfuzz-{target.name}"
        assert service["profiles"] == ["sandbox-images"]
    every = {p.name for p in (REPO / "docker").glob("*.Dockerfile")}
    built = {s["build"]["dockerfile"] for n, s in compose["services"].items()
             if n.startswith("sandbox-")}  # fmt: skip
    assert built == every


def test_gunicorn_and_whitenoise_are_dependencies() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    names = {d.split(">")[0].split("=")[0].split("[")[0].strip() for d in project["dependencies"]}
    assert {"gunicorn", "whitenoise", "psycopg"} <= names


def _compose_command() -> list[str] | None:
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    docker = shutil.which("docker")
    if docker:
        version = subprocess.run([docker, "compose", "version"], capture_output=True)
        if version.returncode == 0:
            return [docker, "compose"]
    if shutil.which("podman-compose"):
        return ["podman-compose"]
    return None


def test_compose_config_accepts_the_file(tmp_path: Path) -> None:
    command = _compose_command()
    if command is None:
        # scripts/test.sh installs Debian's docker-compose: under CI=true this fails.
        unavailable("no docker-compose, `docker compose` or podman-compose here")
    env_file = tmp_path / "env"
    env_file.write_text("DJANGO_SECRET_KEY=test-only\nPOSTGRES_PASSWORD=test-only\n")
    base = [*command, "--env-file", str(env_file), "-f", str(COMPOSE)]
    listed = subprocess.run(
        [*base, "--profile", "sandbox-images", "config", "--services"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert listed.returncode == 0, listed.stderr
    assert {"web", "worker", "worker-interactive", "sandbox-go"} <= set(listed.stdout.split())
    # Without the secrets it refuses, naming what to set.
    (tmp_path / "empty").write_text("")
    refused = subprocess.run(
        [*command, "--env-file", str(tmp_path / "empty"), "-f", str(COMPOSE), "config"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={k: v for k, v in os.environ.items()
             if k not in ("DJANGO_SECRET_KEY", "POSTGRES_PASSWORD")},
    )  # fmt: skip
    assert refused.returncode != 0
    assert "in .env" in refused.stderr + refused.stdout
