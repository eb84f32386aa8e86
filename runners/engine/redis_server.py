"""A private redis-server for the run command and the tests: start it, stop it.

`manage.py worker_services` (scripts/run.sh) starts one on 127.0.0.1 when
REDIS_URL does not answer, with its data under var/redis/; the tests start one
on a free port under their tmp dir. Only what this module started is stopped.
redis-server comes from the distribution (scripts/install_toolchains.sh
installs it); `RedisUnavailable` says so when it is missing.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

START_TIMEOUT_S = 10.0


class RedisUnavailable(RuntimeError):
    """No redis-server binary, or it would not start; the message says which."""


def redis_server_binary() -> str:
    found = shutil.which("redis-server") or (
        "/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else None
    )
    if not found:
        raise RedisUnavailable(
            "redis-server is not installed: run scripts/install_toolchains.sh "
            "(or apt-get install redis-server), or set REDIS_URL to a running Redis"
        )
    return found


def free_port(preferred: int | None = None) -> int:
    """`preferred` if nothing listens on it on 127.0.0.1, else a port the kernel picks."""
    if preferred:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", preferred))
                return preferred
            except OSError:
                pass
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answers(url: str, timeout_s: float = 1.0) -> bool:
    """Whether a Redis at `url` replies to PING."""
    import redis

    try:
        client = redis.Redis.from_url(
            url, socket_connect_timeout=timeout_s, socket_timeout=timeout_s
        )
        try:
            return bool(client.ping())
        finally:
            client.close()
    except (redis.RedisError, OSError, ValueError):
        return False


@dataclass
class RedisServer:
    """A redis-server this process started; `stop()` (or the context manager) ends it."""

    process: subprocess.Popen[bytes]
    port: int
    data_dir: Path

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self, timeout_s: float = 10.0) -> None:
        if self.process.poll() is not None:
            return
        self.process.terminate()  # redis-server shuts down cleanly on SIGTERM
        try:
            self.process.wait(timeout_s)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def __enter__(self) -> RedisServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def start_redis(data_dir: Path, *, port: int | None = None, persist: bool = True) -> RedisServer:
    """Start redis-server on 127.0.0.1:`port` (a free one if None) with its files in `data_dir`.

    `persist` keeps an append-only file there, so queued jobs survive a
    restart of the run command; tests pass False. Waits until it answers.
    """
    binary = redis_server_binary()
    data_dir.mkdir(parents=True, exist_ok=True)
    port = port or free_port()
    argv = [
        binary,
        "--bind", "127.0.0.1",
        "--port", str(port),
        "--dir", str(data_dir.resolve()),
        "--save", "",
        "--appendonly", "yes" if persist else "no",
        "--logfile", str((data_dir / "redis.log").resolve()),
        "--daemonize", "no",
        # Not a cache: jobs must never be evicted.
        "--maxmemory-policy", "noeviction",
    ]  # fmt: skip
    process = subprocess.Popen(
        argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    server = RedisServer(process, port, data_dir)
    url = server.url
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            err = process.stderr.read().decode(errors="replace") if process.stderr else ""
            log = data_dir / "redis.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RedisUnavailable(f"redis-server exited with {process.returncode}: {err}{tail}")
        if answers(url, timeout_s=0.5):
            return server
        time.sleep(0.05)
    server.stop()
    raise RedisUnavailable(f"redis-server on port {port} did not answer in {START_TIMEOUT_S:g} s")
