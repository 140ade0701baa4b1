#!/usr/bin/env bash
# The test command: every test of the workspace, browser tests included (beside the rest).
# Installs what the tests need on a fresh machine (Chromium and ChromeDriver, PostgreSQL, through
# apt). Every test runs on SQLite; then the server's tests (one binary, `--test server`) and the
# CLI's cluster test run again on PostgreSQL, with a private cluster (scripts/pg-test-cluster.sh)
# and EMERGO_TEST_BACKEND=postgres: the same API and store tests on the second backend, and the
# tests that need PostgreSQL (several instances, the job table, the cluster).
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
# nginx, for the check of the example proxy configuration (docs/deploy/nginx.conf) and as the
# TLS front of the bots' test (tests/cli/bot.rs), whose certificates openssl makes.
if { ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; } || ! command -v openssl >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-core openssl >/dev/null
fi
export EMERGO_REQUIRE_NGINX=1
node --test crates/emergo-server/tests/js/
(cd crates/emergo-server/tests/js && npm ci --no-audit --no-fund --silent)
# Formatting and lints first: a warning fails the run.
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
# The layers below HTTP stay without the web stack (docs/architecture.md).
for crate in emergo-platform emergo-worker; do
  if cargo tree -p "$crate" -e normal --prefix none | grep -E '^(axum|hyper|tower)'; then
    echo "$crate depends on the web stack (above)" >&2
    exit 1
  fi
done
# The tests use the release profile, the build `cargo run --release -- serve` makes: one
# optimised build of the dependencies for both commands (README, "Time and disk"). The crate
# emergo-deps (made by cargo-hakari) keeps their features the same in both builds.
cargo test --release --workspace --all-targets --no-run
# The browser tests (one at a time; mostly waiting on Chromium) run beside all the others: their
# executable itself, in the crate's folder as cargo runs it (a second cargo would wait for the
# first's lock on target/). Their output is kept in a file and shown when they end, and either
# failing fails the run.
browser_bin=$(cargo test --release -p emergo-server --test browser --no-run --message-format=json |
  sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1)
if [ ! -x "$browser_bin" ]; then
  echo "test.sh: cargo named no browser test executable" >&2
  exit 1
fi
browser_log=$(mktemp)
trap 'rm -f "$browser_log"' EXIT
(cd crates/emergo-server && exec "$browser_bin") >"$browser_log" 2>&1 &
browser=$!
status=0
{
  cargo test --release --workspace --all-targets &&
  scripts/pg-test-cluster.sh env EMERGO_TEST_BACKEND=postgres sh -c \
    'cargo test --release --workspace --test server && cargo test --release --workspace --test cli cluster::' &&
  cargo test --release --workspace --doc
} || status=$?
browser_status=0
wait "$browser" || browser_status=$?
echo "--- the browser tests ($browser_bin; cargo test --release -p emergo-server --test browser) ---"
cat "$browser_log"
if [ "$status" != 0 ] || [ "$browser_status" != 0 ]; then
  echo "test.sh: failed (the other tests: exit $status; the browser tests: exit $browser_status)" >&2
  exit 1
fi
