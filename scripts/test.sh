#!/usr/bin/env bash
# The test command: every test of the workspace, browser tests included.
# Installs what the tests need on a fresh machine (Chromium and ChromeDriver, through apt).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
if [ -x scripts/install-browser.sh ]; then
  scripts/install-browser.sh
fi
# Formatting and lints first: a warning fails the run.
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace --all-targets
cargo test --workspace --doc
