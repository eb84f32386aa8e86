"""A throwaway chanfuzz site for the campaign benchmarks: a fresh var directory (SQLite),
a Redis port of its own, Django set up and migrated. Call `fresh_site()` before importing
anything that reads Django's settings."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chanfuzz_site.settings")


def fresh_site(prefix: str) -> Path:
    """Its var directory; local_workers() starts the Redis and workers."""
    var = Path(tempfile.mkdtemp(prefix=prefix))
    os.environ["CHANFUZZ_VAR_DIR"] = str(var)
    from runners.engine.redis_server import free_port

    os.environ["REDIS_URL"] = f"redis://127.0.0.1:{free_port()}/0"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return var
