#!/usr/bin/env bash
# Debian's chromium for the browser tests (Playwright drives it; its own browser
# download cannot reach its host here). Idempotent, non-interactive, as root.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
if ! dpkg-query -W -f='${Status}' chromium 2>/dev/null | grep -q 'install ok installed'; then
    echo "[install_browser] apt-get install chromium" >&2
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi
/usr/bin/chromium --version >&2
