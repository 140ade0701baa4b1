#!/usr/bin/env bash
# Installs what the tests need beside Rust, with one apt-get update and one apt-get install of
# whatever is missing (nothing is done when all is there):
#   - Debian's Chromium and ChromeDriver, for the browser tests (fonts-dejavu-core: their text);
#   - Node.js and npm, for the page's modules (`node --test`) and axe-core;
#   - nginx and openssl, for the check of docs/deploy/nginx.conf and the bots' TLS test;
#   - PostgreSQL's server, for the second backend's pass (scripts/pg-test-cluster.sh).
# Needs root, or sudo. scripts/test.sh runs it in the background while it lints and builds.
set -euo pipefail

missing=()
if [[ ! -x /usr/bin/chromium || ! -x /usr/bin/chromedriver ]]; then
    missing+=(chromium chromium-driver fonts-dejavu-core)
fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    missing+=(nodejs npm)
fi
if { ! command -v nginx >/dev/null 2>&1 && [[ ! -x /usr/sbin/nginx ]]; } ||
    ! command -v openssl >/dev/null 2>&1; then
    missing+=(nginx-core openssl)
fi
has_initdb() {
    if command -v pg_config >/dev/null 2>&1 && [[ -x "$(pg_config --bindir)/initdb" ]]; then
        return 0
    fi
    compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null
}
if ! has_initdb; then
    missing+=(postgresql)
fi
if [[ ${#missing[@]} -eq 0 ]]; then
    exit 0
fi

if [[ $(id -u) -ne 0 ]]; then
    SUDO=sudo
else
    SUDO=
fi
echo "install-test-tools: installing ${missing[*]} with apt-get" >&2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! { $SUDO apt-get update -qq &&
    $SUDO env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
    cat "$log" >&2
    echo "install-test-tools: apt-get failed" >&2
    exit 1
fi
if [[ ! -x /usr/bin/chromium || ! -x /usr/bin/chromedriver ]]; then
    echo "install-test-tools: /usr/bin/chromium or /usr/bin/chromedriver still missing" >&2
    exit 1
fi
