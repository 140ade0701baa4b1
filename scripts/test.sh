#!/usr/bin/env bash
# The test command: every test of the workspace, browser tests included.
# Installs what the tests need on a fresh machine (Chromium and ChromeDriver, Node, nginx,
# PostgreSQL, through apt). Every test runs on SQLite; the server's tests (one binary, `--test
# server`) and the CLI's cluster test run again on PostgreSQL, with a private cluster
# (scripts/pg-test-cluster.sh) and EMERGO_TEST_BACKEND=postgres: the same API and store tests on
# the second backend, and the tests that need PostgreSQL (several instances, the job table, the
# cluster).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
# Chromium and ChromeDriver, Node and npm, nginx and openssl, PostgreSQL's server: installed
# when missing (apt), in the background while the code is linted and built (they wait on the
# network, the build on the processors); their output is shown if they fail.
installs_log=$(mktemp)
pg_log=$(mktemp)
trap 'rm -f "$installs_log" "$pg_log"' EXIT
scripts/install-test-tools.sh >"$installs_log" 2>&1 &
installs=$!
export EMERGO_REQUIRE_NGINX=1
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
cargo test --release --workspace --all-targets --no-run
cargo test --release -p emergo-server-tests --test browser --no-run
if ! wait "$installs"; then
  cat "$installs_log" >&2
  exit 1
fi
cat "$installs_log"
# The page's logic modules, with Node's own test runner; axe-core (the accessibility check of
# the browser tests) comes from npm, pinned by package-lock.
node --test crates/emergo-server/tests/js/
(cd crates/emergo-server/tests/js && npm ci --no-audit --no-fund --silent)
# Every test on SQLite, and at the same time the server's tests (one binary, `--test server`)
# on PostgreSQL with a private cluster (scripts/pg-test-cluster.sh): both wait much of the time
# (side by side they took 84 and 105 s, one after the other 115 and 105 s, on two cores). The
# second pass's output comes after the first's; a failure of either fails the run once both
# ended.
# Eight tests at a time: the server's tests mostly wait (sockets, timers, a flag falling, a
# pairing delay), so on two cores eight at once take well under half the time two do; the
# CPU-bound tests of the other crates take as long either way.
scripts/pg-test-cluster.sh env EMERGO_TEST_BACKEND=postgres RUST_TEST_THREADS=8 sh -c \
  'cargo test --release --workspace --test server && cargo test --release --workspace --test cli cluster::' \
  >"$pg_log" 2>&1 &
pg_pass=$!
sqlite_status=0
RUST_TEST_THREADS=8 cargo test --release --workspace --all-targets || sqlite_status=$?
pg_status=0
wait "$pg_pass" || pg_status=$?
echo "---- the PostgreSQL pass (run beside the tests above)"
cat "$pg_log"
if [ "$sqlite_status" != 0 ] || [ "$pg_status" != 0 ]; then
  echo "failed: the SQLite pass with status $sqlite_status, the PostgreSQL pass with $pg_status" >&2
  exit 1
fi
# The browser tests (Chromium and ChromeDriver; their own target, left out of `--all-targets`),
# after the others rather than beside them: on two cores the two together starved each other's
# timing-sensitive tests.
cargo test --release -p emergo-server-tests --test browser
cargo test --release --workspace --doc
