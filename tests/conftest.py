"""Test-suite wide configuration: hypothesis profiles.

The quick developer loop runs a few hundred examples per property; CI (CI=true)
and `CHANFUZZ_THOROUGH=1` run thousands, as the generator's promises require.
"""

import os

from hypothesis import HealthCheck, settings

from runners import config

# The test database on PostgreSQL as on SQLite (DATABASE_URL; scripts/test.sh runs both).
pytest_plugins = ["tests.database"]

settings.register_profile(
    "quick", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
THOROUGH = os.environ.get("CI") == "true" or config.thorough()
# Test databases start empty: tests count rows. The one test of the documented
# programs migrates a database of its own, in a process without this variable.
os.environ["CHANFUZZ_LOAD_DOCUMENTED"] = "0"
settings.load_profile("thorough" if THOROUGH else "quick")


def pytest_configure(config) -> None:  # noqa: ANN001 - pytest's hook
    # Users made by tests hash their passwords with a fast hasher: the site's (PBKDF2, a
    # million rounds) costs a third of a second a user, and the site's page tests make
    # one each (34 campaign-page tests: 14.0 s, 4.1 s with this). Hashing a real password
    # is Django's to test, not ours.
    from django.conf import settings as django_settings

    django_settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
