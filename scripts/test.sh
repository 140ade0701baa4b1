#!/usr/bin/env bash
# The test command: every test of the workspace, browser tests included.
# Installs what the tests need on a fresh machine (Chromium and ChromeDriver, PostgreSQL, through
# apt). The tests run with a private PostgreSQL cluster (scripts/pg-test-cluster.sh), so that the
# `_pg` test binaries run the API and store tests on PostgreSQL as well as SQLite.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
if [ -x scripts/install-browser.sh ]; then
  scripts/install-browser.sh
fi
# The page's logic modules, with Node's own test runner (node 18 or later; apt's if missing).
# axe-core (the accessibility check of the browser tests) comes from npm, pinned by package-lock.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
fi
# nginx, for the check of the example proxy configuration (docs/deploy/nginx.conf).
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-core >/dev/null
fi
export EMERGO_REQUIRE_NGINX=1
node --test crates/emergo-server/tests/js/
(cd crates/emergo-server/tests/js && npm ci --no-audit --no-fund --silent)
# Formatting and lints first: a warning fails the run.
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
scripts/pg-test-cluster.sh cargo test --workspace --all-targets
cargo test --workspace --doc
