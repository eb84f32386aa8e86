"""How chanfuzz logs: one stream, stderr, as JSON objects or as text, for every process.

`logging_config` is the `logging.config.dictConfig` that chanfuzz_site.settings installs
as Django's LOGGING, so the web app under gunicorn, the RQ workers (`manage.py rqworker`,
`worker`) and the management commands log alike; a plain script can install it too.
Events name what happened in an `event` field and carry their figures as fields of their
own (`logger.info("chunk done", extra=fields("chunk_done", campaign=…, chunk=…))`): in
`json` each is a key of the line's object (with `time`, `level`, `logger`, `pid`,
`host` and `message`), so a log collector filters on them without parsing the message; in
`text` they follow the message as key=value. python-json-logger writes the JSON.
"""

from __future__ import annotations

import logging
import socket
from typing import Any

from pythonjsonlogger.core import RESERVED_ATTRS

# Record attributes that are not an event's fields (plus those Django and the formatters add).
_STANDARD = frozenset(RESERVED_ATTRS) | {"taskName", "request", "server_time", "color_message"}


def fields(event: str, **values: Any) -> dict[str, Any]:
    """The `extra=` of a logged event: its name and its fields."""
    return {"event": event, **values}


class KeyValueFormatter(logging.Formatter):
    """`time level logger: message key=value …`, the event's fields after the message."""

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        extra = [
            f"{k}={v!r}" if isinstance(v, str) and (" " in v or not v) else f"{k}={v}"
            for k, v in record.__dict__.items()
            if k not in _STANDARD and not k.startswith("_")
        ]
        if not extra:
            return line
        head, newline, rest = line.partition("\n")  # a traceback stays below its line
        return f"{head} {' '.join(extra)}{newline}{rest}"


def logging_config(fmt: str, level: str) -> dict[str, Any]:
    """The dictConfig: `fmt` "json" or "text", `level` a logging level name."""
    if fmt not in ("json", "text"):
        raise ValueError(f"log format {fmt!r}: expected json or text")
    formatters = {
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(process)d %(message)s",
            "rename_fields": {
                "asctime": "time", "levelname": "level", "name": "logger", "process": "pid"
            },
            "static_fields": {"host": socket.gethostname()},
            "datefmt": "%Y-%m-%dT%H:%M:%S%z",
        },
        "text": {
            "()": "runners.logs.KeyValueFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s[%(process)d]: %(message)s",
        },
    }
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {fmt: formatters[fmt]},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": fmt,
                "stream": "ext://sys.stderr",
            }
        },
        "root": {"handlers": ["stderr"], "level": level},
        "loggers": {
            # Django's own handlers (mail to admins, its console one) give way to ours.
            "django": {"handlers": [], "level": level, "propagate": True},
            # rq adds a coloured handler of its own unless one is found: ours is.
            "rq.worker": {"handlers": [], "level": level, "propagate": True},
        },
    }
