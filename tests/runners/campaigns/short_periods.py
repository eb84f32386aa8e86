"""Heartbeat and sweep periods for the tests that kill a worker or restart a service.

A deployment's (a beat every 10 s, a sweep every 30 s) would make each such test wait
about a minute and a half for the recovery it checks; these bring it to seconds, while a
beat missed for a service's few seconds of restart is still not stale.
"""

from __future__ import annotations

from runners.campaigns.chunks import STALE_AFTER_BEATS

HEARTBEAT_S = 2
SWEEP_EVERY_S = 5
STALE_AFTER_S = STALE_AFTER_BEATS * HEARTBEAT_S
# For the environment of the workers a test starts.
ENV = {"CHANFUZZ_HEARTBEAT_S": str(HEARTBEAT_S), "CHANFUZZ_SWEEP_EVERY_S": str(SWEEP_EVERY_S)}
