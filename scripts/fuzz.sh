#!/usr/bin/env bash
# Runs every fuzz target for a while: scripts/fuzz.sh [seconds per target, default 60].
# Needs cargo-fuzz (`cargo install cargo-fuzz`); RUSTC_BOOTSTRAP lets the stable toolchain build
# with the sanitizer flags cargo-fuzz passes.
set -euo pipefail
seconds=${1:-60}
cd "$(dirname "$0")/../fuzz"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz
for target in position_text move_text game_record legality import variants; do
  echo "== $target ($seconds s)"
  RUSTC_BOOTSTRAP=1 cargo fuzz run -O "$target" -- -max_total_time="$seconds" -max_len=4096 -timeout=2 2>&1 \
    | grep -E "^(#[0-9]+ *DONE|Done|==[0-9]+== ERROR|SUMMARY|stat::number_of_executed_units)" || true
done
