#!/usr/bin/env bash
# The test command: every test of the workspace, browser tests included.
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
# Formatting and lints first: a warning fails the run. Clippy in the release profile: it then
# takes the build scripts and proc-macros the release build has compiled (about 40% less CPU
# than in the dev profile on a fresh clone, and 0.2 GB of disk instead of 0.9 GB). No code of
# the workspace depends on `debug_assertions`, so the lints are the same.
cargo fmt --all --check
cargo clippy --release --workspace --all-targets -- -D warnings
cargo clippy --release -p emergo-server-tests --test browser -- -D warnings
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
# Eight tests at a time: the server's tests mostly wait (sockets, timers, a flag falling, a
# pairing delay), so on two cores eight at once take well under half the time two do (README,
# "Time and disk"); the CPU-bound tests of the other crates take as long either way.
RUST_TEST_THREADS=8 cargo test --release --workspace --all-targets
# The browser tests (Chromium and ChromeDriver; their own target, left out of `--all-targets`),
# after the others rather than beside them: on two cores the two together starved each other's
# timing-sensitive tests.
cargo test --release -p emergo-server-tests --test browser
scripts/pg-test-cluster.sh env EMERGO_TEST_BACKEND=postgres RUST_TEST_THREADS=8 sh -c \
  'cargo test --release --workspace --test server && cargo test --release --workspace --test cli cluster::'
cargo test --release --workspace --doc
