"""The test suite's environment, set before Django's settings load (a pytest plugin:
pyproject.toml's addopts has `-p tests.environment`).

Tests run with the production settings (debug off) but for two things a test client
on plain HTTP needs: no HTTPS redirect or secure-only cookies, and rate limits high
enough that hundreds of requests from 127.0.0.1 are not refused. The tests of those
two (tests/security/) set them back for themselves. Settings a test's child process
needs come from its own environment (tests/site/site_helpers.clean_env).
"""

import os
import sys

os.environ.setdefault("DJANGO_HTTPS", "false")
os.environ.setdefault("CHANFUZZ_RATELIMIT_PLAYGROUND", "100000/m")
os.environ.setdefault("CHANFUZZ_RATELIMIT_RUNS", "100000/m")

# Bytecode is cached even where PYTHONDONTWRITEBYTECODE is set (as on our own machines):
# pytest rewrites the asserts of each test module on import and keeps the result only as
# bytecode in __pycache__ (gitignored). Without it every run, and every xdist worker and
# child Python, compiles the suite and its imports again: collection took 10.2 s instead
# of 2.1 s. Children inherit the environment, hence the variable too.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
