#!/usr/bin/env bash
# Install the headless browser the browser tests drive: Debian's `chromium` and
# `chromium-driver` packages. Does nothing when both are already there.
set -euo pipefail

if [[ -x /usr/bin/chromium && -x /usr/bin/chromedriver ]]; then
    exit 0
fi

if [[ $(id -u) -ne 0 ]]; then
    SUDO=sudo
else
    SUDO=
fi

export DEBIAN_FRONTEND=noninteractive
echo "install-browser: installing chromium and chromium-driver with apt-get" >&2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! { $SUDO apt-get update -qq &&
    $SUDO apt-get install -y -qq --no-install-recommends chromium chromium-driver fonts-dejavu-core; } >"$log" 2>&1; then
    cat "$log" >&2
    echo "install-browser: apt-get failed" >&2
    exit 1
fi

if [[ ! -x /usr/bin/chromium || ! -x /usr/bin/chromedriver ]]; then
    echo "install-browser: /usr/bin/chromium or /usr/bin/chromedriver still missing" >&2
    exit 1
fi
